"""Where the CPU time of a move goes, in one process: lock and load, engine, writes, publish at
commit, fragments, whole request (CPU time of this process, so other work on the machine does not
blur the figures; each phase counts its own time, not that of the phases inside it).

Moves are random legal actions (never a turn reset) posted by the player to move through the
Django test client, as htmx and without JavaScript, on games in progress. Each run plays them for
real: run it on a database seeded for the purpose, by bench/load/run.py (`harmonies_bench`, the
default) or by hand (migrate, collectstatic, then bench/load/seed.py) with DATABASE_URL and
REDIS_URL set:
    .venv/bin/python bench/load/move_cost.py [--moves 200] [--profile 25] [--sql]

Each move is followed by the load bench's floor page (bench/load/floor.py) from the same client,
and the move's CPU is also given as a ratio to it: on this shared machine milliseconds drift by a
third within minutes, the ratio much less.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load.settings")  # the site and the floor

from bench.load.run import ENV

for name in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "DATABASE_URL",
             "REDIS_URL", "LOG_LEVEL", "EMAIL_BACKEND"):  # fmt: skip
    os.environ.setdefault(name, ENV[name])

import django  # noqa: E402

django.setup()

from django.contrib import auth  # noqa: E402
from django.db import connection  # noqa: E402
from django.middleware.gzip import GZipMiddleware  # noqa: E402
from django.template.backends.django import Template as DjangoTemplate  # noqa: E402
from django.test import Client  # noqa: E402

from games import engine, presence, queue  # noqa: E402
from games.models import Game  # noqa: E402
from games.services import boards, core, turns  # noqa: E402
from games.views import game as game_views  # noqa: E402

MODEL_BACKEND = "accounts.backends.PlayerBackend"  # the site's one log-in backend (settings)
OTHER = "other (middleware, session, view, response)"


class Phases:
    """CPU seconds and queries by phase; time inside a nested phase counts for that phase only."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.queries: dict[str, int] = defaultdict(int)
        self.stack = [OTHER]
        self.mark = time.process_time()
        self.on = False  # only the posted request is counted
        self.show_sql = False

    def start(self) -> None:
        self.stack, self.mark, self.on = [OTHER], time.process_time(), True

    def stop(self) -> None:
        self.seconds[OTHER] += time.process_time() - self.mark
        self.on = False

    def enter(self, label: str) -> None:
        now = time.process_time()
        self.seconds[self.stack[-1]] += now - self.mark
        self.stack.append(label)
        self.mark = now

    def leave(self) -> None:
        now = time.process_time()
        self.seconds[self.stack.pop()] += now - self.mark
        self.mark = now

    def wrap(self, owner: object, attribute: str, label: str) -> None:
        original = getattr(owner, attribute, None)
        if original is None:  # renamed since: the phase counts as "other" until this follows
            print(f"  (no {getattr(owner, '__name__', owner)}.{attribute} to time: {label})")
            return

        def timed(*args, **kwargs):
            if not self.on:
                return original(*args, **kwargs)
            self.enter(label)
            try:
                return original(*args, **kwargs)
            finally:
                self.leave()

        setattr(owner, attribute, timed)

    def count_query(self, execute, sql, params, many, context):
        if self.on:
            self.queries[self.stack[-1]] += 1
            if self.show_sql:
                print(f"    [{self.stack[-1]}] {sql[:150]}")
        return execute(sql, params, many, context)


def instrument(phases: Phases) -> None:
    """Time each phase of a move by wrapping the functions that do it, where they are looked up."""
    wrap = phases.wrap
    wrap(turns, "locked", "lock and load (game row, FOR UPDATE)")
    wrap(turns, "table_and_seat", "lock and load (seats and users)")
    wrap(Game, "engine_state", "state parse (engine_state)")
    wrap(turns, "parse_action", "engine validate/apply")
    wrap(engine, "apply", "engine validate/apply")
    wrap(turns, "move_detail", "narration (move_detail)")
    wrap(turns, "log_moves", "writes: move row (and the kept moves)")
    wrap(turns, "save_state", "writes: state, turn clock, game row")
    wrap(engine, "state_to_json", "state serialise (state_to_json)")
    wrap(boards.Board, "save", "writes: board row (end of turn)")
    wrap(core, "start_turn_clock", "writes: turn clock (next seat, reminders)")
    wrap(Game, "save", "writes: state, turn clock, game row")
    wrap(connection, "commit", "commit")
    wrap(core, "remember_version", "on_commit: version to Redis")
    wrap(queue, "send_now", "on_commit: Celery publish")
    wrap(presence, "mark_present", "presence to Redis")
    wrap(game_views, "game_page", "fragments: presenter")
    wrap(auth, "get_user", "session and user (as on every page)")
    wrap(GZipMiddleware, "process_response", "gzip (middleware)")
    wrap(DjangoTemplate, "render", "fragments: templates")
    # The game page's fragments are Jinja2 blocks (games/jinja.py), looked up in views.
    wrap(game_views, "render_blocks", "fragments: templates")
    wrap(game_views, "render_page", "fragments: templates")


def clients_for(games: list[Game]) -> dict[int, Client]:
    """One logged-in client per player, made before any timing: a new client builds the
    middleware, and whitenoise scans the static files (about 200 ms)."""
    clients = {}
    handler = None  # one middleware chain for all: each client would build its own on first use
    for game in games:
        for seat in game.seats.select_related("user"):
            if seat.user_id not in clients:
                client = Client(HTTP_HOST="127.0.0.1")
                if handler is None:
                    handler = client.handler
                    handler.load_middleware()
                client.handler = handler
                client.force_login(seat.user, backend=MODEL_BACKEND)
                clients[seat.user_id] = client
    return clients


def post_move(client: Client, game: Game, action: engine.Action, htmx: bool):
    """The form as a browser (and the load bench's locust) posts it: urlencoded, gzip accepted."""
    data = {"version": str(game.version), **{k: str(v) for k, v in action.to_json().items()}}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(
        f"/games/{game.pk}/act/",
        urlencode(data),
        content_type="application/x-www-form-urlencoded",
        headers={"Accept-Encoding": "gzip, deflate", **headers},
    )


def open_floor(client: Client) -> float:
    """The floor of bench/load/run.py (session, user, one small query, a small template): the
    CPU seconds of one request, the yardstick the load bench divides a move's cost by."""
    started = time.process_time()
    response = client.get("/bench/floor/", headers={"Accept-Encoding": "gzip, deflate"})
    spent = time.process_time() - started
    assert response.status_code == 200, response
    return spent


def play(args, games, clients, htmx: bool, phases: Phases, rng, floor=None) -> list[float]:
    """Post `args.moves` moves, round robin over the games; the CPU seconds of each request.
    With a `floor` list, each move is followed by the floor page, whose seconds go there."""
    whole = []
    seat_users = {g.pk: {s.position: s.user_id for s in g.seats.all()} for g in games}
    live = [g.pk for g in games]
    while len(whole) < args.moves and live:
        game_id = live.pop(0)
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            continue
        state = game.engine_state()
        action = engine.random_policy(state, rng)
        client = clients[seat_users[game_id][state.current_seat]]
        started = time.process_time()
        phases.start()
        response = post_move(client, game, action, htmx)
        phases.stop()
        whole.append(time.process_time() - started)
        assert response.status_code == (200 if htmx else 302), response.content[:300]
        if floor is not None:
            floor.append(open_floor(client))
        live.append(game_id)
    return whole


def report(label: str, whole: list[float], phases: Phases, floor: list[float]) -> None:
    moves = len(whole)
    total = sum(whole)
    queries = sum(phases.queries.values()) / moves
    mean, floor_mean = total / moves * 1000, statistics.mean(floor) * 1000
    print(f"\n{label}: {moves} moves, whole request (test client)", end=" ")
    print(f"{mean:.2f} ms CPU, {queries:.2f} queries;", end=" ")
    print(f"floor {floor_mean:.2f} ms, ratio {mean / floor_mean:.2f}")
    for name, seconds in sorted(phases.seconds.items(), key=lambda kv: -kv[1]):
        queries = phases.queries.get(name, 0) / moves
        print(f"  {name:<45} {seconds / moves * 1000:6.2f} ms  {queries:4.2f} q"
              f"  {seconds / total * 100:4.0f}%")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--moves", type=int, default=200, help="per mode, after a warm-up")
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--modes", default="htmx,nojs")
    parser.add_argument("--profile", type=int, default=0, help="print the top N of cProfile")
    parser.add_argument("--sql", action="store_true", help="print the queries of a few moves")
    args = parser.parse_args()
    games = list(Game.objects.filter(status=Game.Status.ACTIVE).order_by("pk")[: args.games])
    clients = clients_for(games)
    rng = random.Random(args.seed)
    phases = Phases()
    instrument(phases)
    counting = connection.execute_wrapper(phases.count_query)  # kept: its exit would end it
    counting.__enter__()
    for mode in args.modes.split(","):
        htmx = mode == "htmx"
        warm_args = argparse.Namespace(moves=args.warm)
        play(warm_args, games, clients, htmx, phases, rng)  # warm-up: not counted
        if args.sql:
            phases.show_sql = True
            for _ in range(3):
                print(f"  queries of a {mode} move:")
                play(argparse.Namespace(moves=1), games, clients, htmx, phases, rng)
            phases.show_sql = False
        phases.seconds.clear()
        phases.queries.clear()
        profiler = cProfile.Profile(time.process_time) if args.profile else None
        if profiler:
            profiler.enable()
        floor = []
        whole = play(args, games, clients, htmx, phases, rng, floor)
        if profiler:
            profiler.disable()
        report("htmx move" if htmx else "no-JS move", whole, phases, floor)
        if profiler:
            stats = pstats.Stats(profiler).strip_dirs()
            stats.sort_stats("cumulative").print_stats(args.profile)
            stats.sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
