"""When each game in progress will likely end, for My games, from the players' real pace.

The method, kept simple so that it can be said in a sentence: each seat's pace is the median time
its turns have taken in this game (from the end of the turn before to the end of its own, read
from the move log), and the turns still to play are the writer's estimate stored with every new
turn (`Game.turns_left`, from games.clocks.turns_left). The turns left are walked in seat order
from the one in progress, each taking its seat's pace (the turn in progress its pace less the time
it has already taken); a turn of a player away starts at their return. The median shrugs off one
long absence; a seat with fewer than `MIN_TURNS` timed turns gives "not enough turns yet" rather
than a guess.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta, tzinfo
from statistics import median

from django.db.models import Max

from games import clocks
from games.models import Game, Move
from games.models.history import SITE_EVENTS

MIN_TURNS = 2
NOT_YET = "end date: not enough turns yet"


def end_forecasts(games: list[Game], zone: tzinfo, now: datetime) -> dict[int, str]:
    """Game id -> "ends about 12 Dec" (or NOT_YET) for the active games among `games`, in one query
    whatever their number."""
    active = [g for g in games if g.status == Game.Status.ACTIVE]
    if not active:
        return {}
    turn_ends = (
        Move.objects.filter(game__in=[g.pk for g in active])
        .exclude(action__type__in=sorted(SITE_EVENTS))
        .values_list("game_id", "turn", "seat")
        .annotate(end=Max("created_at"))
        .order_by()
    )
    ends: dict[int, list[tuple[int, int, datetime]]] = defaultdict(list)
    for game_id, turn, seat, end in turn_ends:
        ends[game_id].append((turn, seat, end))
    return {g.pk: _forecast(g, ends[g.pk], zone, now) for g in active}


def _forecast(
    game: Game, turn_ends: list[tuple[int, int, datetime]], zone: tzinfo, now: datetime
) -> str:
    paces = seat_paces(game.started_at, turn_ends, game.turn_started_at)
    left = game.turns_left
    if not left or game.current_seat is None or game.turn_started_at is None:
        return NOT_YET
    # A turn waits for a player who is away (their clock too): it starts once they are back.
    players = {s.position: s.user for s in game.seats.all()}  # prefetched by My games
    at = now
    for ahead in range(left):
        seat = clocks.seat_of_turn_ahead(game.current_seat, game.players, ahead)
        if seat not in paces:
            return NOT_YET
        turn = paces[seat]
        if ahead == 0:
            turn = max(turn - (now - game.turn_started_at), timedelta(0))
        if seat in players:
            at = clocks.counting_from(players[seat], at)
        at += turn
    end = at.astimezone(zone)
    year = "" if end.year == now.astimezone(zone).year else f" {end.year}"
    return f"ends about {end.day} {end:%b}{year}"


def seat_paces(
    started_at: datetime | None,
    turn_ends: list[tuple[int, int, datetime]],
    turn_started_at: datetime | None,
) -> dict[int, timedelta]:
    """Seat -> the median length of its finished turns, for the seats with MIN_TURNS of them.
    A turn lasts from the last entry of the turn before (the game's start for the first) to its
    own last entry; the turn in progress (entries since `turn_started_at`) is left out."""
    durations: dict[int, list[timedelta]] = defaultdict(list)
    previous = started_at
    for _turn, seat, end in sorted(turn_ends):
        if turn_started_at is not None and end > turn_started_at:
            break
        if previous is not None:
            durations[seat].append(max(end - previous, timedelta(0)))
        previous = end
    return {seat: median(d) for seat, d in durations.items() if len(d) >= MIN_TURNS}
