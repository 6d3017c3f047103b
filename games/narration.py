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
    if detail.get("stand_in"):
        name = f"A stand-in for {name} (asked by {detail.get('requested_by', 'another player')})"
    elif detail.get("automatic") and not detail.get("bot"):
        name = f"A stand-in for {name}"
    kind = action.get("type")
    if kind == "resign":
        return f"{name} resigned."
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
