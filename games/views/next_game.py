"""The next-game view ("Next game waiting for me"): the oldest game where it is the player's
turn, so that a player with several games plays them one after the other (each page's button
passes the game it is on as `after`, which is then left out)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from games.models import Game, Seat


def waiting_seats(user):
    """The player's seats whose turn it is, in games in progress, guided first games left out
    (they are played with the guide, not in a row with the others)."""
    return Seat.objects.filter(
        user=user,
        resigned_at__isnull=True,
        dropped_at__isnull=True,
        game__status=Game.Status.ACTIVE,
        game__guided=False,
        position=F("game__current_seat"),
    )


@login_required
@require_GET
def next_game(request: HttpRequest) -> HttpResponse:
    seats = waiting_seats(request.user)
    after = request.GET.get("after", "")
    if after.isascii() and after.isdigit() and len(after) < 19:
        seats = seats.exclude(game_id=int(after))
    game_id = (
        seats.order_by(F("game__turn_started_at").asc(nulls_first=True), "game_id")
        .values_list("game_id", flat=True)
        .first()
    )
    if game_id is None:
        return render(request, "games/no_next_game.html")
    return redirect("games:detail", game_id=game_id)
