"""Chat channels that hear of games: a webhook address at Discord, Slack or any JSON receiver,
and the record of each event posted to each, which makes every post happen once.

A hook belongs to the player who set it. With a game it is that table's channel: every turn, the
table talk and the end, announced on the game page to every seat. Without one it is the player's
own channel for all their tables: their own turns and the ends of their games, never anybody's
words.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.db.models import Q


class Webhook(models.Model):
    class Kind(models.TextChoices):
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"
        JSON = "json", "JSON"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    # The table whose events it hears; empty: every table of the owner.
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="webhooks"
    )
    kind = models.CharField(max_length=7, choices=Kind.choices)
    # A secret: whoever has a Discord or Slack webhook address may post to that channel. Pages
    # show only its host and last characters (`shown_url`).
    url = models.URLField(max_length=1000)
    created_at = models.DateTimeField(auto_now_add=True)
    # The outcome of the latest post, shown beside the hook: when it arrived, or why not.
    last_ok_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(game__isnull=False), name="webhook_one_per_table"
            ),
            models.UniqueConstraint(
                fields=["owner", "url"],
                condition=Q(game__isnull=True),
                name="webhook_player_url_once",
            ),
        ]

    def __str__(self) -> str:
        where = f"game {self.game_id}" if self.game_id else "all tables"
        return f"{self.get_kind_display()} hook of {self.owner} for {where}"

    @property
    def shown_url(self) -> str:
        """ "discord.com …x7Qa": enough to tell two hooks apart, too little to post with."""
        parts = urlsplit(self.url)
        tail = (parts.path + ("?" + parts.query if parts.query else "")).rstrip("/")[-4:]
        return f"{parts.hostname or ''} …{tail}" if tail else parts.hostname or ""

    @property
    def failing(self) -> bool:
        """Whether the latest post failed (the error is newer than the latest success)."""
        return bool(self.last_error_at) and (
            self.last_ok_at is None or self.last_error_at > self.last_ok_at
        )


class Delivery(models.Model):
    """One event posted to one hook: inserted with its payload when the event happens (the unique
    row makes a second announcement of the same event a no-op), claimed by the task that posts it,
    finished as sent, refused or failed. Kept a while for the record, then pruned."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be posted"
        SENT = "sent", "Posted"
        REFUSED = "refused", "Refused by the channel"
        FAILED = "failed", "Given up after retries"

    hook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    # What the event is: "turn:12:7" (game 12, turn 7), "message:345", "over:12", "test:<time>".
    key = models.CharField(max_length=60)
    payload = models.JSONField()
    status = models.CharField(max_length=7, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set while a worker posts it; a claim this old belonged to a worker that died mid-post.
    claimed_at = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hook", "key"], name="webhook_delivery_once")
        ]
        indexes = [models.Index(fields=["created_at"])]

    def __str__(self) -> str:
        return f"{self.key} to hook {self.hook_id}: {self.status}"
