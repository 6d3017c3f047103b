"""A player's devices that receive Web Push notifications, and which push went to which device.

A subscription is what the browser's push service handed to our service worker: an endpoint (a
secret URL at the browser vendor's push service) and the two keys the payload is encrypted to.
"""

import hashlib

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """One browser on one device that asked for notifications; deleted when its push service
    answers that it is gone (404 or 410), or when the player removes it in the profile."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    # The browser's P-256 public key (65 bytes) and auth secret (16 bytes), base64url.
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    # "Firefox on Android": what the player sees in the list of their devices.
    user_agent = models.CharField("device", max_length=60, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_ok_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user_agent or 'A device'} of {self.user}"

    @property
    def endpoint_digest(self) -> str:
        """What the profile page shows of the endpoint (a secret): its SHA-256, so that the page's
        script can tell whether the site still knows this browser's subscription."""
        return hashlib.sha256(self.endpoint.encode()).hexdigest()

    def as_info(self) -> dict:
        """The subscription as pywebpush (and the browser's `toJSON()`) spell it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class PushDelivery(models.Model):
    """The exactly-once claim of one push to one device: inserted before sending (the unique row
    is the claim), finished (`done_at`) once sent or deliberately not sent, deleted to give it
    back when the push service failed so that the task's retry sends it."""

    class Kind(models.TextChoices):
        TURN = "turn", "Your turn"
        GAME_OVER = "game_over", "Game over"
        MESSAGE = "message", "New message"

    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # What the push is about: "12:7" (game 12, turn 7), "12" (game over), "345" (message 345).
    key = models.CharField(max_length=40)
    claimed_at = models.DateTimeField()
    done_at = models.DateTimeField(null=True, blank=True)
    # "sent", or why not: "watching", "away", "refused" (the push service said no for good).
    outcome = models.CharField(max_length=10, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "kind", "key"], name="push_delivery_once"
            )
        ]
        indexes = [models.Index(fields=["claimed_at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} to {self.subscription_id}"
