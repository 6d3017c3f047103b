"""Who is looking at a game right now, so a turn email waits until they stop looking.

A player's open page polls; the poll carries a signed token naming the viewer, and each poll
stores the time of that poll in the cache. No session or database access is needed. The time is
kept a while after the page stops polling, so that a turn email held back while the player was
watching can be sent a grace period after they left (see `games.mail.turns.send_turn`).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from django.core import signing
from django.core.cache import cache
from django.utils import timezone

logger = logging.getLogger(__name__)

PRESENT_SECONDS = 20  # several poll intervals: a closed tab stops counting quickly
# A turn email held back while the player looked is sent this long after their last poll.
GRACE = timedelta(minutes=2)
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


def mark_present(game_id: int, user_id: int, at: datetime | None = None) -> None:
    """Remember this moment as the user's last look at the game (kept for the grace period)."""
    moment = (at or timezone.now()).timestamp()
    try:
        cache.set(_key(game_id, user_id), moment, timeout=int(GRACE.total_seconds()) + 60)
    except Exception:
        logger.warning("cache unavailable marking presence in game %s", game_id)


def last_seen(game_id: int, user_id: int) -> datetime | None:
    """When the user's page of this game last polled, if within the grace period; else None
    (also when the cache is down: better an email too many than a missed turn)."""
    try:
        moment = cache.get(_key(game_id, user_id))
    except Exception:
        return None
    if not isinstance(moment, int | float):
        return None
    return datetime.fromtimestamp(moment, tz=UTC)


def is_looking(game_id: int, user_id: int) -> bool:
    """True while the user's page of this game has polled within the last few seconds."""
    seen = last_seen(game_id, user_id)
    return seen is not None and timezone.now() - seen < timedelta(seconds=PRESENT_SECONDS)
