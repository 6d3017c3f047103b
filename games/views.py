"""Game pages. Thin: read with the ORM, change through `services`, turn GameError into HTTP."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import presence, services
from games.bot_players import bots_for
from games.forms import NewGameForm
from games.models import Game, Seat
from games.presenters import LOG_LENGTH, full_log, game_page, log_entry

# The page's independent fragments; an action re-renders only those it can change.
ALL_FRAGMENTS = (
    "controls", "poll", "central", "hand", "my-board", "my-cards", "display", "scores", "others",
    "log",
)  # fmt: skip
CHANGED_BY = {
    "take_tokens": ("controls", "central", "hand", "log"),
    "place_token": ("controls", "hand", "my-board", "my-cards", "scores", "log"),
    "take_card": ("controls", "display", "my-cards", "log"),
    "place_cube": ("controls", "my-board", "my-cards", "display", "scores", "log"),
    # The turn passes: nothing to click any more, and the page starts asking for changes.
    "end_turn": ("controls", "poll", "central", "hand", "my-board", "my-cards", "display", "log"),
    "select": ("hand", "my-board", "my-cards"),
}
ACTION_FIELDS = ("space", "colour", "cell", "card_id", "discard")


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    mine_all = services.games_for(request.user).prefetch_related("seats__user")
    # Games still in play, all of them; finished ones, the latest 30 (History has the rest).
    games = list(
        mine_all.exclude(status__in=[Game.Status.CANCELLED, Game.Status.FINISHED]).order_by(
            "-updated_at"
        )
    )
    games += list(mine_all.filter(status=Game.Status.FINISHED).order_by("-finished_at")[:30])
    mine = {s.game_id: s for g in games for s in g.seats.all() if s.user_id == request.user.pk}
    your_turn, waiting, open_tables, invitations, finished = [], [], [], [], []
    for game in games:
        seat = mine.get(game.pk)
        game.to_move = next((s for s in game.seats.all() if s.position == game.current_seat), None)
        if seat is None:
            invitations.append(game)
        elif game.status == Game.Status.OPEN:
            open_tables.append(game)
        elif game.status == Game.Status.FINISHED:
            game.my_seat = seat
            finished.append(game)
        elif game.current_seat == seat.position:
            your_turn.append(game)
        else:
            waiting.append(game)
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
            "finished": finished,
        },
    )


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
                invitees=data["invite"],
                turn_limit_days=data["turn_limit_days"],
                on_timeout=data["on_timeout"],
                bots=bots_for(data["bot_levels"]),
            )
        except services.GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(game)
    return render(request, "games/new_game.html", {"form": form})


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    tables = (
        Game.objects.filter(status=Game.Status.OPEN, public=True)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("players"))
        .exclude(seats__user=request.user)
        .select_related("created_by")
        .order_by("-created_at")[:50]
    )
    return render(request, "games/lobby.html", {"tables": tables})


@login_required
@require_GET
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    seats, my_seat = _seating(game, request.user)
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
        return _table_page(request, game, seats, my_seat)
    if my_seat is None:
        return _refuse(request, "You are not playing in this game.", 403)
    presence.mark_present(game.pk, request.user.pk)
    context = game_page(
        game, seats, my_seat, token=request.GET.get("token"), card=request.GET.get("card")
    )
    fragment = request.GET.get("fragment")
    if request.htmx and fragment == "game":
        return render(request, "games/game.html#game", context)
    if request.htmx and fragment == "select":
        return _fragments(request, context, CHANGED_BY["select"])
    return render(request, "games/game.html", context)


@login_required
@require_GET
def move_log(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    seats, my_seat = _seating(game, request.user)
    if my_seat is None:
        return _refuse(request, "You are not playing in this game.", 403)
    return render(request, "games/log.html", {"game": game, "log": full_log(game, seats)})


@login_required
@require_POST
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    action = _action_from_post(request.POST)
    try:
        result = services.play(
            game_id=game_id,
            user=request.user,
            action=action,
            expected_version=request.POST.get("version"),
        )
    except (services.NotFound, services.NotAllowed) as exc:
        return _refuse(request, exc.message, exc.status)
    except services.GameError as exc:
        notice, status, changed = exc.message, exc.status, ALL_FRAGMENTS
        game = Game.objects.get(pk=game_id)  # the fresh board, whatever the page showed
        if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED):
            return _refuse(request, exc.message, exc.status)  # a table has no board to draw
        seats, my_seat = _seating(game, request.user)  # seated: services.play checked it
    else:
        if not request.htmx:
            return redirect("games:detail", game_id=game_id)
        notice, status = "", 200
        game, seats = result.game, result.seats
        my_seat = next(s for s in seats if s.user_id == request.user.pk)
        changed = CHANGED_BY.get(action.get("type"), ALL_FRAGMENTS)
    if game.status != Game.Status.ACTIVE:
        changed = ALL_FRAGMENTS
    log = None
    if changed is not ALL_FRAGMENTS and "log" in changed and result.move.seq > LOG_LENGTH:
        # The page already shows a full log: only the new entry goes on top.
        log = [log_entry(result.move, seats)]
        changed = tuple("log-new" if name == "log" else name for name in changed)
    context = game_page(game, seats, my_seat, log=log)
    context["notice"] = notice
    if not request.htmx:
        return render(request, "games/game.html", context, status=status)
    if changed is ALL_FRAGMENTS:
        response = render(request, "games/game.html#game", context, status=status)
        response["HX-Retarget"] = "#game"
        response["HX-Reswap"] = "outerHTML"
        return response
    return _fragments(request, context, changed, status=status)


@require_GET
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """Has anything changed since version `v`? 204 if not. No session or user is loaded: the
    answer only says "changed", and the page then fetches what the viewer may see."""
    viewer = presence.user_from_token(game_id, request.GET.get("p"))
    if viewer is not None:
        presence.mark_present(game_id, viewer)
    version = services.cached_version(game_id)
    if version is None:
        version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
        if version is None:
            return HttpResponse(status=404)
        services.remember_version(game_id, version)
    if str(version) == request.GET.get("v"):
        return HttpResponse(status=204)
    response = HttpResponse(status=200)
    response["HX-Trigger"] = "game-changed"
    return response


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        services.join_game(
            game_id=game_id, user=request.user, invite_token=request.POST.get("token") or None
        )
    except services.GameError as exc:
        return _refuse(request, exc.message, exc.status)
    messages.success(request, "You have a seat at this table.")
    return redirect("games:detail", game_id=game_id)


@login_required
@require_GET
def invitation_link(request: HttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game, invite_token=token)
    seats, my_seat = _seating(game, request.user)
    if my_seat is not None or game.status != Game.Status.OPEN:
        return redirect(game)
    return _table_page(request, game, seats, my_seat, token=token)


@login_required
@require_POST
def table_action(request: HttpRequest, game_id: int, verb: str) -> HttpResponse:
    handlers = {
        "leave": (services.leave_game, "You left the table.", "games:mine"),
        "cancel": (services.cancel_game, "The game is cancelled.", "games:mine"),
        "decline": (services.decline_invitation, "Invitation declined.", "games:mine"),
    }
    handler, done, where = handlers[verb]
    try:
        handler(game_id=game_id, user=request.user)
    except services.GameError as exc:
        return _refuse(request, exc.message, exc.status)
    messages.success(request, done)
    return redirect(where)


@login_required
@require_POST
def absent_player(request: HttpRequest, game_id: int, verb: str) -> HttpResponse:
    """Resign, or move a timed-out game on (skip the absent player's turn, or end the game)."""
    try:
        if verb == "resign":
            services.resign(game_id=game_id, user=request.user)
            messages.success(request, "You resigned from this game.")
        else:
            handler = services.skip_turn if verb == "skip" else services.end_stalled_game
            handler(
                game_id=game_id, user=request.user, expected_version=request.POST.get("version")
            )
    except services.GameError as exc:
        return _refuse(request, exc.message, exc.status)
    return redirect("games:detail", game_id=game_id)


def _seating(game: Game, user) -> tuple[list[Seat], Seat | None]:
    """Everyone at the table (with their users, in one query) and the viewer's own seat."""
    seats = list(game.seats.select_related("user"))
    return seats, next((s for s in seats if s.user_id == user.pk), None)


def _table_page(request, game, seats, my_seat, token: str | None = None) -> HttpResponse:
    invited = game.invitations.filter(user=request.user).exists()
    if my_seat is None and not (game.public or invited or token):
        return _refuse(request, "This game is by invitation only.", 403)
    invite_url = request.build_absolute_uri(reverse("games:invitation", args=[game.invite_token]))
    return render(
        request,
        "games/table.html",
        {
            "game": game,
            "seats": seats,
            "my_seat": my_seat,
            "invited": invited,
            "token": token,
            "pending": game.invitations.select_related("user"),
            "free": game.players - len(seats),
            "invite_url": invite_url if my_seat else None,
        },
    )


def _fragments(request, context, names, status: int = 200) -> HttpResponse:
    context = {**context, "fragment_templates": [f"games/game.html#{name}" for name in names]}
    return render(request, "games/_fragments.html", context, status=status)


def _refuse(request: HttpRequest, message: str, status: int) -> HttpResponse:
    if request.htmx:
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    return render(request, "games/refused.html", {"message": message}, status=status)


def _action_from_post(post) -> dict:
    """The action as the engine reads it; the engine judges every value, forged or not."""
    action: dict = {"type": post.get("type", "")}
    for name in ACTION_FIELDS:
        if name in post and post.get(name) != "":
            value = post.get(name)
            # ASCII digits, and not too many: int() raises on "²" or on 5,000 digits.
            numeric = name == "space" and value.isascii() and value.isdigit() and len(value) < 10
            action[name] = int(value) if numeric else value
    return action


def home(request: HttpRequest) -> HttpResponse:
    """Players land on their games; visitors on the introduction."""
    if request.user.is_authenticated:
        return redirect("games:mine")
    return render(request, "home.html")
