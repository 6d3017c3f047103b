"""The pages that list games and open tables: My games, New game, Open tables, and the home page.
Thin like games.views.game: read with the ORM, change through `services`."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, F
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from accounts.blocks import kept_apart_ids
from games import services
from games.forms import NewGameForm
from games.models import Game, Invitation, Seat
from games.presenters.forecast import end_forecasts
from games.services import watching
from games.services.bots import bots_for
from games.talk import unread_counts
from games.views.guide import guide_offer
from games.views.tables import HELD_INVITATIONS

# My games shows every game in play; finished and cancelled ones, and invitations, a page at a time
# (History has every finished game), so that hundreds of invitations cannot bloat the page.
PAST_PAGE = 30
INVITATIONS_PAGE = 20
# Open tables shows at most this many tables per creator, so one account cannot fill it.
LOBBY_PER_CREATOR = 3
LOBBY_LENGTH = 50


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    user = request.user
    games = list(
        Game.objects.filter(seats__user=user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .defer(*Game.PLAY_FIELDS)
        .prefetch_related("seats__user")
        .order_by("-updated_at")
    )
    # The union of two lookups on the player's own indexed rows, not an OR over joins with
    # DISTINCT, which made PostgreSQL scan every ended game on the site.
    theirs = (
        Seat.objects.filter(user=user)
        .order_by()
        .values("game_id")
        .union(Invitation.objects.filter(user=user).order_by().values("game_id"))
    )
    past = (
        Game.objects.filter(pk__in=theirs, status__in=[Game.Status.FINISHED, Game.Status.CANCELLED])
        .annotate(ended_at=Coalesce("finished_at", "updated_at"))
        .defer(*Game.PLAY_FIELDS)
        .order_by("-ended_at", "-pk")
        .select_related("created_by")
        .prefetch_related("seats__user")
    )
    finished = Paginator(past, PAST_PAGE).get_page(request.GET.get("page"))
    invited = (
        services.pending_invitations()
        .filter(user=user)
        .exclude(game__seats__user=user)
        .select_related("game__created_by", "invited_by")
        .order_by("-created_at", "-pk")
    )
    invitations = Paginator(invited, INVITATIONS_PAGE).get_page(request.GET.get("invitations"))
    held = _held_invitations(request, exclude=[i.pk for i in invitations])
    your_turn, waiting, open_tables = [], [], []
    unread = unread_counts(user)
    forecasts = end_forecasts(games, user.tzinfo, timezone.now())
    for game in games:
        game.unread_talk = unread.get(game.pk, 0)
        game.forecast = forecasts.get(game.pk, "")
        seat = next(s for s in game.seats.all() if s.user_id == user.pk)
        game.to_move = next((s for s in game.seats.all() if s.position == game.current_seat), None)
        game.others = ", ".join(
            s.user.public_name for s in game.seats.all() if s.user_id != user.pk
        )
        if game.status == Game.Status.OPEN:
            open_tables.append(game)
        elif game.current_seat == seat.position and not seat.left:
            your_turn.append(game)
        else:
            # A player who resigned or was dropped waits like the others: a stand-in plays.
            game.i_left = seat.left
            waiting.append(game)
    for game in finished:
        game.my_seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
        game.result_words = result_words(game, game.my_seat)
    your_turn.sort(key=lambda g: g.turn_started_at)  # longest waiting first
    waiting.sort(key=lambda g: g.turn_started_at)
    return render(
        request,
        "games/my_games.html",
        {
            "your_turn": your_turn,
            "waiting": waiting,
            "open_tables": open_tables,
            "invitations": invitations,
            "held_invitations": held,
            "finished": finished,
            "guide_offer": guide_offer(user),
        },
    )


def result_words(game: Game, seat: Seat | None) -> str:
    """How a finished game ended for the player, for My games: "won with 52 points", "resigned,
    place 3 with 20 points", "abandoned" ("" when the player has no rank)."""
    if game.end_reason == Game.EndReason.ABANDONED:
        return _("abandoned")
    if seat is None or not seat.rank:
        return ""
    score = seat.final_score
    values = {"score": score, "rank": seat.rank}
    if game.solo and seat.resigned_at:
        outcome = ngettext("with %(score)s point", "with %(score)s points", score) % values
    elif game.solo:
        outcome = (
            ngettext("finished with %(score)s point", "finished with %(score)s points", score)
            % values
        )
    elif seat.rank == 1 and not seat.left:
        outcome = ngettext("won with %(score)s point", "won with %(score)s points", score) % values
    else:
        outcome = (
            ngettext(
                "place %(rank)s with %(score)s point", "place %(rank)s with %(score)s points", score
            )
            % values
        )
    if seat.resigned_at:
        return _("resigned, %(outcome)s") % {"outcome": outcome}
    if seat.dropped_at:
        return _("dropped, %(outcome)s") % {"outcome": outcome}
    if seat.timed_out_at:
        return _("timed out, %(outcome)s") % {"outcome": outcome}
    return outcome


def _held_invitations(request: HttpRequest, exclude: list[int]) -> list:
    """Invitations whose link was opened in this session and are still waiting: the newcomer finds
    the table again before their address is confirmed (then the invitation is theirs, above).
    Each carries its link's token, which is what lets them sit. Links no longer usable (answered,
    expired, the game started) leave the session, so the list costs nothing once they are."""
    user, held, kept = request.user, [], []
    tokens = request.session.get(HELD_INVITATIONS, [])
    for token in tokens:
        try:
            invitation = services.invitation_from_token(token)
        except services.GameError:
            continue
        game = invitation.game
        if (
            invitation.user_id not in (None, user.pk)
            or invitation.declined_at is not None
            or invitation.is_expired()
            or game.status != Game.Status.OPEN
            or game.seats.filter(user=user).exists()
        ):
            continue
        kept.append(token)
        if invitation.pk not in exclude:  # already listed as theirs
            invitation.link_token = token
            held.append(invitation)
    if kept != tokens:
        request.session[HELD_INVITATIONS] = kept
    return held


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None, creator=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.create_game(
                creator=request.user,
                players=data["players"],
                side=data["side"],
                spirits=data["spirits"],
                public=data["public"],
                invitees=data["invite"].users,
                emails=data["invite"].emails,
                turn_limit_days=data["clock"].turn_limit_days,
                clock=data["clock"].kind,
                bank_days=data["clock"].bank_days,
                increment_hours=data["clock"].increment_hours,
                pause_weekends=data["clock"].pause_weekends,
                on_timeout=data["on_timeout"],
                bots=bots_for(data["bot_levels"]),
                name=data["name"],
            )
            if data.get("open_to_watchers"):
                watching.set_open(game_id=game.pk, user=request.user, open_to_watchers=True)
        except services.GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(game)
    return render(request, "games/new_game.html", {"form": form})


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    newest = (
        Game.objects.filter(status=Game.Status.OPEN, public=True)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("players"))
        .exclude(seats__user=request.user)
        # Nor a table where someone has a block with the viewer: its seat would be refused.
        .exclude(seats__user__in=kept_apart_ids(request.user))
        .select_related("created_by")
        .order_by("-created_at")
    )
    # Newest first, a few per creator: bounded by the per-player cap on open tables.
    shown: dict[int, int] = {}
    tables = []
    for game in newest[: LOBBY_LENGTH * services.MAX_OPEN_TABLES]:
        shown[game.created_by_id] = shown.get(game.created_by_id, 0) + 1
        if shown[game.created_by_id] <= LOBBY_PER_CREATOR:
            tables.append(game)
        if len(tables) == LOBBY_LENGTH:
            break
    return render(request, "games/lobby.html", {"tables": tables})


def home(request: HttpRequest) -> HttpResponse:
    """Players land on their games; visitors on the introduction."""
    if request.user.is_authenticated:
        return redirect("games:mine")
    return render(request, "home.html")
