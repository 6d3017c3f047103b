"""Load bench: gunicorn on PostgreSQL and Redis, driven by headless locust, a few minutes in all.

    .venv/bin/python bench/load/run.py [--workers 4] [--seconds 20] [--games 300]

Steps: start PostgreSQL and Redis if they are down (as .ci/run does), recreate the database
`harmonies_bench`, migrate, collectstatic, seed games in progress (bench/load/seed.py), count
queries per request (bench/load/queries.py), serve the site with gunicorn on 127.0.0.1 only with
production settings (DEBUG off), then run one scenario after another for a bounded time and print
the figures. Redis database 15 is used (and flushed) so the development data in 0 is left alone.
Targets are printed beside the figures; nothing fails when a target is missed.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil  # installed with locust

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
OUT = ROOT / "var" / "bench"
PORT = 8765
DB_NAME = "harmonies_bench"
PG = ["-h", "127.0.0.1", "-p", "5432", "-U", "postgres"]

ENV = {
    **os.environ,
    "DEBUG": "false",
    "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789-abcdefghijklmnop",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "false",  # plain HTTP on the loopback; cookies are sent by hand
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "REDIS_URL": "redis://127.0.0.1:6379/15",
    "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
    "LOG_LEVEL": "WARNING",
    "BENCH_PLAN": str(OUT / "plan.json"),
}

# name, locust user class, clients, extra environment, targets (p95 ms, p99 ms, requests/s)
SCENARIOS = [
    ("game page", "PageUser", 10, {}, {"p95": 100, "rps": 200}),
    ("poll", "PollUser", 20, {}, {"rps": 1000}),
    (
        "move (htmx)",
        "MoveUser",
        10,
        {"BENCH_HTMX": "1", "BENCH_PART": "0/2"},
        {"p99": 100, "rps": 300},
    ),
    (
        "move (no JS)",
        "MoveUser",
        10,
        {"BENCH_HTMX": "0", "BENCH_PART": "1/2"},
        {"p99": 100, "rps": 300},
    ),
]


def sh(*cmd: str, env: dict | None = None, check: bool = True, quiet: bool = False) -> int:
    """Run a command; `quiet` sends its output (both streams) to var/bench/commands.log."""
    if not quiet:
        return subprocess.run(cmd, env=env or ENV, cwd=ROOT, check=check).returncode
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
    sh("redis-cli", "-n", "15", "flushdb", quiet=True)
    python = str(BIN / "python")
    sh(python, "manage.py", "migrate", "--no-input", "-v0")
    sh(python, "manage.py", "collectstatic", "--no-input", "-v0")
    sh(python, "bench/load/seed.py", "--games", str(games), "--out", ENV["BENCH_PLAN"],
       "--base-url", f"http://127.0.0.1:{PORT}")  # fmt: skip
    print("Queries per request (CaptureQueriesContext, after one warm-up request):")
    sh(python, "bench/load/queries.py")


def answers() -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/accounts/login/", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def start_gunicorn(workers: int, threads: int) -> subprocess.Popen:
    # With threads > 1 gunicorn uses its gthread worker, which keeps connections alive.
    command = [str(BIN / "gunicorn"), "harmonies_site.wsgi", "--bind", f"127.0.0.1:{PORT}",
               "--workers", str(workers), "--threads", str(threads),
               "--log-level", "warning"]  # fmt: skip
    server = subprocess.Popen(command, env=ENV, cwd=ROOT)
    wait_for(answers, "gunicorn")
    return server


def poll_answer_sizes() -> dict[str, int]:
    """Bytes on the wire of a poll answer (status line and headers: the body is empty)."""
    game = json.loads(Path(ENV["BENCH_PLAN"]).read_text())["games"][0]
    token = game["seats"][0]["presence"]
    sizes = {}
    for label, version in (("unchanged (204)", game["version"]), ("changed (200)", -1)):
        with socket.create_connection(("127.0.0.1", PORT), timeout=5) as conn:
            conn.sendall(
                f"GET /games/{game['id']}/poll/?v={version}&p={token} HTTP/1.1\r\n"
                "Host: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
            )
            answer = b""
            while chunk := conn.recv(65536):
                answer += chunk
        sizes[label] = len(answer)
    return sizes


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


def run_scenario(name, user_class, clients, extra_env, seconds, server_pid) -> dict:
    prefix = OUT / user_class.lower()
    cpu_before, pg_before, busy_before = cpu_seconds(server_pid), postgres_seconds(), busy_seconds()
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    sh(str(BIN / "locust"), "-f", "bench/load/locustfile.py", "--headless", "--only-summary",
       "-u", str(clients), "-r", str(clients), "-t", f"{seconds}s", "--stop-timeout", "5",
       "--csv", str(prefix), "--loglevel", "ERROR", user_class,
       env={**ENV, **extra_env}, check=False, quiet=True)  # fmt: skip
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(server_pid) - cpu_before
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    locust = (children.ru_utime + children.ru_stime) - (
        children_before.ru_utime + children_before.ru_stime
    )
    pg = sum(t - pg_before.get(pid, 0.0) for pid, t in postgres_seconds().items())
    busy = busy_seconds() - busy_before
    with open(f"{prefix}_stats.csv") as f:
        row = next(r for r in csv.DictReader(f) if r["Name"] == "Aggregated")
    n = int(row["Request Count"])
    return {
        "scenario": name,
        "clients": clients,
        "requests": n,
        "failures": int(row["Failure Count"]),
        "rps": float(row["Requests/s"]),
        "p50": float(row["50%"]),
        "p95": float(row["95%"]),
        "p99": float(row["99%"]),
        "bytes": float(row["Average Content Size"]),
        "cpu_ms": 1000 * cpu / n if n else 0.0,
        # What gunicorn and PostgreSQL could serve with every core to themselves: the load
        # generator and anything else running on the machine take their share during the run.
        "capacity": os.cpu_count() * n / (cpu + pg) if cpu + pg else 0.0,
        "elapsed": elapsed,
        # Where the machine's CPU went during the run, in cores (CPU seconds per second).
        "cores": {
            "gunicorn": cpu / elapsed,
            "postgres": pg / elapsed,
            "locust": locust / elapsed,
            "other processes": max(0.0, busy - cpu - pg - locust) / elapsed,
        },
    }


def verdict(result: dict, targets: dict) -> str:
    missed = []
    if "p95" in targets and result["p95"] > targets["p95"]:
        missed.append(f"p95>{targets['p95']}")
    if "p99" in targets and result["p99"] > targets["p99"]:
        missed.append(f"p99>{targets['p99']}")
    if "rps" in targets and result["rps"] < targets["rps"]:
        missed.append(f"<{targets['rps']}/s")
    if result["failures"]:
        missed.append(f"{result['failures']} failed")
    return "ok" if not missed else "MISSED " + ", ".join(missed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--threads", type=int, default=1, help="per worker (gthread if > 1)")
    parser.add_argument("--seconds", type=int, default=20, help="per scenario")
    parser.add_argument("--skip-seed", action="store_true", help="reuse the last seeded database")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--only", help="run only scenarios whose name contains this")
    args = parser.parse_args()
    for tool in ("pg_isready", "createdb", "redis-cli"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: the load bench needs PostgreSQL and Redis")

    OUT.mkdir(parents=True, exist_ok=True)
    ensure_services()
    if not args.skip_seed:
        prepare(args.games)
    server = start_gunicorn(args.workers, args.threads)
    results = []
    try:
        poll_sizes = poll_answer_sizes()
        for name, user_class, clients, extra_env, targets in SCENARIOS:
            if args.only and args.only not in name:
                continue
            # Warm-up (imports, templates, connections in every worker), not counted.
            sh(str(BIN / "locust"), "-f", "bench/load/locustfile.py", "--headless",
               "--only-summary", "-u", "4", "-r", "4", "-t", "2s", "--loglevel", "ERROR",
               "PageUser" if user_class == "MoveUser" else user_class,
               check=False, quiet=True)  # fmt: skip
            result = run_scenario(name, user_class, clients, extra_env, args.seconds, server.pid)
            result["verdict"] = verdict(result, targets)
            results.append(result)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    kind = "sync" if args.threads == 1 else f"gthread ({args.threads} threads)"
    print(f"\ngunicorn {kind} workers: {args.workers}, {os.cpu_count()} cores shared with locust,"
          f" {args.seconds} s per scenario")  # fmt: skip
    header = ("scenario", "clients", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms",
              "bytes", "server CPU ms/req", "req/s with all cores", "targets")  # fmt: skip
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for r in results:
        print(f"{r['scenario']} | {r['clients']} | {r['requests']} | {r['rps']:.0f} | "
              f"{r['p50']:.0f} | {r['p95']:.0f} | {r['p99']:.0f} | {r['bytes']:.0f} | "
              f"{r['cpu_ms']:.1f} | {r['capacity']:.0f} | {r['verdict']}")  # fmt: skip
    sizes = ", ".join(f"{label} {n} bytes" for label, n in poll_sizes.items())
    print(f"\nA poll answer on the wire: {sizes}")
    print(f"\nWhere the {os.cpu_count()} cores went (CPU seconds per second of each run):")
    for r in results:
        shares = ", ".join(f"{who} {used:.2f}" for who, used in r["cores"].items())
        print(f"  {r['scenario']}: {shares}")
    print("\nEvery game replays to its stored state after the moves:")
    sh(str(BIN / "python"), "manage.py", "verify_games")


if __name__ == "__main__":
    main()
