"""Celery wiring: tasks are autodiscovered from the apps, JSON only, no result backend."""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")

app = Celery("harmonies")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The periodic schedule, in one place. Every entry expires before its next run, so a worker that was
# down does not wake up to a pile of stale sweeps. Entries are added by the issues that need them.
app.conf.beat_schedule = {
    # Nightly, at a quiet hour: results, ratings and leaderboards recomputed from the games, which
    # also catches up any game whose record_game task was lost.
    "rebuild-records": {
        "task": "records.rebuild_records",
        "schedule": crontab(hour=4, minute=15),
        "options": {"expires": 6 * 60 * 60},
    },
    # Reminders are due times in Seat.remind_at, never countdowns on the broker; each is claimed.
    "sweep-reminders": {
        "task": "games.sweep_reminders",
        "schedule": 5 * 60,
        "options": {"expires": 4 * 60},
    },
    # Each player's daily digest, from 8:00 in their time zone; claimed per player and day.
    "sweep-digests": {
        "task": "games.sweep_digests",
        "schedule": 15 * 60,
        "options": {"expires": 14 * 60},
    },
    # Catch-up for work queued while the broker or the worker was down: "your turn" emails, and
    # finished games to finalize (with their game-over emails). Every task they queue claims.
    "sweep-missed-turns": {
        "task": "games.sweep_missed_turns",
        "schedule": 5 * 60,
        "options": {"expires": 4 * 60},
    },
    "sweep-finished-games": {
        "task": "games.sweep_finished_games",
        "schedule": 5 * 60,
        "options": {"expires": 4 * 60},
    },
    # Bot and stand-in turns whose task was lost: the game would otherwise wait forever.
    "sweep-automatic-turns": {
        "task": "games.sweep_automatic_turns",
        "schedule": 60,
        "options": {"expires": 50},
    },
    # Turns past their time limit: a stand-in plays them or the late player is dropped (the
    # creator's choice), and everyone is told; each turn is acted on once.
    "sweep-timeouts": {
        "task": "games.sweep_timeouts",
        "schedule": 60,
        "options": {"expires": 50},
    },
}
