"""Since your last visit: what each other player did since this player last looked at the game.

The server remembers, per seat, the move number the player last saw (`Seat.seen_move`) and the
other players' boards as the page showed them then (`Seat.seen_boards`, written by the same
UPDATE), so the recap follows them across devices and email links and costs no query of its
own. It compares each other seat's board as the player last saw it with the board now, and says
in one line per player what changed: tokens placed, cards taken, cubes placed, points gained. The
hexes that changed are outlined on their boards. Once shown, it is seen.

A look from before boards were kept with the seat (no `seen_boards`) is compared with the stored
`Board` row of each seat's last turn end before it, as it was then; one query.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.models import Game, Seat
from games.pictures.boards import describe_stack


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
    if viewer.seen_boards:
        then, complete = _read_seen_boards(viewer.seen_boards), False
    elif viewer.seen_move == 0:
        then, complete = {}, True  # never looked: everything on the boards is new
    else:
        then, complete = _turn_end_boards(game, viewer.seen_move)
    return _recaps(game, seats, viewer, then, complete)


def since_move(game: Game, seats: list[Seat], viewer: Seat, move_seq: int) -> list[Recap]:
    """One recap per other player whose board changed since move `move_seq` (for the turn
    email: the end of the viewer's own last turn; 0 before they had one)."""
    if game.seed is None:
        return []
    then, complete = _turn_end_boards(game, move_seq) if move_seq else ({}, True)
    return _recaps(game, seats, viewer, then, complete)


def _recaps(
    game: Game,
    seats: list[Seat],
    viewer: Seat,
    then: dict[int, tuple[engine.PlayerState, int]],
    complete: bool,
) -> list[Recap]:
    """Each other seat's board now compared with `then` (a seat missing from it is compared
    with an empty board when `complete`, else left out)."""
    state = game.engine_state()
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
        recap = _compare(before, now, game.score_sheets()[seat.position].total, names)
        if recap is not None:
            recap.name, recap.position = seat.user.public_name, seat.position
            recaps.append(recap)
    return recaps


def mark_seen(viewer: Seat | None, game: Game) -> None:
    """The viewer has the game in front of them: everything up to now is seen, and the others'
    boards as they are now are what the next recap compares with (one UPDATE, and none when
    nothing happened since the last look)."""
    if viewer is None or viewer.seen_move >= game.move_count:
        return
    kept = ""
    if game.seed is not None:
        kept = seen_boards(game.engine_state(), viewer.position, game.score_sheets())
    Seat.objects.filter(pk=viewer.pk, seen_move__lt=game.move_count).update(
        seen_move=game.move_count, seen_boards=kept
    )
    viewer.seen_move, viewer.seen_boards = game.move_count, kept


def seen_boards(
    state: engine.GameState,
    viewer_position: int,
    sheets: Sequence[engine.ScoreSheet] | None = None,
) -> str:
    """The other players' boards and points in `state` (`sheets` its score sheets, when known),
    as `Seat.seen_boards` keeps them: only what the table sees (the spirit cards a player was
    dealt and has not chosen from stay out)."""
    sheets = sheets or engine.score_sheets(state)
    others = {
        position: [{**player.to_json(), "spirit_options": []}, sheets[position].total]
        for position, player in enumerate(state.players)
        if position != viewer_position
    }
    return json.dumps(others, separators=(",", ":"))


def _read_seen_boards(text: str) -> dict[int, tuple[engine.PlayerState, int]]:
    return {
        int(position): (engine.PlayerState.from_json(player), total)
        for position, (player, total) in json.loads(text).items()
    }


def _turn_end_boards(
    game: Game, seen_move: int
) -> tuple[dict[int, tuple[engine.PlayerState, int]], bool]:
    """Each seat's board at its last turn end up to `seen_move`, and whether the game kept
    boards from its start (its first turn's rows; older games did not), in one query."""
    rows = list(
        game.boards.filter(Q(move_seq__lte=seen_move) | Q(turn=0))
        .order_by("position", "-move_seq")
        .values_list("position", "turn", "move_seq", "player", "score")
    )
    complete = any(turn == 0 for _, turn, *_ in rows)
    then: dict[int, tuple[engine.PlayerState, int]] = {}
    for position, _turn, move_seq, player, score in rows:
        if move_seq <= seen_move:
            then.setdefault(position, (engine.PlayerState.from_json(player), score["total"]))
    return then, complete


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
        parts.append(
            ngettext("%(num)s token (%(what)s)", "%(num)s tokens (%(what)s)", placed)
            % {"num": placed, "what": what}
        )
    if taken:
        card_names = [_(engine.card(card).name) for card in taken]
        cards = card_names[0]
        for name in card_names[1:]:
            cards = _("%(first)s and %(second)s") % {"first": cards, "second": name}
        parts.append(_("took %(cards)s") % {"cards": cards})
    if cubes:
        parts.append(
            ngettext("%(num)s cube placed", "%(num)s cubes placed", cubes) % {"num": cubes}
        )
    gained = total - then_total
    points = ngettext("%(num)s point", "%(num)s points", abs(gained)) % {"num": f"{gained:+d}"}
    return Recap(
        name="",
        position=-1,
        cells={names[i] for i in changed} | _cube_cells(now.cube_mask & ~then.cube_mask, names),
        sentence=_("%(changes)s: %(points)s") % {"changes": ", ".join(parts), "points": points},
    )


def _cube_cells(mask: int, names) -> set[str]:
    return {names[i] for i in range(len(names)) if mask >> i & 1}
