"""The move log in words: "Bob took 3 tokens from space 2 (blue, gray, yellow)".

What a move did that its action alone does not say (which tokens were taken, whether a card was
completed) is recorded in `Move.detail` when the move is made, from public information only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext

from games import engine

# "a water token (blue)": the landscape and the colour, so both kinds of player recognise the
# token; "a building token" once placed alone is no building yet (rules 4.2), so it says token.
# Kept in English and translated where shown (the reader's language, not the process's).
_TOKEN_WORDS = {
    "blue": gettext_noop("a water token (blue)"),
    "gray": gettext_noop("a mountain token (gray)"),
    "brown": gettext_noop("a trunk token (brown)"),
    "green": gettext_noop("a foliage token (green)"),
    "yellow": gettext_noop("a field token (yellow)"),
    "red": gettext_noop("a building token (red)"),
}
# What a token is, alone: "water (blue)" (a token's picture, the plan pad's colours).
_TOKEN_LABELS = {
    "blue": gettext_noop("water (blue)"),
    "gray": gettext_noop("mountain (gray)"),
    "brown": gettext_noop("trunk (brown)"),
    "green": gettext_noop("foliage (green)"),
    "yellow": gettext_noop("field (yellow)"),
    "red": gettext_noop("building (red)"),
}
_TOKEN_KINDS = {
    "blue": gettext_noop("water"),
    "gray": gettext_noop("mountain"),
    "brown": gettext_noop("trunk"),
    "green": gettext_noop("foliage"),
    "yellow": gettext_noop("field"),
    "red": gettext_noop("building"),
}


def colour_name(colour: str) -> str:
    """A token colour's own word ("blue") in the reader's language."""
    names = {
        "blue": pgettext("token colour", "blue"),
        "gray": pgettext("token colour", "gray"),
        "brown": pgettext("token colour", "brown"),
        "green": pgettext("token colour", "green"),
        "yellow": pgettext("token colour", "yellow"),
        "red": pgettext("token colour", "red"),
    }
    return names.get(colour, colour)


def token_label(colour: str) -> str:
    """ "water (blue)", in the reader's language."""
    return _(_TOKEN_LABELS[colour]) if colour in _TOKEN_LABELS else colour


def token_kind(colour: str) -> str:
    """ "water", "foliage": what a token of `colour` is, in the reader's language."""
    return _(_TOKEN_KINDS[colour]) if colour in _TOKEN_KINDS else colour


class _Translated(Mapping):
    """A colour's words, translated when read: the same dict for every language."""

    def __init__(self, words: dict[str, str]) -> None:
        self._words = words

    def __getitem__(self, colour: str) -> str:
        return _(self._words[colour])

    def __iter__(self):
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)


COLOUR_WORDS: Mapping[str, str] = _Translated(_TOKEN_WORDS)


def cell_words(cell: str) -> str:
    """A hex as a player finds it on the board: "column 2, 3rd from the top".

    Cells are named "column,row" from 0 (the engine's names); players count columns from the left
    and hexes down a column, which needs no drawn coordinates.
    """
    try:
        column, row = (int(part) for part in str(cell).split(","))
    except ValueError:
        return str(cell)
    if column < 0 or row < 0:
        return str(cell)
    return _("column %(column)s, %(place)s from the top") % {
        "column": column + 1,
        "place": ordinal(row + 1),
    }


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return pgettext("ordinal", "%(n)sth") % {"n": n}
    if n % 10 == 1:
        return pgettext("ordinal", "%(n)sst") % {"n": n}
    if n % 10 == 2:
        return pgettext("ordinal", "%(n)snd") % {"n": n}
    if n % 10 == 3:
        return pgettext("ordinal", "%(n)srd") % {"n": n}
    return pgettext("ordinal", "%(n)sth") % {"n": n}


def move_detail(
    before: engine.GameState, action: engine.Action, after: engine.GameState
) -> dict[str, Any]:
    """Public facts about a move, kept beside it so the log can be told without replaying."""
    if isinstance(action, engine.TakeTokens):
        return {"tokens": list(before.central[action.space])}
    if isinstance(action, engine.PlaceCube):
        seat = before.current_seat
        return {"completed": action.card_id in after.players[seat].completed}
    if isinstance(action, engine.EndTurn):
        detail: dict[str, Any] = {}
        if after.finished:
            detail["game_over"] = True
        elif after.ending and not before.ending:
            detail["last_round"] = True
        return detail
    return {}


def describe(action: dict[str, Any], detail: dict[str, Any], name: str) -> str:
    """One sentence for one move of the log, in the active language."""
    if detail.get("stand_in") and "requested_by" not in detail:
        name = _("A stand-in for %(name)s (whose time ran out)") % {"name": name}
    elif detail.get("stand_in"):
        name = _("A stand-in for %(name)s (asked by %(asker)s)") % {
            "name": name,
            "asker": detail["requested_by"],
        }
    elif detail.get("automatic") and not detail.get("bot"):
        name = _("A stand-in for %(name)s") % {"name": name}
    kind = action.get("type")
    if kind == "resign":
        return _("%(name)s resigned.") % {"name": name}
    if kind == "drop":
        return _("%(name)s ran out of time and was dropped from the game.") % {"name": name}
    if kind == "end_game":
        return _("%(name)s ended the game: the turn's time limit had passed.") % {"name": name}
    if kind == "take_tokens":
        tokens = ", ".join(colour_name(colour) for colour in detail.get("tokens", ()))
        return _("%(name)s took the tokens of space %(space)s (%(tokens)s).") % {
            "name": name,
            "space": action["space"] + 1,
            "tokens": tokens,
        }
    if kind == "place_token":
        return _("%(name)s placed %(token)s in %(hex)s.") % {
            "name": name,
            "token": COLOUR_WORDS[action["colour"]],
            "hex": cell_words(action["cell"]),
        }
    if kind == "take_card":
        return _("%(name)s took the %(card)s card.") % {
            "name": name,
            "card": _card_name(action["card_id"]),
        }
    if kind == "place_cube":
        values = {
            "name": name,
            "card": _card_name(action["card_id"]),
            "hex": cell_words(action["cell"]),
        }
        if detail.get("completed"):
            return _("%(name)s placed a cube from %(card)s in %(hex)s, completing the card.") % (
                values
            )
        return _("%(name)s placed a cube from %(card)s in %(hex)s.") % values
    if kind == "choose_spirit":
        return _("%(name)s chose the %(card)s Nature's Spirit.") % {
            "name": name,
            "card": _card_name(action["card_id"]),
        }
    if kind == "reset_turn":
        return _("%(name)s started the turn over.") % {"name": name}
    if kind == "end_turn":
        values = {"name": name}
        if action.get("discard"):
            values["card"] = _card_name(action["discard"])
            if detail.get("game_over"):
                return (
                    _(
                        "%(name)s ended the turn, discarding %(card)s from the display. "
                        "The game is over."
                    )
                    % values
                )
            if detail.get("last_round"):
                return (
                    _(
                        "%(name)s ended the turn, discarding %(card)s from the display. "
                        "This is the last round!"
                    )
                    % values
                )
            return _("%(name)s ended the turn, discarding %(card)s from the display.") % values
        if detail.get("game_over"):
            return _("%(name)s ended the turn. The game is over.") % values
        if detail.get("last_round"):
            return _("%(name)s ended the turn. This is the last round!") % values
        return _("%(name)s ended the turn.") % values
    return _("%(name)s made a move.") % {"name": name}


def _card_name(card_id: str) -> str:
    try:
        return _(engine.card(card_id).name)
    except engine.UnknownCard:
        return card_id


# --- How a game ended, and its stored ranking, in words -------------------------------------------


def points(n: int | None) -> str:
    """ "1 point", "0 points", "12 points"."""
    return ngettext("%(num)s point", "%(num)s points", n or 0) % {"num": n}


def round_of(turn_number: int, players: int) -> int:
    """The round a player counts for the engine's turn number `turn_number` (1 for the first
    turn): every player plays once a round, so turn 8 of four players is round 2."""
    return (turn_number - 1) // max(players, 1) + 1


def end_words(game: Any, seats: list[Any]) -> str:
    """Why the game is over, from what the writer stored: "Bob resigned in round 4." Reads the
    game's `end_reason`, `ended_by` and `ended_on_turn`, never the engine."""
    by_id = {seat.pk: seat for seat in seats}
    who = by_id.get(game.ended_by_id)
    name = who.user.public_name if who is not None else _("a player")
    round_number = round_of(game.ended_on_turn, game.players) if game.ended_on_turn else None
    reason = game.end_reason
    if reason == "":
        return _("The game was played to its end.")
    values = {"name": name, "round": round_number}
    if who is not None and who.resigned_at is not None:
        if round_number:
            leaving = _("%(name)s resigned in round %(round)s") % values
        else:
            leaving = _("%(name)s resigned") % values
    elif who is not None and who.dropped_at is not None:
        if round_number:
            leaving = _("%(name)s ran out of time in round %(round)s and was dropped") % values
        else:
            leaving = _("%(name)s ran out of time and was dropped") % values
    elif reason in ("ended", "abandoned") and who is not None and who.timed_out_at is not None:
        leaving = _("the game was ended after %(name)s's turn ran out of time") % values
    else:
        leaving = _("the game ended early")
    leaving = leaving[:1].upper() + leaving[1:]
    if reason == "abandoned":  # why it counts for nothing: games.results.counting_sentence
        if game.players == 1:
            return _("%(leaving)s, before 3 turns were played: the game was abandoned.") % {
                "leaving": leaving
            }
        return _("%(leaving)s, before everyone had played 3 turns: the game was abandoned.") % {
            "leaving": leaving
        }
    if reason in ("resigned", "timed_out"):
        if game.players == 1:
            return _("%(leaving)s.") % {"leaving": leaving}
        return _("%(leaving)s, which ended the game: the boards were scored as they stood.") % {
            "leaving": leaving
        }
    if game.players == 1:
        return _("%(leaving)s; the board was scored as it stood.") % {"leaving": leaving}
    return _("%(leaving)s; the boards were scored as they stood.") % {"leaving": leaving}


def seat_mark(seat: Any) -> str:
    """What the ranking says beside a player who left: resigned, dropped or timed out."""
    if seat.resigned_at is not None:
        return pgettext("ranking mark", "resigned")
    if seat.dropped_at is not None:
        return pgettext("ranking mark", "dropped")
    if seat.timed_out_at is not None:
        return pgettext("ranking mark", "timed out")
    return ""
