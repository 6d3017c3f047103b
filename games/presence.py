"""Who is looking at a game right now, so a turn email is not sent to someone already watching.

A player's open page polls; the poll carries a signed token naming the viewer, and each poll marks
them present for a short while in the cache. No session or database access is needed.
"""

from __future__ import annotations

import logging

from django.core import signing
from django.core.cache import cache

logger = logging.getLogger(__name__)

PRESENT_SECONDS = 20  # several poll intervals: a closed tab stops counting quickly
_SALT = "games.presence"


def token_for(game_id: int, user_id: int) -> str:
    """The same for every page view (no timestamp), so a page renders the same twice over."""
    return signing.Signer(salt=_SALT).sign_object([game_id, user_id])


def user_from_token(game_id: int, token: str | None) -> int | None:
    if not token:
        return None
    try:
        token_game, user_id = signing.Signer(salt=_SALT).unsign_object(token)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    return user_id if token_game == game_id else None


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def mark_present(game_id: int, user_id: int) -> None:
    try:
        cache.set(_key(game_id, user_id), True, timeout=PRESENT_SECONDS)
    except Exception:
        logger.warning("cache unavailable marking presence in game %s", game_id)


def is_looking(game_id: int, user_id: int) -> bool:
    """True while the user's page of this game has polled within the last few seconds."""
    try:
        return bool(cache.get(_key(game_id, user_id)))
    except Exception:
        return False  # unknown: better an email too many than a missed turn
