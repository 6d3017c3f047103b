"""The one place that changes a game.

Every change locks the game row, checks who is asking and what page they acted from (the version),
lets the engine judge the action, appends the move, saves state and version together, and queues
side effects after the commit. Views call these functions and turn `GameError` into HTTP.

The package is split by concern; every write and every refusal is imported here, so callers use
`from games import services; services.play(...)`. What the writer's modules share (the lock, the
version, saving a state) is `games.services.core`, their internal API. Reads live below: how a
result counts is games.results, what the poll compares games.models.versions.
"""

from games.services.absent import (
    act_on_timeout,
    due_timeouts,
    end_stalled_game,
    leaving_ends_game,
    overdue_automatic_turns,
    play_automatic_turn,
    resign,
    skip_turn,
    timed_out,
)
from games.services.away import move_turn_clocks
from games.services.core import STAND_IN_POLICY, in_seat_order, is_automatic
from games.services.errors import (
    CANCELLED,
    Conflict,
    GameError,
    NotAllowed,
    NotFound,
    PlayResult,
    RuleViolation,
    StaleVersion,
)
from games.services.invitations import (
    MAX_PENDING_INVITATIONS,
    claim_invitations,
    decline_invitation,
    invitation_from_token,
    invite,
    pending_invitations,
)
from games.services.rematch import play_again, rematch_of
from games.services.tables import (
    MAX_BOT_GAMES,
    MAX_OPEN_TABLES,
    cancel_game,
    create_game,
    join_game,
    leave_game,
)
from games.services.turns import finalize, play

__all__ = [
    "CANCELLED",
    "MAX_BOT_GAMES",
    "MAX_OPEN_TABLES",
    "MAX_PENDING_INVITATIONS",
    "STAND_IN_POLICY",
    "Conflict",
    "GameError",
    "NotAllowed",
    "NotFound",
    "PlayResult",
    "RuleViolation",
    "StaleVersion",
    "act_on_timeout",
    "cancel_game",
    "claim_invitations",
    "create_game",
    "decline_invitation",
    "due_timeouts",
    "end_stalled_game",
    "finalize",
    "in_seat_order",
    "invitation_from_token",
    "invite",
    "is_automatic",
    "join_game",
    "leave_game",
    "leaving_ends_game",
    "move_turn_clocks",
    "overdue_automatic_turns",
    "pending_invitations",
    "play",
    "play_again",
    "play_automatic_turn",
    "rematch_of",
    "resign",
    "skip_turn",
    "timed_out",
]
