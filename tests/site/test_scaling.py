"""Settings that refuse to be wrong at scale: a cache shared by every process, and the database
settings for a pool or PgBouncer (harmonies_site/checks.py, docs/operating.md)."""

import io

import pytest
from django.core.exceptions import ImproperlyConfigured

from harmonies_site import checks
from tests.site.test_settings import PRODUCTION_ENV, run_manage

LOCMEM = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
REDIS = {"default": {"BACKEND": "harmonies_site.cache.RedisCache", "LOCATION": "redis://x"}}


class FakeConnection:
    def __init__(self, vendor: str) -> None:
        self.vendor = vendor


@pytest.fixture
def sqlite(monkeypatch):
    monkeypatch.setattr(checks, "connections", {"default": FakeConnection("sqlite")})


def ids(messages) -> list[str]:
    return [m.id for m in messages]


def test_a_cache_in_each_process_with_several_web_processes_is_an_error(
    settings, monkeypatch, sqlite
):
    settings.CACHES = LOCMEM
    monkeypatch.setenv("WEB_CONCURRENCY", "4")
    assert ids(checks.shared_state()) == ["harmonies.E001"]
    out = io.StringIO()
    with pytest.raises(ImproperlyConfigured, match="WEB_CONCURRENCY=4"):
        checks.report_at_start(out)
    assert "harmonies.E001" in out.getvalue() and "Set REDIS_URL" in out.getvalue()


@pytest.mark.parametrize("concurrency", [None, "1", "not a number"])
def test_one_web_process_may_keep_its_cache_to_itself(settings, monkeypatch, sqlite, concurrency):
    settings.CACHES = LOCMEM
    if concurrency is None:
        monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    else:
        monkeypatch.setenv("WEB_CONCURRENCY", concurrency)
    assert checks.shared_state() == []
    checks.report_at_start(io.StringIO())  # starts


def test_a_shared_cache_serves_any_number_of_processes(settings, monkeypatch, sqlite):
    settings.CACHES, settings.REDIS_URL = REDIS, "redis://x"
    monkeypatch.setenv("WEB_CONCURRENCY", "16")
    assert checks.shared_state() == []


def test_postgresql_without_redis_warns_that_it_is_one_machine_only(settings, monkeypatch):
    settings.REDIS_URL = ""
    monkeypatch.setattr(checks, "connections", {"default": FakeConnection("postgresql")})
    assert ids(checks.shared_state()) == ["harmonies.W001"]
    settings.REDIS_URL = "redis://x"
    assert checks.shared_state() == []


def test_the_wsgi_module_refuses_to_start_a_cache_per_process_for_several_processes():
    env = {"CELERY_TASK_ALWAYS_EAGER": "true", "WEB_CONCURRENCY": "2"}
    result = run_manage("shell", "--no-imports", "-c", "import harmonies_site.wsgi", env=env)
    assert result.returncode != 0
    assert "harmonies.E001" in result.stderr + result.stdout
    assert run_manage("check", env=env).returncode != 0  # and runserver, migrate, check say so


def database_settings(env: dict[str, str]) -> list[str]:
    code = (
        "from django.conf import settings as s; d = s.DATABASES['default'];"
        "print(d['CONN_MAX_AGE'], d['OPTIONS'].get('pool'), d.get('DISABLE_SERVER_SIDE_CURSORS'),"
        " d['OPTIONS'].get('prepare_threshold', 'default'))"
    )
    result = run_manage("shell", "--no-imports", "-c", code, env={**PRODUCTION_ENV, **env})
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().split(" ", 1)


def test_database_pool_and_pgbouncer_settings():
    assert database_settings({}) == ["60", "None None default"]
    assert database_settings({"DATABASE_POOL": "8"}) == [
        "0",
        "{'min_size': 1, 'max_size': 8, 'timeout': 10} None default",
    ]
    assert database_settings({"PGBOUNCER": "true"}) == ["60", "None True None"]


@pytest.mark.postgres
def test_the_site_runs_its_queries_through_a_pool_when_asked():
    code = (
        "from django.db import connection; connection.cursor().execute('SELECT 1');"
        "print(type(connection.pool).__name__, connection.pool.max_size)"
    )
    result = run_manage(
        "shell", "--no-imports", "-c", code, env={**PRODUCTION_ENV, "DATABASE_POOL": "3"}
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["ConnectionPool", "3"]
