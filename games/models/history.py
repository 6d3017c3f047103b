"""What a game leaves behind: its move log, each seat's board after each turn, and reviews."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from .game import Game

# Moves the site logs beside the engine's actions (a resignation, an ended game, a dropped
# player): part of the history, never replayed by the engine.
SITE_EVENTS = frozenset({"resign", "end_game", "drop"})


class Move(models.Model):
    """The append-only move log: one engine action, in order. Never updated or deleted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    turn = models.PositiveIntegerField()
    action = models.JSONField()
    detail = models.JSONField(default=dict, help_text="Public facts for the log in words.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="move_seq_unique")]

    def __str__(self) -> str:
        return f"game {self.game_id} move {self.seq}"


class Board(models.Model):
    """A seat's board as it stood at the end of one of its turns: stacks, cubes, cards held and
    completed (the engine's own JSON of the player) and its score sheet by category.

    Written by the one writer in the same transaction as the game state, which stays the source
    of truth (`verify_games` checks every row against a replay). The "since your last visit"
    recap compares these rows instead of replaying the log.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="boards")
    position = models.PositiveSmallIntegerField()
    turn = models.PositiveIntegerField(help_text="The engine turn that ended.")
    move_seq = models.PositiveIntegerField(help_text="Moves logged when the turn ended.")
    player = models.JSONField(help_text="The engine's JSON of the player (stacks, cubes, cards).")
    score = models.JSONField(help_text="Points by category and the total.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "move_seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "turn"], name="board_one_per_turn_end"),
        ]
        indexes = [models.Index(fields=["game", "position", "move_seq"])]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.position} after turn {self.turn}"


class Review(models.Model):
    """What the hard bot would have played on each of one seat's turns of a finished game.

    Asked for by the seat's player after the game, computed once by a Celery task on the bots
    queue (a minute or so of search), then kept: the same game always gives the same review.
    """

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("Waiting for the bot")
        RUNNING = "running", gettext_lazy("The bot is looking")
        DONE = "done", gettext_lazy("Ready")
        FAILED = "failed", gettext_lazy("Could not be made")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reviews")
    position = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    turns = models.JSONField(default=list, help_text="engine.review.TurnReview JSON, by turn.")
    # How far the task has got, for the page that waits: "Reviewing: turn 3 of 12".
    turns_total = models.PositiveSmallIntegerField(default=0)
    turns_done = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="review_one_per_seat"),
        ]

    def __str__(self) -> str:
        return f"review of seat {self.position} in game {self.game_id}"
