"""Table talk pages: the conversation beside a game's log (read, post, delete, mute).

Thin, like games.views.game: read with the ORM, change through games.services.talk, refusals in
words. With htmx the answers are blocks of templates/jinja2/games/_talk.html; without JavaScript
the forms post and land back on the game page (or on the talk page, with the reason).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from accounts.ratelimits import limited
from games.jinja import render_blocks, render_page
from games.models import Game
from games.presenters.talk import Conversation
from games.services import GameError, talk
from games.talk import MAX_LENGTH, NOT_PLAYING, RATE, may_read
from harmonies_site.views import refusal_fragment

TALK = "games/_talk.html"  # Jinja2 templates (templates/jinja2), like the game page

DRAFT_BACK = 4 * MAX_LENGTH
TOO_FAST = "You are sending messages too fast: wait a minute, then send it again."


@login_required
@require_http_methods(["GET", "POST"])
def conversation(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: the messages (a fragment for htmx, else a page of their own, which is also how
    anyone reads the talk of a public table's finished game; a private table's stays its
    players'). POST: a new message."""
    if request.method == "POST":
        return _post(request, game_id)
    game = get_object_or_404(Game, pk=game_id)
    seat = game.seats.filter(user_id=request.user.pk).first()
    if not may_read(game, request.user, seat):
        return _refuse(request, NOT_PLAYING, 403)
    return _messages(request, game, seat)


@login_required
@require_POST
def delete(request: HttpRequest, game_id: int, message_id: int) -> HttpResponse:
    try:
        talk.delete(game_id=game_id, message_id=message_id, user=request.user)
    except GameError as exc:
        return _refuse(request, exc.message, exc.status)
    return _after_change(request, game_id)


@login_required
@require_POST
def mute(request: HttpRequest, game_id: int) -> HttpResponse:
    """Mute (muted=1) or unmute (muted=0) this game's messages for the player, while the game
    goes on; a finished game's talk is refused in words (on its talk page, for a plain form)."""
    muted = request.POST.get("muted") == "1"
    try:
        talk.set_muted(game_id=game_id, user=request.user, muted=muted)
    except GameError as exc:
        return _refuse(request, exc.message, exc.status, game_id=game_id)
    if not request.htmx:
        return redirect(_game_talk_url(game_id))
    game = Game.objects.get(pk=game_id)
    seat = game.seats.get(user_id=request.user.pk)
    context = _context(game, seat, request.user)
    response = render_blocks(request, TALK, ["talk"], context)
    context["talk"].mark_read()
    return response


def _post(request: HttpRequest, game_id: int) -> HttpResponse:
    text = request.POST.get("text", "")
    if limited(request, "games.talk", "user", RATE):
        return _refuse(request, TOO_FAST, 429, game_id=game_id, draft=text)
    try:
        talk.post(game_id=game_id, user=request.user, text=text)
    except GameError as exc:
        return _refuse(request, exc.message, exc.status, game_id=game_id, draft=text)
    return _after_change(request, game_id)


def _after_change(request: HttpRequest, game_id: int) -> HttpResponse:
    if not request.htmx:
        return redirect(_game_talk_url(game_id))
    game = Game.objects.get(pk=game_id)
    return _messages(request, game, game.seats.filter(user_id=request.user.pk).first())


def _messages(request: HttpRequest, game: Game, seat) -> HttpResponse:
    context = _context(game, seat, request.user)
    if request.htmx:
        response = render_blocks(request, TALK, ["talk-messages"], context)
    else:
        response = render_page(request, "games/talk.html", context)
    context["talk"].mark_read()
    return response


def _context(game: Game, seat, user, **extra) -> dict:
    return {"game": game, "talk": Conversation(game, seat, user.pk), **extra}


def _game_talk_url(game_id: int) -> str:
    return f"{Game(pk=game_id).get_absolute_url()}#talk"


def _refuse(
    request: HttpRequest,
    message: str,
    status: int,
    *,
    game_id: int | None = None,
    draft: str = "",
) -> HttpResponse:
    """In words, never a 500. htmx: the reason goes under the form, the draft stays in it.
    A plain form from a seat: the talk page with the reason and the draft, to send again.
    Anyone else: the refusal page."""
    if request.htmx:
        response = refusal_fragment(message, status)
        response["HX-Retarget"] = "#talk-error"
        response["HX-Reswap"] = "innerHTML"
        return response
    game = Game.objects.filter(pk=game_id).first() if game_id and status != 404 else None
    seat = game.seats.filter(user_id=request.user.pk).first() if game else None
    if game is None or seat is None:
        return render(request, "games/refused.html", {"message": message}, status=status)
    # The draft is offered back to be shortened or corrected, without its control characters
    # (a NUL byte) and not at any length (a forged 2 MB post is not echoed).
    draft = "".join(c for c in draft[:DRAFT_BACK] if c.isprintable() or c in "\n\t")
    context = _context(game, seat, request.user, error=message, draft=draft)
    return render_page(request, "games/talk.html", context, status=status)
