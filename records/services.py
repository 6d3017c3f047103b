"""The one writer of the results tables: a finished game at a time, or all of them again.

`record_game` runs after `games.services.finalize` (which stores each seat's rank): it computes
every seat's score sheet with the engine from the stored final state, then moves the ratings.
`rebuild` throws every derived row away and records all finalized games again, oldest first, with
the same functions, so the incremental tables and a rebuild agree to the last bit.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from datetime import datetime
from multiprocessing import get_context

from django.db import IntegrityError, connection, transaction
from django.db.models import Prefetch, Q

from accounts.models import User
from games import results
from games.models import Game, Seat
from games.narration import seat_mark
from records import category_sums, places, ratings, standings
from records.figures import seat_figures, seat_figures_of
from records.models import GameRecord, Pool, Rating, SeatResult

logger = logging.getLogger(__name__)

# Key of the PostgreSQL advisory lock that lets one recorder (or the rebuild) run at a time.
RECORDS_LOCK = 0x5245434F524453  # "RECORDS"
REBUILD_BATCH = 500


def _one_writer_at_a_time() -> None:
    """Rating updates read and then write the same rows, so recorders take turns. SQLite's
    BEGIN IMMEDIATE already makes writers queue; PostgreSQL gets a transaction advisory lock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RECORDS_LOCK])


def _recordable():
    # finalized_at is set once finalize has stored the ranks this app takes its places from.
    # A guided first game is a lesson: never recorded, so no result, standing, place, high
    # score, history line or profile figure can come from it (the rebuild reads this too).
    return Game.objects.finalized().filter(guided=False)


def pool_of(game: Game, seats: Iterable[Seat]) -> str:
    """Solo games are not rated; a game with any bot at the table is rated in the bots' pool
    only, so the players' leaderboards compare people who played people."""
    if game.players == 1:
        return Pool.SOLO
    return Pool.BOTS if any(seat.user.is_bot for seat in seats) else Pool.PLAYERS


def counts_for_ratings(game: Game, seats: list[Seat]) -> bool:
    """Whether a finished game moves ratings, wins and leaderboards (and, solo, the high scores
    and suns): what the writer decided and stored (games.results: the players' addresses when
    the game started, a hint taken in it, the turns played when it ended), so the recorder,
    the rebuild and every page agree, whatever happened to the accounts since."""
    return results.counts(game)


def results_for(
    game: Game, seats: list[Seat], pool: str, figures: dict | None = None
) -> list[SeatResult]:
    """Each seat's final sheet, scored by the engine; places are the ranks finalize stored
    (they put a resigned player last), equal places being shared. `figures` are
    `records.figures.seat_figures` of the game when already computed (the rebuild's pool)."""
    counts = counts_for_ratings(game, seats)
    if figures is None:
        figures = seat_figures(*_figures_job(game, seats, counts))
    places = figures["places"]
    per_place = Counter(places.values())
    finished_at = game.finished_at or game.updated_at  # always set by the game's one writer
    results = []
    for seat in sorted(seats, key=lambda s: s.position):
        place = places[seat.position]
        results.append(
            SeatResult(
                game_id=game.pk,
                user_id=seat.user_id,
                position=seat.position,
                place=place,
                shared=per_place[place] > 1,
                resigned=seat.resigned_at is not None,
                mark=seat_mark(seat),
                counts=counts,
                abandoned=game.end_reason == Game.EndReason.ABANDONED,
                **figures["seats"][seat.position],
                pool=pool,
                side=game.side,
                players=game.players,
                spirits=game.spirits,
                is_bot=seat.user.is_bot,
                finished_at=finished_at,
            )
        )
    return results


def _figures_job(game: Game, seats: list[Seat], counts: bool) -> tuple:
    ranks = {seat.position: seat.rank for seat in sorted(seats, key=lambda s: s.position)}
    return (game.state, ranks, game.solo and counts)


def joined_of(seats: Iterable[Seat]) -> dict[int, datetime]:
    """When each seated player's account was made, for `apply_ratings` (seats with users)."""
    return {seat.user_id: seat.user.date_joined for seat in seats}


def apply_ratings(
    table: dict[tuple[int, str, str], Rating],
    results: list[SeatResult],
    joined: Mapping[int, datetime] | None = None,
) -> None:
    """Moves the ratings in `table` (missing ones start fresh, unsaved) for one rated game:
    once over both board sides, once for the side played. `joined` (user id: when the account
    was made) tells which people were new when the game ended, whose gains against each other
    `ratings.rate` holds back; without it, nobody is new."""
    first = results[0]
    pool, when = first.pool, first.finished_at
    places = [r.place for r in results]
    new = [
        joined is not None and not r.is_bot and ratings.is_new(joined[r.user_id], when)
        for r in results
    ]
    for scope in (Rating.ALL, first.side):
        rows = []
        for result in results:
            key = (result.user_id, pool, scope)
            if key not in table:
                mu, sigma = ratings.START
                table[key] = Rating(
                    user_id=result.user_id,
                    pool=pool,
                    scope=scope,
                    mu=mu,
                    sigma=sigma,
                    ordinal=ratings.ordinal(mu, sigma),
                    last_played_at=when,
                )
            rows.append(table[key])
        after = ratings.rate([(row.mu, row.sigma) for row in rows], places, new)
        for row, result, (mu, sigma) in zip(rows, results, after, strict=True):
            row.mu, row.sigma, row.ordinal = mu, sigma, ratings.ordinal(mu, sigma)
            row.games += 1
            row.wins += result.place == 1
            row.last_played_at = max(row.last_played_at, when)
            if scope == Rating.ALL:
                result.mu_all, result.sigma_all = mu, sigma
            else:
                result.mu_side, result.sigma_side = mu, sigma


def record_game(game_id: int) -> bool:
    """Results and rating changes of one finalized game; False when there was nothing to do
    (not finished or not finalized yet, or already recorded)."""
    with transaction.atomic():
        _one_writer_at_a_time()
        game = _recordable().filter(pk=game_id).first()
        if game is None:
            return False
        seats = list(game.seats.select_related("user"))
        pool = pool_of(game, seats)
        try:
            # The claim: the record's primary key is the game, so a second run cannot insert it.
            with transaction.atomic():
                GameRecord.objects.create(game=game, pool=pool)
        except IntegrityError:
            return False
        results = results_for(game, seats, pool)
        rated = pool != Pool.SOLO and results[0].counts
        late = rated and _rated_after(results[0])
        if rated and not late:
            _rate_one(results, joined_of(seats))
        SeatResult.objects.bulk_create(results)
        standings.add(results)
        category_sums.add(results)
        if late:
            # Finalized after a later game of its pool moved the ratings: they are applied in
            # finishing order (then id), as the rebuild applies them, from this game on.
            rerate_from(results)
    return True


def _later(result: SeatResult) -> Q:
    """Results after `result`'s game in the order ratings are applied: finishing time, then id."""
    when = result.finished_at
    return Q(finished_at__gt=when) | Q(finished_at=when, game_id__gt=result.game_id)


def _rated_after(result: SeatResult) -> bool:
    """Whether a game of the same pool that finished after this one has moved the ratings."""
    return SeatResult.objects.filter(_later(result), pool=result.pool, counts=True).exists()


def rerate_from(late: list[SeatResult]) -> None:
    """Ratings again from a game recorded late (its results saved, unrated) to the newest game of
    its pool, starting from each player's rating as it stood before that game, read from their
    previous result. The work follows the games after it, not the pool's whole history, and
    gives the rebuild's numbers to the last bit (the same operations in the same order)."""
    first = late[0]
    later = list(
        SeatResult.objects.filter(_later(first), pool=first.pool, counts=True).order_by(
            "finished_at", "game_id", "position"
        )
    )
    games: dict[int, list[SeatResult]] = {first.game_id: sorted(late, key=lambda r: r.position)}
    for result in later:
        games.setdefault(result.game_id, []).append(result)
    players = {r.user_id for seated in games.values() for r in seated}
    joined = dict(User.objects.filter(pk__in=players).values_list("pk", "date_joined"))
    table: dict[tuple[int, str, str], Rating] = {}
    for seated in games.values():
        for result in seated:
            for scope in (Rating.ALL, result.side):
                key = (result.user_id, result.pool, scope)
                if key not in table:
                    before = _rating_before(first, result.user_id, scope)
                    if before is None:  # results recorded before ratings were kept on them
                        rebuild()
                        return
                    table[key] = before
    for seated in games.values():
        apply_ratings(table, seated, joined)
    stored = {
        (row.user_id, row.pool, row.scope): row
        for row in Rating.objects.filter(
            pool=first.pool, user_id__in={key[0] for key in table}
        ).select_for_update()
    }
    fresh, changed = [], []
    moves = places.Moves()
    for key, state in table.items():
        row = stored.get(key)
        if row is None:  # the late game was this player's first in the scope, and their last
            fresh.append(state)
            moves.rating(None, state)
            continue
        # The later games are counted in the stored row already; the late one is added.
        moves.rating(row.ordinal, state)
        row.mu, row.sigma, row.ordinal = state.mu, state.sigma, state.ordinal
        mine = [r for r in late if r.user_id == key[0] and key[2] in (Rating.ALL, r.side)]
        row.games += len(mine)
        row.wins += sum(r.place == 1 for r in mine)
        row.last_played_at = max([row.last_played_at, *(r.finished_at for r in mine)])
        changed.append(row)
    Rating.objects.bulk_create(fresh)
    Rating.objects.bulk_update(
        changed, ["mu", "sigma", "ordinal", "games", "wins", "last_played_at"]
    )
    moves.save()
    SeatResult.objects.bulk_update(
        [r for seated in games.values() for r in seated],
        ["mu_all", "sigma_all", "mu_side", "sigma_side"],
        batch_size=REBUILD_BATCH,
    )


def _rating_before(late: SeatResult, user_id: int, scope: str) -> Rating | None:
    """A player's rating in one scope just before `late`'s game, as an unsaved row to move:
    from their previous rated result of the pool, or a newcomer's; None when that result
    predates the stored ratings (then only a rebuild knows)."""
    previous = (
        SeatResult.objects.filter(user_id=user_id, pool=late.pool, counts=True)
        .exclude(_later(late))
        .exclude(game_id=late.game_id)
        .filter(Q() if scope == Rating.ALL else Q(side=scope))
        .order_by("-finished_at", "-game_id")
        .first()
    )
    if previous is None:
        mu, sigma = ratings.START
    elif scope == Rating.ALL:
        mu, sigma = previous.mu_all, previous.sigma_all
    else:
        mu, sigma = previous.mu_side, previous.sigma_side
    if mu is None:
        return None
    return Rating(
        user_id=user_id,
        pool=late.pool,
        scope=scope,
        mu=mu,
        sigma=sigma,
        ordinal=ratings.ordinal(mu, sigma),
        last_played_at=late.finished_at,
    )


def _rate_one(results: list[SeatResult], joined: Mapping[int, datetime]) -> None:
    first = results[0]
    table = {
        (row.user_id, row.pool, row.scope): row
        for row in Rating.objects.filter(
            user_id__in=[r.user_id for r in results],
            pool=first.pool,
            scope__in=[Rating.ALL, first.side],
        )
    }
    before = {key: row.ordinal for key, row in table.items()}
    apply_ratings(table, results, joined)
    moves = places.Moves()
    for key, row in table.items():
        moves.rating(before.get(key), row)
    moves.save()
    fresh = [row for row in table.values() if row.pk is None]
    Rating.objects.bulk_create(fresh)
    Rating.objects.bulk_update(
        [row for row in table.values() if row.pk is not None],
        ["mu", "sigma", "ordinal", "games", "wins", "last_played_at"],
    )


def rebuild(jobs: int = 1) -> dict[str, int]:
    """Every derived row again, from the finalized games in the order they finished. In one
    transaction: pages read the old tables until the new ones are complete. With `jobs` > 1
    the parsing and scoring (most of the time) run in that many forked processes, a batch
    ahead of the reads, ratings and writes, which stay here and in order."""
    with transaction.atomic():
        _one_writer_at_a_time()
        Rating.objects.all().delete()
        SeatResult.objects.all().delete()
        GameRecord.objects.all().delete()
        games = (
            _recordable()
            .order_by("finished_at", "pk")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        )
        table: dict[tuple[int, str, str], Rating] = {}
        counts = {"games": 0, "results": 0}
        with _scorer(jobs) as score:
            pending = None
            for batch in _batches(games.iterator(chunk_size=REBUILD_BATCH), REBUILD_BATCH):
                seated = [(game, list(game.seats.all())) for game in batch]
                submitted = (
                    seated,
                    score([_figures_job(g, s, counts_for_ratings(g, s)) for g, s in seated]),
                )
                if pending is not None:
                    _record_batch(*pending, table, counts)
                pending = submitted
            if pending is not None:
                _record_batch(*pending, table, counts)
        Rating.objects.bulk_create(table.values(), batch_size=REBUILD_BATCH)
        places.refresh_ratings()
        counts["ratings"] = len(table)
        counts["standings"] = standings.refresh_all()
        category_sums.refresh_all()
    logger.info("records rebuilt: %s", counts)
    return counts


def _batches(items: Iterable, size: int) -> Iterator[list]:
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


@contextmanager
def _scorer(jobs: int) -> Iterator[Callable[[list[tuple]], Iterator[dict]]]:
    """A way to score a batch of games: here, or in `jobs` forked processes (the batch is
    handed over at once and its figures come back in order, while this process goes on)."""
    if jobs <= 1:
        yield lambda batch: (seat_figures(*job) for job in batch)
        return
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork")) as pool:
        yield lambda batch: pool.map(seat_figures_of, batch, chunksize=25)


def _record_batch(seated, figures, table, counts) -> None:
    records: list[GameRecord] = []
    results: list[SeatResult] = []
    for (game, seats), scored in zip(seated, figures, strict=True):
        pool = pool_of(game, seats)
        rows = results_for(game, seats, pool, scored)
        if pool != Pool.SOLO and rows[0].counts:
            apply_ratings(table, rows, joined_of(seats))
        records.append(GameRecord(game=game, pool=pool))
        results.extend(rows)
        counts["games"] += 1
        counts["results"] += len(rows)
    _flush(records, results)


def _flush(records: list[GameRecord], results: list[SeatResult]) -> None:
    GameRecord.objects.bulk_create(records, batch_size=REBUILD_BATCH)
    SeatResult.objects.bulk_create(results, batch_size=REBUILD_BATCH)
    records.clear()
    results.clear()
