"""The game state: immutable values that round-trip exactly through canonical JSON.

A state holds everything the rules need and nothing else: no random generator (the pouch and the
animal deck are shuffled once by `new_game`), so the same seed and the same actions always give
byte-identical JSON. Hidden parts (pouch order, deck order, undisclosed spirit options) live here
too; `view.view_for` removes them before anything reaches a player.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .hexgrid import SIDES, geometry
from .tokens import COLOURS, Stack

MAX_PLAYERS = 4
SOLO_SPACES = 3
MULTI_SPACES = 5
SOLO_DISPLAY = 3
MULTI_DISPLAY = 5
CARD_LIMIT = 4
TOKENS_PER_SPACE = 3
SPIRITS_DEALT = 2


class StateFormatError(ValueError):
    """A state JSON document that this engine did not write (or that was tampered with)."""


def evolve(obj: Any, **changes: Any) -> Any:
    """Copy a frozen dataclass with some fields changed.

    Much faster than `dataclasses.replace` (no __init__, no per-field setattr): the engine makes
    a few of these per action, and random simulations make millions.
    """
    new = object.__new__(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.update(changes)
    return new


@dataclass(frozen=True)
class GameConfig:
    """What is chosen before the game: player count, board side, Nature's Spirit module."""

    players: int = 2
    side: str = "A"
    spirits: bool = False

    def __post_init__(self) -> None:
        if type(self.players) is not int or not 1 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"a game has 1 to {MAX_PLAYERS} players, not {self.players!r}")
        if self.side not in SIDES:
            raise ValueError(f"the board side is 'A' or 'B', not {self.side!r}")
        if type(self.spirits) is not bool:
            raise ValueError("spirits must be true or false")

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def spaces(self) -> int:
        """Number of spaces on the central board (3 on the solo side)."""
        return SOLO_SPACES if self.players == 1 else MULTI_SPACES

    @property
    def display_size(self) -> int:
        return SOLO_DISPLAY if self.players == 1 else MULTI_DISPLAY

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "side": self.side, "spirits": self.spirits}

    @classmethod
    def from_json(cls, obj: object) -> GameConfig:
        """Read a config written by `to_json`; raise ValueError naming what is wrong."""
        if not isinstance(obj, dict):
            raise ValueError("the game config must be a JSON object")
        extra = set(obj) - {"players", "side", "spirits"}
        if extra:
            raise ValueError(f"unknown config keys: {', '.join(sorted(map(str, extra)))}")
        return cls(
            players=obj.get("players", 2),
            side=obj.get("side", "A"),
            spirits=obj.get("spirits", False),
        )


@dataclass(frozen=True)
class PlayerState:
    """One player's board and cards.

    `stacks` is indexed like the side's geometry (bottom -> top colours, () is an empty hex);
    bit i of `cube_mask` is set when cell i carries a cube (animal or spirit). `cards` are the
    uncompleted animal cards above the board with the number of cubes already moved to the board;
    completed cards move to `completed`. The spirit card stays in `spirit` (its cube placed or not);
    `spirit_options` are the two dealt cards until one is kept.
    """

    stacks: tuple[Stack, ...]
    cube_mask: int = 0
    cards: tuple[tuple[str, int], ...] = ()
    completed: tuple[str, ...] = ()
    spirit_options: tuple[str, ...] = ()
    spirit: str | None = None
    spirit_placed: bool = False
    turns: int = 0

    @property
    def cards_held(self) -> int:
        """Cards counting toward the 4-card limit: uncompleted animals and an unplaced spirit."""
        return len(self.cards) + (1 if self.spirit is not None and not self.spirit_placed else 0)

    @property
    def empty_hexes(self) -> int:
        return sum(1 for s in self.stacks if not s)

    def to_json(self) -> dict[str, Any]:
        return {
            "stacks": [list(s) for s in self.stacks],
            "cube_mask": self.cube_mask,
            "cards": [[c, k] for c, k in self.cards],
            "completed": list(self.completed),
            "spirit_options": list(self.spirit_options),
            "spirit": self.spirit,
            "spirit_placed": self.spirit_placed,
            "turns": self.turns,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> PlayerState:
        return cls(
            stacks=tuple(tuple(s) for s in obj["stacks"]),
            cube_mask=obj["cube_mask"],
            cards=tuple((c, k) for c, k in obj["cards"]),
            completed=tuple(obj["completed"]),
            spirit_options=tuple(obj["spirit_options"]),
            spirit=obj["spirit"],
            spirit_placed=obj["spirit_placed"],
            turns=obj["turns"],
        )


@dataclass(frozen=True)
class TurnStart:
    """What the mover's turn started from, kept for the turn reset (§0 D8).

    The pouch and the deck never change during a turn (refills happen after it ends), so the
    mover's player state, the central board and the display are enough.
    """

    player: PlayerState
    central: tuple[tuple[str, ...], ...]
    display: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player.to_json(),
            "central": [list(s) for s in self.central],
            "display": list(self.display),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> TurnStart:
        return cls(
            player=PlayerState.from_json(obj["player"]),
            central=tuple(tuple(s) for s in obj["central"]),
            display=tuple(obj["display"]),
        )


@dataclass(frozen=True)
class GameState:
    """The whole game between two actions.

    `central` holds the tokens on each central space (() once taken or left unfilled); `pouch`
    and `deck` are drawn from the front. During a turn, `taken_space` is the space the mover took
    (None before), `hand` the taken tokens not placed yet, `took_card` whether the once-per-turn
    card take was used, and `turn_start` the snapshot for a reset (None until the turn's first
    action, so a reset is offered only when something happened). `ending` is set once the end
    is triggered (final round); `finished` when the game is over.
    """

    config: GameConfig
    players: tuple[PlayerState, ...]
    central: tuple[tuple[str, ...], ...]
    pouch: tuple[str, ...]
    display: tuple[str, ...]
    deck: tuple[str, ...]
    first_seat: int = 0
    current_seat: int = 0
    turn: int = 0
    hand: tuple[str, ...] = ()
    taken_space: int | None = None
    took_card: bool = False
    turn_start: TurnStart | None = None
    discarded_tokens: int = 0
    discarded_cards: tuple[str, ...] = ()
    ending: bool = False
    finished: bool = False

    @property
    def mover(self) -> PlayerState:
        return self.players[self.current_seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "config": self.config.to_json(),
            "players": [p.to_json() for p in self.players],
            "central": [list(s) for s in self.central],
            "pouch": list(self.pouch),
            "display": list(self.display),
            "deck": list(self.deck),
            "first_seat": self.first_seat,
            "current_seat": self.current_seat,
            "turn": self.turn,
            "hand": list(self.hand),
            "taken_space": self.taken_space,
            "took_card": self.took_card,
            "turn_start": None if self.turn_start is None else self.turn_start.to_json(),
            "discarded_tokens": self.discarded_tokens,
            "discarded_cards": list(self.discarded_cards),
            "ending": self.ending,
            "finished": self.finished,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> GameState:
        ts = obj["turn_start"]
        return cls(
            config=GameConfig.from_json(obj["config"]),
            players=tuple(PlayerState.from_json(p) for p in obj["players"]),
            central=tuple(tuple(s) for s in obj["central"]),
            pouch=tuple(obj["pouch"]),
            display=tuple(obj["display"]),
            deck=tuple(obj["deck"]),
            first_seat=obj["first_seat"],
            current_seat=obj["current_seat"],
            turn=obj["turn"],
            hand=tuple(obj["hand"]),
            taken_space=obj["taken_space"],
            took_card=obj["took_card"],
            turn_start=None if ts is None else TurnStart.from_json(ts),
            discarded_tokens=obj["discarded_tokens"],
            discarded_cards=tuple(obj["discarded_cards"]),
            ending=obj["ending"],
            finished=obj["finished"],
        )


def state_to_json(state: GameState) -> str:
    """Canonical JSON: the same state always gives the same bytes (sorted keys, no spaces)."""
    return json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))


def state_from_json(text: str | bytes | dict[str, Any]) -> GameState:
    """Read a state written by `state_to_json`; raise StateFormatError if it is not one."""
    try:
        obj = json.loads(text) if isinstance(text, str | bytes) else text
        state = GameState.from_json(obj)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StateFormatError(f"not a Harmonies game state: {exc}") from exc
    _check_shape(state)
    return state


def _check_shape(state: GameState) -> None:
    """Cheap sanity checks so a damaged stored state fails loudly rather than oddly later."""
    n = state.config.players
    size = geometry(state.config.side).size
    if len(state.players) != n:
        raise StateFormatError(f"expected {n} players, found {len(state.players)}")
    if len(state.central) != state.config.spaces:
        raise StateFormatError("wrong number of central spaces")
    if not 0 <= state.current_seat < n or not 0 <= state.first_seat < n:
        raise StateFormatError("seat out of range")
    for p in state.players:
        if len(p.stacks) != size:
            raise StateFormatError(f"a side-{state.config.side} board has {size} hexes")
        for s in p.stacks:
            for colour in s:
                if colour not in COLOURS:
                    raise StateFormatError(f"unknown token colour {colour!r}")
