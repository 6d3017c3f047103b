"""The test suite runs tasks in-process and caches in memory when the settings chose files.

With nothing set the site's broker and cache are files under var/ (harmonies_site/settings.py),
shared by its processes. Tests run in parallel processes that each empty the cache before every
test: one shared folder would let them wipe and read each other's entries, and files cost time.
So each process asks for what CELERY_TASK_ALWAYS_EAGER=true gives: tasks run where they are
queued, right after the commit, and the cache is the process's memory. Tests that start real
workers opt out (tests/celery_workers.py, tests/site/test_embedded_worker.py).
"""

from __future__ import annotations

import logging

from django.conf import settings

LOCAL_MEMORY = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def run_tasks_in_process() -> None:
    """Eager tasks and a memory cache, before either is used; Redis (CI) keeps its cache."""
    from harmonies_site.celery import app

    # As the settings do for in-process tasks: every task's "succeeded" line would fill the
    # captured output of a failing test.
    logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    if settings.REDIS_URL:
        return  # tests.parallel gives each process its own Redis database
    from django.test.signals import clear_cache_handlers

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CELERY_BROKER_URL = app.conf.broker_url = "memory://"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = app.conf.broker_transport_options = {}
    settings.CACHES = LOCAL_MEMORY
    clear_cache_handlers(setting="CACHES")  # the cache handler rereads CACHES
