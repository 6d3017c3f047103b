"""The one place that changes a game.

Every change locks the game row, checks who is asking and what page they acted from (the version),
lets the engine judge the action, appends the move, saves state and version together, and queues
side effects after the commit. Views call these functions and turn `GameError` into HTTP.

The package is split by concern; everything public is imported here, so callers use
`from games import services; services.play(...)`.
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
from games.services.core import (
    MIN_OWN_TURNS,
    SITE_EVENTS,
    STAND_IN_POLICY,
    VERSION_CACHE_SECONDS,
    cached_version,
    in_seat_order,
    is_automatic,
    own_turns,
    placing,
    played_enough,
    remember_version,
    version_cache_key,
)
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
    decline_invitation,
    invitation_from_token,
    invitation_token,
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
    "MIN_OWN_TURNS",
    "SITE_EVENTS",
    "STAND_IN_POLICY",
    "VERSION_CACHE_SECONDS",
    "Conflict",
    "GameError",
    "NotAllowed",
    "NotFound",
    "PlayResult",
    "RuleViolation",
    "StaleVersion",
    "act_on_timeout",
    "cached_version",
    "cancel_game",
    "create_game",
    "decline_invitation",
    "due_timeouts",
    "end_stalled_game",
    "finalize",
    "in_seat_order",
    "invitation_from_token",
    "invitation_token",
    "invite",
    "is_automatic",
    "join_game",
    "leave_game",
    "leaving_ends_game",
    "move_turn_clocks",
    "overdue_automatic_turns",
    "own_turns",
    "pending_invitations",
    "placing",
    "play",
    "play_again",
    "play_automatic_turn",
    "played_enough",
    "rematch_of",
    "remember_version",
    "resign",
    "skip_turn",
    "timed_out",
    "version_cache_key",
]
