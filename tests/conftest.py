"""Shared fixtures, and the rule for tests that need real services.

Tests marked `postgres`, `redis` or `browser` skip with a reason when the service is absent, except
in CI (CI=true), where a missing service fails the test and any skip at all fails the run.

The suite runs in parallel processes (pytest-xdist, `-n auto` in pyproject.toml). pytest-django
gives each its own test database; `tests.parallel` gives each its own Redis database. After a
transactional test, PostgreSQL is emptied with DELETE rather than TRUNCATE (`tests.fast_flush`),
and the cards and bots of the data migrations are put back (`tests.reference_data`). Tasks run
in-process and, without Redis, the cache is each process's memory (`tests.in_process`).
"""

import os
import shutil
import socket
from collections import Counter
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.db import connection

from tests import fast_flush, in_process, parallel, reference_data
from tests.factories import UserFactory

# The browser fixtures (browser, new_page, page, screenshots), for every folder's browser tests.
pytest_plugins = ["tests.browsers"]

in_process.run_tasks_in_process()
parallel.use_own_redis_database()
fast_flush.install()
reference_data.install()

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CHROMIUM = "/usr/bin/chromium"


def _redis_reachable() -> bool:
    url = urlparse(settings.REDIS_URL)
    try:
        with socket.create_connection((url.hostname or "127.0.0.1", url.port or 6379), timeout=1):
            return True
    except OSError:
        return False


def _missing_service(item: pytest.Item) -> str | None:
    if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
        return "needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/harmonies"
    if item.get_closest_marker("redis"):
        if not settings.REDIS_URL:
            return "needs Redis: set REDIS_URL=redis://127.0.0.1:6379/0"
        if not _redis_reachable():
            return f"needs Redis: nothing answers at {settings.REDIS_URL}"
    if item.get_closest_marker("browser") and not shutil.which(CHROMIUM):
        return f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    reason = _missing_service(item)
    if reason is None:
        return
    if IN_CI:
        pytest.fail(f"CI must run this test, but it {reason}", pytrace=False)
    pytest.skip(reason)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if IN_CI and skipped and exitstatus == 0:
        reporter.write_line(f"CI must not skip tests, but {skipped} were skipped.", red=True)
        session.exitstatus = 1


@pytest.fixture
def player(db):
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def other_player(db):
    return UserFactory(username="bob", display_name="Bob")


@pytest.fixture
def stranger(db):
    return UserFactory(username="mallory", display_name="Mallory")


@pytest.fixture
def carol(db):
    """A third player, for tables of three and friends of friends."""
    return UserFactory(username="carol", display_name="Carol")


@pytest.fixture
def game(player, other_player):
    """A two-player game started between `player` and `other_player` (random seat order)."""
    from tests.games.helpers import start_game

    return start_game(player, other_player)


@pytest.fixture(autouse=True, scope="session")
def celery_runs_tasks_in_process():
    """Tests run tasks eagerly even when REDIS_URL is set (CI); the worker tests opt out.
    (Set again here: tests.in_process did it at import, and a test may have changed it.)"""
    from harmonies_site.celery import app

    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with an empty cache: ids are reused between tests, cached versions not."""
    from django.core.cache import cache

    from games.presenters.shared_parts import logs, pictures

    cache.clear()
    pictures.clear()
    logs.clear()
    yield
    cache.clear()  # rate-limit counts and published versions stay with the test that made them


@pytest.fixture(autouse=True)
def english_between_tests():
    """A request in French leaves French active in its thread (LocaleMiddleware activates and
    does not reset): each test starts, and leaves, in the site's default language."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    """Test users are made by the hundred; a deliberately slow hash would dominate the suite."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


def pytest_terminal_summary(terminalreporter) -> None:
    """The fuzz's counts (tests/security/test_fuzz.py), from its tests' reports: under xdist only
    they reach the main process, which loads this conftest but not the security folder's."""
    counts: Counter = Counter()
    seconds = 0.0
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) != "call":  # teardown reports repeat them
                continue
            for name, value in report.user_properties:
                if name == "forged":
                    label, count, spent = value
                    counts[label] += count
                    seconds += spent
    if counts:
        total = sum(counts.values())
        parts = ", ".join(f"{label} {n}" for label, n in counts.most_common())
        terminalreporter.write_line(
            f"Forged requests: {total} in {seconds:.1f} s ({total / seconds:.0f}/s): {parts}"
        )
