"""HTTP for chat channels: the player's own (profile), a table's (game page), the test button,
Remove, and the final boards' pictures that the chats fetch. Plain forms that work without
JavaScript; the game page's section answers htmx with itself."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ratelimits import limited
from games.jinja import render_page
from games.models import Game, Seat
from games.views.common import refuse
from webhooks import channels, hooks, pictures
from webhooks.forms import HookForm
from webhooks.hooks import HookRefused
from webhooks.models import Webhook
from webhooks.profile import section

# Each new hook and each test resolves a host and may post: a few an hour are plenty.
ADD_RATE = "20/h"
TEST_RATE = "10/h"
TOO_MANY = "Too many attempts: please try again in an hour."
PROFILE_SECTION = "chat-channel"
TABLE_FRAGMENT = "games/_channel.html"


@require_http_methods(["GET", "POST"])
@login_required
def channels_page(request: HttpRequest) -> HttpResponse:
    """The player's channel for all their tables: the profile's form posts here, and a refusal is
    shown here beside what was typed."""
    form = HookForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if limited(request, "webhook_add", "user", ADD_RATE):
            form.add_error(None, TOO_MANY)
            status = 429
        elif form.is_valid():
            try:
                hook = hooks.add_player_hook(
                    request.user, form.cleaned_data["kind"], form.cleaned_data["url"]
                )
            except HookRefused as exc:
                form.refused(exc)
                status = exc.status
            else:
                messages.success(
                    request,
                    f"Your turns and the ends of your games now go to {hook.get_kind_display()}. "
                    "Send a test message to check.",
                )
                return redirect(reverse("profile") + f"#{PROFILE_SECTION}")
        else:
            status = 400
    context = {"channel_section": section(request.user, form)}
    return render(request, "webhooks/channels.html", context, status=status)


def _seat(request: HttpRequest, game_id: int) -> tuple[Game, Seat] | HttpResponse:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return refuse(request, "There is no such game.", 404)
    seat = Seat.objects.filter(game=game, user_id=request.user.pk).first()
    if seat is None:
        return refuse(request, "You are not playing in this game.", 403)
    return game, seat


def _table_answer(
    request: HttpRequest, game: Game, seat: Seat, *, error: str = "", draft: str = "",
    notice: str = "", status: int = 200,
) -> HttpResponse:  # fmt: skip
    """The section again for htmx; otherwise back to the game page, the outcome in a message."""
    if request.htmx:
        context = {
            "game": game,
            "channel": channels.for_viewer(game, seat, cached_only=False),
            "channel_error": error,
            "channel_draft": draft,
            "channel_notice": notice,
        }
        return render_page(request, TABLE_FRAGMENT, context, status=status)
    if error:
        messages.error(request, error)
    elif notice:
        messages.success(request, notice)
    return redirect(game.get_absolute_url() + "#channel")


@require_http_methods(["GET", "POST"])
@login_required
def table_channel(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: the section, drawn again when the talk changes (the page's poll says so). POST: set
    the table's channel."""
    found = _seat(request, game_id)
    if isinstance(found, HttpResponse):
        return found
    game, seat = found
    if request.method == "GET":
        return _table_answer(request, game, seat)
    draft = str(request.POST.get("url", ""))[:1000]
    if limited(request, "webhook_add", "user", ADD_RATE):
        return _table_answer(request, game, seat, error=TOO_MANY, draft=draft, status=429)
    try:
        hook = hooks.add_table_hook(
            request.user, game.pk, request.POST.get("kind"), request.POST.get("url")
        )
    except HookRefused as exc:
        return _table_answer(request, game, seat, error=str(exc), draft=draft, status=exc.status)
    notice = f"This table's events now go to {hook.get_kind_display()}; every player sees it here."
    return _table_answer(request, game, seat, notice=notice)


def _back(request: HttpRequest, hook: Webhook, message: str, *, ok: bool) -> HttpResponse:
    """After a test or a removal: the game page's section again (htmx), or back to the page the
    button was on (`back=game` from the game page without JavaScript, else the profile)."""
    found = _seat(request, hook.game_id) if hook.game_id else None
    if request.htmx and isinstance(found, tuple):
        game, seat = found
        outcome = {"notice": message} if ok else {"error": message, "status": 429}
        return _table_answer(request, game, seat, **outcome)
    (messages.success if ok else messages.error)(request, message)
    if request.POST.get("back") == "game" and isinstance(found, tuple):
        return redirect(found[0].get_absolute_url() + "#channel")
    return redirect(reverse("profile") + f"#{PROFILE_SECTION}")


def _refused(request: HttpRequest, exc: HookRefused) -> HttpResponse:
    """A test or removal refused (the hook is gone, or never was the viewer's): on the game page
    its section again with the reason (the form names its game), elsewhere the reason alone."""
    game_id = request.POST.get("game", "")
    found = _seat(request, int(game_id)) if game_id.isdigit() and len(game_id) < 10 else None
    if request.htmx and isinstance(found, tuple):
        game, seat = found
        return _table_answer(request, game, seat, error=str(exc), status=exc.status)
    if request.htmx:
        return refuse(request, str(exc), exc.status)
    messages.error(request, str(exc))
    return redirect(reverse("profile") + f"#{PROFILE_SECTION}")


@require_POST
@login_required
def send_test(request: HttpRequest, hook_id: int) -> HttpResponse:
    """The "Send a test message" button of one's own hook."""
    hook = Webhook.objects.filter(pk=hook_id, owner=request.user).first()
    if hook is None:
        return _refused(request, HookRefused("There is no such chat channel of yours.", 404))
    if limited(request, "webhook_test", "user", TEST_RATE):
        return _back(request, hook, TOO_MANY, ok=False)
    hooks.send_test(request.user, hook.pk)
    return _back(
        request, hook, "A test message is on its way: its outcome shows here in a moment.", ok=True
    )


@require_POST
@login_required
def remove(request: HttpRequest, hook_id: int) -> HttpResponse:
    """Remove: one's own hook, or the channel of a table one plays at."""
    try:
        hook = hooks.remove(request.user, hook_id)
    except HookRefused as exc:
        return _refused(request, exc)
    where = "This table's events" if hook.game_id else "Your tables' events"
    return _back(request, hook, f"{where} no longer go to {hook.get_kind_display()}.", ok=True)


@require_GET
def board(request: HttpRequest, token: str) -> HttpResponse:
    """A finished game's final board, at the signed address a game-over post carries."""
    found = pictures.unsigned(token)
    png = pictures.final_board_png(*found) if found else None
    if png is None:
        raise Http404("There is no such picture.")
    response = HttpResponse(png, content_type="image/png")
    # A final board never changes: chats and their proxies may keep it.
    response["Cache-Control"] = "public, max-age=604800, immutable"
    response["X-Robots-Tag"] = "noindex"
    return response
