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
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from push.profile import profile_context as push_context

from . import emails
from . import unsubscribe as unsubscribe_links
from .forms import (
    USERNAME_TAKEN,
    AwayForm,
    CappedPasswordResetForm,
    EmailPreferencesForm,
    ProfileForm,
    SignUpForm,
)
from .models import User, set_away
from .next_page import next_path
from .ratelimits import limited
from .signals import email_confirmed, email_preferences_changed

BACKEND = "accounts.backends.PlayerBackend"


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
                f"Welcome, {user.public_name}! Your account is ready. We sent you a link to "
                "confirm your email address: until then your games are not rated.",
            )
            return redirect(next_url or "home")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


class LoginView(auth_views.LoginView):
    """Django's log-in, following only a path on this site (`next_path`) and never the log-in
    page itself: Django's own refuses to redirect there (a 500 for a logged-in visitor), and
    would follow a bare word ("-1") as a relative address."""

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
            user.save(update_fields=["email_confirmed_at"])
            # What waited for this address is theirs now (games: the invitations sent to it).
            replies = email_confirmed.send(sender=User, user=user)
    except IntegrityError:  # another account confirmed this address a moment ago
        return render(request, "accounts/confirm_email.html", {"in_use": True}, status=409)
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
        messages.info(request, "Your email address is already confirmed.")
    elif limited(request, "resend_confirmation", "user", settings.EMAIL_CONFIRMATION_RESEND_RATE):
        messages.error(
            request, "A link was sent several times already. Please try again in an hour."
        )
    else:
        emails.confirm_email(user)
        messages.success(request, f"We sent a new link to {user.email}.")
    return redirect("profile")


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        email_changed, old_email = form.email_changed, form.old_email
        with transaction.atomic():
            user = form.save()
            if email_changed:
                emails.email_changed(user, old_email)
                emails.confirm_email(user)
        if email_changed:
            messages.success(
                request,
                f"Your profile is saved. We sent a link to {user.email} to confirm it, and told "
                "your old address.",
            )
        else:
            messages.success(request, "Your profile is saved.")
        return redirect("profile")
    return _profile_page(request, form=form)


def _profile_page(request: HttpRequest, status: int = 200, **forms) -> HttpResponse:
    """The profile page with its three forms; those given carry what was posted and its errors."""
    user = request.user
    context = {
        "form": forms.get("form") or ProfileForm(instance=user),
        "email_form": forms.get("email_form") or EmailPreferencesForm(instance=user),
        "away_form": forms.get("away_form") or AwayForm(initial={"away_until": user.away_until}),
        **push_context(request),  # "Notifications on this device", when offered
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
        email_preferences_changed.send(sender=User, user=request.user)
        messages.success(request, "Your email preferences are saved.")
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
                messages.success(request, f"You are away until {user.away_until:%A %-d %B}.")
            else:
                messages.success(request, "Welcome back: your turn clocks run again.")
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
        messages.success(request, "Your calendar address is turned off.")
    else:
        had_one = bool(user.calendar_token)
        user.renew_calendar_token()
        messages.success(
            request,
            "Your calendar has a new address: the old one no longer works."
            if had_one
            else "Your calendar address is ready.",
        )
    return redirect(reverse("profile") + "#calendar")


@csrf_exempt  # mail clients POST here without a session (RFC 8058); the signature is the check
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, kind: str, token: str) -> HttpResponse:
    """GET asks for confirmation (link scanners must not unsubscribe anyone); POST switches off."""
    user = unsubscribe_links.user_for(kind, token)
    if user is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    context = {"name": unsubscribe_links.NAMES[kind], "account": user}
    if request.method == "POST":
        unsubscribe_links.switch_off(user, kind)
        context["done"] = True
    return render(request, "accounts/unsubscribe.html", context)


@require_http_methods(["GET", "POST"])
def password_reset(request: HttpRequest) -> HttpResponse:
    """Django's reset view, refused politely when one client address asks too often.

    The refusal counts per requesting address only: a refusal per target email let a stranger
    block a victim's reset by asking for it five times first. Emails to one target address are
    capped too, but silently (CappedPasswordResetForm): the asker sees the usual answer.
    """
    if request.method == "POST" and limited(
        request, "password_reset", "ip", settings.PASSWORD_RESET_RATE
    ):
        return render(request, "registration/password_reset_limited.html", status=429)
    return auth_views.PasswordResetView.as_view(
        form_class=CappedPasswordResetForm,
        email_template_name="registration/password_reset_email.txt",
        html_email_template_name="registration/password_reset_email.html",
        subject_template_name="registration/password_reset_subject.txt",
        extra_email_context={"site_url": settings.SITE_URL},
    )(request)
