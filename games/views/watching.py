"""Watching a game in progress: the watcher's page, which needs no account, and the players'
form that shares or revokes the read-only link and opens the table to watchers.

A watcher's page is the game page as an outsider sees it (presenters.game.game_page with no
seat): no hand of spirit cards, plan, hint, hidden order, talk or button that acts. It polls
as the players' pages do, proving its right with the watch token instead of a seat."""

from __future__ import annotations

import re

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.jinja import render_blocks, render_page
from games.models import Game
from games.presenters.game import game_page
from games.services import watching
from games.views.common import refuse
from harmonies_site.addresses import url

GAME_PAGE = "games/game.html"
SLUG = re.compile(r"[-a-zA-Z0-9_]+")  # what the watch link's address takes as a token
SHARE_VERBS = ("share", "revoke", "open", "close")


@require_GET
def watch(request: HttpRequest, game_id: int, token: str | None = None) -> HttpResponse:
    try:
        game = watching.watched_game(game_id, token)
    except watching.GameOver as exc:
        if request.htmx:
            # A watcher's page open as the game ends leaves the board: for one logged in, to the
            # final score sheet of a finished game; else to this refusal, as a page of its own.
            finished = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists()
            response = HttpResponse(status=200)
            response["HX-Redirect"] = (
                url("records:sheet", game_id)
                if finished and request.user.is_authenticated
                else request.path
            )
            return response
        return refuse(request, exc.message, exc.status)
    except services.GameError as exc:
        return refuse(request, exc.message, exc.status)
    seats = services.in_seat_order(list(game.seats.select_related("user")))
    if request.user.is_authenticated and any(s.user_id == request.user.pk for s in seats):
        return redirect(game)  # a player watches from their own seat
    for seat in seats:
        seat.game = game
    context = game_page(game, seats, None)
    context.update(
        watching=True,
        page_url=url("games:watch-link", game.pk, token) if token else url("games:watch", game.pk),
        watch_poll_token=token or "",
    )
    if request.htmx and request.GET.get("fragment") == "game":
        return render_blocks(request, GAME_PAGE, ["game"], context)
    response = render_page(request, GAME_PAGE, context)
    response["X-Robots-Tag"] = "noindex"  # a shared link is for friends, not search engines
    response["Referrer-Policy"] = "no-referrer"  # the token stays out of other sites' logs
    return response


def poll_refused(request: HttpRequest, game_id: int, token: str | None) -> HttpResponse:
    """A watcher's poll that may no longer watch (the link revoked, the table closed to
    watchers): the open page leaves its board, which would no longer follow the game, for the
    watcher's page, which says why. Every refusal answers alike, whatever the game or token."""
    if not request.htmx:
        return refuse(request, watching.NO_SUCH_LINK, 404)
    response = HttpResponse(status=200)
    if token and SLUG.fullmatch(token):
        response["HX-Redirect"] = url("games:watch-link", game_id, token)
    else:
        response["HX-Redirect"] = url("games:watch", game_id)
    return response


@login_required
@require_POST
def share(request: HttpRequest, game_id: int) -> HttpResponse:
    """Share the link (made on first use), revoke it, or open or close the table to watchers."""
    verb = request.POST.get("do", "")
    if verb not in SHARE_VERBS:
        return refuse(request, "Choose to share or revoke the link, or to open the table.", 400)
    try:
        if verb == "share":
            watching.share(game_id=game_id, user=request.user)
        elif verb == "revoke":
            watching.revoke(game_id=game_id, user=request.user)
        else:
            watching.set_open(game_id=game_id, user=request.user, open_to_watchers=verb == "open")
    except services.GameError as exc:
        return refuse(request, exc.message, exc.status)
    response = redirect("games:detail", game_id=game_id)
    response["Location"] += "#watch"
    return response
