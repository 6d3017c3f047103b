"""Emptying PostgreSQL after a transactional test with DELETE instead of Django's TRUNCATE.

A test that commits for real (browser tests with live_server, races, real Celery workers) is
followed by Django's `flush`: one TRUNCATE of every table, then post_migrate. On PostgreSQL a
TRUNCATE makes new files for each table and index, which cost 0.25-1 s per test on this machine
(most of it waiting on the disk), for tables that hold a few hundred rows at most. DELETE of the
same rows in one transaction takes a few milliseconds. Django's foreign keys on PostgreSQL are
DEFERRABLE INITIALLY DEFERRED, so the order of the DELETEs does not matter.

Content types and permissions are kept: they are what post_migrate would create again, and it
still runs (to restore any that a test removed). Sequences are not reset, as with `flush`.
Anything unusual (another database engine, `reset_sequences`, `serialized_rollback`,
`available_apps`) keeps Django's own teardown.
"""

from __future__ import annotations

from django.core.management.sql import emit_post_migrate_signal
from django.db import connections, transaction
from django.test import TransactionTestCase

KEPT_TABLES = {"django_content_type", "auth_permission"}  # post_migrate would recreate them

_django_fixture_teardown = TransactionTestCase._fixture_teardown


def empty_database(alias: str = "default") -> None:
    """Delete every row of every table of the site, but content types and permissions."""
    connection = connections[alias]
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for table in sorted(set(tables) - KEPT_TABLES):
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
    emit_post_migrate_signal(verbosity=0, interactive=False, db=alias)


def _fixture_teardown(self: TransactionTestCase) -> None:
    aliases = list(self._databases_names(include_mirrors=False))
    plain = (
        self.available_apps is None
        and not self.reset_sequences
        and not self.serialized_rollback
        and all(connections[alias].vendor == "postgresql" for alias in aliases)
    )
    if not plain:
        _django_fixture_teardown(self)
        return
    for alias in aliases:
        empty_database(alias)


def install() -> None:
    """Use the DELETE teardown for every TransactionTestCase (pytest-django's transactional_db)."""
    TransactionTestCase._fixture_teardown = _fixture_teardown
