"""Deleting an account (GDPR erasure): the part that is the account's own.

The row stays: the seats of finished games point at it (and protect it), so that the other
players' histories, score sheets, replays and ratings keep working. What made it a person goes:
the email address, names, preferences, password, friendships, and the log-in records django-axes
kept of it. The username becomes a placeholder no sign-up can type, and its canonical form (with
its look-alike skeleton) is kept in `RetiredUsername` for RETIRED_USERNAME_DAYS, so that nobody
else takes the name while the other players still remember it.

The games' part (resigning, leaving tables, invitations, talk, devices) is
games.services.closing, which locks the row here first and erases it here last, in one
transaction: accounts imports nothing from games.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django import forms
from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import emails
from .forms import check_current_password
from .identity import canonical_username
from .models import DELETED_NAME, EMAIL_KINDS, Block, Friendship, RetiredUsername, User

# No sign-up or rename can type "~" (Django's username validator refuses it), and the account's id
# makes it unique: the placeholder never meets a real name.
PLACEHOLDER_PREFIX = "deleted~"


class AlreadyDeleted(Exception):
    """The account was deleted already (a double click, or a page left open): nothing is done."""

    def __init__(self) -> None:
        super().__init__(_("This account is already deleted: there is nothing more to do."))
        self.message = str(self)


class DeleteAccountForm(forms.Form):
    """The password, asked again: a session left open must not be enough to delete an account.
    Wrong answers count with the profile's other password checks (CURRENT_PASSWORD_FAILURE_RATE)."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user: User, request: HttpRequest, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user, self.request = user, request

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        check_current_password(
            self.request,
            self.user,
            password,
            wrong=_("That is not your password, so nothing was deleted. Please try again."),
        )
        return password


@dataclass(frozen=True)
class Erased:
    """What the account was, for the confirmation email sent once the erasure has committed."""

    address: str
    name: str
    username: str


def lock_for_deletion(user: User) -> User:
    """The player's row, locked until the transaction ends; AlreadyDeleted if it is gone. Two
    deletions at once wait for each other here, and the second changes nothing."""
    locked = User.objects.select_for_update().filter(pk=user.pk).first()
    if locked is None or locked.deleted_at is not None:
        raise AlreadyDeleted()
    return locked


def erase(user: User, now: datetime) -> Erased:
    """Erase the person from the locked row `user` (from `lock_for_deletion`) and queue the
    confirmation to the address it had, sent after the commit."""
    was = Erased(address=user.email, name=user.public_name, username=user.username)
    RetiredUsername.retire(user.username, now)
    Friendship.objects.filter(Q(user=user) | Q(friend=user)).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()  # both ways, as friends
    spellings = {user.username, canonical_username(user.username)}
    for record in (AccessAttempt, AccessFailureLog, AccessLog):  # its addresses and devices
        record.objects.filter(username__in=spellings).delete()
    user.groups.clear()
    user.user_permissions.clear()
    defaults = {field.name: field.get_default() for field in User._meta.concrete_fields}
    for name in (
        # Preferences and what they tell of the person (their time zone, quiet hours, absences).
        "time_zone", "remind_every_hours", "quiet_start", "quiet_end", "last_digest_on",
        "away_until", "away_since", "away_days", "first_name", "last_name", "language",
    ):  # fmt: skip
        setattr(user, name, defaults[name])
    for field in EMAIL_KINDS.values():  # and no email of any kind, whatever comes later
        setattr(user, field, False)
    user.username = f"{PLACEHOLDER_PREFIX}{user.pk}"
    user.display_name = DELETED_NAME
    user.email = ""
    user.email_confirmed_at = None
    user.email_version += 1  # a confirmation link still in a mailbox proves nothing now
    user.unsubscribe_version += 1
    user.calendar_token = None
    user.set_unusable_password()  # also ends every session: their hash no longer matches
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.deleted_at = now
    user.save()
    if was.address:
        context = {"name": was.name, "username": was.username, "address": was.address}
        emails.send_after_commit("account_deleted", user, context, to=was.address)
    return was
