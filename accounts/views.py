"""Account pages: sign up, profile, and a rate-limited password reset around Django's own views."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods
from django_ratelimit.core import is_ratelimited

from .forms import ProfileForm, SignUpForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.public_name}! Your account is ready.")
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your profile is saved.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})


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
