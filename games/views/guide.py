"""The guided first game: start or resume it, finish the lesson, and the offer pages show."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from games.models import Game, Seat
from games.services import GameError, NotAllowed, NotFound
from games.services import guide as lessons
from games.views.common import refuse


def guide_offer(user: User) -> dict | None:
    """What My games offers: to resume the guided game in progress, or to a player who has not
    finished a real game yet, to start one. None for everyone else."""
    if user.is_bot:
        return None
    open_game = lessons.guided_game_in_progress(user)
    if open_game is not None:
        return {"resume": open_game}
    played = Seat.objects.filter(
        user=user, game__status=Game.Status.FINISHED, game__guided=False
    ).exists()
    return None if played else {"resume": None}


@login_required
@require_http_methods(["GET", "POST"])
def start(request: HttpRequest) -> HttpResponse:
    """POST starts the guided game (or resumes the one in progress: a double click, a second
    tab). GET, where a sign-up from an offer lands: the game in progress, else the offer."""
    if request.method == "GET":
        open_game = lessons.guided_game_in_progress(request.user)
        if open_game is not None:
            return redirect(open_game)
        return redirect(reverse("games:mine") + "#learn")
    try:
        game = lessons.start_guided_game(request.user)
    except GameError as exc:
        return refuse(request, exc.message, exc.status)
    return redirect(game)


@login_required
@require_POST
def finish(request: HttpRequest, game_id: int) -> HttpResponse:
    """Finish the lesson: the game ends as the board stands and the guide explains the sheet.
    A refusal that is about the game's moment (over already, a stale page) shows the page as it
    is now with the reason, where the guide says where the player is."""
    try:
        lessons.finish_lesson(
            game_id=game_id, user=request.user, expected_version=request.POST.get("version")
        )
    except (NotFound, NotAllowed) as exc:
        return refuse(request, exc.message, exc.status)
    except GameError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("games:detail", args=[game_id]) + "#guide")
