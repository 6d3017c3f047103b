"""Account pages: sign up, profile, and a rate-limited password reset around Django's own views."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.core import is_ratelimited

from . import unsubscribe as unsubscribe_links
from .forms import AwayForm, EmailPreferencesForm, ProfileForm, SignUpForm
from .models import User, set_away
from .signals import email_preferences_changed


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new account; `next` (an invitation link, carried from log-in) is where it lands."""
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.public_name}! Your account is ready.")
        return redirect(next_url or "home")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


def _safe_next(request: HttpRequest) -> str:
    """`next` from the form or the address, only if it stays on this site."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return candidate if allowed else ""


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
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
    }
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
    """Django's reset view, refused politely when one address or email asks too often."""
    if request.method == "POST":
        rate = settings.PASSWORD_RESET_RATE
        limited = is_ratelimited(
            request, group="password_reset", key="ip", rate=rate, method="POST", increment=True
        ) | is_ratelimited(
            request,
            group="password_reset_email",
            key=lambda group, req: req.POST.get("email", "").strip().lower(),
            rate=rate,
            method="POST",
            increment=True,
        )
        if limited:
            response = render(request, "registration/password_reset_limited.html", status=429)
            return response
    return auth_views.PasswordResetView.as_view(
        email_template_name="registration/password_reset_email.txt",
        html_email_template_name="registration/password_reset_email.html",
        subject_template_name="registration/password_reset_subject.txt",
        extra_email_context={"site_url": settings.SITE_URL},
    )(request)
