"""Finished games for the results tests.

`real_game` plays through the site's one writer, as a player would (about half a second for two
players). `quick_game` writes the same rows (game, seats, move log) straight from an engine playout
and then runs the same end-of-game tasks, for tests that need many games or chosen dates.
"""

from __future__ import annotations

import random
from datetime import datetime
from functools import cache

from django.utils import timezone

from games import engine, results, services
from games.models import Game, Move, Seat
from games.narration import move_detail
from records import tasks
from records.models import CategorySums, GameRecord, Rating, SeatResult, Standing, Tally
from tests.games.helpers import play_to_the_end, start_game


def real_game(capture, *users, side: str = "A", spirits: bool = False, seed: int = 0) -> Game:
    """A game played to the end through services.play; `capture` is
    django_capture_on_commit_callbacks, so finalize and record run as they do after commit."""
    with capture(execute=True):
        game = start_game(*users, side=side, spirits=spirits)
        play_to_the_end(game, seed=seed)
    game.refresh_from_db()
    return game


@cache
def _playout(players: int, side: str, spirits: bool, seed: int):
    """Random legal moves to the end, from the first seed at or after `seed` with no tie."""
    config = engine.GameConfig(players=players, side=side, spirits=spirits)
    while True:
        state = engine.new_game(config, seed)
        rng = random.Random(seed)
        log = []
        while not state.finished:
            legal = engine.legal_actions(state)
            action = rng.choice([a for a in legal if not isinstance(a, engine.ResetTurn)])
            after = engine.apply(state, action)
            detail = move_detail(state, action, after)
            log.append((state.current_seat, state.turn, action.to_json(), detail))
            state = after
        places = [p.place for p in engine.ranking(state)]
        if len(set(places)) == len(places):
            return seed, state, tuple(log)
        seed += 1000


def quick_game(
    *finishing_order,
    side: str = "A",
    spirits: bool = False,
    seed: int = 1,
    finished_at: datetime | None = None,
    shared: bool = False,
    record: bool = True,
) -> Game:
    """A finished game whose players end in `finishing_order` (the first one wins); with
    `shared`, everyone shares first place. Finalized, and recorded unless `record` is False."""
    seed, state, log = _playout(len(finishing_order), side, spirits, seed)
    seat_of_place = [p.seat for p in engine.ranking(state)]
    when = finished_at or timezone.now()
    game = Game.objects.create(
        created_by=finishing_order[0],
        players=len(finishing_order),
        side=side,
        spirits=spirits,
        status=Game.Status.FINISHED,
        seed=seed,
        state=engine.state_to_json(state),
        started_at=when,
        finished_at=when,
        move_count=len(log),
    )
    Seat.objects.bulk_create(
        Seat(game=game, user=user, position=seat_of_place[i])
        for i, user in enumerate(finishing_order)
    )
    users = {seat_of_place[i]: user for i, user in enumerate(finishing_order)}
    Move.objects.bulk_create(
        Move(game=game, seq=n, seat=seat, user=users[seat], turn=turn, action=action, detail=detail)
        for n, (seat, turn, action, detail) in enumerate(log, start=1)
    )
    # As the writer decides it when a game starts (games.services.tables._start).
    seated = list(game.seats.select_related("user"))
    Game.objects.filter(pk=game.pk).update(uncounted=results.starting_reason(seated))
    services.finalize(game.pk)
    if shared:
        game.seats.update(rank=1)
    if record:
        tasks.record_game(game.pk)
    game.refresh_from_db()
    return game


def snapshot() -> dict[str, list[dict]]:
    """Every derived row, without ids and timestamps of the recording itself."""
    return {
        "records": sorted(
            (r for r in GameRecord.objects.values("game_id", "pool")), key=lambda r: r["game_id"]
        ),
        "results": sorted(
            SeatResult.objects.values(*[f.name for f in SeatResult._meta.fields if f.name != "id"]),
            key=lambda r: (r["game"], r["position"]),
        ),
        "ratings": sorted(
            Rating.objects.values(*[f.name for f in Rating._meta.fields if f.name != "id"]),
            key=lambda r: (r["user"], r["pool"], r["scope"]),
        ),
        "standings": sorted(
            Standing.objects.values(*[f.name for f in Standing._meta.fields if f.name != "id"]),
            key=lambda r: (r["user"], r["pool"], r["side"], r["players"], r["spirits"]),
        ),
        "tallies": sorted(
            Tally.objects.values_list(
                "board", "pool", "side", "players", "spirits", "tenths", "count"
            )
        ),
        "category_sums": sorted(
            CategorySums.objects.values(
                *[f.name for f in CategorySums._meta.fields if f.name != "id"]
            ),
            key=lambda r: r["pool"],
        ),
    }
