"""Load bench: gunicorn on PostgreSQL and Redis, driven by headless locust, a few minutes in all.

    .venv/bin/python bench/load/run.py [--quick] [--seconds 20] [--games 300] [--strict]

Steps: start PostgreSQL and Redis if they are down (as .ci/run does), recreate the database
`harmonies_bench`, migrate, collectstatic, seed games in progress (bench/load/seed.py), count
queries per request (bench/load/queries.py), serve the site with gunicorn (4 sync workers) on
127.0.0.1 only with production settings (DEBUG off) plus the floor page (bench/load/settings.py),
then run one scenario after another for a bounded time and print the table.

Every figure of cost is measured in the gunicorn workers (bench/load/meter.py), and each scenario's
server CPU per request is reported as a multiple of the floor's (bench/load/floor.py: session,
user, one small query, a small template), which the scenario's clients open a second in every
four: the same workers in the same seconds, so the ratio holds on a busy or a quiet day, when
milliseconds do not (on a shared machine they drift by half within a minute).
Redis database 15 is used (and flushed) so the development data in 0 is left alone. Targets are
printed beside the figures; only --strict makes a missed target fail the run.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil  # installed with locust
import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.load import meter, report

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
OUT = ROOT / "var" / "bench"
PORT = 8765
DB_NAME = "harmonies_bench"
PG = ["-h", "127.0.0.1", "-p", "5432", "-U", "postgres"]
REDIS_DB = 15

ENV = {
    **os.environ,
    "DEBUG": "false",
    "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789-abcdefghijklmnop",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "false",  # plain HTTP on the loopback; cookies are sent by hand
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
    "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
    "LOG_LEVEL": "WARNING",
    "BENCH_PLAN": str(OUT / "plan.json"),
    "BENCH_METER": str(OUT / "meter.bin"),
}

# name, locust user class, clients, extra environment (and targets: see bench/load/report.py)
FLOOR = ("floor", "FloorUser", 10, {})
FLOOR_EVERY = 4  # seconds: a scenario's clients open the floor in the first quarter of each
SCENARIOS = [
    ("game page", "PageUser", 10, {}, {"ratio": 2.0, "p95": 100, "bytes": 20_000}),
    ("poll", "PollUser", 20, {}, {"ratio": 0.5, "queries": 0}),
    ("move (htmx)", "MoveUser", 10, {"BENCH_HTMX": "1", "BENCH_PART": "0/2"},
     {"ratio": 2.5, "p99": 100}),
    ("move (no JS)", "MoveUser", 10, {"BENCH_HTMX": "0", "BENCH_PART": "1/2"},
     {"ratio": 2.0, "p99": 100}),
]  # fmt: skip


def sh(*cmd: str, env: dict | None = None, check: bool = True, quiet: bool = False) -> int:
    """Run a command; `quiet` sends its output (both streams) to var/bench/commands.log."""
    if not quiet:
        return subprocess.run(cmd, env=env or ENV, cwd=ROOT, check=check).returncode
    OUT.mkdir(parents=True, exist_ok=True)  # also when ensure_services() or prepare() come first
    with open(OUT / "commands.log", "a") as log:
        return subprocess.run(
            cmd, env=env or ENV, cwd=ROOT, check=check, stdout=log, stderr=subprocess.STDOUT
        ).returncode


def wait_for(test, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if test():
            return
        time.sleep(0.2)
    raise SystemExit(f"gave up waiting for {what} after {seconds:.0f} s")


def ensure_services() -> None:
    """PostgreSQL and Redis on 127.0.0.1, started the way .ci/run starts them."""
    if sh("pg_isready", "-q", *PG[:4], check=False):
        print("Starting PostgreSQL")
        cluster = sorted(os.listdir("/etc/postgresql"))[-1]
        sh("pg_ctlcluster", "--skip-systemctl-redirect", cluster, "main", "start")
        wait_for(lambda: not sh("pg_isready", "-q", *PG[:4], check=False), "PostgreSQL")
    if sh("redis-cli", "-p", "6379", "ping", check=False, quiet=True):
        print("Starting Redis")
        sh("redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379",
           "--save", "", "--appendonly", "no", quiet=True)  # fmt: skip
        ready = lambda: not sh("redis-cli", "-p", "6379", "ping", check=False, quiet=True)  # noqa: E731
        wait_for(ready, "Redis")


def prepare(games: int) -> None:
    sh("dropdb", *PG, "--if-exists", "--force", DB_NAME)
    sh("createdb", *PG, DB_NAME)
    sh("redis-cli", "-n", str(REDIS_DB), "flushdb", quiet=True)
    python = str(BIN / "python")
    sh(python, "manage.py", "migrate", "--no-input", "-v0")
    sh(python, "manage.py", "collectstatic", "--no-input", "-v0")
    sh(python, "bench/load/seed.py", "--games", str(games), "--out", ENV["BENCH_PLAN"],
       "--base-url", f"http://127.0.0.1:{PORT}")  # fmt: skip
    print("Queries per request (CaptureQueriesContext, after one warm-up request):")
    sh(python, "bench/load/queries.py")


def get(path: str) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{PORT}{path}", timeout=5) as r:
            return r.status
    except OSError:
        return 0


def start_gunicorn(workers: int) -> subprocess.Popen:
    # Sync workers, as in production behind a buffering proxy; the meter's hooks assume one
    # request at a time per worker process.
    command = [str(BIN / "gunicorn"), "harmonies_site.wsgi", "--bind", f"127.0.0.1:{PORT}",
               "--workers", str(workers), "--preload", "--config", "bench/load/meter.py",
               "--log-level", "warning"]  # fmt: skip
    env = {**ENV, "DJANGO_SETTINGS_MODULE": "bench.load.settings"}
    server = subprocess.Popen(command, env=env, cwd=ROOT)
    wait_for(lambda: get("/accounts/login/") == 200, "gunicorn")
    return server


def prime_versions() -> None:
    """Poll every game once with the cache cleared, so each version is cached afresh (for 60 s,
    longer than the poll run): the poll is measured while cached, its usual case."""
    connection = redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB)
    stale = list(connection.scan_iter("*game-version:*"))
    if stale:
        connection.delete(*stale)
    for game in json.loads(Path(ENV["BENCH_PLAN"]).read_text())["games"]:
        get(f"/games/{game['id']}/poll/?v={game['version']}&p={game['seats'][0]['presence']}")


def cpu_seconds(pid: int) -> float:
    """CPU time used so far by a process and its children (the gunicorn master and workers)."""
    proc = psutil.Process(pid)
    total = 0.0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def postgres_seconds() -> dict[int, float]:
    """CPU time of the PostgreSQL backends serving the bench database, by process id."""
    seconds = {}
    for p in psutil.process_iter(["cmdline", "cpu_times"]):
        if DB_NAME in " ".join(p.info["cmdline"] or ()) and p.info["cpu_times"]:
            seconds[p.pid] = p.info["cpu_times"].user + p.info["cpu_times"].system
    return seconds


def busy_seconds() -> float:
    t = psutil.cpu_times()
    return sum(t) - t.idle - getattr(t, "iowait", 0.0)


def locust(user_classes: list[str], clients: int, seconds: float, env: dict, csv_prefix=None):
    command = [str(BIN / "locust"), "-f", "bench/load/locustfile.py", "--headless",
               "--only-summary", "-u", str(clients), "-r", str(clients), "-t", f"{seconds}s",
               "--stop-timeout", "5", "--loglevel", "ERROR", *user_classes]  # fmt: skip
    if csv_prefix:
        command[-len(user_classes) : -len(user_classes)] = ["--csv", str(csv_prefix)]
    sh(*command, env=env, check=False, quiet=True)


def run_scenario(name, user_class, clients, extra_env, seconds, server_pid) -> dict:
    """One scenario for `seconds`: locust's figures, and the workers' (bench/load/meter.py).
    Other than the floor's own run, the clients turn to the floor a quarter of the time, in
    slices of FLOOR_EVERY seconds (bench/load/locustfile.py): `floor_ms` is from those slices."""
    interleaved = name != "floor"
    if interleaved:
        extra_env = {**extra_env, "BENCH_FLOOR_EVERY": str(FLOOR_EVERY)}
    prefix = OUT / name.replace(" ", "-").replace("(", "").replace(")", "")
    cpu_before, pg_before, busy_before = cpu_seconds(server_pid), postgres_seconds(), busy_seconds()
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    metered_before = meter.read_totals()
    started = time.monotonic()
    locust([user_class], clients, seconds, {**ENV, **extra_env}, csv_prefix=prefix)
    elapsed = time.monotonic() - started
    metered = meter.read_totals()
    cpu = cpu_seconds(server_pid) - cpu_before
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    locust_cpu = (children.ru_utime + children.ru_stime) - (
        children_before.ru_utime + children_before.ru_stime
    )
    pg = sum(t - pg_before.get(pid, 0.0) for pid, t in postgres_seconds().items())
    busy = busy_seconds() - busy_before
    with open(f"{prefix}_stats.csv") as f:
        rows = {r["Name"]: r for r in csv.DictReader(f)}
    row = rows.get(name, dict.fromkeys(("Failure Count", "Requests/s", "50%", "95%", "99%"), 0))
    mine = meter.difference(metered[name], metered_before[name])
    floor = meter.difference(metered["floor"], metered_before["floor"])
    floor_ms = 1000 * floor["cpu"] / floor["requests"] if floor["requests"] else 0.0
    all_cpu = sum(metered[c]["cpu"] - metered_before[c]["cpu"] for c in metered)
    n = mine["requests"] or 1
    return {
        "scenario": name,
        "clients": clients,
        "requests": int(mine["requests"]),
        "failures": int(row["Failure Count"]),
        # Per second of the scenario's own slices (three quarters of the run when interleaved).
        "rps": float(row["Requests/s"]) * (4 / 3 if interleaved else 1),
        "p50": float(row["50%"]),
        "p95": float(row["95%"]),
        "p99": float(row["99%"]),
        "cpu_s": mine["cpu"],
        "cpu_ms": 1000 * mine["cpu"] / n,
        "cpu_median_ms": 1000 * meter.median(mine["buckets"]),
        "floor_ms": floor_ms,
        "floor_requests": int(floor["requests"]),
        "ratio": 1000 * mine["cpu"] / n / floor_ms if floor_ms else 0.0,
        "queries": mine["queries"] / n,
        "bytes": mine["bytes"] / n,
        # For the capacity model: the gunicorn processes' whole CPU per request (accepting and
        # parsing included: the metered time scaled by the share of the processes' time it
        # covers), and PostgreSQL's (main() takes the floor's slices out of it).
        "metered_share": all_cpu / cpu if cpu else 0.0,
        "process_ms": 1000 * mine["cpu"] / n * (cpu / all_cpu if all_cpu else 1.0),
        "pg_s": pg,
        "pg_ms": 1000 * pg / n,
        "elapsed": elapsed,
        # Where the machine's CPU went during the run, in cores (CPU seconds per second).
        "cores": {
            "gunicorn": cpu / elapsed,
            "postgres": pg / elapsed,
            "locust": locust_cpu / elapsed,
            "other processes": max(0.0, busy - cpu - pg - locust_cpu) / elapsed,
        },
    }


def main() -> None:
    global PORT, REDIS_DB
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="6 s per scenario, 60 games")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--seconds", type=int, help="per scenario (default 20)")
    parser.add_argument("--games", type=int, help="seeded games (default 300)")
    parser.add_argument("--skip-seed", action="store_true", help="reuse the last seeded database")
    parser.add_argument("--only", help="run only scenarios whose name contains this")
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--redis-db", type=int, default=REDIS_DB, help="flushed first")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    seconds = args.seconds or (6 if args.quick else 20)
    games = args.games or (60 if args.quick else 300)
    PORT, REDIS_DB = args.port, args.redis_db
    ENV["REDIS_URL"] = f"redis://127.0.0.1:6379/{REDIS_DB}"
    for tool in ("pg_isready", "createdb", "redis-cli"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: the load bench needs PostgreSQL and Redis")

    OUT.mkdir(parents=True, exist_ok=True)
    ensure_services()
    if not args.skip_seed:
        prepare(games)
    server = start_gunicorn(args.workers)
    scenarios = [s for s in SCENARIOS if not args.only or args.only in s[0]]
    results = []
    try:
        # Warm-up (imports, templates, connections in every worker), not counted.
        locust(["FloorUser", "PageUser", "PollUser"], 6, 3, ENV)
        floor = run_scenario(*FLOOR, seconds, server.pid)
        floor.update(targets={}, missed=report.misses(floor, {}))
        results.append(floor)
        for name, user_class, clients, extra_env, targets in scenarios:
            if user_class == "MoveUser":
                locust(["PageUser"], 4, 2, ENV)  # the move's answer renders parts of the page
            if name == "poll":
                prime_versions()
            # A third longer: a quarter of the run goes to the floor's slices.
            run_seconds = seconds + seconds // 3
            result = run_scenario(name, user_class, clients, extra_env, run_seconds, server.pid)
            floor_pg = result["floor_requests"] * floor["pg_ms"] / 1000
            result["pg_ms"] = 1000 * max(0.0, result["pg_s"] - floor_pg) / (result["requests"] or 1)
            result["targets"] = targets
            result["missed"] = report.misses(result, targets)
            results.append(result)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    print(
        f"\ngunicorn: {args.workers} sync workers, {os.cpu_count()} cores shared with locust; "
        f"{games} games; the floor for {seconds} s, then each scenario with the floor in the"
    )
    print(f"first quarter of every {FLOOR_EVERY} s. CPU: the workers' own clock per request (mean,")
    print("and median in brackets); 'floor ms': the floor's, in the same run as the scenario.")
    print(report.table(results))
    print()
    print(report.per_core(results))
    print()
    print(report.cores(results, os.cpu_count() or 1))
    (OUT / "results.json").write_text(json.dumps(results, indent=1))
    print("\nEvery game replays to its stored state after the moves:")
    sh(str(BIN / "python"), "manage.py", "verify_games")
    missed = [f"{r['scenario']} ({', '.join(r['missed'])})" for r in results if r["missed"]]
    print("\nRESULT: " + ("every target met" if not missed else "missed: " + "; ".join(missed)))
    if missed and args.strict:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
