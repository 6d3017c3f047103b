"""The WSGI module warms each process before its first player (harmonies_site/warmup.py)."""

from unittest import mock

from django.core.cache import cache

from games.engine import habitats
from harmonies_site import warmup


def test_warming_builds_the_tables_without_touching_the_database_or_the_cache():
    """gunicorn --preload runs it in the parent: a connection opened there would be shared by
    every forked worker. (No django_db mark: pytest-django refuses any database access.)"""
    habitats.placements.cache_clear()
    down = AssertionError("the cache was used before the fork")
    with (
        mock.patch.object(cache, "get", side_effect=down),
        mock.patch.object(cache, "set", side_effect=down),
    ):
        warmup.warm()
    assert habitats.placements.cache_info().currsize == 2 * 32  # every animal card, both sides


def test_the_wsgi_module_serves_the_site_warmed():
    from harmonies_site.wsgi import application

    assert callable(application)
