"""Players: a custom user from the first migration, so it can grow without a data migration."""

import zoneinfo
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from .identity import canonical_username, username_skeleton

TIME_ZONE_CHOICES = [
    (name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())
]
REMIND_EVERY_CHOICES = [
    (0, "Never"),
    (12, "After 12 hours, then every 12 hours"),
    (24, "After 24 hours, then every day"),
    (48, "After 48 hours, then every 2 days"),
]
HOUR_CHOICES = [(hour, f"{hour:02d}:00") for hour in range(24)]
# The kinds of email a player can switch off (in the profile or by the link in each email).
EMAIL_KINDS = {
    "turn": "email_turn",
    "reminder": "email_reminder",
    "digest": "email_digest",
    "game_over": "email_game_over",
}


class PlayerManager(UserManager):
    def get_by_natural_key(self, username: str):
        """The player with this canonical username ("Alice", "ALICE", a dotless-i "alice": one).

        The exact spelling is tried first: an account from before canonical names that shares its
        canonical form with an older one keeps a key of its own (migration 0005) and logs in by it.
        """
        try:
            return self.get(username=username)
        except self.model.DoesNotExist:
            return self.get(username_key=canonical_username(username))

    def bots(self, level: str) -> models.QuerySet:
        """The bots of one level, oldest first: found by the indexed field, never by name."""
        return self.filter(bot_level=level).order_by("pk")


class User(AbstractUser):
    """A player. `display_name` is what others see; `username` is how friends invite them."""

    email = models.EmailField("email address")
    display_name = models.CharField(max_length=40, blank=True)
    time_zone = models.CharField(max_length=64, choices=TIME_ZONE_CHOICES, default="UTC")
    # Computer opponents are users too, so seats, histories and ratings treat them alike. Created
    # by a data migration and found by this field, never by their names; they cannot log in.
    bot_level = models.CharField(max_length=8, blank=True, default="", db_index=True)
    # The username as sign-up, log-in and the lockout compare it (accounts.identity), and what it
    # looks like, so that a look-alike of an existing name can be refused with one indexed query.
    username_key = models.CharField(max_length=150, unique=True, editable=False)
    username_skeleton = models.CharField(max_length=150, db_index=True, editable=False)
    # Set by the link emailed at sign-up and after each change of address; rated play needs it.
    email_confirmed_at = models.DateTimeField(null=True, blank=True, editable=False)

    # Email preferences; every kind can also be switched off by the link at the foot of its emails.
    email_turn = models.BooleanField(
        "“Your turn” emails", default=True, help_text="When another player has ended their turn."
    )
    email_reminder = models.BooleanField(
        "Reminders",
        default=True,
        help_text="While a game waits for you, and before a turn time limit runs out.",
    )
    remind_every_hours = models.PositiveSmallIntegerField(
        "Remind me",
        choices=REMIND_EVERY_CHOICES,
        default=24,
        help_text="A game with a turn time limit also warns you 12 hours before it runs out.",
    )
    email_digest = models.BooleanField(
        "Daily digest", default=False, help_text="Each morning, the games waiting for your move."
    )
    email_game_over = models.BooleanField(
        "Game over", default=True, help_text="The final scores when a game of yours ends."
    )
    quiet_start = models.PositiveSmallIntegerField(
        "Quiet hours from", choices=HOUR_CHOICES, default=22
    )
    quiet_end = models.PositiveSmallIntegerField(
        "until",
        choices=HOUR_CHOICES,
        default=7,
        help_text="No reminder or digest in between, in your time zone. The same hour twice: none.",
    )
    last_digest_on = models.DateField(null=True, blank=True, editable=False)

    objects = PlayerManager()

    REQUIRED_FIELDS = ["email"]

    class Meta:
        constraints = [
            # Only a confirmed address is one person's: sign-up accepts an address already in use
            # (and tells its owner) rather than tell a stranger that it is registered.
            models.UniqueConstraint(
                Lower("email"),
                condition=Q(email_confirmed_at__isnull=False),
                name="user_confirmed_email_unique_ci",
                violation_error_message="Another account already uses this email.",
            ),
            models.UniqueConstraint(
                Lower("username"),
                name="user_username_unique_ci",
                violation_error_message="That username is taken. Please choose another.",
            ),
        ]

    def __str__(self) -> str:
        return self.public_name

    def save(self, *args, **kwargs) -> None:
        # Keep a legacy key ("<canonical>:<id>", see migration 0005) while the name is unchanged.
        canonical = canonical_username(self.username)
        if not (self.username_key or "").startswith(canonical + ":"):
            self.username_key = canonical
        self.username_skeleton = username_skeleton(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key", "username_skeleton"}
        super().save(*args, **kwargs)

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def can_play_rated(self) -> bool:
        """Whether this player's games may move ratings: a confirmed email, active, not a bot."""
        return bool(self.email_confirmed_at and self.is_active and not self.is_bot)

    @property
    def tzinfo(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    def wants_email(self, kind: str) -> bool:
        """Whether to send this player an email of this kind (bots never get any)."""
        return bool(self.email and self.is_active and not self.is_bot) and getattr(
            self, EMAIL_KINDS[kind]
        )

    def is_quiet_at(self, moment: datetime) -> bool:
        if self.quiet_start == self.quiet_end:
            return False
        hour = moment.astimezone(self.tzinfo).hour
        if self.quiet_start < self.quiet_end:
            return self.quiet_start <= hour < self.quiet_end
        return hour >= self.quiet_start or hour < self.quiet_end  # across midnight

    def after_quiet_hours(self, moment: datetime) -> datetime:
        """`moment`, or the end of the quiet hours it falls in."""
        if not self.is_quiet_at(moment):
            return moment
        local = moment.astimezone(self.tzinfo)
        end = local.replace(hour=self.quiet_end, minute=0, second=0, microsecond=0)
        if end <= local:
            end += timedelta(days=1)  # wall-clock arithmetic: still quiet_end o'clock after DST
        return end.astimezone(UTC)
