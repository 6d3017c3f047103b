"""Since your last visit: what each other player did since this player last looked at the game.

The server remembers, per seat, the move number the player last saw (`Seat.seen_move`), so the
recap follows them across devices and email links. It compares each other seat's board as it
stood then (the stored `Board` row of their last turn end before it) with the board now, and says
in one line per player what changed: tokens placed, cards taken, cubes placed, points gained. The
hexes that changed are outlined on their boards. Once shown, it is seen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from games import engine
from games.models import Game, Seat
from games.svg import describe_stack


@dataclass
class Recap:
    """What one other player did since the viewer last looked."""

    name: str
    position: int
    cells: set[str] = field(default_factory=set)
    sentence: str = ""


def since_last_visit(game: Game, seats: list[Seat], viewer: Seat | None) -> list[Recap]:
    """One recap per other player whose board changed since `viewer` last saw the game."""
    if viewer is None or game.seed is None or viewer.seen_move >= game.move_count:
        return []
    state = game.engine_state()
    # One query: each seat's turn-end boards up to the last look, and the first turn's board,
    # whose presence says the game kept boards from its start (older games did not).
    rows = list(
        game.boards.filter(Q(move_seq__lte=viewer.seen_move) | Q(turn=0))
        .order_by("position", "-move_seq")
        .values_list("position", "turn", "move_seq", "player", "score")
    )
    complete = viewer.seen_move == 0 or any(turn == 0 for _, turn, *_ in rows)
    then: dict[int, tuple[engine.PlayerState, int]] = {}
    for position, _turn, move_seq, player, score in rows:
        if move_seq <= viewer.seen_move:
            then.setdefault(position, (engine.PlayerState.from_json(player), score["total"]))
    names = engine.geometry(game.side).names
    recaps = []
    for seat in sorted(seats, key=lambda s: s.position):
        if seat.pk == viewer.pk or seat.position is None:
            continue
        before = then.get(seat.position)
        if before is None:
            if not complete:
                continue  # a game from before boards were kept: nothing to compare with
            before = (_empty_player(state), 0)
        now = state.players[seat.position]
        recap = _compare(before, now, engine.score_sheet(state, seat.position).total, names)
        if recap is not None:
            recap.name, recap.position = seat.user.public_name, seat.position
            recaps.append(recap)
    return recaps


def mark_seen(viewer: Seat | None, game: Game) -> None:
    """The viewer has the game in front of them: everything up to now is seen (one UPDATE, and
    none when nothing happened since the last look)."""
    if viewer is not None and viewer.seen_move < game.move_count:
        Seat.objects.filter(pk=viewer.pk, seen_move__lt=game.move_count).update(
            seen_move=game.move_count
        )
        viewer.seen_move = game.move_count


def _empty_player(state: engine.GameState) -> engine.PlayerState:
    return engine.PlayerState(stacks=tuple(() for _ in state.players[0].stacks))


def _compare(
    before: tuple[engine.PlayerState, int], now: engine.PlayerState, total: int, names
) -> Recap | None:
    then, then_total = before
    changed = [i for i, stack in enumerate(now.stacks) if stack != then.stacks[i]]
    placed = sum(len(now.stacks[i]) - len(then.stacks[i]) for i in changed)
    held_then = {card for card, _ in then.cards} | set(then.completed)
    taken = [card for card, _ in now.cards if card not in held_then]
    taken += [card for card in now.completed if card not in held_then]
    cubes = bin(now.cube_mask & ~then.cube_mask).count("1")
    if not (changed or taken or cubes):
        return None
    parts = []
    if changed:
        what = ", ".join(describe_stack(now.stacks[i]) for i in changed)
        parts.append(f"{placed} token{'s' if placed != 1 else ''} ({what})")
    if taken:
        parts.append("took " + " and ".join(engine.card(card).name for card in taken))
    if cubes:
        parts.append(f"{cubes} cube{'s' if cubes != 1 else ''} placed")
    gained = total - then_total
    points = f"{gained:+d} point{'s' if abs(gained) != 1 else ''}"
    return Recap(
        name="",
        position=-1,
        cells={names[i] for i in changed} | _cube_cells(now.cube_mask & ~then.cube_mask, names),
        sentence=", ".join(parts) + f": {points}",
    )


def _cube_cells(mask: int, names) -> set[str]:
    return {names[i] for i in range(len(names)) if mask >> i & 1}
