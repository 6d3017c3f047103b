"""Celery wiring: tasks are autodiscovered from the apps, JSON only, no result backend."""

import os
import time
from pathlib import Path

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")

app = Celery("harmonies")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The periodic sweeps, in one place: beat runs them on these intervals, and `manage.py run_sweeps`
# (the cron path without a broker) runs exactly this list. Each entry is (task name, every so many
# seconds, expires after so many seconds); every entry expires before its next run, so a worker
# that was down does not wake up to a pile of stale sweeps. Every task a sweep queues claims.
SWEEPS = (
    # Reminders are due times in Seat.remind_at, never countdowns on the broker.
    ("games.sweep_reminders", 5 * 60, 4 * 60),
    # Each player's daily digest, from 8:00 in their time zone; claimed per player and day.
    ("games.sweep_digests", 15 * 60, 14 * 60),
    # "Your turn" emails lost while the broker or the worker was down, and those held back while
    # the player watched the game: each goes a short grace after their page stopped polling.
    ("games.sweep_missed_turns", 60, 50),
    # Finished games to finalize (with their game-over emails).
    ("games.sweep_finished_games", 5 * 60, 4 * 60),
    # Bot and stand-in turns whose task was lost: the game would otherwise wait forever.
    ("games.sweep_automatic_turns", 60, 50),
    # Turns past their time limit: a stand-in plays them or the late player is dropped (the
    # creator's choice), and everyone is told; each turn is acted on once.
    ("games.sweep_timeouts", 60, 50),
    # Reviews of finished games whose task was lost (each is claimed, then made once).
    ("games.sweep_reviews", 10 * 60, 9 * 60),
    # Finished games whose record task was lost: recorded, so the results tables catch up
    # (the whole history is rebuilt only by hand: `manage.py rebuild_records`).
    ("records.sweep_unrecorded", 10 * 60, 9 * 60),
    # This week's deal of the week, made soon after Monday 00:00 UTC (a first visit would make
    # it too; the deal is derived from the week, so making it twice makes the same row).
    ("games.sweep_weekly_deal", 60 * 60, 50 * 60),
    # Web Push claims older than two days: no task or sweep asks about them any more.
    ("push.prune_deliveries", 60 * 60, 50 * 60),
)

app.conf.beat_schedule = {
    name.split(".", 1)[1].replace("_", "-"): {
        "task": name,
        "schedule": every,
        "options": {"expires": expires},
    }
    for name, every, expires in SWEEPS
} | {
    # The embedded broker's handed-out messages (prune_broker_files below; nothing to do on Redis).
    "prune-broker-files": {
        "task": "harmonies_site.prune_broker_files",
        "schedule": 60 * 60,
        "options": {"expires": 50 * 60},
    },
}


# The embedded broker (settings: a folder per role under var/broker) keeps each message it handed
# out as a file in its "processed" folder; without pruning they would pile up, a few thousand a day.
PROCESSED_KEPT_SECONDS = 24 * 60 * 60


@app.task(name="harmonies_site.prune_broker_files", ignore_result=True)
def prune_broker_files() -> int:
    """Delete the filesystem broker's processed messages older than a day; how many went."""
    options = app.conf.broker_transport_options or {}
    folder = options.get("processed_folder")
    if not (app.conf.broker_url or "").startswith("filesystem") or not folder:
        return 0
    cutoff = time.time() - PROCESSED_KEPT_SECONDS
    pruned = 0
    for path in Path(folder).glob("*.msg"):
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
                pruned += 1
        except FileNotFoundError:  # pruned meanwhile by another run
            continue
    return pruned
