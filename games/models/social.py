"""The people around a table besides its seats: invitations to it and its table talk."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from .game import Game

# An invitation is good for two weeks; after that the creator invites again.
INVITATION_LIFETIME = timedelta(days=14)


class Invitation(models.Model):
    """A friend invited by username, or a newcomer by email address, to an open table.

    Joining or the game starting deletes it; a declined one stays (the creator sees who declined),
    and a cancelled table keeps them all so that everyone invited still sees it in My games.
    The `*_emailed_at` columns are claims: set with a conditional UPDATE before each email is sent
    (set at creation when no email is to be sent at all).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations",
    )
    # The address the creator typed, "" for a player named by username. An address a player has
    # confirmed invites that player (`user`), yet the creator is shown the address all the same.
    email = models.EmailField(blank=True, default="")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    declined_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    decline_emailed_at = models.DateTimeField(null=True, blank=True)
    cancel_emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="invitation_once_per_player"),
            models.UniqueConstraint(
                "game",
                Lower("email"),
                condition=~models.Q(email=""),
                name="invitation_once_per_email",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(email=""),
                name="invitation_has_someone",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.invitee_name} invited to game {self.game_id}"

    @property
    def invitee_name(self) -> str:
        """Who was invited, as the creator named them: the address they typed, never the name of
        the account behind it (that would tell them which addresses have one)."""
        return self.email or self.user.public_name

    @property
    def expires_at(self):
        return self.created_at + INVITATION_LIFETIME

    def is_expired(self, now=None) -> bool:
        return (now or timezone.now()) >= self.expires_at


class AddressInvitationSent(models.Model):
    """One invitation by email address, as its creator sent it: kept when the invitation itself
    is deleted (joined, renewed, the game started), so that the daily cap on them
    (games.services.invitations.check_address_invitations) counts every one."""

    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["invited_by", "created_at"])]

    def __str__(self) -> str:
        return f"an invitation by address from {self.invited_by_id} at {self.created_at}"


class Message(models.Model):
    """A line of table talk: plain text, written by a seated player while the game is on.

    Never edited: the author may delete it for a short while (`deleted_at`), staff may hide it in
    the admin; either way it is no longer shown or emailed, and the row stays for the record.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(help_text="The author's seat.")
    text = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    deleted_at = models.DateTimeField(null=True, blank=True)
    hidden_by_staff = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "pk"]
        indexes = [models.Index(fields=["game", "-id"])]

    def __str__(self) -> str:
        return f"game {self.game_id} message {self.pk}"


# The signature of one invitation's own link: made when its email is written (games.mail.tables),
# read by the writer when someone follows it (games.services.invitations.invitation_from_token).
TOKEN_SALT = "games.invitation"


def invitation_token(invitation: Invitation) -> str:
    """The signed token of an invitation's own link (Join and Decline in its email)."""
    return signing.dumps(invitation.pk, salt=TOKEN_SALT)
