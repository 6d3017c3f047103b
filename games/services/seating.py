"""Where each player sits when a table starts: at random, or for a rematch in turn.

A rematch keeps the old game's order round the table and passes the first turn on: the player
who played second last time plays first now, and so on round the table. The engine draws the
first seat from the seed, so the rotated order is laid out from that seat onwards.
"""

from __future__ import annotations

import random

from games.models import Game, Seat


def seating_order(game: Game, seats: list[Seat]) -> list[Seat]:
    """The seats in playing order: shuffled, or a rematch's rotated order (anyone new, who
    came by the table's link, after the old players, in random order)."""
    rng = random.SystemRandom()
    seats = list(seats)
    rng.shuffle(seats)
    old = game.rematch_of
    if old is None or not old.state:
        return seats
    n = old.players
    first = old.engine_state().first_seat
    # Old turn order from its second player: (position - first - 1) mod n.
    turn_of = {s.user_id: (s.position - first - 1) % n for s in old.seats.all()}
    return sorted(seats, key=lambda s: turn_of.get(s.user_id, n))


def positions(game: Game, ordered: list[Seat], first_seat: int) -> None:
    """Number the seats: a rematch's playing order starts at the engine's first seat."""
    offset = first_seat if game.rematch_of_id else 0
    for index, seat in enumerate(ordered):
        seat.position = (offset + index) % len(ordered)
