"""Reports: a player's word to staff about a line of table talk, a player or a display name, and
what staff did about it. Written by games.services.reports; read by staff in the admin."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from .game import Game
from .social import Message


class Report(models.Model):
    """One report. What was reported is copied when it is made (the name, the words of the
    message, who wrote them and where): staff judge what the reporter saw, even once the message
    is deleted or the player renamed. At most one open report per reporter and target."""

    class Kind(models.TextChoices):
        MESSAGE = "message", gettext_lazy("Talk message")
        PLAYER = "player", gettext_lazy("Player")
        NAME = "name", gettext_lazy("Display name")

    class Reason(models.TextChoices):
        SPAM = "spam", gettext_lazy("Spam")
        ABUSE = "abuse", gettext_lazy("Abuse or harassment")
        CHEATING = "cheating", gettext_lazy("Cheating")
        OFFENSIVE_NAME = "offensive_name", gettext_lazy("Offensive name")
        OTHER = "other", gettext_lazy("Something else")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    kind = models.CharField(max_length=8, choices=Kind)
    # What "the same thing" is for the one-open-report rule: "message:12", "player:7", "name:7".
    target = models.CharField(max_length=40, editable=False)
    reason = models.CharField(max_length=16, choices=Reason)
    words = models.TextField("the reporter's words", blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    # The person reported (the message's author), and the thing itself while it exists.
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="reports"
    )
    message = models.ForeignKey(
        Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # As it was at report time.
    reported_name = models.CharField("name then", max_length=150)
    reported_username = models.CharField("username then", max_length=150)
    message_text = models.TextField("message then", blank=True)
    message_written_at = models.DateTimeField(null=True, blank=True)

    dealt_at = models.DateTimeField(null=True, blank=True)
    dealt_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "target"],
                condition=Q(dealt_at__isnull=True),
                name="report_open_once_per_reporter_and_target",
            )
        ]
        indexes = [models.Index(fields=["target"])]
        permissions = [("moderate_report", "Can act on reports: hide, rename, suspend")]

    def __str__(self) -> str:
        kind = self.get_kind_display().lower()
        return f"{self.get_reason_display()}: {kind} of {self.reported_name}"

    @property
    def is_open(self) -> bool:
        return self.dealt_at is None


class ReportAction(models.Model):
    """One thing a staff member did from a report: who, when, what."""

    class Action(models.TextChoices):
        HIDE = "hide", "Hid the message"
        RENAME = "rename", "Gave a neutral name"
        SUSPEND = "suspend", "Suspended the account"
        LIFT = "lift", "Lifted the suspension"
        CLOSE = "close", "Closed, nothing to do"

    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="actions")
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=8, choices=Action)
    detail = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} ({self.at:%Y-%m-%d %H:%M})"
