"""The emails about an account itself: three templates per kind and a two-line function each.

Templates are `templates/emails/<kind>_subject.txt`, `_body.txt` and `_body.html`, as for the
game emails in games/mail/send.py; these carry no unsubscribe link, since a player cannot opt out
of hearing about their own account. They are sent after the commit and a mail server outage is
logged, never shown as an error: the page can always send the link again.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from .language import speaking
from .models import User

logger = logging.getLogger(__name__)

CONFIRM_SALT = "accounts.confirm-email"


def confirmation_token(user: User) -> str:
    """A signed token naming the player, the address it confirms and the address's version.

    The version is raised at every change of address, so a link is good only for the change
    that sent it: changing to another address and back to this one voids every link sent for it
    before (whoever holds an old one proved the address then, not now)."""
    payload = {"user": user.pk, "email": user.email.lower(), "version": user.email_version}
    return signing.dumps(payload, salt=CONFIRM_SALT)


def user_for_confirmation(token: str) -> User | None:
    """The player a confirmation token is for, or None if forged, expired, or for an address
    the account no longer uses or has taken again since."""
    try:
        data = signing.loads(token, salt=CONFIRM_SALT, max_age=settings.EMAIL_CONFIRMATION_MAX_AGE)
        user = User.objects.get(pk=data["user"], is_active=True, bot_level="")
    except (signing.BadSignature, User.DoesNotExist, KeyError, TypeError, ValueError):
        return None
    # Links from before versions named none: they were sent for version 0.
    sent_for = (data["email"], data.get("version", 0))
    return user if (user.email.lower(), user.email_version) == sent_for else None


def send(kind: str, user: User, ctx: dict[str, Any], to: str | None = None) -> None:
    """Render and send one account email now (to `to`, or to the player's address), in the
    account's language."""
    ctx = {**ctx, "user": user, "site_name": settings.SITE_NAME, "site_url": settings.SITE_URL}
    with speaking(user):
        subject = " ".join(render_to_string(f"emails/{kind}_subject.txt", ctx).split())
        text = render_to_string(f"emails/{kind}_body.txt", ctx)
        html = render_to_string(f"emails/{kind}_body.html", ctx)
    message = EmailMultiAlternatives(subject, text, to=[to or user.email])
    message.attach_alternative(html, "text/html")
    message.send()


def send_after_commit(kind: str, user: User, ctx: dict[str, Any], to: str | None = None) -> None:
    """`send`, once the transaction commits; a failure is logged, since the player can retry."""

    def deliver() -> None:
        try:
            send(kind, user, ctx, to)
        except Exception:  # the mail server is down: the banner offers the link again
            logger.exception("could not send the %s email to user %s", kind, user.pk)

    transaction.on_commit(deliver)


def _confirm_url(user: User) -> str:
    return settings.SITE_URL + reverse("confirm_email", args=[confirmation_token(user)])


def confirm_email(user: User) -> None:
    send_after_commit("confirm_email", user, {"confirm_url": _confirm_url(user)})


def email_in_use(user: User, address: str) -> None:
    """Told to an address someone signed up with while another account already confirmed it."""
    ctx = {"address": address, "reset_url": settings.SITE_URL + reverse("password_reset")}
    send_after_commit("email_in_use", user, ctx, to=address)


def email_changed(user: User, old_address: str) -> None:
    send_after_commit("email_changed", user, {"old_address": old_address}, to=old_address)
