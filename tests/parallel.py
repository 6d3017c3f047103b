"""Each pytest-xdist worker on a Redis database of its own.

Every test starts by clearing the cache, which on Redis empties the whole database (FLUSHDB), and
the tests with real Celery workers use the same queue names. So worker gwN takes database base + N
(REDIS_URL's number plus N) for its cache and its broker, and hands it to the Celery workers it
starts. PostgreSQL needs nothing here: pytest-django already names each worker's test database
apart (test_harmonies_gw0, test_harmonies_gw1...).
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

from django.conf import settings

REDIS_DATABASES = 16  # Redis's default number of databases


def worker_redis_url(url: str, worker: str) -> str:
    """REDIS_URL with its database number moved up by the xdist worker's index ("gw2": 2)."""
    parsed = urlparse(url)
    base = int(parsed.path.strip("/") or 0)
    database = base + int(worker.removeprefix("gw"))
    if database >= REDIS_DATABASES:
        raise RuntimeError(
            f"xdist worker {worker} would use Redis database {database} of {REDIS_DATABASES}:"
            " give REDIS_URL a lower database number or run fewer workers (-n)"
        )
    return parsed._replace(path=f"/{database}").geturl()


def use_own_redis_database() -> None:
    """Point the cache and the broker of this worker at its database, before either is used."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker or not settings.REDIS_URL:
        return
    from django.test.signals import clear_cache_handlers

    from harmonies_site.celery import app

    url = worker_redis_url(settings.REDIS_URL, worker)
    settings.REDIS_URL = settings.CELERY_BROKER_URL = url
    settings.CACHES["default"]["LOCATION"] = url
    clear_cache_handlers(setting="CACHES")  # the cache handler rereads CACHES
    app.conf.broker_url = url
