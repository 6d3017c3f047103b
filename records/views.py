"""Results pages. Thin: guards, then a presenter, then a template (or its fragment for htmx)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from accounts.blocks import has_blocked
from accounts.identity import canonical_username
from accounts.models import RetiredUsername, User
from games import engine
from games.models import Game
from games.talk import may_read as may_read_talk
from harmonies_site.views import refusal_fragment
from records import chart_data, presenters, sheets
from records import export as exporting
from records import leaderboards as ranking
from records.forms import LeaderboardFilters
from records.head_to_head import friends_context


class Refused(Exception):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def _finished_game(game_id: int, viewer: User) -> Game:
    """A finished game, which any logged-in player may study: nothing in it is secret any more
    (the pages still never show the seed). But a game of a deal of the week shows the deal's
    pouch order, which is still the secret of everyone yet to play it: its board, replay and
    export open once the viewer has finished their own game of it, or the week has closed."""
    game = get_object_or_404(Game, pk=game_id)
    if game.status == Game.Status.CANCELLED:
        raise Refused("This table was cancelled.", 409)
    if game.status != Game.Status.FINISHED:
        raise Refused("This game is not over: its score sheet and replay open when it ends.", 403)
    if game.weekly_deal_id is not None and not game.weekly_deal.revealed_to(viewer):
        raise Refused(
            "This game played the deal of the week: its board and replay open to you once you "
            "have finished your own game of that deal, or when its week closes.",
            403,
        )
    return game


def _wants_fragment(request: HttpRequest) -> bool:
    """An htmx swap gets the fragment; htmx restoring a page from history needs all of it."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def _refuse(request: HttpRequest, exc: Refused) -> HttpResponse:
    if request.htmx:  # htmx inserts what it gets as HTML: the message escaped
        return refusal_fragment(exc.message, exc.status)
    return render(request, "games/refused.html", {"message": exc.message}, status=exc.status)


@login_required
@require_GET
def leaderboards(request: HttpRequest) -> HttpResponse:
    filters = LeaderboardFilters(request.GET).values()
    context = ranking.leaderboard(filters, request.user)
    context["form"] = LeaderboardFilters(initial=filters)
    if _wants_fragment(request):
        return render(request, "records/leaderboards.html#board", context)
    return render(request, "records/leaderboards.html", context)


# What the replay and the export read of each move. The related manager ties every move to
# its game by `game_id`, so leaving it out costs one query per move.
MOVE_FIELDS = ("game_id", "seq", "seat", "action")


@login_required
@require_GET
def history(request: HttpRequest) -> HttpResponse:
    page = presenters.history(request.user, request.GET.get("page"))
    return render(request, "records/history.html", {"page": page, "player": request.user})


@login_required
@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    key = canonical_username(username)
    shown = User.objects.filter(username_key=key).first()
    if shown is None or shown.deleted_at is not None:
        # A deleted account, by its placeholder or by the name it had (while that is retired):
        # a short page with nothing of the person, and a 404, since the profile is gone.
        if shown is None and not RetiredUsername.objects.filter(username_key=key).exists():
            raise Http404("No such player.")
        return render(request, "records/deleted_player.html", status=404)
    context = presenters.player_stats(shown)
    context["charts"] = chart_data.player_charts(
        shown, context["totals"], context["ratings"], request.user
    )
    context["player"] = shown
    context["page"] = presenters.history(shown, request.GET.get("page"))
    context.update(friends_context(request.user, shown))
    # Block or Unblock, for the viewer's own block only: nobody is shown who blocked them.
    context["you_blocked"] = shown.pk != request.user.pk and has_blocked(request.user, shown)
    return render(request, "records/player.html", context)


@login_required
@require_GET
def sheet(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = _finished_game(game_id, request.user)
    except Refused as exc:
        return _refuse(request, exc)
    seats = list(game.seats.select_related("user"))
    context = sheets.score_sheet(game, seats)
    context["points_chart"] = chart_data.points_chart(
        game, {seat.position: seat.user.public_name for seat in seats}
    )
    my_seat = next((seat for seat in seats if seat.user_id == request.user.pk), None)
    context["seated"] = my_seat is not None
    # The link only for those the talk is open to (a private table's: its players alone).
    context["talk_readable"] = may_read_talk(game, request.user, my_seat)
    return render(request, "records/sheet.html", context)


@login_required
@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = _finished_game(game_id, request.user)
    except Refused as exc:
        return _refuse(request, exc)
    try:
        upto = int(request.GET.get("move", 0))
    except ValueError:
        upto = 0
    seats = list(game.seats.select_related("user"))
    moves = list(game.moves.order_by("seq").only(*MOVE_FIELDS, "turn", "detail"))
    try:
        context = sheets.replay(game, seats, moves, upto)
    except engine.ReplayError:
        return _refuse(request, Refused("This game's move log cannot be replayed.", 500))
    if _wants_fragment(request):
        return render(request, "records/replay.html#replay", context)
    return render(request, "records/replay.html", context)


@login_required
@require_GET
def export(request: HttpRequest, game_id: int) -> HttpResponse:
    """The finished game as a JSON file (records.export), for whoever may see its score sheet."""
    try:
        game = _finished_game(game_id, request.user)
    except Refused as exc:
        return _refuse(request, exc)
    seats = list(game.seats.select_related("user"))
    moves = list(game.moves.order_by("seq").only(*MOVE_FIELDS))
    response = JsonResponse(
        exporting.game_record(game, seats, moves), json_dumps_params={"indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="harmonies-game-{game.pk}.json"'
    return response
