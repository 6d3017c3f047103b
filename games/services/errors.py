"""What a refusal looks like: a message a player can read and the HTTP status it maps to."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from games import engine
from games.models import Game, Move, Seat

# The refusal of anything done at a cancelled table: joining, leaving, inviting, an emailed link.
CANCELLED = gettext_lazy("This table was cancelled.")
# The refusals a blocked player reads (games.services.blocks): the same words whatever the reason,
# and nothing that says "blocked", so that a block is never announced to the one it keeps away.
CANNOT_BE_INVITED = gettext_lazy("This player cannot be invited.")
NO_SEAT_HERE = gettext_lazy("You cannot take a seat at this table.")
CANNOT_BE_ADDED = gettext_lazy("This player cannot be added as a friend.")


class GameError(Exception):
    """A refusal a player can read; `status` is the HTTP status the view answers with."""

    status = 400

    def __init__(self, message: str) -> None:
        message = str(message)  # a lazy constant, in the language of the one who is refused
        super().__init__(message)
        self.message = message


class NotAllowed(GameError):
    status = 403


class NotFound(GameError):
    status = 404


class Conflict(GameError):
    status = 409


class StaleVersion(Conflict):
    """The page was rendered from an older version; the player sees the fresh board instead."""


class RuleViolation(GameError):
    """The engine refused the action; the message is the engine's reason."""


@dataclass(frozen=True)
class PlayResult:
    game: Game
    state: engine.GameState
    move: Move
    seats: list[Seat]  # everyone at the table with their users, so a page can be drawn at once
