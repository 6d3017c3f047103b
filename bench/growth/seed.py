"""Seed the growth bench's PostgreSQL database up to a number of finished games.

    .venv/bin/python bench/growth/seed.py --total 10000 [--summary FILE]

DATABASE_URL names the database (default `harmonies_growth`; bench/growth/env.py refuses any name
without "growth"); it is created if missing and migrated. Every step is skipped when done, so
`--total 100000` on a database of 10,000 finished games adds 90,000:

1. Templates: 24 tables (solo, 2, 3 and 4 players, sides A and B, some with Nature's Spirits or a
   computer opponent) played to the end through the one writer (`games.services`), the people's
   turns chosen by an engine policy (mostly medium). Tasks run in-process (env.py), so each game
   is finalized and recorded by `games.tasks.finalize_game` and `records.tasks.record_game`.
2. Players: a pool of total/5, made in bulk with an unusable password (nobody logs in by form;
   the measurements use `force_login`).
3. Subjects: `light`, seated in exactly 14 games (10 finished, 3 in progress started and played
   through the writer, 1 open table) and invited to 2 more tables; `heavy`, seated in 300
   of the newest finished games (the same 300 at every size: the site's history grows, theirs
   does not); `veteran`, seated in 1% of all finished games, old and new (their own history
   grows with the site's); friendships between light, heavy and a few others.
4. Copies of the templates up to `total` finished games, in batches of BATCH games each in one
   transaction: new Game rows (the template's state and log, a new id, invitation token and name,
   every date moved so that the copies finish at a steady 137 games a day, a bigger seed going
   further back in time: 10k games are the last 73 days, 100k the last two years),
   their seats with players drawn from the pool, and their Move, Board, GameRecord and SeatResult
   rows with game and user ids rewritten. The per-copy rows (a few per game) go to staging tables
   with COPY; the template-derived rows (about 130 moves a game) are written by INSERT ... SELECT
   inside PostgreSQL, so the 11-odd million moves of 100,000 games never pass through Python.
5. Ratings: computed from the results with `records.services.apply_ratings`, in finishing order
   as `rebuild` applies them, and stored in bulk, with the ratings after each game that it
   writes on the results (the same figures as `rebuild()` gives, without its scoring of every
   game's state). Then VACUUM ANALYZE, as autovacuum would have done.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.growth import env

env.apply()

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.identity import canonical_username, username_skeleton  # noqa: E402
from accounts.models import Friendship, User  # noqa: E402
from bench.growth.copies import (  # noqa: E402  (after django.setup, like the models)
    Template,
    _qn,
    copy_game,
    describe_templates,
    plan_copies,
    write_copies,
)
from games import engine, services  # noqa: E402
from games.models import Board, Game, Move, Seat  # noqa: E402
from games.services import talk  # noqa: E402
from games.services.bots import bots_for  # noqa: E402
from records import places, standings  # noqa: E402
from records.models import GameRecord, Pool, Rating, SeatResult, Standing, Tally  # noqa: E402
from records.services import apply_ratings  # noqa: E402

TEMPLATE_PREFIX = "growth-tpl-"
POOL_PREFIX = "growth-p"
BATCH = 5000  # games copied per transaction
PLAYERS_PER_GAME = 5  # the pool holds total / 5 players
HEAVY_GAMES = 300  # `heavy` sits in this many of the newest copies, at every size
VETERAN_SHARE = 0.01  # `veteran` sits in this share of all finished games, old and new
LIGHT_GAMES = 14
LIGHT_FINISHED = 10

# players, side, spirits, bot levels, policy of the people's turns
TABLES = [
    (1, "A", False, (), "medium"),
    (1, "B", True, (), "medium"),
    (1, "A", True, (), "easy"),
    (1, "B", False, (), "random"),
    (2, "A", False, (), "medium"),
    (2, "B", False, (), "medium"),
    (2, "A", True, (), "medium"),
    (2, "B", True, (), "medium"),
    (2, "A", False, (), "easy"),
    (2, "B", True, (), "easy"),
    (2, "A", True, (), "random"),
    (2, "B", False, (), "medium"),
    (2, "A", False, (), "medium"),
    (2, "A", False, ("medium",), "medium"),
    (2, "B", True, ("medium",), "easy"),
    (2, "A", True, ("easy",), "medium"),
    (2, "B", False, (), "easy"),
    (3, "A", False, (), "medium"),
    (3, "B", True, (), "medium"),
    (3, "A", True, (), "easy"),
    (3, "B", False, ("medium",), "medium"),
    (4, "A", False, (), "medium"),
    (4, "B", True, (), "medium"),
    (4, "A", True, (), "easy"),
]


def log(message: str) -> None:
    print(f"[seed {time.strftime('%H:%M:%S')}] {message}", flush=True)


# --- The database ---------------------------------------------------------------------------


def prepare_database() -> None:
    url = os.environ["DATABASE_URL"]
    if env.ensure_database(url):
        log(f"created database {env.database_name(url)}")
    call_command("migrate", interactive=False, verbosity=0)


def finished_count() -> int:
    return Game.objects.filter(status=Game.Status.FINISHED).count()


# --- Players ------------------------------------------------------------------------------


def new_user(username: str, name: str) -> User:
    """A confirmed player (games count for ratings), as bulk_create needs it (no save()). Joined
    before the oldest seeded game, so that no game meets the new accounts' rules
    (records.ratings.is_new): the bench rates as the site rates established players."""
    joined = timezone.now() - timedelta(days=5 * 365)
    user = User(
        username=username,
        username_key=canonical_username(username),
        username_skeleton=username_skeleton(username),
        display_name=name,
        email=f"{username}@example.invalid",
        email_confirmed_at=joined,
        date_joined=joined,
    )
    user.set_unusable_password()
    return user


def ensure_pool(count: int) -> None:
    have = User.objects.filter(username__startswith=POOL_PREFIX).count()
    if have >= count:
        return
    users = [new_user(f"{POOL_PREFIX}{n:06d}", f"Player {n}") for n in range(have, count)]
    User.objects.bulk_create(users, batch_size=5000)
    log(f"players: {count} in the pool ({count - have} new)")


def pool_ids() -> list[int]:
    return list(
        User.objects.filter(username__startswith=POOL_PREFIX)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def user_named(username: str) -> User:
    return User.objects.get(username=username)


# --- Templates ----------------------------------------------------------------------------


def play_out(game: Game, policy: str, rng: random.Random, until=None) -> Game:
    """The people's turns chosen by `policy`, through the one writer; bots play through their
    task (in-process here). Stops at the end, or when `until(game)` says so at a turn's start."""
    choose = engine.get_policy(policy)
    game.refresh_from_db()
    turn = None
    while game.status == Game.Status.ACTIVE:
        state = game.engine_state()
        if until is not None and state.turn != turn and until(game):
            break
        turn = state.turn
        seat = game.seats.select_related("user").get(position=state.current_seat)
        if services.is_automatic(seat):
            services.play_automatic_turn(game.pk, state.turn)
        else:
            action = choose(state, rng)
            services.play(
                game_id=game.pk,
                user=seat.user,
                action=action.to_json(),
                expected_version=game.version,
            )
        game.refresh_from_db()
    return game


def start(creator: User, others: list[User], **table) -> Game:
    """A table created through the writer with `others` invited; they join, and it starts."""
    game = services.create_game(creator=creator, invitees=others, **table)
    for user in others:
        services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def template_games() -> list[Game]:
    return list(
        Game.objects.filter(
            created_by__username__startswith=TEMPLATE_PREFIX, status=Game.Status.FINISHED
        ).order_by("pk")
    )


def ensure_templates() -> list[Game]:
    games = template_games()
    if len(games) >= len(TABLES):
        return games
    started = time.perf_counter()
    people = []
    for n in range(1, 5):
        username = f"{TEMPLATE_PREFIX}{n}"
        user = User.objects.filter(username=username).first()
        if user is None:
            user = new_user(username, f"Template {n}")
            user.save()
        people.append(user)
    for index, (players, side, spirits, levels, policy) in enumerate(TABLES[len(games) :]):
        index += len(games)
        creator = people[index % 4]
        others = [p for p in people if p != creator][: players - 1 - len(levels)]
        game = start(
            creator, others, players=players, side=side, spirits=spirits, bots=bots_for(levels)
        )
        play_out(game, policy, random.Random(index))
        game.refresh_from_db()
        if game.finalized_at is None or not GameRecord.objects.filter(game=game).exists():
            raise SystemExit(f"template game {game.pk} was not finalized and recorded")
        log(f"template {index + 1}/{len(TABLES)}: {game.description}, {game.move_count} moves")
    log(f"templates played in {time.perf_counter() - started:.0f} s")
    return template_games()


# --- Copies ---------------------------------------------------------------------------------


def copy_games(
    count: int, templates: list[Template], total: int, newer: int, rng: random.Random
) -> dict:
    """Copies up to `count` more finished games, older than the `newer` finished games there
    are, BATCH a transaction; rates and sizes."""
    if count <= 0:
        return {"games": 0, "moves": 0, "boards": 0, "seconds": 0.0}
    heavy, veteran = user_named("heavy").pk, user_named("veteran").pk
    finished = Seat.objects.filter(game__status=Game.Status.FINISHED)
    heavy_now = finished.filter(user_id=heavy).count()
    veteran_now = finished.filter(user_id=veteran).count()
    seated = {
        heavy: max(0, min(count, HEAVY_GAMES - heavy_now)),
        veteran: max(0, min(count, round(total * VETERAN_SHARE) - veteran_now)),
    }
    seated = {user: games for user, games in seated.items() if games}
    copies = plan_copies(count, templates, pool_ids(), seated, timezone.now(), rng, newer)
    started = time.perf_counter()
    moves = boards = 0
    for first in range(0, count, BATCH):
        batch = copies[first : first + BATCH]
        write_copies(batch, templates)
        moves += sum(c.template.move_count for c in batch)
        boards += sum(c.template.boards for c in batch)
        done, seconds = first + len(batch), time.perf_counter() - started
        log(
            f"copied {done}/{count} games ({moves:,} moves, {boards:,} boards) in {seconds:.0f} s:"
            f" {done / seconds:,.0f} games/s, {moves / seconds:,.0f} moves/s"
        )
    seconds = time.perf_counter() - started
    return {"games": count, "moves": moves, "boards": boards, "seconds": seconds}


# --- Subjects -------------------------------------------------------------------------------


def ensure_subjects(templates: list[Template]) -> None:
    """`light`, `heavy`, their friends, light's games (the ones in play through the writer)."""
    if User.objects.filter(username="light").exists():
        return
    started = time.perf_counter()
    light, heavy = new_user("light", "Light"), new_user("heavy", "Heavy")
    light.save()
    heavy.save()
    new_user("veteran", "Veteran").save()
    pool = User.objects.filter(username__startswith=POOL_PREFIX).order_by("pk")[:20]
    p = list(pool)
    rng = random.Random(14)

    # Finished: copies of human-only templates, over the last two months, heavy in two.
    human = [t for t in templates if not t.bots and t.players <= 3]
    now = timezone.now()
    for i in range(LIGHT_FINISHED):
        t = human[i % len(human)]
        others = [u.pk for u in p[12 + i % 6 : 12 + i % 6 + t.players - 1]]
        if i in (1, 4) and t.players > 1:
            others[0] = heavy.pk
        people = [light.pk, *others]
        rng.shuffle(people)
        copy_game(t, people, now - timedelta(days=60 - 6 * i))

    # In play, started and played through the writer. A: with heavy, light to move.
    light_to_move = lambda g: g.move_count > 0 and _to_move(g) == light.pk  # noqa: E731
    a = start(light, [heavy], players=2, side="A", spirits=False)
    play_out(a, "medium", rng, until=lambda g: g.engine_state().turn >= 4 and light_to_move(g))
    # B: three players, someone else to move.
    b = start(p[0], [light, p[1]], players=3, side="B", spirits=True)
    play_out(b, "easy", rng, until=lambda g: g.engine_state().turn >= 5 and not light_to_move(g))
    # C: four players, well into the game, light to move.
    c = start(light, [p[2], p[3], heavy], players=4, side="A", spirits=True)
    play_out(c, "medium", rng, until=lambda g: g.engine_state().turn >= 20 and light_to_move(g))
    talk.post(game_id=a.pk, user=heavy, text="Good luck!")
    # An open table of light's (waiting for p[4]), and two invitations to others' tables.
    services.create_game(creator=light, players=3, side="B", spirits=False, invitees=[p[4]])
    services.create_game(creator=p[5], players=2, side="A", spirits=False, invitees=[light])
    services.create_game(creator=p[6], players=3, side="A", spirits=True, invitees=[light, p[7]])

    Friendship.objects.bulk_create(
        [
            Friendship(user=light, friend=heavy),
            Friendship(user=heavy, friend=light),
            Friendship(user=light, friend=p[8]),
            Friendship(user=light, friend=p[9]),
            Friendship(user=heavy, friend=p[10]),
            Friendship(user=heavy, friend=p[11], removed_at=now),
        ]
    )
    seated = Seat.objects.filter(user=light).count()
    if seated != LIGHT_GAMES:
        raise SystemExit(f"light sits in {seated} games, not {LIGHT_GAMES}")
    log(f"subjects made in {time.perf_counter() - started:.0f} s")


def _to_move(game: Game) -> int | None:
    seat = game.seats.filter(position=game.current_seat).first()
    return seat.user_id if seat else None


# --- Ratings --------------------------------------------------------------------------------


RATING_INPUTS = ("id", "game_id", "user_id", "place", "pool", "side", "finished_at")


def rate_all() -> dict:
    """Every Rating row again from the results, as `records.services.rebuild` applies them
    (games in finishing order, then id; seats by position), without scoring the states again.
    What apply_ratings writes on a result (the ratings after the game, read by a late game's
    re-rating) is stored on the SeatResult rows too."""
    started = time.perf_counter()
    rows = (
        SeatResult.objects.filter(counts=True)
        .exclude(pool=Pool.SOLO)
        .order_by("finished_at", "game_id", "position")
        .values_list(*RATING_INPUTS)
    )
    stored = {f.attname: f for f in SeatResult._meta.concrete_fields}
    table: dict = {}
    written: list = []
    games = 0

    def rate(seated: list[SimpleNamespace]) -> None:
        apply_ratings(table, seated)
        written.extend(seated)

    seated: list[SimpleNamespace] = []
    for values in rows.iterator(chunk_size=20_000):
        result = SimpleNamespace(**dict(zip(RATING_INPUTS, values, strict=True)))
        if seated and result.game_id != seated[0].game_id:
            rate(seated)
            games += 1
            seated = []
        seated.append(result)
    if seated:
        rate(seated)
        games += 1
    extra = sorted({k for r in written[:50] for k in vars(r) if k in stored} - set(RATING_INPUTS))
    with transaction.atomic(), connection.cursor() as cursor:
        Rating.objects.all().delete()
        Rating.objects.bulk_create(table.values(), batch_size=5000)
        places.refresh_ratings()
        if extra:
            types = ", ".join(f"{_qn(k)} {stored[k].db_type(connection)}" for k in extra)
            cursor.execute("DROP TABLE IF EXISTS growth_rated")
            cursor.execute(f"CREATE TEMP TABLE growth_rated (id bigint, {types}) ON COMMIT DROP")
            names = ", ".join(_qn(k) for k in extra)
            with cursor.copy(f"COPY growth_rated (id, {names}) FROM STDIN") as copy:
                for r in written:
                    copy.write_row((r.id, *(getattr(r, k, None) for k in extra)))
            sets = ", ".join(f"{_qn(k)} = g.{_qn(k)}" for k in extra)
            cursor.execute(
                f"UPDATE {_qn(SeatResult._meta.db_table)} r SET {sets}"
                " FROM growth_rated g WHERE r.id = g.id"
            )
    seconds = time.perf_counter() - started
    log(
        f"ratings: {len(table):,} rows from {games:,} rated games in {seconds:.1f} s"
        + (f" (and {', '.join(extra)} of {len(written):,} results)" if extra else "")
    )
    return {"ratings": len(table), "rated_games": games, "seconds": seconds}


def vacuum() -> float:
    started = time.perf_counter()
    tables = [
        m._meta.db_table
        for m in (
            User,
            Friendship,
            Game,
            Seat,
            Move,
            Board,
            GameRecord,
            SeatResult,
            Rating,
            Standing,
            Tally,
        )
    ]
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"VACUUM (ANALYZE) {_qn(table)}")
    seconds = time.perf_counter() - started
    log(f"VACUUM ANALYZE in {seconds:.0f} s")
    return seconds


# --- All of it ------------------------------------------------------------------------------


def seed(total: int) -> dict:
    """Finished games up to `total` (nothing is removed when there are more); a summary."""
    started = time.perf_counter()
    prepare_database()
    games = ensure_templates()
    templates = describe_templates(games)
    ensure_pool(max(total // PLAYERS_PER_GAME, 50))
    ensure_subjects(templates)
    before = finished_count()
    rng = random.Random(total + before)
    log(f"{before:,} finished games; copying {max(total - before, 0):,} more")
    copied = copy_games(total - before, templates, total, before, rng)
    ratings = rate_all() if copied["games"] or not Rating.objects.exists() else {}
    if copied["games"]:
        began = time.perf_counter()
        ratings["standings"] = standings.refresh_all()
        log(f"standings: {ratings['standings']:,} rows in {time.perf_counter() - began:.1f} s")
    vacuum_seconds = vacuum() if copied["games"] else 0.0
    summary = {
        "total": finished_count(),
        "added": copied["games"],
        "copy": copied,
        "ratings": ratings,
        "vacuum_seconds": vacuum_seconds,
        "seconds": time.perf_counter() - started,
        "moves": Move.objects.count(),
    }
    copy_seconds = copied["seconds"] or 1
    log(
        f"{summary['total']:,} finished games, {summary['moves']:,} moves; this call"
        f" {summary['seconds']:.0f} s (copying {copied['games']:,} games in"
        f" {copied['seconds']:.0f} s: {copied['games'] / copy_seconds:,.0f} games/s,"
        f" {copied['moves'] / copy_seconds:,.0f} moves/s)"
    )
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total", type=int, required=True, help="finished games wanted")
    parser.add_argument("--summary", type=Path, help="write the summary (JSON) here")
    args = parser.parse_args()
    summary = seed(args.total)
    if args.summary:
        args.summary.parent.mkdir(parents=True, exist_ok=True)
        args.summary.write_text(json.dumps(summary, indent=1, default=str))


if __name__ == "__main__":
    main()
