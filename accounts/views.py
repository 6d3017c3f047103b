"""Account pages: sign up, email confirmation, profile, and a rate-limited password reset."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from push.profile import profile_context as push_context

from . import emails
from . import unsubscribe as unsubscribe_links
from .blocks import blocked_by
from .forms import (
    USERNAME_TAKEN,
    AwayForm,
    EmailPreferencesForm,
    LimitedPasswordChangeForm,
    ProfileForm,
    SignUpForm,
)
from .language import supported
from .models import User, set_away
from .moderation import LoginForm
from .next_page import next_path
from .ratelimits import limited, normalised_email, window_in_words
from .signals import email_confirmed, email_preferences_changed

BACKEND = "accounts.backends.PlayerBackend"


def _account_emails_used_up(request: HttpRequest, address: str) -> bool:
    """Count one more email about an account (a confirmation link, an "already in use" notice) to
    `address`; True once CONFIRMATION_EMAIL_RATE is spent, whoever asks, so that sign-ups and
    resends from many places cannot flood one mailbox. Counted for any address, registered or
    not, so that a refusal tells nothing about accounts."""
    key = normalised_email(address)
    rate = settings.CONFIRMATION_EMAIL_RATE
    return limited(request, "account_email_to", lambda group, request: key, rate)


def _account_emails_used_up_message() -> str:
    return _(
        "Several emails were already sent to this address recently. Please check your inbox "
        "(including spam), or try again in %(wait)s."
    ) % {"wait": window_in_words(settings.CONFIRMATION_EMAIL_RATE)}


def _sign_up_refused(request: HttpRequest, form: SignUpForm) -> bool:
    """Whether a sign-up that would otherwise go through is over a limit (the form then says
    which). Only such sign-ups are counted: a mistyped password uses nothing up."""
    if limited(request, "signup", "ip", settings.SIGNUP_RATE):
        form.add_error(
            None,
            _(
                "Several accounts were created from your network recently. Please try again in "
                "%(wait)s."
            )
            % {"wait": window_in_words(settings.SIGNUP_RATE)},
        )
        return True
    if _account_emails_used_up(request, form.cleaned_data["email"]):
        form.add_error("email", _account_emails_used_up_message())
        return True
    return False


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new account, logged in; the answer is the same whether the email is in use or not.
    `next` (an invitation link, carried from log-in) is where it lands."""
    next_url = next_path(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    # An invitation's "Create an account to join" fills in the address it was sent to.
    form = SignUpForm(request.POST or None, initial={"email": request.GET.get("email", "")[:254]})
    if request.method == "POST" and form.is_valid():
        if _sign_up_refused(request, form):  # no account, and nothing sent
            context = {"form": form, "next": next_url}
            return render(request, "accounts/signup.html", context, status=429)
        # The language the page was read in: emails to the new account are written in it.
        form.instance.language = supported(translation.get_language())
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:  # the same name signed up a moment ago, past the form's check
            form.add_error("username", USERNAME_TAKEN)
        else:
            if form.email_in_use:
                emails.email_in_use(user, user.email)
            else:
                emails.confirm_email(user)
            login(request, user, backend=BACKEND)
            messages.success(
                request,
                _(
                    "Welcome, %(name)s! Your account is ready. We sent you a link to confirm "
                    "your email address: until then your games are not rated."
                )
                % {"name": user.public_name},
            )
            return redirect(next_url or "home")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


class LoginView(auth_views.LoginView):
    """Django's log-in, following only a path on this site (`next_path`) and never the log-in
    page itself: Django's own refuses to redirect there (a 500 for a logged-in visitor), and
    would follow a bare word ("-1") as a relative address. A suspended account is refused in
    words (accounts.moderation)."""

    authentication_form = LoginForm

    def get_redirect_url(self) -> str:
        target = next_path(self.request)
        return "" if target.split("?", 1)[0] == reverse("login") else target


@require_http_methods(["GET", "HEAD", "POST"])
def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a "Confirm my address" button; only its POST confirms, since mail scanners and
    link previews open links on their own. A forged, expired or outdated link is refused in words
    either way, as is an address another account confirmed first."""
    user = emails.user_for_confirmation(token)
    if user is None:
        return render(request, "accounts/confirm_email.html", {"invalid": True}, status=400)
    if user.email_confirmed_at:
        return render(request, "accounts/confirm_email.html", {"account": user, "done": True})
    if _confirmed_elsewhere(user):
        return render(request, "accounts/confirm_email.html", {"in_use": True}, status=409)
    if request.method != "POST":
        return render(request, "accounts/confirm_email.html", {"account": user})
    user.email_confirmed_at = timezone.now()
    try:
        with transaction.atomic():
            # Only if the row still holds the address and version the link was checked for: an
            # address changed a moment ago must not be confirmed by a link sent before.
            confirmed = User.objects.filter(
                pk=user.pk,
                email=user.email,
                email_version=user.email_version,
                email_confirmed_at__isnull=True,
            ).update(email_confirmed_at=user.email_confirmed_at)
            # What waited for this address is theirs now (games: the invitations sent to it).
            replies = email_confirmed.send(sender=User, user=user) if confirmed else []
    except IntegrityError:  # another account confirmed this address a moment ago
        return render(request, "accounts/confirm_email.html", {"in_use": True}, status=409)
    if not confirmed:  # since the check: confirmed by a double click, or the address changed
        now = emails.user_for_confirmation(token)
        if now is not None and now.email_confirmed_at:
            return render(request, "accounts/confirm_email.html", {"account": now, "done": True})
        return render(request, "accounts/confirm_email.html", {"invalid": True}, status=400)
    waiting = [link for _receiver, links in replies for link in (links or [])]
    context = {"account": user, "done": True, "waiting": waiting}
    return render(request, "accounts/confirm_email.html", context)


def _confirmed_elsewhere(user: User) -> bool:
    """Whether another account has confirmed this address (only one account may)."""
    others = User.objects.exclude(pk=user.pk).filter(email_confirmed_at__isnull=False)
    return others.filter(email__iexact=user.email).exists()


@require_POST
@login_required
def resend_confirmation(request: HttpRequest) -> HttpResponse:
    """Send the confirmation link again, a few times an hour at most."""
    user = request.user
    if user.email_confirmed_at:
        messages.info(request, _("Your email address is already confirmed."))
    elif limited(request, "resend_confirmation", "user", settings.EMAIL_CONFIRMATION_RESEND_RATE):
        messages.error(
            request, _("A link was sent several times already. Please try again in an hour.")
        )
    elif _account_emails_used_up(request, user.email):
        messages.error(request, _account_emails_used_up_message())
    else:
        emails.confirm_email(user)
        messages.success(request, _("We sent a new link to %(email)s.") % {"email": user.email})
    return redirect("profile")


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user, request=request)
    if request.method == "POST" and form.is_valid():
        email_changed, old_email = form.email_changed, form.old_email
        if email_changed and _account_emails_used_up(request, form.cleaned_data["email"]):
            form.add_error("email", _account_emails_used_up_message())
            return _profile_page(request, status=429, form=form)
        language_changed = "language" in form.changed_data
        with transaction.atomic():
            user = form.save()
            if email_changed:
                emails.email_changed(user, old_email)
                emails.confirm_email(user)
        if language_changed:
            _speak(request, user.language)  # this answer, and the page after it, in the new one
        if email_changed:
            messages.success(
                request,
                _(
                    "Your profile is saved. We sent a link to %(email)s to confirm it, and told "
                    "your old address."
                )
                % {"email": user.email},
            )
        else:
            messages.success(request, _("Your profile is saved."))
        response = redirect("profile")
        if language_changed:
            _remember_language(response, user.language)
        return response
    return _profile_page(request, form=form)


def _speak(request: HttpRequest, language: str) -> None:
    """Answer from now on in `language`, or with none chosen in the one the browser asks for."""
    if not language:
        request.COOKIES.pop(settings.LANGUAGE_COOKIE_NAME, None)  # the old choice no longer holds
        language = translation.get_language_from_request(request)
    language = supported(language)
    translation.activate(language)
    request.LANGUAGE_CODE = language


def _remember_language(response: HttpResponse, language: str) -> None:
    """The language cookie for the choice just saved (none: the browser's, so no cookie)."""
    if not language:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME, samesite=settings.LANGUAGE_COOKIE_SAMESITE
        )
        return
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
    )


def _profile_page(request: HttpRequest, status: int = 200, **forms) -> HttpResponse:
    """The profile page with its three forms; those given carry what was posted and its errors."""
    user = request.user
    context = {
        "form": forms.get("form") or ProfileForm(instance=user),
        "email_form": forms.get("email_form") or EmailPreferencesForm(instance=user),
        "away_form": forms.get("away_form") or AwayForm(initial={"away_until": user.away_until}),
        **push_context(request),  # "Notifications on this device", when offered
        "blocked_players": blocked_by(user),  # each with Unblock (games.views.blocks)
    }
    if user.calendar_token:
        url = settings.SITE_URL + reverse("calendar_feed", args=[user.calendar_token])
        # webcal:// asks the system's calendar app to subscribe rather than the browser to save.
        context.update(calendar_url=url, calendar_webcal="webcal://" + url.split("://", 1)[1])
    return render(request, "accounts/profile.html", context, status=status)


@require_POST
@login_required
def email_preferences(request: HttpRequest) -> HttpResponse:
    email_form = EmailPreferencesForm(request.POST, instance=request.user)
    if email_form.is_valid():
        email_form.save()
        unsubscribe_links.retire_links(request.user)  # older links must not undo this choice
        email_preferences_changed.send(sender=User, user=request.user)
        messages.success(request, _("Your email preferences are saved."))
        return redirect(reverse("profile") + "#emails")
    return _profile_page(request, email_form=email_form)


@require_POST
@login_required
def away(request: HttpRequest) -> HttpResponse:
    """Set or clear the return date; a date in the past or beyond the limits changes nothing."""
    away_form = AwayForm(request.POST)
    if away_form.is_valid():
        until = away_form.cleaned_data["away_until"]
        try:
            user = set_away(request.user, until)
        except ValueError as exc:
            away_form.add_error("away_until", str(exc))
        else:
            if user.away_until:
                day = date_format(
                    user.away_until, pgettext("date format: weekday day month", "l j F")
                )
                messages.success(request, _("You are away until %(day)s.") % {"day": day})
            else:
                messages.success(request, _("Welcome back: your turn clocks run again."))
            return redirect(reverse("profile") + "#away")
    return _profile_page(request, status=400, away_form=away_form)


@require_POST
@login_required
def calendar_address(request: HttpRequest) -> HttpResponse:
    """A new address for the calendar feed of turn deadlines (the old one then finds nothing),
    or none at all ("stop")."""
    user = request.user
    if request.POST.get("action") == "stop":
        User.objects.filter(pk=user.pk).update(calendar_token=None)
        messages.success(request, _("Your calendar address is turned off."))
    else:
        had_one = bool(user.calendar_token)
        user.renew_calendar_token()
        messages.success(
            request,
            _("Your calendar has a new address: the old one no longer works.")
            if had_one
            else _("Your calendar address is ready."),
        )
    return redirect(reverse("profile") + "#calendar")


@csrf_exempt  # mail clients POST here without a session (RFC 8058); the signature is the check
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, kind: str, token: str) -> HttpResponse:
    """GET asks for confirmation (link scanners must not unsubscribe anyone); POST switches off
    and uses the link up (accounts.unsubscribe says why that is safe for one-click)."""
    user = unsubscribe_links.user_for(kind, token)
    if user is None or (request.method == "POST" and not unsubscribe_links.switch_off(user, kind)):
        invalid = {"invalid": True, "max_age_days": unsubscribe_links.max_age_days()}
        return render(request, "accounts/unsubscribe.html", invalid, status=400)
    context = {"name": unsubscribe_links.NAMES[kind], "account": user}
    context["done"] = request.method == "POST"
    return render(request, "accounts/unsubscribe.html", context)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change, its old password under the shared limit on wrong ones."""

    form_class = LimitedPasswordChangeForm

    def get_form_kwargs(self) -> dict:
        return {**super().get_form_kwargs(), "request": self.request}


RESET_EMAILS_USED_UP = gettext_lazy(
    "Several reset emails were already sent to this address in the last hour; check your inbox, "
    "including spam, or try again in an hour."
)


class CappedPasswordResetView(auth_views.PasswordResetView):
    """Django's reset view, sending at most PASSWORD_RESET_EMAILS_PER_HOUR emails an hour to one
    address, whoever asks. Past that it says so and sends nothing, for any address alike, with an
    account or without: the answer tells nothing about accounts, and the owner who asks after a
    stranger learns that links are waiting in the inbox (they still work) instead of being told
    "sent" when nothing was."""

    def form_valid(self, form) -> HttpResponse:
        address = normalised_email(form.cleaned_data["email"])
        rate = f"{settings.PASSWORD_RESET_EMAILS_PER_HOUR}/h"
        if limited(self.request, "password_reset_to", lambda group, request: address, rate):
            form.add_error("email", RESET_EMAILS_USED_UP)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


@require_http_methods(["GET", "POST"])
def password_reset(request: HttpRequest) -> HttpResponse:
    """Django's reset view, refused politely when one client address asks too often.

    That refusal counts per requesting address only, and comes first, so a refused request does
    not use up the target's emails; the cap per target address is CappedPasswordResetView's.
    """
    if request.method == "POST" and limited(
        request, "password_reset", "ip", settings.PASSWORD_RESET_RATE
    ):
        return render(request, "registration/password_reset_limited.html", status=429)
    return CappedPasswordResetView.as_view(
        email_template_name="registration/password_reset_email.txt",
        html_email_template_name="registration/password_reset_email.html",
        subject_template_name="registration/password_reset_subject.txt",
        extra_email_context={"site_url": settings.SITE_URL},
    )(request)
