"""What the poll compares: a game's version and its talk's version, kept in the cache.

The writer raises `Game.version` with every change of the board and `Game.talk_version` with every
message; both are published here after the commit, so an open page's poll answers from the cache
without touching the database. The cache is an optimisation: when it is down, the database answers.
"""

import logging

from django.core.cache import cache
from django.db import transaction

from games.models.game import Game

logger = logging.getLogger(__name__)


# Short, so that if publishing a new version failed (a Redis blip), pollers see it within a minute.
VERSION_CACHE_SECONDS = 60


def version_cache_key(game_id: int) -> str:
    return f"game-version:{game_id}"


def cached_version(game_id: int) -> int | None:
    """The game's version as last published, or None (unknown, or the cache is down)."""
    try:
        return cache.get(version_cache_key(game_id))
    except Exception:  # the cache is an optimisation: Redis down must not stop the site
        logger.warning("cache unavailable reading the version of game %s", game_id)
        return None


def remember_version(game_id: int, version: int) -> None:
    try:
        cache.set(version_cache_key(game_id), version, timeout=VERSION_CACHE_SECONDS)
    except Exception:
        # Pollers fall back to the database once the short-lived entry expires.
        logger.warning("cache unavailable publishing version %s of game %s", version, game_id)


def publish_version(game: Game) -> None:
    """After commit, tell pollers the new version without them touching the database."""
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: remember_version(game_id, version))


def talk_cache_key(game_id: int) -> str:
    return f"game-talk:{game_id}"


def remember_talk_version(game_id: int, talk_version: int) -> None:
    try:
        cache.set(talk_cache_key(game_id), talk_version, timeout=VERSION_CACHE_SECONDS)
    except Exception:
        logger.warning("cache unavailable publishing the talk of game %s", game_id)


def poll_versions(game_id: int) -> tuple[int, int] | None:
    """(version, talk_version) of the game: from the cache in one round trip, else one query
    (then cached). None when there is no such game."""
    version_key, talk_key = version_cache_key(game_id), talk_cache_key(game_id)
    try:
        cached = cache.get_many([version_key, talk_key])
    except Exception:  # the cache is an optimisation: Redis down must not stop the poll
        logger.warning("cache unavailable reading the versions of game %s", game_id)
        cached = {}
    if version_key in cached and talk_key in cached:
        return cached[version_key], cached[talk_key]
    row = Game.objects.filter(pk=game_id).values_list("version", "talk_version").first()
    if row is None:
        return None
    remember_version(game_id, row[0])
    remember_talk_version(game_id, row[1])
    return row
