"""Block and unblock: the confirmation page (from a player page, a table, a talk message) and the
two forms. Thin: the rules and their refusals are games.services.blocks.

Plain forms without JavaScript: each POST lands back where the player came from (`next`), with
the outcome in words. With htmx, the block answers its page's card ("games/block.html#done") and
an unblock on the profile answers the list of blocked players ("accounts/_blocked.html").
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts.blocks import blocked_by
from accounts.next_page import local_path, next_path
from games.services import GameError
from games.services import blocks as blocking
from games.views.common import refuse

STILL_PLAYING = (
    "You will still play the games you have together; their messages are hidden from you."
)


@login_required
@require_http_methods(["GET", "POST"])
def block(request: HttpRequest, username: str) -> HttpResponse:
    """GET: what blocking this player does, and the button. POST: block them."""
    back = next_path(request)
    try:
        if request.method == "POST":
            found = blocking.block(user=request.user, username=username)
        else:
            found = blocking.player_to_block(request.user, username)
    except GameError as exc:
        return refuse(request, exc.message, exc.status)
    context = {
        "player": found.player,
        "together": found,
        "still_playing": STILL_PLAYING,
        "back": back or reverse("records:player", args=[found.player.username]),
    }
    if request.method == "GET":
        return render(request, "games/block.html", context)
    if request.htmx:
        return render(request, "games/block.html#done", context)
    messages.success(request, _blocked_words(found))
    return redirect(context["back"])


@login_required
@require_POST
def unblock(request: HttpRequest) -> HttpResponse:
    """Undo one of the player's own blocks (from the profile's list, or the player's page)."""
    try:
        player = blocking.unblock(user=request.user, player_id=request.POST.get("player"))
    except GameError as exc:
        if request.htmx:
            return _blocked_list(request, error=exc.message, status=exc.status)
        messages.error(request, exc.message)
    else:
        done = f"{player.public_name} is unblocked: they can invite you again."
        if request.htmx:
            return _blocked_list(request, done=done)
        messages.success(request, done)
    back = local_path(request, request.POST.get("next", ""))
    return redirect(back or reverse("profile") + "#blocked")


def _blocked_list(request: HttpRequest, status: int = 200, **words) -> HttpResponse:
    context = {"blocked_players": blocked_by(request.user), **words}
    return render(request, "accounts/_blocked.html", context, status=status)


def _blocked_words(found: blocking.Together) -> str:
    name = found.player.public_name
    words = f"{name} is blocked. They are not told."
    if found.playing:
        words += " " + STILL_PLAYING
    if found.waiting:
        tables = ", ".join(game.title for game in found.waiting)
        words += (
            f" You both still have a seat at a table that has not started ({tables}): leave it "
            "from its page if you do not want to play together."
        )
    return words
