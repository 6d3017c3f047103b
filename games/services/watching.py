"""Watching a game in progress: the read-only link a player shares, and the table open to
anyone. A watcher sees what any outsider may (engine.view_for(state, None)): never a hand of
spirit cards, a plan, a hint or the hidden orders.

Neither the link nor the open table is a move: they bump no version, and pages open on the game
pick the change up when they are next drawn. The link is a secret (like an invitation's): it is
made on first share, shared by the whole table, and revoking it kills every copy at once.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.models import Game, Seat
from games.services.errors import Conflict, GameError, NotAllowed, NotFound

NO_SUCH_LINK = gettext_lazy("There is no such game to watch: the link is wrong, or it was revoked.")
# A game of the deal of the week shows the deal's pouch order as it is played: watched, it would
# give the week's deal away to everyone yet to play it (games.models.weekly.revealed_to).
WEEKLY_UNWATCHED = gettext_lazy(
    "A game of the deal of the week cannot be watched: the deal stays unseen by everyone yet to "
    "play it."
)


class GameOver(GameError):
    """The game a watch link names has ended, or its table was cancelled."""

    status = 410


def share(*, game_id: int, user: User) -> str:
    """The game's watch token, made now if the table has none yet (the same for every player)."""
    with transaction.atomic():
        game = _seated_game(game_id, user)
        if game.weekly_deal_id is not None:
            raise NotAllowed(WEEKLY_UNWATCHED)
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("A watch link can be shared only while the game is being played."))
        if game.watch_token is None:
            token = secrets.token_urlsafe(16)
            Game.objects.filter(pk=game.pk, watch_token__isnull=True).update(watch_token=token)
            game.watch_token = Game.objects.values_list("watch_token", flat=True).get(pk=game.pk)
    return game.watch_token


def revoke(*, game_id: int, user: User) -> None:
    """Forget the link: whoever holds it is refused from now on, their open page included."""
    with transaction.atomic():
        game = _seated_game(game_id, user)
        Game.objects.filter(pk=game.pk).update(watch_token=None)


def set_open(*, game_id: int, user: User, open_to_watchers: bool) -> None:
    """Open the table to every watcher, or close it again: the creator's choice, at any time
    before the game ends."""
    with transaction.atomic():
        game = _seated_game(game_id, user)
        if game.created_by_id != user.pk:
            raise NotAllowed(_("Only the player who made this table may open it to watchers."))
        if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
            raise Conflict(_("This game is over: there is nothing left to watch."))
        if open_to_watchers and game.weekly_deal_id is not None:
            raise NotAllowed(WEEKLY_UNWATCHED)
        Game.objects.filter(pk=game.pk).update(open_to_watchers=bool(open_to_watchers))


def watched_game(game_id: int, token: str | None) -> Game:
    """The game a watcher may see with `token` (None: without a link, so an open table only).
    A wrong or revoked token, and a closed table without one, are a game that does not exist;
    so is a game of the deal of the week, whatever its row says."""
    access = Q(open_to_watchers=True)
    if token:
        access |= Q(watch_token=token)
    game = Game.objects.filter(access, pk=game_id, weekly_deal__isnull=True).first()
    if game is None:
        raise NotFound(NO_SUCH_LINK)
    if game.status == Game.Status.OPEN:
        raise Conflict(_("This game has not started yet: there is nothing to watch so far."))
    if game.status == Game.Status.CANCELLED:
        raise GameOver(_("This table was cancelled: there is nothing to watch."))
    if game.status == Game.Status.FINISHED:
        raise GameOver(
            _(
                "This game is over, so its watch link no longer works. "
                "Its score sheet shows how it ended."
            )
        )
    return game


def may_watch(game_id: int, token: str | None) -> bool:
    """Whether a watcher's page may poll the game: open, or the token right, and started. A
    finished game still answers, so that the page open at its end hears of it (and is then
    sent on by `watched_game`'s refusal)."""
    access = Q(open_to_watchers=True)
    if token:
        access |= Q(watch_token=token)
    started = Q(status__in=(Game.Status.ACTIVE, Game.Status.FINISHED))
    return Game.objects.filter(access, started, pk=game_id, weekly_deal__isnull=True).exists()


def _seated_game(game_id: int, user: User) -> Game:
    """The game, refused unless `user` sits at it and has not left; its row is not locked (no
    move is made)."""
    if not user.is_authenticated:
        raise NotAllowed(_("Only the players of a game may share it."))
    seat = Seat.objects.select_related("game").filter(game_id=game_id, user_id=user.pk).first()
    if seat is None:
        if Game.objects.filter(pk=game_id).exists():
            raise NotAllowed(_("Only the players of a game may share it."))
        raise NotFound(_("There is no such game."))
    if seat.left:  # as everywhere else: a seat that left can do nothing more in the game
        raise NotAllowed(
            _("You have left this game: its watch link is for the players still at it.")
        )
    return seat.game
