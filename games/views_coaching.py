"""The review of a finished game and the hint on one's turn (games.services.coaching)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import services
from games.presenters_review import review_page
from games.services import coaching
from games.views_common import refuse


@login_required
@require_http_methods(["GET", "POST"])
def review(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET shows the review (or offers it, or says it is being made); POST asks for it."""
    try:
        if request.method == "POST":
            coaching.request_review(game_id, request.user)
            return redirect("games:review", game_id=game_id)
        game, seat, made = coaching.review_for(game_id, request.user)
    except services.GameError as exc:
        return refuse(request, exc.message, exc.status)
    context = review_page(game, seat, made)
    if request.htmx and request.GET.get("fragment") == "review":
        return render(request, "games/review.html#review", context)
    return render(request, "games/review.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def hint(request: HttpRequest, game_id: int) -> HttpResponse:
    """The hard bot's suggestion for the rest of one's turn, in solo and unrated games. Until
    the bot has decided, the answer is a note that asks again a second later."""
    try:
        found = coaching.hint(game_id, request.user)
    except services.GameError as exc:
        return refuse(request, exc.message, exc.status)
    context = {"game_id": game_id, "hint": found}
    if request.htmx:
        return render(request, "games/_hint.html", context)
    return render(request, "games/hint.html", context)
