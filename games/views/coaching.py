"""The review of a finished game and the hint on one's turn (games.services.coaching)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import services
from games.jinja import render_blocks, render_page
from games.models import Game, table_query
from games.presenters.game import game_page
from games.presenters.review import review_page
from games.services import coaching
from games.views.common import refuse

GAME_PAGE = "games/game.html"  # the hint and the board are parts of the game page


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
    """The hard bot's suggestion for the rest of one's turn, in solo and unrated games. The
    answer never waits for the bot (a worker thinks): until the hint is made it is a note that
    asks again a second later; then the plan, with the player's board redrawn (out of band)
    with the plan's hexes outlined. Only the form's POST takes a hint; a GET (the waiting note,
    "Look again") only looks, so that a link elsewhere cannot cost a player their solo record."""
    try:
        found = coaching.hint(game_id, request.user, take=request.method == "POST")
    except services.GameError as exc:
        return refuse(request, exc.message, exc.status)
    if request.htmx and found is None:
        # Only the note: the page's board and everything else stay as they are.
        context = {"game": Game(pk=game_id), "hint_allowed": True, "hint_asked": True}
        return render_blocks(request, GAME_PAGE, ["hint"], context)
    seats = services.in_seat_order(table_query.seats_with_game(game_id))
    viewer = next(s for s in seats if s.user_id == request.user.pk)  # coaching.hint checked
    context = game_page(seats[0].game, seats, viewer, others_shown=False)
    if not request.htmx:
        return render_page(request, "games/hint.html", context)
    # The game moved on meanwhile: the page's own poll redraws it; say nothing here.
    if context["hint"] is None:
        return render_blocks(request, GAME_PAGE, ["hint"], {**context, "hint_asked": False})
    return render_blocks(request, GAME_PAGE, ["hint", "my-board"], {**context, "oob": True})
