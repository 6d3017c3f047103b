"""Faults during play: a web worker killed mid-request, the Celery worker killed mid-task, Redis
restarted, all while clients post moves. Then: is every move that got a success answer in the
database, do the invariants hold, and did each turn email go out exactly once?

    .venv/bin/python bench/faults.py [--games 150]

Runs on its own: database `harmonies_faults` (recreated), a private Redis on 127.0.0.1:6391 (so
that restarting it disturbs no one; no persistence, as in CI, so a restart loses what was
queued), gunicorn on 127.0.0.1:8766 and one Celery worker, all started and stopped here. About a
minute. Prints what happened and what it found; exits 1 if a success answer was lost or the
move log does not replay, not for emails (their losses are reported: see docs/performance.md).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter
from datetime import timedelta
from email import message_from_string
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
OUT = ROOT / "var" / "bench" / "faults"
PORT, REDIS_PORT, DB_NAME = 8766, 6391, "harmonies_faults"
PG = ["-h", "127.0.0.1", "-p", "5432", "-U", "postgres"]
CLIENTS = 6
PAUSE = 0.08  # between two posts of one client, so the run lasts long enough for every fault

ENV = {
    **os.environ,
    "DEBUG": "false",
    "SECRET_KEY": "faults-bench-only-secret-key-not-for-production-0123456789-abcdefghijk",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "false",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "REDIS_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
    "CELERY_TASK_ALWAYS_EAGER": "false",
    "EMAIL_BACKEND": "bench.faults_mail.SlowFileBackend",
    "EMAIL_FILE_PATH": str(OUT / "mail"),
    "LOG_LEVEL": "ERROR",
    "PYTHONPATH": str(ROOT),
}
os.environ.update({k: v for k, v in ENV.items() if k != "PYTHONPATH"})
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")

from bench.load.run import wait_for  # noqa: E402 (needs ROOT on the path)


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def sh(*cmd: str, check: bool = True) -> None:
    with open(OUT / "commands.log", "a") as out:
        subprocess.run(cmd, env=ENV, cwd=ROOT, check=check, stdout=out, stderr=subprocess.STDOUT)


def spawn(name: str, *cmd: str) -> subprocess.Popen:
    """A background process in its own process group, its output in var/bench/faults/NAME.log."""
    out = open(OUT / f"{name}.log", "a")  # noqa: SIM115 (closed with the process, at exit)
    return subprocess.Popen(
        cmd, env=ENV, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )


def stop(process: subprocess.Popen | None, sig: int = signal.SIGTERM) -> None:
    if process is not None and process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def redis_answers() -> bool:
    return (
        subprocess.run(
            ["redis-cli", "-p", str(REDIS_PORT), "ping"], capture_output=True, text=True
        ).stdout.strip()
        == "PONG"
    )


def start_redis() -> subprocess.Popen:
    redis = spawn("redis", "redis-server", "--bind", "127.0.0.1", "--port", str(REDIS_PORT),
                  "--save", "", "--appendonly", "no")  # fmt: skip
    wait_for(redis_answers, "Redis")
    return redis


def site_answers() -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=2)
        conn.request("GET", "/accounts/login/")
        return conn.getresponse().status == 200
    except OSError:
        return False


def busy_web_worker(master):
    """A gunicorn worker with a client connection open, that is, in the middle of a request."""
    import psutil

    for _ in range(1000):
        for worker in master.children():
            try:
                conns = worker.net_connections(kind="tcp")
            except psutil.NoSuchProcess:
                continue
            if any(c.status == psutil.CONN_ESTABLISHED and c.laddr.port == PORT for c in conns):
                return worker
        time.sleep(0.002)
    return random.choice(master.children())


def start_worker() -> subprocess.Popen:
    return spawn("celery", str(BIN / "celery"), "-A", "harmonies_site", "worker",
                 "--concurrency", "2", "--loglevel", "WARNING", "--without-gossip",
                 "--without-mingle", "--without-heartbeat")  # fmt: skip


# --- The clients ----------------------------------------------------------------------------------


class Outcomes:
    """Every post and what came back: 200 (accepted), another status, or no answer at all."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.posts: list[dict] = []

    def add(self, **post) -> None:
        with self.lock:
            self.posts.append(post)


def post_action(game: dict, seat: int, action: dict, version: int) -> int | None:
    login = game["seats"][seat]
    body = urllib.parse.urlencode({"version": version, **action})
    headers = {
        "Cookie": login["cookie"],
        "X-CSRFToken": login["csrf"],
        "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    try:
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        conn.request("POST", f"/games/{game['id']}/act/", body, headers)
        response = conn.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException):
        return None  # the worker died with the request: accepted or not, the client can't tell


def stored_version(game_id: int) -> int:
    from games.models import Game

    return Game.objects.filter(pk=game_id).values_list("version", flat=True).get()


def client_loop(games: queue.Queue, outcomes: Outcomes, deadline: float) -> None:
    """Play each game's planned turn; after a lost answer, look at the game as a reloading
    browser would (here: the stored version) to know whether to send the action again."""
    from django.db import connection

    try:
        while time.monotonic() < deadline:
            try:
                game = games.get_nowait()
            except queue.Empty:
                return
            version = game["version"]
            for seat, action in game["turn"]:
                while time.monotonic() < deadline:
                    sent = time.monotonic()
                    status = post_action(game, seat, action, version)
                    outcomes.add(game=game["id"], version=version, action=action, status=status,
                                 at=time.monotonic(), took=time.monotonic() - sent)  # fmt: skip
                    time.sleep(PAUSE)
                    if status == 200:
                        break
                    if status is None or status >= 500:
                        if stored_version(game["id"]) > version:
                            break  # it was applied after all
                        continue  # it was not: send it again
                    raise SystemExit(f"game {game['id']} refused {action}: HTTP {status}")
                version += 1
    finally:
        connection.close()


# --- The run --------------------------------------------------------------------------------------


def prepare(games: int) -> list[dict]:
    sh("dropdb", *PG, "--if-exists", "--force", DB_NAME)
    sh("createdb", *PG, DB_NAME)
    python = str(BIN / "python")
    sh(python, "manage.py", "migrate", "--no-input", "-v0")
    sh(python, "manage.py", "collectstatic", "--no-input", "-v0")
    plan_path = OUT / "plan.json"
    sh(python, "bench/load/seed.py", "--games", str(games), "--users", "120", "--seed", "11",
       "--out", str(plan_path), "--base-url", f"http://127.0.0.1:{PORT}")  # fmt: skip
    plan = json.loads(plan_path.read_text())["games"]
    # Each game gets one turn change during the run: the rest of the current turn, ending it.
    for game in plan:
        first_seat = game["plan"][0][0]
        turn = [step for step in game["plan"] if step[0] == first_seat]
        game["turn"] = turn[: next(i for i, s in enumerate(turn) if s[1]["type"] == "end_turn") + 1]
    return plan


def mark_seeded_turns_announced() -> None:
    """The seeded games' turns were written in bulk, never announced: count them as announced, so
    that the sweep at the end only finds what this run missed."""
    from games.models import Game, Seat

    for game in Game.objects.filter(status=Game.Status.ACTIVE):
        Seat.objects.filter(game=game).update(notified_turn=game.engine_state().turn)


def turn_emails() -> Counter:
    """(game id, recipient) of every "your turn" email written to the mail folder."""
    sent = Counter()
    for path in (OUT / "mail").glob("*.log"):
        for chunk in path.read_text().split("-" * 79):
            if not chunk.strip():
                continue
            message = message_from_string(chunk.strip())
            subject = " ".join((message["Subject"] or "").split())
            if "your turn" in subject:  # the subject names the game; its link gives the id
                text = next(p for p in message.walk() if p.get_content_type() == "text/plain")
                game_id = re.search(r"/games/(\d+)/", text.get_payload(decode=True).decode())
                sent[(int(game_id[1]), message["To"])] += 1
    return sent


def queue_is_empty() -> bool:
    out = subprocess.run(["redis-cli", "-p", str(REDIS_PORT), "llen", "celery"],
                         capture_output=True, text=True).stdout.strip()  # fmt: skip
    return out == "0"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for old in (OUT / "mail").glob("*"):
        old.unlink()
    (OUT / "mail").mkdir(exist_ok=True)

    redis = server = worker = None
    try:
        redis = start_redis()
        log(f"Seeding {args.games} games")
        plan = prepare(args.games)
        sh("redis-cli", "-p", str(REDIS_PORT), "flushall")  # tasks queued while seeding: not ours

        import django

        django.setup()
        mark_seeded_turns_announced()
        server = spawn("gunicorn", str(BIN / "gunicorn"), "harmonies_site.wsgi", "--bind",
                       f"127.0.0.1:{PORT}", "--workers", "3", "--log-level", "warning")  # fmt: skip
        wait_for(site_answers, "gunicorn")
        worker = start_worker()
        time.sleep(2)

        games: queue.Queue = queue.Queue()
        for game in plan:
            games.put(game)
        outcomes, started = Outcomes(), time.monotonic()
        deadline = started + 60
        clients = [
            threading.Thread(target=client_loop, args=(games, outcomes, deadline))
            for _ in range(CLIENTS)
        ]
        for c in clients:
            c.start()
        log(f"{CLIENTS} clients posting the rest of a turn in each of {len(plan)} games")

        import psutil

        time.sleep(2.5)
        victim = busy_web_worker(psutil.Process(server.pid))
        os.kill(victim.pid, signal.SIGKILL)
        log(f"killed gunicorn worker {victim.pid} (SIGKILL) while it was answering a client")

        time.sleep(2.5)
        stop(worker, signal.SIGKILL)
        log("killed the Celery worker and its children (SIGKILL)")
        time.sleep(1)
        worker = start_worker()
        log("started a new Celery worker")

        time.sleep(1.5)
        stop(redis, signal.SIGKILL)
        outage = [time.monotonic()]
        log("killed Redis (SIGKILL; no persistence: what was queued is gone)")
        time.sleep(3)
        redis = start_redis()
        outage.append(time.monotonic())
        log("Redis is back")

        for c in clients:
            c.join()
        log(f"clients done after {time.monotonic() - started:.1f} s")
        wait_for(queue_is_empty, "the Celery queue to drain", 60)
        time.sleep(3)

        emails_before_sweep = sum(turn_emails().values())
        import time_machine
        from django.utils import timezone

        from games import tasks
        from games.mail.claims import STALE_CLAIM
        from harmonies_site.celery import app

        # As beat would, once claims left by the killed worker are stale: the sweep's tasks run
        # here, eagerly, at that later time (a worker would run them then).
        later = STALE_CLAIM + timedelta(minutes=1)
        app.conf.task_always_eager = True
        try:
            with time_machine.travel(timezone.now() + later):
                swept = tasks.sweep_missed_turns()
        finally:
            app.conf.task_always_eager = False
        log(f"missed-turn sweep ({later.seconds // 60} minutes later) ran {swept} turn-email tasks")
        wait_for(queue_is_empty, "the Celery queue to drain", 60)
        time.sleep(3)
        return report(plan, outcomes, emails_before_sweep, outage)
    finally:
        stop(worker)
        stop(server)
        stop(redis)


def report(plan: list[dict], outcomes: Outcomes, emails_before_sweep: int, outage) -> int:
    from games.models import Game, Move
    from games.models.replaying import verify

    by_id = {g["id"]: g for g in plan}
    statuses = Counter(p["status"] for p in outcomes.posts)
    print("\nPosts:", ", ".join(f"{n} x {s or 'no answer'}" for s, n in sorted(
        statuses.items(), key=lambda kv: str(kv[0]))))  # fmt: skip

    # 1. Every success answer is in the log, at the place its version says.
    lost, unanswered_applied = [], 0
    for post in outcomes.posts:
        game = by_id[post["game"]]
        seq = game["moves"] + (post["version"] - game["version"]) + 1
        move = Move.objects.filter(game_id=post["game"], seq=seq).first()
        if post["status"] == 200 and (move is None or move.action != post["action"]):
            lost.append(post)
        if post["status"] is None and move is not None and move.action == post["action"]:
            unanswered_applied += 1
    during = [
        p for p in outcomes.posts if outage[0] <= p["at"] - p["took"] and p["at"] <= outage[1]
    ]
    took = sorted(p["took"] for p in during if p["status"] == 200)
    print(f"While Redis was down ({outage[1] - outage[0]:.1f} s): {len(took)} posts accepted of "
          f"{len(during)}" + (f", answered in {1000 * took[len(took) // 2]:.0f} ms (median), "
                              f"{1000 * took[-1]:.0f} ms (slowest)" if took else ""))  # fmt: skip
    accepted = statuses[200]
    print(f"Accepted (HTTP 200): {accepted}; of them missing from the database: {len(lost)}")
    print(
        f"Posts without an answer (worker killed): {statuses[None]}, "
        f"{unanswered_applied} of which had been applied (the client found out on reload)"
    )

    # 2. Invariants: contiguous move numbers, replay equals stored state, plans all played.
    broken, unfinished = [], 0
    for game in Game.objects.filter(pk__in=by_id):
        seqs = list(game.moves.order_by("seq").values_list("seq", flat=True))
        if seqs != list(range(1, len(seqs) + 1)) or verify(game) is not None:
            broken.append(game.pk)
        if len(seqs) < by_id[game.pk]["moves"] + len(by_id[game.pk]["turn"]):
            unfinished += 1
    print(f"Games with a gap, a duplicate or a replay that differs: {len(broken)} {broken[:10]}")
    print(f"Games whose planned turn was not fully played: {unfinished}")

    # 3. One "your turn" email per game (each game changed turn once), to the new mover.
    sent = turn_emails()
    expected = {}
    for game in Game.objects.filter(pk__in=by_id).prefetch_related("seats__user"):
        if len(game.moves.all()) > by_id[game.pk]["moves"] + len(by_id[game.pk]["turn"]) - 1:
            mover = next(s.user for s in game.seats.all() if s.position == game.current_seat)
            expected[game.pk] = mover.email
    missing = [g for g, to in expected.items() if sent[(g, to)] == 0]
    twice = [key for key, n in sent.items() if n > 1]
    stray = [key for key in sent if expected.get(key[0]) != key[1]]
    claimed_unsent = _claimed_but_unsent(missing)
    print(
        f"Turn emails: {sum(sent.values())} sent for {len(expected)} turn changes "
        f"({emails_before_sweep} before the sweep); missing {len(missing)}, "
        f"sent twice {len(twice)}, to the wrong player {len(stray)}"
    )
    if missing:
        print(
            f"  missing for games {missing[:10]}; {len(claimed_unsent)} of them still claimed "
            "(Seat.notified_turn set) by a task killed before the mail went out"
        )
    # A plan not played means the clients were refused (a log-in that no longer works, say).
    ok = not lost and not broken and not unfinished and not missing and not twice and not stray
    verdict = "no accepted move lost, every game replays, each turn email sent once"
    print("\nRESULT:", verdict if ok else "FAILED")
    return 0 if ok else 1


def _claimed_but_unsent(game_ids: list[int]) -> list[int]:
    from games.models import Game, Seat

    claimed = []
    for game in Game.objects.filter(pk__in=game_ids):
        turn = game.engine_state().turn
        seat = Seat.objects.get(game=game, position=game.current_seat)
        if seat.notified_turn == turn:
            claimed.append(game.pk)
    return claimed


if __name__ == "__main__":
    sys.exit(main())
