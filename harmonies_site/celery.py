"""Celery wiring: tasks are autodiscovered from the apps, JSON only, no result backend."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")

app = Celery("harmonies")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The periodic schedule, in one place. Every entry expires before its next run, so a worker that was
# down does not wake up to a pile of stale sweeps. Entries are added by the issues that need them.
app.conf.beat_schedule = {}
