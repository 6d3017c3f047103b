"""Blocks as stored: who keeps whom away. Reads only, each one indexed query (or the cache).

Here, below every app, because each layer asks: the invitations and seats (games.services), the
table talk and its emails (games.talk), Web Push (push.deliveries) and the profile page. The
writes, and what a block ends when it is made, are games.services.blocks.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q, QuerySet

from .models import Block, User

logger = logging.getLogger(__name__)

KEPT_SECONDS = 600  # how long a copy of one's blocks is kept in the shared cache


def has_blocked(blocker: User, blocked: User) -> bool:
    """Whether `blocker` keeps `blocked` away."""
    return Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked.pk).exists()


def blocked_by_query(user_id: int | None) -> QuerySet:
    """Ids of the players `user_id` has blocked, as a subquery: whose table talk is hidden."""
    return Block.objects.filter(blocker_id=user_id).values("blocked_id")


def blocked_ids(user_id: int | None) -> set[int]:
    """The players `user_id` has blocked, read at once."""
    if user_id is None:
        return set()
    return {row["blocked_id"] for row in blocked_by_query(user_id)}


def _kept_key(user_id: int) -> str:
    return f"blocked-by:{user_id}"


def hidden_authors(user_id: int | None) -> set[int]:
    """`blocked_ids`, kept in the shared cache: the game page asks at every look, and its budget
    of queries has no room for one more (tests/stress/test_query_counts.py). games.services.blocks
    forgets it at each block and unblock; the cache is an optimisation, so Redis down costs the
    query, and a copy missed by a forgetting (a read racing the change) lasts KEPT_SECONDS."""
    if user_id is None:
        return set()
    try:
        kept = cache.get(_kept_key(user_id))
    except Exception:
        logger.warning("cache unavailable: reading blocks from the database", exc_info=True)
        return blocked_ids(user_id)
    if kept is None:
        kept = tuple(sorted(blocked_ids(user_id)))
        try:
            cache.set(_kept_key(user_id), kept, KEPT_SECONDS)
        except Exception:
            logger.warning("cache unavailable: blocks not kept", exc_info=True)
    return set(kept)


def forget_hidden_authors(user_id: int) -> None:
    """After a change to `user_id`'s blocks: forgotten now and again once the change is
    committed, so that a look in between cannot keep the old list."""
    _forget(user_id)
    transaction.on_commit(lambda: _forget(user_id))


def _forget(user_id: int) -> None:
    try:
        cache.delete(_kept_key(user_id))
    except Exception:
        logger.warning("cache unavailable: blocks of %s not forgotten", user_id, exc_info=True)


def blockers_among(user: User, among: Iterable[User]) -> set[int]:
    """Ids of the players `among` who have blocked `user`."""
    ids = [other.pk for other in among]
    if not ids:
        return set()
    return set(
        Block.objects.filter(blocked_id=user.pk, blocker_id__in=ids).values_list(
            "blocker_id", flat=True
        )
    )


def kept_apart_ids(user: User, among: Iterable[User] | None = None) -> set[int]:
    """Ids of the players with a block between them and `user`, whoever made it (`among` them
    only, when given): no new game brings them together."""
    rows = Block.objects.filter(Q(blocker_id=user.pk) | Q(blocked_id=user.pk))
    if among is not None:
        ids = [other.pk for other in among]
        if not ids:
            return set()
        rows = rows.filter(Q(blocker_id__in=ids) | Q(blocked_id__in=ids))
    found = set()
    for blocker_id, blocked_id in rows.values_list("blocker_id", "blocked_id"):
        found.add(blocked_id if blocker_id == user.pk else blocker_id)
    return found


def blocked_by(user: User) -> list[User]:
    """The players `user` has blocked, by name: the list on their profile, to unblock from."""
    rows = Block.objects.filter(blocker_id=user.pk).select_related("blocked")
    return sorted((row.blocked for row in rows), key=lambda u: u.public_name.casefold())
