"""The growth bench's environment: a database and a Redis database of its own, production settings.

Imported before Django is set up (seed.py and measure.py call `apply()` first; run.py passes the
same variables to them). Nothing here imports Django: run.py drops and creates databases with
psycopg alone.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/harmonies_growth"
QUICK_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/harmonies_growth_quick"
# Database 14: bench/load uses (and flushes) 15, the test suite 0 and up, one per process.
REDIS_URL = "redis://127.0.0.1:6379/14"
# Outside the checkout: results, collected static files, anything the settings keep on disk.
OUT = Path(os.environ.get("GROWTH_OUT", "/tmp/harmonies_growth"))

SETTINGS = {
    # Production settings (DEBUG off: templates without debug information, manifest static
    # files), on PostgreSQL and Redis, as docs/operating.md runs the site.
    "DEBUG": "false",
    "SECRET_KEY": "growth-bench-only-secret-key-not-for-production-0123456789-abcdefghijkl",
    "ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "false",  # the test client asks over plain HTTP
    "DATABASE_URL": DEFAULT_DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "CACHE_KEY_PREFIX": "growth",
    # One connection for the whole measurement (the site's default, 60 s, would reconnect in the
    # middle of some runs: a cost that has nothing to do with history).
    "CONN_MAX_AGE": "3600",
    # Tasks run in the process that queues them, after the commit: the template games are
    # finalized and recorded as they end, and finalize_game's record_game runs inside the timing.
    "CELERY_TASK_ALWAYS_EAGER": "true",
    "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
    "LOG_LEVEL": "WARNING",
    "STATIC_ROOT": str(OUT / "static"),
    "VAR_DIR": str(OUT / "var"),
    "DJANGO_SETTINGS_MODULE": "harmonies_site.settings",
}


def apply() -> None:
    """The bench's settings, under whatever the caller already set (DATABASE_URL, say)."""
    for name, value in SETTINGS.items():
        os.environ.setdefault(name, value)
    check_safe(database_name(os.environ["DATABASE_URL"]))


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def check_safe(name: str) -> None:
    """Only a database of this bench: never the site's own (`harmonies`), a test database or
    PostgreSQL's own. The bench drops and fills it, so its name must say what it is."""
    if "growth" not in name or name.startswith(("test", "template", "postgres")):
        raise SystemExit(f"refusing database {name!r}: its name must contain 'growth'")


def _admin_connection(url: str) -> psycopg.Connection:
    """A connection to the `postgres` database of the server in `url`, to create or drop."""
    parts = urlsplit(url)
    return psycopg.connect(
        host=parts.hostname or "127.0.0.1",
        port=parts.port or 5432,
        user=parts.username or "postgres",
        password=parts.password,
        dbname="postgres",
        autocommit=True,
    )


def ensure_database(url: str) -> bool:
    """Create the database if it is missing; True if it was created."""
    name = database_name(url)
    check_safe(name)
    with _admin_connection(url) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists:
            return False
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return True


def drop_database(url: str) -> None:
    name = database_name(url)
    check_safe(name)
    with _admin_connection(url) as conn:
        drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
        conn.execute(drop.format(sql.Identifier(name)))
