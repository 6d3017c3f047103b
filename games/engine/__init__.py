"""The Harmonies rules engine: pure standard-library Python, no web framework.

States are immutable; `apply(state, action)` returns the next state or raises IllegalAction
with a reason a player can read; `legal_actions(state)` lists exactly what `apply` accepts.
"""

from .actions import (
    Action,
    ChooseSpirit,
    EndTurn,
    IllegalAction,
    InvalidAction,
    PlaceCube,
    PlaceToken,
    ResetTurn,
    TakeCard,
    TakeTokens,
    action_from_json,
)
from .cards import ANIMAL_CARD_IDS, SPIRIT_CARD_IDS, Card, UnknownCard, card
from .explain import CardHelp, ScoreLine, card_help, explain_board, explain_view
from .hexgrid import SIDES, Geometry, geometry
from .policies import POLICIES, get_policy, random_policy
from .queries import (
    Placing,
    animal_cubes,
    cube_options,
    ranking,
    score_sheet,
    score_sheets,
    suns,
    token_targets,
    winners,
)
from .replay import ReplayError, record, replay, replay_record
from .rules import apply, legal_actions
from .scoring import ScoreSheet, score_board, solo_suns
from .setup_game import new_game
from .state import (
    GameConfig,
    GameState,
    PlayerState,
    StateFormatError,
    TurnStart,
    state_from_json,
    state_to_json,
)
from .tokens import COLOURS, TOKEN_SUPPLY
from .view import view_for
from .warm import warm_caches

__all__ = [
    "ANIMAL_CARD_IDS",
    "COLOURS",
    "POLICIES",
    "SIDES",
    "SPIRIT_CARD_IDS",
    "TOKEN_SUPPLY",
    "Action",
    "Card",
    "CardHelp",
    "ChooseSpirit",
    "EndTurn",
    "GameConfig",
    "GameState",
    "Geometry",
    "IllegalAction",
    "InvalidAction",
    "PlaceCube",
    "PlaceToken",
    "Placing",
    "PlayerState",
    "ReplayError",
    "ResetTurn",
    "ScoreLine",
    "ScoreSheet",
    "StateFormatError",
    "TakeCard",
    "TakeTokens",
    "TurnStart",
    "UnknownCard",
    "action_from_json",
    "animal_cubes",
    "apply",
    "card",
    "card_help",
    "cube_options",
    "explain_board",
    "explain_view",
    "geometry",
    "get_policy",
    "legal_actions",
    "new_game",
    "random_policy",
    "ranking",
    "record",
    "replay",
    "replay_record",
    "score_board",
    "score_sheet",
    "score_sheets",
    "solo_suns",
    "state_from_json",
    "state_to_json",
    "suns",
    "token_targets",
    "view_for",
    "warm_caches",
    "winners",
]
