"""The newest moves of a game, kept on the game's own row beside its state.

Why: the game page's log is the newest 25 moves, and reading them was a query of its own for the
first viewer of each version (issue 16: a first look cost 6 queries against a budget of 5). The
one writer already saves the game row after every logged move, so it keeps them there too; the
page then reads its log from the row it loaded anyway. The `Move` table stays the log itself.

Safe by construction: the kept list is used only when its newest move is the game's last one and
it holds as many moves as the page shows (a path that logged moves without keeping them, or a
game logged before this was kept, is read from the `Move` table instead). A list that falls
behind starts again from the next move and is whole again 25 moves later.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from games.models import Game, Move

KEPT = 25  # the game page's log (games.presenters.game.LOG_LENGTH)

# (seq, seat, turn, action, detail, created_at): the columns the log is written from.
Row = tuple[int, int, int, dict, dict, datetime]


def remember(game: Game, moves: Sequence[Move]) -> None:
    """Put `moves`, just logged in order, on top of the kept list (the caller saves the game).
    One JSON array a line, newest first: a move adds lines and cuts the oldest without parsing
    the others."""
    if not moves:
        return
    kept = game.recent_moves.split("\n", KEPT)[:KEPT] if game.recent_moves else []
    if kept and _seq(kept[0]) != moves[0].seq - 1:
        kept = []  # not the moves just before these: start again from here
    new = [
        json.dumps(
            [m.seq, m.seat, m.turn, m.action, m.detail, m.created_at.isoformat()],
            separators=(",", ":"),
        )
        for m in reversed(moves)
    ]
    game.recent_moves = "\n".join((new + kept)[:KEPT])


def newest(game: Game, limit: int) -> list[Row] | None:
    """The newest `limit` moves (at most KEPT), newest first, or None when the kept list cannot
    tell them."""
    if not game.recent_moves or limit > KEPT:
        return None
    kept = game.recent_moves.split("\n", limit)[:limit]
    if _seq(kept[0]) != game.move_count or len(kept) < min(limit, game.move_count):
        return None
    try:
        rows = json.loads(f"[{','.join(kept)}]")
    except ValueError:
        return None
    return [
        (seq, seat, turn, action, detail, datetime.fromisoformat(at))
        for seq, seat, turn, action, detail, at in rows
    ]


def _seq(line: str) -> int:
    """The move number a kept line starts with; -1 for a line this module did not write, so
    that it is never used (a move must not fail on the copy)."""
    try:
        return int(line[1 : line.index(",")])
    except ValueError:
        return -1
