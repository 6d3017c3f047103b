"""What a seat sees of its table's channel: where the table's events go and who set it, and what
this viewer may do about it. Asked on every look at the game page, whose budget of queries has no
room for one more (tests/stress/test_query_counts.py): the page reads the hook's summary from the
shared cache only, and when the cache does not know it (a table not looked at for a day, a
flushed cache), the page's section fetches itself at once (webhooks.views.table_channel), which
reads the database and keeps the answer. It is forgotten at every change of the hook.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction

from games.models import Game, Seat
from webhooks.models import Webhook

logger = logging.getLogger(__name__)

KEPT_SECONDS = 24 * 3600
_NONE: dict[str, Any] = {}  # kept for a table without a channel, so that it too costs no query
UNKNOWN = object()  # not in the cache: the page's section asks for itself


def _key(game_id: int) -> str:
    return f"webhooks:table:{game_id}"


def summary_of(hook: Webhook) -> dict[str, Any]:
    """The plain values the page shows of a table's hook."""
    return {
        "id": hook.pk,
        "kind": hook.get_kind_display(),
        "owner_id": hook.owner_id,
        "owner_name": hook.owner.public_name,
        "shown_url": hook.shown_url,
        "last_ok_at": hook.last_ok_at,
        "last_error": hook.last_error if hook.failing else "",
    }


def table_summary(game_id: int, *, cached_only: bool = False) -> Any:
    """The table's hook as the page shows it, or None; from the cache when read before. With
    `cached_only`, UNKNOWN rather than a query when the cache does not know."""
    try:
        kept = cache.get(_key(game_id))
    except Exception:
        logger.warning("cache unavailable: reading the table channel", exc_info=True)
        kept = None
    if kept is None and cached_only:
        return UNKNOWN
    return _read(game_id) if kept is None else kept or None


def _read(game_id: int) -> dict[str, Any] | None:
    hook = Webhook.objects.filter(game_id=game_id).select_related("owner").first()
    kept = summary_of(hook) if hook else _NONE
    try:
        cache.set(_key(game_id), kept, KEPT_SECONDS)
    except Exception:
        logger.warning("cache unavailable: table channel not kept", exc_info=True)
    return kept or None


def refresh(game_id: int | None) -> None:
    """After a change of the table's hook (set, removed, a post's outcome): the pages show the
    change at their next look, still without a query. Now, and again once committed, so that a
    look in between cannot keep the old summary."""
    if game_id is None:
        return
    _read(game_id)
    transaction.on_commit(lambda: _read(game_id))


def may_have_channel(game: Game) -> str:
    """ "" if the table may have a channel, or why not, in words."""
    if getattr(game, "guided", False):
        return "A guided first game has no table channel."
    if game.solo:
        return "A solo game has no table to tell: your profile's chat channel hears its end."
    if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
        return "This game is over: its table channel can no longer be set."
    return ""


@dataclass(frozen=True)
class ChannelView:
    """The "Table channel" section for one seat."""

    game_id: int
    hook: dict[str, Any] | None
    mine: bool  # the viewer set it: they see its address's end and its outcome, and test it
    can_set: bool
    can_remove: bool
    why_not: str  # why no channel can be set, when none is and the viewer may not
    unknown: bool = False  # the cache did not know: the section fetches itself

    @property
    def shown(self) -> bool:
        """Whether the game page has anything to say about a channel."""
        return not self.unknown and (self.hook is not None or self.can_set)


def for_viewer(game: Game, seat: Seat | None, *, cached_only: bool = True) -> ChannelView:
    """What `seat` (the viewer's seat at `game`) sees of the table's channel; the game page asks
    the cache only, the section's own view (`cached_only=False`) the database too."""
    hook = table_summary(game.pk, cached_only=cached_only) if seat is not None else None
    if hook is UNKNOWN:
        return ChannelView(game.pk, None, False, False, False, "", unknown=True)
    why_not = may_have_channel(game)
    seated = seat is not None and not seat.left
    return ChannelView(
        game_id=game.pk,
        hook=hook,
        mine=hook is not None and seat is not None and hook["owner_id"] == seat.user_id,
        can_set=hook is None and seated and not why_not,
        can_remove=hook is not None and seat is not None,
        why_not=why_not,
    )
