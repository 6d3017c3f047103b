"""The number of games waiting for the viewer's move, for every page's navigation and tab title;
and on the log-in and sign-up pages, the invitation the visitor came from."""

from __future__ import annotations

from functools import cached_property

from django.db.models import Count, F, Q
from django.http import HttpRequest
from django.urls import Resolver404, resolve
from django.utils.functional import SimpleLazyObject

from accounts.next_page import local_path
from games.models import Game, Seat


def waiting_count(user) -> int:
    """Games in progress where it is this player's turn (one COUNT query)."""
    return _your_turn(user).count()


def _your_turn(user):
    return Seat.objects.filter(
        user=user,
        resigned_at__isnull=True,
        dropped_at__isnull=True,  # a dropped player's turns are the stand-in's, not theirs
        game__status=Game.Status.ACTIVE,
        position=F("game__current_seat"),
    )


class WaitingCounts:
    """The games waiting for the player's move (`all`, My games' count) and those of them the
    header's "Next game" walks (`next`: guided first games are played with the guide, not in a
    row). Both come from one COUNT query, run when a page first asks for either."""

    def __init__(self, user) -> None:
        self.user = user

    @cached_property
    def _counts(self) -> dict[str, int]:
        return _your_turn(self.user).aggregate(
            all=Count("pk"), next=Count("pk", filter=Q(game__guided=False))
        )

    @property
    def all(self) -> int:
        return self._counts["all"]

    @property
    def next(self) -> int:
        return self._counts["next"]


def waiting(request: HttpRequest) -> dict:
    """Lazy: the query runs once, and only on pages that show the navigation."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"waiting_count": 0, "waiting_counts": None}
    counts = WaitingCounts(user)
    return {"waiting_count": SimpleLazyObject(lambda: counts.all), "waiting_counts": counts}


def invitation_in_next(request: HttpRequest) -> dict:
    """On the log-in and sign-up pages reached from an invitation's link (`next`), that
    invitation: the page says who invites to what, and the sign-up fills in its address. On the
    invitation's own page too, so that the header's Sign up fills in the address as well."""
    match = getattr(request, "resolver_match", None)
    if match is not None and match.view_name == "games:invited":
        target = match
    elif match is None or match.url_name not in ("login", "signup"):
        return {}
    else:
        path = local_path(request, request.POST.get("next") or request.GET.get("next") or "")
        try:
            target = resolve(path.split("?", 1)[0]) if path else None
        except Resolver404:
            return {}
    if target is None or target.view_name != "games:invited":
        return {}
    from games import services  # the writer's reading of a signed link

    try:
        invitation = services.invitation_from_token(target.kwargs["token"])
    except services.GameError:
        return {}
    return {"invitation_in_next": invitation}
