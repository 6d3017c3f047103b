"""One-click unsubscribe links (RFC 8058): signed for one player and one kind of email, expiring.

The kind is both in the address and in the signature's salt, so a link for "your turn" emails
cannot switch off the digest. No login is needed: holding the link is the proof.

A link also names the player's `unsubscribe_version` when it was made, and works only while that
is still the version. Using a link raises it (so a link works once), and so does saving the email
choices in the profile (so a link sent before cannot undo a later choice, however often it is
replayed). Opening a link changes nothing: mail scanners and link previews fetch every address in
an email, so only the POST (the page's button, or the mail client's one-click) switches off and
uses up the link. Links in older emails stop working with it; newer emails carry a current one,
and the profile offers every choice. Beyond UNSUBSCRIBE_LINK_MAX_AGE a link stops working anyway.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.db.models import F
from django.urls import reverse
from django.utils.translation import pgettext_lazy

from .models import EMAIL_KINDS, User
from .signals import email_preferences_changed

# What the confirmation page calls each kind: "Stop receiving <these>?"
NAMES = {
    "turn": pgettext_lazy("unsubscribe", "“your turn” emails"),
    "reminder": pgettext_lazy("unsubscribe", "reminders"),
    "digest": pgettext_lazy("unsubscribe", "the daily digest"),
    "game_over": pgettext_lazy("unsubscribe", "game-over emails"),
    "invitation": pgettext_lazy("unsubscribe", "invitation and table emails"),
}


def _salt(kind: str) -> str:
    return f"accounts.unsubscribe.{kind}"


def max_age_days() -> int:
    """How many days a link works, as the refusal page says it."""
    return settings.UNSUBSCRIBE_LINK_MAX_AGE.days


def token_for(user: User, kind: str) -> str:
    return signing.dumps([user.pk, user.unsubscribe_version], salt=_salt(kind))


def url_for(user: User, kind: str) -> str:
    return settings.SITE_URL + reverse("unsubscribe", args=[kind, token_for(user, kind)])


def user_for(kind: str, token: str) -> User | None:
    """The player a link was made for, or None if it is forged, expired, for another kind, used
    already, or older than the player's last choice of emails."""
    if kind not in EMAIL_KINDS:
        return None
    try:
        payload = signing.loads(token, salt=_salt(kind), max_age=settings.UNSUBSCRIBE_LINK_MAX_AGE)
    except signing.BadSignature:  # includes SignatureExpired
        return None
    # Links from before versions named the player alone: they count as version 0, so they
    # work until the player's first choice since (or their first use), like any other.
    if isinstance(payload, int):
        payload = [payload, 0]
    if not (isinstance(payload, list) and len(payload) == 2):
        return None
    user_id, version = payload
    return User.objects.filter(pk=user_id, unsubscribe_version=version).first()


def switch_off(user: User, kind: str) -> bool:
    """Switch the kind off and use up the player's links, if the link `user` was read for is
    still current; False (nothing changed) if another request used or outdated it meanwhile."""
    claimed = User.objects.filter(pk=user.pk, unsubscribe_version=user.unsubscribe_version).update(
        **{EMAIL_KINDS[kind]: False}, unsubscribe_version=F("unsubscribe_version") + 1
    )
    if not claimed:
        return False
    setattr(user, EMAIL_KINDS[kind], False)
    user.unsubscribe_version += 1
    email_preferences_changed.send(sender=User, user=user)
    return True


def retire_links(user: User) -> None:
    """The player chose their emails in the profile: links sent before must not undo that."""
    User.objects.filter(pk=user.pk).update(unsubscribe_version=F("unsubscribe_version") + 1)
    user.refresh_from_db(fields=["unsubscribe_version"])
