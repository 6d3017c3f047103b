"""The "Play again" button of a finished game: one POST creates the rematch or joins it."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.ratelimits import limited
from games import services
from games.models import Game, Seat
from games.views.common import refuse


def rematch_offer(game: Game, my_seat: Seat | None) -> dict:
    """What the finished page offers its player: "Play again", "Join the rematch" (someone
    else opened it), or a link to the rematch they sit at. Nothing for anyone else."""
    if my_seat is None or game.status != Game.Status.FINISHED:
        return {}
    rematch = services.rematch_of(game)
    if rematch is None or rematch.status == Game.Status.CANCELLED:
        return {"rematch_offer": "new"}
    seated = rematch.seats.filter(user_id=my_seat.user_id).exists()
    if seated:
        return {"rematch_offer": "seated", "rematch": rematch}
    if rematch.status != Game.Status.OPEN:
        return {"rematch_offer": "none"}  # it started without them
    return {"rematch_offer": "join", "rematch": rematch}


@login_required
@require_POST
def play_again(request: HttpRequest, game_id: int) -> HttpResponse:
    # Counted per player, every click: offering and cancelling in a loop must run out quickly.
    if limited(request, "games.play_again", "user", settings.REMATCH_OFFER_RATE):
        message = (
            "You have asked to play again many times in a short while: please wait a while "
            "before asking again."
        )
        return refuse(request, message, 429)
    try:
        rematch = services.play_again(game_id=game_id, user=request.user)
    except services.GameError as exc:
        return refuse(request, exc.message, exc.status)
    if rematch.status == Game.Status.OPEN:
        if rematch.created_by_id == request.user.pk:
            messages.success(request, "A new table with the same settings: the others are invited.")
        else:
            messages.success(request, "You have a seat at the rematch.")
    return redirect(rematch)
