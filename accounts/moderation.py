"""Staff's measures on an account, taken from a report in the admin (games.services.reports):
suspending it, lifting the suspension, and giving it a neutral display name.

A suspended account cannot log in (`LoginForm` says why), and its sessions stop working at once
on every device: accounts.backends.PlayerBackend no longer finds its user. Whatever such a
session asks next is answered by `SuspendedSessionMiddleware`, which logs the browser out and
says why, so a POST that would play, talk, invite or change anything changes nothing. Its
games go on under their turn time limits, as for any player who does not play: nothing is
resigned for it.

Each measure is a conditional UPDATE, so doing it twice (two staff at once) changes nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.contrib.auth import SESSION_KEY, logout
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy, gettext_noop

from . import emails
from .models import User

SUSPENDED_PAGE = "accounts/suspended.html"
LOGIN_REFUSED = gettext_lazy(
    "This account has been suspended by the site's staff, so it cannot log in for now. "
    "Its games go on under their time limits."
)
# Stored in English in `display_name`, shown in the reader's language (User.public_name).
NEUTRAL_NAME = gettext_noop("Player %(number)s")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")


def suspend(user_id: int, now: datetime | None = None) -> bool:
    """Suspend the account; False if it already was. Its sessions stop working at once."""
    now = now or timezone.now()
    return bool(User.objects.filter(pk=user_id, suspended_at=None).update(suspended_at=now))


def lift_suspension(user_id: int) -> bool:
    """Let the account log in and play again; False if it was not suspended."""
    return bool(
        User.objects.filter(pk=user_id).exclude(suspended_at=None).update(suspended_at=None)
    )


def neutral_name(user: User) -> str:
    """A name that says nothing of the person and is the account's alone: "Player 1234"."""
    return NEUTRAL_NAME % {"number": user.pk}


def give_neutral_name(user_id: int) -> tuple[str, str] | None:
    """Replace the display name by `neutral_name` and tell the player by email (after the
    commit). The old and new names, or None when it had the neutral name already."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        old, new = user.public_name, neutral_name(user)
        if user.display_name == new:
            return None
        user.display_name = new
        user.save(update_fields=["display_name"])
        if user.email:
            emails.send_after_commit("renamed_by_staff", user, {"old_name": old, "new_name": new})
    return old, new


class LoginForm(AuthenticationForm):
    """Django's log-in form, which also refuses a suspended account, in words, once its password
    is right (so that the refusal tells nothing to someone who does not know the password)."""

    def confirm_login_allowed(self, user: User) -> None:
        super().confirm_login_allowed(user)
        if user.is_suspended:
            raise ValidationError(LOGIN_REFUSED, code="suspended")


class SuspendedSessionMiddleware:
    """Answers a session of a suspended account with the suspension page, and logs it out.

    A POST (or any other unsafe method) is refused before its view runs. A page (GET) is checked
    after its view, and only if the view read the session: the poll names its viewer by a token
    and must not pay for a session read on every tick. Once the session is logged out the
    browser is a visitor's, and the log-in form says why it cannot log in again."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in SAFE_METHODS and _of_suspended_account(request):
            return _suspended(request)
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if (
            request.method in SAFE_METHODS
            and session is not None
            and session.accessed
            and _of_suspended_account(request)
        ):
            return _suspended(request)
        return response


def _of_suspended_account(request: HttpRequest) -> bool:
    """Whether the request's session was logged in as an account that is suspended now. The
    backend no longer finds such a user, so the session names someone while nobody is in."""
    session = getattr(request, "session", None)
    user_id = session.get(SESSION_KEY) if session is not None else None
    if user_id is None or request.user.is_authenticated:
        return False
    return User.objects.filter(pk=user_id).exclude(suspended_at=None).exists()


def _suspended(request: HttpRequest) -> HttpResponse:
    """The suspension page; for htmx, its text in place of the page's content."""
    logout(request)
    if request.headers.get("HX-Request") == "true":
        response = render(request, f"{SUSPENDED_PAGE}#suspended", status=403)
        response["HX-Retarget"] = "#main"
        response["HX-Reswap"] = "innerHTML"
        return response
    return render(request, SUSPENDED_PAGE, status=403)
