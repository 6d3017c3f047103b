"""Each pytest-xdist worker on its own Redis database (tests/parallel.py)."""

import os

import pytest
from django.conf import settings
from django.core.cache import cache

from harmonies_site.celery import app
from tests.parallel import worker_redis_url


def test_worker_n_takes_the_database_n_above_redis_url():
    assert worker_redis_url("redis://127.0.0.1:6379/3", "gw0") == "redis://127.0.0.1:6379/3"
    assert worker_redis_url("redis://127.0.0.1:6379/3", "gw2") == "redis://127.0.0.1:6379/5"
    assert worker_redis_url("redis://127.0.0.1:6379", "gw1") == "redis://127.0.0.1:6379/1"
    assert (
        worker_redis_url("redis://:pw@redis.local:6380/0", "gw1")
        == "redis://:pw@redis.local:6380/1"
    )


def test_it_refuses_a_database_redis_does_not_have():
    with pytest.raises(RuntimeError, match="database 16"):
        worker_redis_url("redis://127.0.0.1:6379/14", "gw2")


def test_this_process_uses_its_own_database_for_the_cache_and_the_broker():
    configured = os.environ.get("REDIS_URL", "")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    expected = worker_redis_url(configured, worker) if configured and worker else configured
    assert expected == settings.REDIS_URL
    if expected:
        assert settings.CACHES["default"]["LOCATION"] == expected
        assert cache._cache._servers == [expected]
        assert app.conf.broker_url == expected
