"""Players: a custom user from the first migration, so it can grow without a data migration."""

import zoneinfo

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower

TIME_ZONE_CHOICES = [
    (name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())
]


class PlayerManager(UserManager):
    def get_by_natural_key(self, username: str):
        # Usernames are case-insensitive: "Alice" and "alice" are one player.
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A player. `display_name` is what others see; `username` is how friends invite them."""

    email = models.EmailField("email address")
    display_name = models.CharField(max_length=40, blank=True)
    time_zone = models.CharField(max_length=64, choices=TIME_ZONE_CHOICES, default="UTC")
    # Computer opponents are users too, so seats, histories and ratings treat them alike.
    bot_level = models.CharField(max_length=8, blank=True, default="")

    objects = PlayerManager()

    REQUIRED_FIELDS = ["email"]

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("email"), name="user_email_unique_ci"),
            models.UniqueConstraint(Lower("username"), name="user_username_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def tzinfo(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")
