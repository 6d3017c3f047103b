"""Deleting an account: the player leaves every table by the usual rules, then the account is
erased (accounts.closing), all in one transaction, so that a failure anywhere leaves everything as
it was.

Here rather than in accounts because leaving takes the writer: a game in progress is resigned
(`resign`: the turn passes, a stand-in plays the seat, the game ends when the rules say so, and
the other players get the emails they always get), a table not yet started is left, or cancelled
when the player created it. Then what stays of them in the games is made anonymous:

- Their seats in finished games stay, under the account's new name (accounts.models.DELETED_NAME):
  the other players' histories, score sheets, replays and ratings read those rows. A game named
  after its players when it started is named again with the new name.
- Their table talk is deleted, not shown under the new name: the words are theirs and may name
  them, and a conversation reads well enough without one side's lines, while "a deleted player"
  beside their words would keep the person in them.
- Invitations to them (by username, or by the address they confirmed) are withdrawn. Those they
  sent were to their own tables: a table still open is cancelled, which tells everyone invited as
  usual (a cancelled table keeps its invitations, as every cancelled table does).
- Their push devices, chat channels and calendar address stop at once.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from accounts import closing as account
from accounts.models import User
from games.models import (
    AddressInvitationSent,
    Game,
    Invitation,
    Message,
    Move,
    Plan,
    Seat,
    english_names,
)
from games.models.versions import remember_talk_version
from games.services.absent import resign
from games.services.core import bump, locked
from games.services.invitations import Invitee, same_person
from games.services.tables import cancel_game, leave_game
from push.models import PushSubscription
from webhooks.closing import forget_owner as forget_chat_channels

STARTED = (Game.Status.ACTIVE, Game.Status.FINISHED)


def close_account(*, user: User) -> account.Erased:
    """Delete `user`'s account (its password was checked by the caller). Raises
    accounts.closing.AlreadyDeleted, and changes nothing, when it is gone already."""
    with transaction.atomic():
        user = account.lock_for_deletion(user)
        now = timezone.now()
        old_name = user.public_name
        named_after_players = _named_after_players(user)
        _leave_every_table(user)
        _withdraw_invitations(user)
        _delete_talk(user)
        PushSubscription.objects.filter(user=user).delete()
        forget_chat_channels(user)
        AddressInvitationSent.objects.filter(invited_by=user).delete()
        Plan.objects.filter(seat__user=user).delete()  # their private notes and pencil marks
        Seat.objects.filter(user=user).update(remind_at=None)  # no reminder sweep finds them
        erased = account.erase(user, now)
        _rename_in_games(user, old_name, named_after_players)
    return erased


def _leave_every_table(user: User) -> None:
    """Resign every game in progress, leave or cancel every table not started; in id order, as
    every writer locks games. Each game is locked before its state is read, so that it cannot
    start or end between the look and the leaving."""
    seated = Game.objects.filter(
        seats__user=user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
    )
    created = Game.objects.filter(created_by=user, status=Game.Status.OPEN)
    game_ids = sorted({*seated.values_list("pk", flat=True), *created.values_list("pk", flat=True)})
    for game_id in game_ids:
        game = locked(game_id)
        seat = game.seats.filter(user=user).first()
        if game.status == Game.Status.OPEN and game.created_by_id == user.pk:
            cancel_game(game_id=game_id, user=user)
        elif game.status == Game.Status.OPEN and seat is not None:
            leave_game(game_id=game_id, user=user)
        elif game.status == Game.Status.ACTIVE and seat is not None and not seat.left:
            resign(game_id=game_id, user=user)


def _withdraw_invitations(user: User) -> None:
    """Invitations to the player, by username or by the address they confirmed (read before the
    address is erased), at every table; an open table's pages are redrawn without them."""
    theirs = same_person(Invitee(user=user))
    game_ids = sorted(set(Invitation.objects.filter(theirs).values_list("game_id", flat=True)))
    for game_id in game_ids:
        game = locked(game_id)
        game.invitations.filter(theirs).delete()
        if game.status == Game.Status.OPEN:
            bump(game)
            game.save()


def _delete_talk(user: User) -> None:
    """Their messages go; each game's open pages redraw the talk (its talk version is raised, as
    every talk write does, never its version: nobody's move goes stale)."""
    messages = Message.objects.filter(author=user)
    game_ids = sorted(set(messages.values_list("game_id", flat=True)))
    for game in Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk"):
        game.talk_version += 1
        game.save(update_fields=["talk_version"])
        transaction.on_commit(partial(remember_talk_version, game.pk, game.talk_version))
    messages.delete()


def _table_names(game: Game) -> str:
    """The name the writer gives a table when it starts (games.services.tables): its players,
    in seat order (from `_with_seats`)."""
    seats = sorted(game.seats.all(), key=lambda seat: seat.position or 0)
    return english_names([seat.user.public_name for seat in seats])[:80]


def _with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """Games with their seats and players read in two queries, whatever their number."""
    seats = Seat.objects.select_related("user")
    return games.only("pk", "name").prefetch_related(Prefetch("seats", queryset=seats))


def _named_after_players(user: User) -> dict[int, str]:
    """The started games of the player still named after their players, by id: their names
    hold the player's, and are written again once it is erased."""
    games = Game.objects.filter(seats__user=user, status__in=STARTED).exclude(name="")
    return {
        game.pk: game.name
        for game in _with_seats(games).order_by("pk")
        if game.name == _table_names(game)
    }


def _rename_in_games(user: User, old_name: str, named_after_players: dict[int, str]) -> None:
    """Where the games still spell the old name: names given from the players, and "asked by"
    in the log of a stand-in the player requested for someone whose time had run out."""
    for game in _with_seats(Game.objects.filter(pk__in=named_after_players)):
        renamed = _table_names(game)
        Game.objects.filter(pk=game.pk, name=named_after_players[game.pk]).update(name=renamed)
    their_games = Game.objects.filter(seats__user=user, status__in=STARTED).values("pk")
    asked = Move.objects.filter(game_id__in=their_games, detail__requested_by=old_name)
    changed = set()
    for move in asked.only("pk", "game_id", "detail"):
        move.detail = {**move.detail, "requested_by": user.public_name}
        move.save(update_fields=["detail"])
        changed.add(move.game_id)
    # The game row's copy of its newest moves is dropped: the page reads the log itself until it
    # is whole again (games.models.recent_moves).
    Game.objects.filter(pk__in=changed).update(recent_moves="")
