"""The move log in words: "Bob took 3 tokens from space 2 (blue, gray, yellow)".

What a move did that its action alone does not say (which tokens were taken, whether a card was
completed) is recorded in `Move.detail` when the move is made, from public information only.
"""

from __future__ import annotations

from typing import Any

from games import engine
from games.engine.tokens import TOKEN_NAMES

# "a water token (blue)": the landscape and the colour, so both kinds of player recognise the
# token; "a building token" once placed alone is no building yet (rules 4.2), so it says token.
COLOUR_WORDS = {colour: f"{name} ({colour})" for colour, name in TOKEN_NAMES.items()}


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
    return f"column {column + 1}, {ordinal(row + 1)} from the top"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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
    """One sentence for one move of the log."""
    if detail.get("stand_in") and "requested_by" not in detail:
        name = f"A stand-in for {name} (whose time ran out)"
    elif detail.get("stand_in"):
        name = f"A stand-in for {name} (asked by {detail['requested_by']})"
    elif detail.get("automatic") and not detail.get("bot"):
        name = f"A stand-in for {name}"
    kind = action.get("type")
    if kind == "resign":
        return f"{name} resigned."
    if kind == "drop":
        return f"{name} ran out of time and was dropped from the game."
    if kind == "end_game":
        return f"{name} ended the game: the turn's time limit had passed."
    if kind == "take_tokens":
        tokens = ", ".join(detail.get("tokens", ()))
        return f"{name} took the tokens of space {action['space'] + 1} ({tokens})."
    if kind == "place_token":
        return f"{name} placed {COLOUR_WORDS[action['colour']]} in {cell_words(action['cell'])}."
    if kind == "take_card":
        return f"{name} took the {_card_name(action['card_id'])} card."
    if kind == "place_cube":
        card = _card_name(action["card_id"])
        text = f"{name} placed a cube from {card} in {cell_words(action['cell'])}"
        return text + (", completing the card." if detail.get("completed") else ".")
    if kind == "choose_spirit":
        return f"{name} chose the {_card_name(action['card_id'])} Nature's Spirit."
    if kind == "reset_turn":
        return f"{name} started the turn over."
    if kind == "end_turn":
        text = f"{name} ended the turn"
        if action.get("discard"):
            text += f", discarding {_card_name(action['discard'])} from the display"
        if detail.get("game_over"):
            return text + ". The game is over."
        if detail.get("last_round"):
            return text + ". This is the last round!"
        return text + "."
    return f"{name} made a move."


def _card_name(card_id: str) -> str:
    try:
        return engine.card(card_id).name
    except engine.UnknownCard:
        return card_id


# --- How a game ended, and its stored ranking, in words -------------------------------------------


def points(n: int | None) -> str:
    """ "1 point", "0 points", "12 points"."""
    return f"{n} point" if n == 1 else f"{n} points"


def round_of(turn_number: int, players: int) -> int:
    """The round a player counts for the engine's turn number `turn_number` (1 for the first
    turn): every player plays once a round, so turn 8 of four players is round 2."""
    return (turn_number - 1) // max(players, 1) + 1


def end_words(game: Any, seats: list[Any]) -> str:
    """Why the game is over, from what the writer stored: "Bob resigned in round 4." Reads the
    game's `end_reason`, `ended_by` and `ended_on_turn`, never the engine."""
    by_id = {seat.pk: seat for seat in seats}
    who = by_id.get(game.ended_by_id)
    name = who.user.public_name if who is not None else "a player"
    on_turn = (
        f" in round {round_of(game.ended_on_turn, game.players)}" if game.ended_on_turn else ""
    )
    reason = game.end_reason
    if reason == "":
        return "The game was played to its end."
    if who is not None and who.resigned_at is not None:
        leaving = f"{name} resigned{on_turn}"
    elif who is not None and who.dropped_at is not None:
        leaving = f"{name} ran out of time{on_turn} and was dropped"
    elif reason in ("ended", "abandoned") and who is not None and who.timed_out_at is not None:
        leaving = f"the game was ended after {name}'s turn ran out of time"
    else:
        leaving = "the game ended early"
    leaving = leaving[:1].upper() + leaving[1:]
    if reason == "abandoned":  # why it counts for nothing: games.results.counting_sentence
        early = "3 turns were played" if game.players == 1 else "everyone had played 3 turns"
        return f"{leaving}, before {early}: the game was abandoned."
    if reason in ("resigned", "timed_out"):
        if game.players == 1:
            return f"{leaving}."
        return f"{leaving}, which ended the game: the boards were scored as they stood."
    if game.players == 1:
        return f"{leaving}; the board was scored as it stood."
    return f"{leaving}; the boards were scored as they stood."


def seat_mark(seat: Any) -> str:
    """What the ranking says beside a player who left: resigned, dropped or timed out."""
    if seat.resigned_at is not None:
        return "resigned"
    if seat.dropped_at is not None:
        return "dropped"
    if seat.timed_out_at is not None:
        return "timed out"
    return ""
