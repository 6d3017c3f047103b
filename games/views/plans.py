"""A player's private plan: the plan pad page and the forms of the notes and the pencil.

Every form posts plainly and comes back with a redirect; with htmx the answer is the part of the
page it changes (the pad, or the notes' status line). Refusals come back in words, and nothing
is stored (games.services.plans judges every value)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from games import engine, services
from games.jinja import render_blocks, render_page
from games.models import Game, Seat, table_query
from games.presenters import plans as plan_pages
from games.services import plans
from games.views.common import refuse

PAD_PAGE = "games/plan.html"  # Jinja2, as the game page


@login_required
@require_GET
def plan_pad(request: HttpRequest, game_id: int) -> HttpResponse:
    """The plan pad: a private copy of the player's board to pencil tokens on, with the notes."""
    seat, refusal = _own_seat(request, game_id)
    if refusal is not None:
        return refusal
    context = plan_pages.pad(seat.game, seat, request.GET.get("colour"))
    if request.htmx:
        return render_blocks(request, PAD_PAGE, ["pad"], context)
    return render_page(request, PAD_PAGE, context)


@login_required
@require_POST
def save_notes(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        plans.save_notes(game_id=game_id, user=request.user, notes=request.POST.get("notes", ""))
    except services.GameError as exc:
        return _refused(request, game_id, exc)
    if request.htmx:
        at = timezone.localtime(timezone.now(), request.user.tzinfo).strftime("%H:%M")
        return HttpResponse(format_html('<span class="plan-saved">Saved at {}.</span>', at))
    return _back(request, game_id)


@login_required
@require_POST
def pencil(request: HttpRequest, game_id: int) -> HttpResponse:
    colour = request.POST.get("colour", "")
    try:
        plans.pencil(
            game_id=game_id, user=request.user, cell=request.POST.get("cell", ""), colour=colour
        )
    except services.GameError as exc:
        return _refused(request, game_id, exc, colour=colour)
    return _pad_answer(request, game_id, colour)


@login_required
@require_POST
def erase(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        plans.erase(game_id=game_id, user=request.user, cell=request.POST.get("cell", ""))
    except services.GameError as exc:
        return _refused(request, game_id, exc)
    return _pad_answer(request, game_id, request.POST.get("colour"))


@login_required
@require_POST
def clear(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        plans.clear_marks(game_id=game_id, user=request.user)
    except services.GameError as exc:
        return _refused(request, game_id, exc)
    return _pad_answer(request, game_id, request.POST.get("colour"))


def _own_seat(request: HttpRequest, game_id: int) -> tuple[Seat | None, HttpResponse | None]:
    """The viewer's seat at a game in progress, or the refusal to answer instead."""
    seats = table_query.seats_with_game(game_id)
    seat = next((s for s in seats if s.user_id == request.user.pk), None)
    if seat is None:
        if seats or Game.objects.filter(pk=game_id).exists():
            return None, refuse(request, plans.NOT_YOURS, 403)
        return None, refuse(request, "There is no such game.", 404)
    if seat.game.status != Game.Status.ACTIVE:
        return None, refuse(request, "A plan is kept only while the game is being played.", 409)
    if seat.left:
        return None, refuse(request, "You have left this game: it needs no plan from you.", 403)
    return seat, None


def _pad_answer(request: HttpRequest, game_id: int, colour: str | None) -> HttpResponse:
    """After a pencil stroke: the pad drawn again (htmx), or the pad page (a plain form)."""
    if not request.htmx:
        return _back(request, game_id, colour)
    seat, refusal = _own_seat(request, game_id)
    if refusal is not None:
        return refusal
    return render_blocks(request, PAD_PAGE, ["pad"], plan_pages.pad(seat.game, seat, colour))


def _refused(
    request: HttpRequest, game_id: int, exc: services.GameError, colour: str | None = None
) -> HttpResponse:
    """A refusal in words. On the pad with htmx, the pad comes back with the reason above it,
    so the board shows what is pencilled now; anywhere else, the reason alone."""
    if request.htmx and request.POST.get("back") == "pad" and exc.status == 400:
        seat, refusal = _own_seat(request, game_id)
        if refusal is None:
            context = plan_pages.pad(seat.game, seat, colour)
            context["pad_notice"] = exc.message
            return render_blocks(request, PAD_PAGE, ["pad"], context, status=exc.status)
    return refuse(request, exc.message, exc.status)


def _back(request: HttpRequest, game_id: int, colour: str | None = None) -> HttpResponse:
    """Where a plain form returns: the pad it was posted from, or the game page's plan."""
    if request.POST.get("back") == "pad":
        response = redirect("games:plan", game_id=game_id)
        if colour in engine.COLOURS:
            response["Location"] += f"?colour={colour}"
        return response
    response = redirect("games:detail", game_id=game_id)
    response["Location"] += "#plan"
    return response
