"""Game pages. Thin: read with the ORM, change through `services`, turn GameError into HTTP."""

from __future__ import annotations

from csp.decorators import csp_exempt
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import presence, services
from games.jinja import render_blocks, render_page
from games.models import Game, Seat, table_query
from games.models.versions import poll_versions
from games.pictures.sprite import sprite as game_sprite
from games.presenters import recap
from games.presenters.game import LOG_LENGTH, full_log, game_page, log_entry
from games.services import watching
from games.views.common import refuse
from games.views.rematch import rematch_offer
from games.views.tables import table_page
from games.views.watching import poll_refused as watcher_refused

GAME_PAGE = "games/game.html"  # a Jinja2 template (templates/jinja2), as its fragments are

# The page's independent fragments; an action re-renders only those it can change.
ALL_FRAGMENTS = (
    "controls", "poll", "central", "hand", "my-board", "my-cards", "display", "scores", "others",
    "log",
)  # fmt: skip
CHANGED_BY = {
    # The poll is in each: it names the version it compares, which every action moves on.
    # The plan's list of pencilled hexes reads the central board, the hand and the board.
    "take_tokens": ("controls", "poll", "central", "hand", "plan", "log"),
    "place_token": ("controls", "poll", "hand", "my-board", "my-cards", "scores", "plan", "log"),
    "take_card": ("controls", "poll", "display", "my-cards", "log"),
    "place_cube": ("controls", "poll", "my-board", "my-cards", "display", "scores", "plan", "log"),
    # The turn passes: nothing to click any more, and the page waits for the others.
    "end_turn": (
        "controls",
        "poll",
        "central",
        "hand",
        "my-board",
        "my-cards",
        "display",
        "plan",
        "log",
    ),
    "select": ("hand", "my-board", "my-cards"),
}
ACTION_FIELDS = ("space", "colour", "cell", "card_id", "discard")
# One answer for a game that does not exist and one the caller may not watch: the poll tells
# nobody else which game ids exist.
NO_POLL = "There is no such game, or you are not playing in it."


@login_required
@require_GET
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seats, my_seat = _game_and_seating(game_id, request.user)
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
        return table_page(request, game, seats, my_seat)
    if my_seat is None:
        if game.open_to_watchers and game.status == Game.Status.ACTIVE:
            return redirect("games:watch", game_id=game.pk)  # anyone may watch this table
        return refuse(request, "You are not playing in this game.", 403)
    presence.mark_present(game.pk, request.user.pk)
    recaps = recap.since_last_visit(game, seats, my_seat)
    fragment = request.GET.get("fragment")
    selecting = request.htmx and fragment == "select"
    context = game_page(
        game,
        seats,
        my_seat,
        token=request.GET.get("token"),
        card=request.GET.get("card"),
        recaps=recaps,
        others_shown=not selecting,
    )
    recap.mark_seen(my_seat, game)
    context.update(rematch_offer(game, my_seat))
    if selecting:
        return _fragments(request, context, CHANGED_BY["select"])
    if request.htmx and fragment == "game":
        response = render_blocks(request, GAME_PAGE, ["game"], context)
    else:
        response = render_page(request, GAME_PAGE, context)
    context["talk"].mark_read()  # what the page drew is seen (nothing is written otherwise)
    return response


@login_required
@require_GET
def move_log(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seats, my_seat = _game_and_seating(game_id, request.user)
    if my_seat is None:
        return refuse(request, "You are not playing in this game.", 403)
    log = full_log(game, seats, my_seat)
    return render(request, "games/log.html", {"game": game, "log": log})


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
        return refuse(request, exc.message, exc.status)
    except services.GameError as exc:
        notice, status, changed = exc.message, exc.status, ALL_FRAGMENTS
        # The fresh board, whatever the page showed (seated: services.play checked it).
        game, seats, my_seat = _game_and_seating(game_id, request.user)
        if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED):
            return refuse(request, exc.message, exc.status)  # a table has no board to draw
    else:
        # Playing is looking (its own-turn poll does not count: see `poll`).
        presence.mark_present(game_id, request.user.pk)
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
        log = [log_entry(result.move, seats, my_seat)]
        changed = tuple("log-new" if name == "log" else name for name in changed)
    others_shown = changed is ALL_FRAGMENTS or "others" in changed
    context = game_page(game, seats, my_seat, log=log, others_shown=others_shown)
    context["notice"] = notice
    if not request.htmx:
        return render_page(request, GAME_PAGE, context, status=status)
    if changed is ALL_FRAGMENTS:
        response = render_blocks(request, GAME_PAGE, ["game"], context, status=status)
        response["HX-Retarget"] = "#game"
        response["HX-Reswap"] = "outerHTML"
        return response
    return _fragments(request, context, changed, status=status)


# No policy header: the answer is a status for htmx, never a document, and the poll is the most
# frequent request of all (its whole answer is about 270 bytes; the policy would double it).
@csp_exempt()
@require_GET
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """Has anything changed since version `v`? 204 if not; the page then fetches what the viewer
    may see. Only a player of the game is told: the signed presence token of their page proves
    who asks without loading a session; without one (the table page sends none), the session
    must name a player seated here. Everyone else gets the answer a missing game gets, so the
    poll says nothing about which games exist or their versions."""
    viewer = presence.user_from_token(game_id, request.GET.get("p"))
    wanted, wanted_talk = request.GET.get("v"), request.GET.get("t")
    if viewer is not None:
        # A page open on its own turn is not looking: an email held back while the player
        # watched the others goes once they leave it idle (pages from before "turn=mine" asked
        # without a version on their own turn, and about the talk alone).
        if wanted is not None and request.GET.get("turn") != "mine":
            presence.mark_present(game_id, viewer)
    elif "w" in request.GET:
        # A watcher's page (games.views.watching): its link's token, or none at an open table.
        if not watching.may_watch(game_id, request.GET.get("w")):
            return watcher_refused(request, game_id, request.GET.get("w"))
        wanted_talk = None  # a watcher reads no talk: not even when, or how much, it changes
    elif not (
        request.user.is_authenticated
        and Game.objects.filter(pk=game_id, seats__user_id=request.user.pk).exists()
    ):
        return refuse(request, NO_POLL, 404)
    versions = poll_versions(game_id)
    if versions is None:
        return refuse(request, NO_POLL, 404)
    version, talk_version = versions
    if wanted is not None and str(version) != wanted:
        changed = "game-changed"  # the whole game is drawn again, its talk with it
    elif wanted_talk is not None and str(talk_version) != wanted_talk:
        changed = "talk-changed"
    else:
        return HttpResponse(status=204)
    response = HttpResponse(status=200)
    response["HX-Trigger"] = changed
    return response


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
        return refuse(request, exc.message, exc.status)
    return redirect("games:detail", game_id=game_id)


def _game_and_seating(game_id: int, user) -> tuple[Game, list[Seat], Seat | None]:
    """The game, everyone at its table and the viewer's seat, in one query: the game page is the
    most frequent page of all. A table nobody sits at (cancelled) costs a second query."""
    seats = services.in_seat_order(table_query.seats_with_game(game_id))
    if not seats:
        return get_object_or_404(Game, pk=game_id), [], None
    return seats[0].game, seats, next((s for s in seats if s.user_id == user.pk), None)


def _fragments(request, context, names, status: int = 200) -> HttpResponse:
    """An action's answer with htmx: the notice for #notice, then each changed part of the page,
    swapped in out of band. One render, so the context processors run once."""
    blocks = ["notice-text", "version", *names]
    return render_blocks(request, GAME_PAGE, blocks, {**context, "oob": True}, status=status)


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


@require_GET
def sprite(request: HttpRequest, digest: str) -> HttpResponse:
    """The card faces and token chips every page uses (games/pictures/sprite.py). Public, like the
    rulebook's cards; named by its content's digest, so kept for a year."""
    text, current = game_sprite()
    if digest != current:
        return redirect("games:sprite", digest=current)  # a page from before a deployment
    response = HttpResponse(text, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
