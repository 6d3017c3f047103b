"""One-click unsubscribe links (RFC 8058): signed for one player and one kind of email, expiring.

The kind is both in the address and in the signature's salt, so a link for "your turn" emails
cannot switch off the digest. No login is needed: holding the link is the proof.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse

from .models import EMAIL_KINDS, User
from .signals import email_preferences_changed

MAX_AGE = timedelta(days=60)
# What the confirmation page calls each kind: "Stop receiving <these>?"
NAMES = {
    "turn": "“your turn” emails",
    "reminder": "reminders",
    "digest": "the daily digest",
    "game_over": "game-over emails",
    "invitation": "invitation and table emails",
}


def _salt(kind: str) -> str:
    return f"accounts.unsubscribe.{kind}"


def token_for(user: User, kind: str) -> str:
    return signing.dumps(user.pk, salt=_salt(kind))


def url_for(user: User, kind: str) -> str:
    return settings.SITE_URL + reverse("unsubscribe", args=[kind, token_for(user, kind)])


def user_for(kind: str, token: str) -> User | None:
    """The player a link was made for, or None if it is forged, expired or for another kind."""
    if kind not in EMAIL_KINDS:
        return None
    try:
        user_id = signing.loads(token, salt=_salt(kind), max_age=MAX_AGE)
    except signing.BadSignature:  # includes SignatureExpired
        return None
    return User.objects.filter(pk=user_id).first()


def switch_off(user: User, kind: str) -> None:
    User.objects.filter(pk=user.pk).update(**{EMAIL_KINDS[kind]: False})
    setattr(user, EMAIL_KINDS[kind], False)
    email_preferences_changed.send(sender=User, user=user)
