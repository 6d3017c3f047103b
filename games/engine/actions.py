"""Actions: small immutable values with a JSON round-trip, and the errors for refused ones.

`action_from_json` only checks that the input is a well-formed action (it may come from a forged
web request); whether the action is allowed now is `rules.apply`'s business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import ANIMAL_CARD_IDS, SPIRIT_CARD_IDS
from .hexgrid import SIDES, geometry
from .tokens import COLOURS


class IllegalAction(Exception):
    """The action is not allowed now; the message says why, in words a player understands."""


class InvalidAction(IllegalAction):
    """The action is malformed: not an action at all, whatever the state."""


_ANIMALS = frozenset(ANIMAL_CARD_IDS)
_SPIRITS = frozenset(SPIRIT_CARD_IDS)
# Every cell name that exists on either side; a side-specific check happens in `rules.apply`.
_CELLS = frozenset(name for side in SIDES for name in geometry(side).names)
MAX_SPACES = 5


@dataclass(frozen=True)
class Action:
    """Base class: every action knows its JSON type name."""

    type: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True)
class ChooseSpirit(Action):
    """Keep one of the two dealt Nature's Spirit cards (first turn, before anything else)."""

    card_id: str
    type: ClassVar[str] = "choose_spirit"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "card_id": self.card_id}


@dataclass(frozen=True)
class TakeTokens(Action):
    """Take the 3 tokens of one central space (mandatory, once per turn)."""

    space: int
    type: ClassVar[str] = "take_tokens"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "space": self.space}


@dataclass(frozen=True)
class PlaceToken(Action):
    """Put one taken token of this colour on the cell named "col,row"."""

    colour: str
    cell: str
    type: ClassVar[str] = "place_token"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "colour": self.colour, "cell": self.cell}


@dataclass(frozen=True)
class TakeCard(Action):
    """Take one face-up animal card from the display (optional, once per turn)."""

    card_id: str
    type: ClassVar[str] = "take_card"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "card_id": self.card_id}


@dataclass(frozen=True)
class PlaceCube(Action):
    """Move the bottom-most cube of a held card (or the spirit cube) onto a habitat's cube hex."""

    card_id: str
    cell: str
    type: ClassVar[str] = "place_cube"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "card_id": self.card_id, "cell": self.cell}


@dataclass(frozen=True)
class ResetTurn(Action):
    """Undo everything done since the start of this turn (§0 D8)."""

    type: ClassVar[str] = "reset_turn"


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn. In solo, `discard` names a display card to discard on the way (§6.3)."""

    discard: str | None = None
    type: ClassVar[str] = "end_turn"

    def to_json(self) -> dict[str, Any]:
        if self.discard is None:
            return {"type": self.type}
        return {"type": self.type, "discard": self.discard}


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (ChooseSpirit, TakeTokens, PlaceToken, TakeCard, PlaceCube, ResetTurn, EndTurn)
}
_KEYS = {
    "choose_spirit": ({"card_id"}, set()),
    "take_tokens": ({"space"}, set()),
    "place_token": ({"colour", "cell"}, set()),
    "take_card": ({"card_id"}, set()),
    "place_cube": ({"card_id", "cell"}, set()),
    "reset_turn": (set(), set()),
    "end_turn": (set(), {"discard"}),
}


def _cell(value: object) -> str:
    if not isinstance(value, str) or value not in _CELLS:
        raise InvalidAction(f'unknown hex {_show(value)}: hexes are named "col,row", like "2,1"')
    return value


def _card(value: object, allowed: frozenset[str], what: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidAction(f"unknown {what} {_show(value)}")
    return value


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def action_from_json(obj: object) -> Action:
    """Build an action from its JSON form; raise InvalidAction naming what is wrong."""
    if not isinstance(obj, dict):
        raise InvalidAction("an action must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise InvalidAction(f"unknown action type {_show(kind)}")
    required, optional = _KEYS[kind]
    keys = set(obj) - {"type"}
    missing = required - keys
    if missing:
        raise InvalidAction(f"{kind} needs {', '.join(sorted(missing))}")
    extra = keys - required - optional
    if extra:
        raise InvalidAction(f"{kind} does not take {', '.join(sorted(map(_show, extra)))}")
    if kind == "choose_spirit":
        return ChooseSpirit(_card(obj["card_id"], _SPIRITS, "Nature's Spirit card"))
    if kind == "take_tokens":
        space = obj["space"]
        if type(space) is not int or not 0 <= space < MAX_SPACES:
            raise InvalidAction(f"central spaces are numbered 0 to 4, not {_show(space)}")
        return TakeTokens(space)
    if kind == "place_token":
        colour = obj["colour"]
        if not isinstance(colour, str) or colour not in COLOURS:
            raise InvalidAction(f"unknown token colour {_show(colour)}")
        return PlaceToken(colour, _cell(obj["cell"]))
    if kind == "take_card":
        return TakeCard(_card(obj["card_id"], _ANIMALS, "animal card"))
    if kind == "place_cube":
        card_id = _card(obj["card_id"], _ANIMALS | _SPIRITS, "card")
        return PlaceCube(card_id, _cell(obj["cell"]))
    if kind == "reset_turn":
        return ResetTurn()
    discard = obj.get("discard")
    if discard is not None:
        discard = _card(discard, _ANIMALS, "animal card")
    return EndTurn(discard)
