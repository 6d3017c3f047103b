"""The number of games waiting for the viewer's move, for every page's navigation and tab title."""

from __future__ import annotations

from django.db.models import F
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.models import Game, Seat


def waiting_count(user) -> int:
    """Games in progress where it is this player's turn (one COUNT query)."""
    return Seat.objects.filter(
        user=user,
        resigned_at__isnull=True,
        dropped_at__isnull=True,  # a dropped player's turns are the stand-in's, not theirs
        game__status=Game.Status.ACTIVE,
        position=F("game__current_seat"),
    ).count()


def waiting(request: HttpRequest) -> dict:
    """Lazy: the query runs once, and only on pages that show the navigation."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"waiting_count": 0}
    return {"waiting_count": SimpleLazyObject(lambda: waiting_count(user))}
