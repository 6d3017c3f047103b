"""System checks for a site run in several processes or on several machines.

Why: the cache carries what the processes tell each other (the poll's versions, who is looking
at a game, which decides whether a turn email waits, and the rate limits). A cache held in one
process's memory is right for that process only; a second web process serves stale polls,
sees half the presence and doubles every rate limit, and nothing else would say so. Django runs
these checks before `runserver`, `migrate` and `check`; the WSGI module runs them as gunicorn
loads it (harmonies_site/wsgi.py), so a wrong production start says why in its log.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core import checks
from django.db import connections

SCALING = "scaling"
PROCESS_LOCAL = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


def web_processes() -> int:
    """How many web processes this start serves with: gunicorn's own default is WEB_CONCURRENCY
    (the Procfile sets it), else one."""
    try:
        return max(1, int(os.environ.get("WEB_CONCURRENCY", "1")))
    except ValueError:
        return 1


@checks.register(SCALING)
def shared_state(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    messages: list[checks.CheckMessage] = []
    backend = settings.CACHES["default"]["BACKEND"]
    processes = web_processes()
    if backend in PROCESS_LOCAL and processes > 1:
        messages.append(
            checks.Error(
                f"The cache lives in each process's memory, but WEB_CONCURRENCY={processes} "
                "starts that many web processes: their polls would go stale, presence (which "
                "decides turn emails) would be seen by one process only and rate limits would "
                "multiply.",
                hint="Set REDIS_URL (the shared cache and broker), or run one web process.",
                id="harmonies.E001",
            )
        )
    if not settings.REDIS_URL and connections["default"].vendor == "postgresql":
        messages.append(
            checks.Warning(
                "DATABASE_URL names PostgreSQL but REDIS_URL is not set: the cache and the "
                "task queue are files under VAR_DIR, shared by this machine's processes only. "
                "A web or worker process on a second machine would not see them.",
                hint="Set REDIS_URL before the site runs on more than one machine.",
                id="harmonies.W001",
            )
        )
    if settings.PGBOUNCER and settings.DATABASES["default"].get("OPTIONS", {}).get("pool"):
        messages.append(
            checks.Warning(
                "DATABASE_POOL and PGBOUNCER are both set: a pool in each process in front of "
                "PgBouncer's pool holds server connections twice over.",
                hint="Use one of them: PgBouncer for many machines, DATABASE_POOL for one.",
                id="harmonies.W002",
            )
        )
    return messages


def report_at_start(stream) -> None:
    """Writes the scaling checks' messages where a process that runs no management command
    (gunicorn) shows them at start, and refuses to start on an error."""
    found = checks.run_checks(tags=[SCALING])
    for message in found:
        stream.write(f"{message}\n")
    errors = [m for m in found if m.is_serious()]
    if errors:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("; ".join(m.msg for m in errors))
