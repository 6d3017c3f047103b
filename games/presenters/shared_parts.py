"""What every viewer of one version of a game sees alike, kept so that the next viewer does not
compute it again: the newest moves of the log in words, the table talk's messages, the boards'
pictures.

Why: each move is seen by every player of the game, and each of their pages draws every board
and reads the log and the talk (issue 16: the game page's cost). Keys carry the game's version
(its talk version for the talk), which every change raises, so nothing here is ever stale: a
change makes new keys and the old ones expire. The log and the talk live in the shared cache
(Redis in production), the pictures in each process (they are large and cheap to redraw); the
log's entries are also kept in each process, in front of the shared cache: under a key that
never changes meaning, a process's own copy is as good as Redis's and costs no round trip.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.utils import translation
from django.utils.safestring import SafeString

from games.models import Game, Message

logger = logging.getLogger(__name__)

SHARED_SECONDS = 3600
# Per process: enough for every board and log of a few hundred games being looked at (512
# pictures thrashed on the load bench's 300 games); about 16 MB and 12 MB when full.
BOARDS_KEPT = 2048  # pictures, about 8 KB each
LOGS_KEPT = 512  # logs of 25 entries, about 24 KB each


def _cached(key: str, compute: Callable[[], Any]) -> Any:
    """The cached value, or computed and kept; the cache is an optimisation, so Redis down
    only costs the computation."""
    try:
        value = cache.get(key)
    except Exception:
        logger.warning("cache unavailable: reading %s from the database", key, exc_info=True)
        return compute()
    if value is None:
        value = compute()
        try:
            cache.set(key, value, SHARED_SECONDS)
        except Exception:
            logger.warning("cache unavailable: %s not kept", key, exc_info=True)
    return value


def _game_key(game: Game) -> str:
    """The game's id and creation time: ids alone come back after a database is recreated."""
    return f"{game.pk}.{game.created_at.timestamp():.6f}"


def log_entries(
    game: Game, limit: int, zone: str, names: tuple[str, ...], compute: Callable[[], list[dict]]
) -> list[dict]:
    """The newest `limit` moves as `compute` writes them (in words and HTML, times in `zone`),
    kept per version and move count, time zone and players' names: every viewer in one zone
    reads the same entries, and a renamed player makes new ones."""
    # The move count too: a site event (a resignation, a timeout) is logged as a move.
    named = hashlib.blake2b("\x1f".join(names).encode(), digest_size=8).hexdigest()
    # And the language: the entries are words in the reader's language.
    lang = translation.get_language() or ""
    key = (
        f"game-log:{_game_key(game)}:{game.version}:{game.move_count}:{limit}:{zone}:{named}:{lang}"
    )
    return logs.get(key, lambda: _cached(key, compute))


def talk_messages(game: Game, shown: int, read: Callable[[], list[Message]]) -> list[Message]:
    """The messages `read` gives (visible, authors loaded), kept per talk version."""
    return _cached(f"game-talk-shown:{_game_key(game)}:{game.talk_version}:{shown}", read)


class _Recent:
    """A small least-recently-used store, per process, of values nobody changes once made."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
                return value
        value = make()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


pictures = _Recent(BOARDS_KEPT)
logs = _Recent(LOGS_KEPT)


def board_picture(game: Game, position: int, variant: tuple, draw: Callable[[], SafeString]):
    """A board as `draw` pictures it; `variant` is whatever else the picture depends on (its
    title, its size). Only plain pictures are kept: one with clickable hexes or outlines for a
    single viewer is drawn afresh by the caller."""
    lang = translation.get_language() or ""  # a hex's words are in the reader's language
    return pictures.get((_game_key(game), game.version, position, lang, *variant), draw)
