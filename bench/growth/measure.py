"""Measure player-facing pages and tasks on the growth database, as it stands.

    .venv/bin/python bench/growth/measure.py [--out FILE] [--runs 7] [--no-rebuild]

Run after bench/growth/seed.py (bench/growth/run.py runs both, size after size). Each figure is
the median of RUNS runs after WARMUPS warm-ups, in this one process: the wall time in ms and the
number of SQL queries (django.test.utils.CaptureQueriesContext, which counts BEGIN and COMMIT
too; past the 9,000 entries Django's log holds, a counting execute_wrapper's statements). Pages
are asked through django.test.Client, logged in with force_login, with production settings
(bench/growth/env.py: DEBUG off, PostgreSQL, Redis, tasks in-process), and must answer 200.

A measurement whose first run shows that WARMUPS + RUNS runs would take more than --budget
seconds takes that first run as its warm-up and as many more as the budget allows (at least
one): "runs" in the output says how many the median is of. `records.services.rebuild()` runs
once (no warm-up).

The late finalize: each run copies a two-player template game (players' pool, counted) that
finished an hour before the newest finished game of the players' pool, with no records and
`finalized_at` cleared (seed.copy_game), then times `games.tasks.finalize_game` of it. With tasks
in-process its follow-ups run inside the timing, as a worker would run them next: record_game
(which finds that a later game already moved the ratings) and the game-over emails. The games made
here are deleted at the end, so the database keeps its size.

Besides the wall time, each run's CPU time: this process's and its PostgreSQL backend's (read
from /proc/<pid>/schedstat), so that what other work on the machine does to the wall time can be
told from what the code does (Redis's share is left out: a few calls a page).

Output: a JSON dict {name: {"ms": float, "cpu_ms": float, "queries": int, "runs": int}} written
to --out, and a table.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.growth import env

env.apply()

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Max  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from bench.growth import seed as seeding  # noqa: E402
from games import presence  # noqa: E402
from games.models import Game, Seat  # noqa: E402
from games.tasks import finalize_game  # noqa: E402
from games.views.lists import PAST_PAGE  # noqa: E402
from records.models import Pool, SeatResult  # noqa: E402
from records.services import rebuild  # noqa: E402

WARMUPS = 2
RUNS = 7
BUDGET = 150.0  # seconds a measurement may take before it runs fewer times
MODEL_BACKEND = "accounts.backends.PlayerBackend"  # the site's log-in backend (bench/load too)


class Counter:
    """An execute_wrapper counting every statement sent (no limit, no SQL kept)."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, execute, sql, params, many, context):
        self.n += 1
        return execute(sql, params, many, context)


def backend_cpu_ns() -> int | None:
    """CPU time used so far by this connection's PostgreSQL backend (same machine: its
    /proc/<pid>/schedstat, in ns), or None when it cannot be read."""
    connection.ensure_connection()
    try:
        pid = connection.connection.info.backend_pid
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
    except (OSError, AttributeError, ValueError, IndexError):
        return None


def timed(action: Callable[[], object]) -> tuple[float, float | None, int]:
    """Wall ms, CPU ms (this process and its PostgreSQL backend) and queries of one run."""
    counter = Counter()
    backend = backend_cpu_ns()
    with CaptureQueriesContext(connection) as captured, connection.execute_wrapper(counter):
        cpu, started = time.process_time_ns(), time.perf_counter()
        action()
        ms = (time.perf_counter() - started) * 1000
        cpu = time.process_time_ns() - cpu
    after = backend_cpu_ns()
    cpu_ms = (cpu + after - backend) / 1e6 if backend is not None and after is not None else None
    # The captured log also holds the transactions' BEGIN and COMMIT (round trips too), but
    # keeps only the newest 9,000 entries: past that, the counter's statements.
    return ms, cpu_ms, len(captured) if counter.n < 8000 else counter.n


def measure(
    name: str,
    action: Callable[[object], object],
    results: dict,
    *,
    prepare: Callable[[], object] | None = None,
    warmups: int = WARMUPS,
    runs: int = RUNS,
    budget: float = BUDGET,
) -> None:
    """The median of `runs` timings of `action(prepare())` after `warmups`; `prepare` is not
    timed (it makes what one run uses up, a late game)."""
    samples: list[tuple[float, float | None, int]] = []
    done = 0
    while len(samples) < runs:
        arg = prepare() if prepare is not None else None
        sample = timed(lambda arg=arg: action(arg))
        ms = sample[0]
        if done == 0 and ms / 1000 * (warmups + runs) > budget:
            warmups = min(warmups, 1)
            runs = max(1, min(runs, int(budget / (ms / 1000)) - warmups))
        if done >= warmups:
            samples.append(sample)
        done += 1
    ms = statistics.median(s[0] for s in samples)
    cpus = [s[1] for s in samples if s[1] is not None]
    cpu = statistics.median(cpus) if cpus else None
    queries = round(statistics.median(s[2] for s in samples))
    results[name] = {
        "ms": round(ms, 2),
        "cpu_ms": round(cpu, 2) if cpu is not None else None,
        "queries": queries,
        "runs": len(samples),
    }
    cpu_text = f"{cpu:10.1f}" if cpu is not None else f"{'-':>10}"
    print(
        f"  {name:<56} {ms:10.1f} ms {cpu_text} CPU ms {queries:7d} q  ({len(samples)} runs)",
        flush=True,
    )


def client_for(user: User) -> Client:
    client = Client(headers={"accept-encoding": "gzip"})  # as browsers ask
    client.force_login(user, backend=MODEL_BACKEND)
    return client


def getter(client: Client, url: str) -> Callable[[object], object]:
    def get(_arg: object) -> object:
        response = client.get(url)
        if response.status_code not in (200, 204):
            raise AssertionError(f"{url}: {response.status_code}")
        return response

    return get


# --- Games made for the task measurements --------------------------------------------------


class Made:
    """Games copied for the finalize measurements, deleted at the end."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        templates = seeding.describe_templates(seeding.template_games())
        self.template = next(
            t
            for t in templates
            if t.players == 2 and not t.bots and t.pool == Pool.PLAYERS and t.counts
        )
        self.pool = seeding.pool_ids()
        self.rng = random.Random(5)

    def game(self, finished_at) -> int:
        people = self.rng.sample(self.pool, 2)
        game_id = seeding.copy_game(
            self.template, people, finished_at, finalized=False, recorded=False
        )
        self.ids.append(game_id)
        return game_id

    def late(self) -> int:
        """Finished an hour before the newest finished game of the players' pool."""
        newest = SeatResult.objects.filter(pool=Pool.PLAYERS).aggregate(m=Max("finished_at"))["m"]
        return self.game(newest - timedelta(hours=1))

    def on_time(self) -> int:
        return self.game(timezone.now())

    def delete(self) -> None:
        Game.objects.filter(pk__in=self.ids).delete()


# --- All of it ------------------------------------------------------------------------------


def prepare_site() -> None:
    """Static files collected for the manifest storage (DEBUG off), and an empty cache (Redis
    database 14, this bench's own), so every size starts alike."""
    if not (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():
        call_command("collectstatic", interactive=False, verbosity=0)
    cache.clear()


def run(args: argparse.Namespace) -> dict:
    prepare_site()
    light, heavy = User.objects.get(username="light"), User.objects.get(username="heavy")
    veteran = User.objects.get(username="veteran")
    as_light, as_heavy, as_veteran = client_for(light), client_for(heavy), client_for(veteran)
    results: dict = {}
    opts = {"runs": args.runs, "warmups": args.warmups, "budget": args.budget}
    finished = Game.objects.filter(status=Game.Status.FINISHED).count()
    print(f"Measuring on {finished:,} finished games ({connection.settings_dict['NAME']})")

    mine = reverse("games:mine")
    measure("My games (light)", getter(as_light, mine), results, **opts)
    light_past = Seat.objects.filter(
        user=light, game__status__in=[Game.Status.FINISHED, Game.Status.CANCELLED]
    ).count()
    if light_past > PAST_PAGE:
        measure("My games (light), page 2", getter(as_light, f"{mine}?page=2"), results, **opts)
    else:
        print(f"  (My games of light has one page: {light_past} finished games)")
    measure("My games (heavy)", getter(as_heavy, mine), results, **opts)
    measure("My games (heavy), page 2", getter(as_heavy, f"{mine}?page=2"), results, **opts)

    profile = lambda user: reverse("records:player", args=[user.username])  # noqa: E731
    measure("Profile of heavy, seen by light", getter(as_light, profile(heavy)), results, **opts)
    measure("Profile of light, seen by heavy", getter(as_heavy, profile(light)), results, **opts)
    measure("Own profile (heavy)", getter(as_heavy, profile(heavy)), results, **opts)
    measure("Own profile (light)", getter(as_light, profile(light)), results, **opts)
    # veteran's own games are 1% of the site's: these grow with that player's own history.
    mine_label, own_label = "My games (veteran, own history x10)", "Own profile (veteran, own x10)"
    measure(mine_label, getter(as_veteran, mine), results, **opts)
    measure(own_label, getter(as_veteran, profile(veteran)), results, **opts)

    longest = Game.objects.filter(status=Game.Status.FINISHED).order_by("-move_count", "pk").first()
    replay = reverse("records:replay", args=[longest.pk])
    label = f"longest game ({longest.move_count} moves)"
    measure(f"Replay, start, {label}", getter(as_light, f"{replay}?move=0"), results, **opts)
    end = f"{replay}?move={longest.move_count}"
    measure(f"Replay, end, {label}", getter(as_light, end), results, **opts)
    export = reverse("records:export", args=[longest.pk])
    measure(f"Export, {label}", getter(as_light, export), results, **opts)
    sheet = reverse("records:sheet", args=[longest.pk])
    measure(f"Score sheet, {label}", getter(as_light, sheet), results, **opts)

    playing = Game.objects.filter(status=Game.Status.ACTIVE, seats__user=light).order_by(
        "-move_count"
    )
    game = next(g for g in playing if g.seats.get(position=g.current_seat).user_id == light.pk)
    label = f"{game.players} players, {game.move_count} moves"
    page = reverse("games:detail", args=[game.pk])
    measure(f"Game page, light to move ({label})", getter(as_light, page), results, **opts)
    poll = (
        f"{reverse('games:poll', args=[game.pk])}?v={game.version}&t={game.talk_version}"
        f"&p={presence.token_for(game.pk, light.pk)}&turn=mine"
    )
    measure("Poll, nothing changed (light)", getter(as_light, poll), results, **opts)

    measure("History (light)", getter(as_light, reverse("records:history")), results, **opts)
    boards = reverse("records:leaderboards")
    for query, label in [
        ("", "rating"),
        ("?board=wins", "wins"),
        ("?board=average", "average"),
        ("?board=best", "best score"),
        ("?board=solo", "solo high scores"),
        ("?board=wins&period=30", "wins, last 30 days"),
        ("?friends=on", "rating, friends"),
        ("?board=wins&friends=on", "wins, friends"),
        ("?board=solo&friends=on", "solo, friends"),
    ]:
        measure(f"Leaderboard: {label} (light)", getter(as_light, boards + query), results, **opts)

    made = Made()
    try:
        finalize = lambda game_id: finalize_game(game_id)  # noqa: E731
        measure("finalize_game, late game", finalize, results, prepare=made.late, **opts)
        measure("finalize_game, newest game", finalize, results, prepare=made.on_time, **opts)
    finally:
        made.delete()
    if not args.no_rebuild:
        measure("records.services.rebuild()", lambda _: rebuild(), results, warmups=0, runs=1)
    return results


def print_table(results: dict) -> None:
    width = max(len(name) for name in results)
    print(f"\n{'what':<{width}} {'ms':>10} {'CPU ms':>10} {'queries':>8} {'runs':>5}")
    for name, row in results.items():
        cpu = f"{row['cpu_ms']:10.1f}" if row.get("cpu_ms") is not None else f"{'-':>10}"
        print(f"{name:<{width}} {row['ms']:10.1f} {cpu} {row['queries']:8d} {row['runs']:5d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=env.OUT / "measure.json")
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--warmups", type=int, default=WARMUPS)
    parser.add_argument("--budget", type=float, default=BUDGET, help="seconds per measurement")
    parser.add_argument("--no-rebuild", action="store_true", help="skip rebuild() (slow)")
    args = parser.parse_args()
    results = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))
    print_table(results)
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
