"""Creating and filling a table, until the game starts."""

import logging
import random
import secrets
from collections.abc import Iterable

from django.db import transaction

from accounts.models import User
from games import engine
from games.models import Game, Invitation, Seat
from games.queue import enqueue
from games.services.core import _bump, _locked, _publish_version, _start_turn_clock
from games.services.errors import Conflict, GameError, NotAllowed

logger = logging.getLogger(__name__)


def create_game(
    *,
    creator: User,
    players: int,
    side: str,
    spirits: bool,
    public: bool = False,
    invitees: Iterable[User] = (),
    turn_limit_days: int | None = None,
    bots: Iterable[User] = (),
    on_timeout: str = Game.OnTimeout.STAND_IN,
) -> Game:
    """A new table with the creator (and any bots) seated; it starts once every seat is taken."""
    engine.GameConfig(players=players, side=side, spirits=spirits)  # validates
    invitees = [u for u in invitees if u.pk != creator.pk]
    bots = list(bots)
    if any(not b.is_bot for b in bots):
        raise GameError("Only computer opponents can be seated without joining.")
    if on_timeout not in Game.OnTimeout.values:
        raise GameError("Choose what happens when a turn's time limit passes.")
    if len(invitees) + len(bots) > players - 1:
        raise GameError(f"A {players}-player game has room for {players - 1} other players.")
    with transaction.atomic():
        game = Game.objects.create(
            created_by=creator,
            players=players,
            side=side,
            spirits=spirits,
            public=public,
            turn_limit_days=turn_limit_days,
            on_timeout=on_timeout,
        )
        Seat.objects.create(game=game, user=creator)
        Seat.objects.bulk_create(Seat(game=game, user=bot) for bot in bots)
        Invitation.objects.bulk_create(
            Invitation(game=game, user=u, invited_by=creator) for u in invitees
        )
        if 1 + len(bots) == players:
            _start(game)
        _publish_version(game)
    return game


def join_game(*, game_id: int, user: User, invite_token: str | None = None) -> Game:
    """Take a free seat: invited players, holders of the invitation link, or anyone if public."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.seats.filter(user=user).exists():
            return game
        if game.status != Game.Status.OPEN:
            raise Conflict("This game has already started; its seats are taken.")
        invited = game.invitations.filter(user=user).exists()
        # As bytes: compare_digest raises TypeError on str with non-ASCII characters.
        has_link = invite_token is not None and secrets.compare_digest(
            invite_token.encode(), game.invite_token.encode()
        )
        if not (game.public or invited or has_link):
            raise NotAllowed("This game is by invitation only.")
        taken = game.seats.count()
        if taken >= game.players:
            raise Conflict("This game is full.")
        Seat.objects.create(game=game, user=user)
        game.invitations.filter(user=user).delete()
        if taken + 1 == game.players:
            _start(game)
        _bump(game)
        game.save()
    return game


def leave_game(*, game_id: int, user: User) -> Game:
    """Give up a seat before the game starts; the creator cancels instead."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.OPEN:
            raise Conflict("Only a game that has not started can be left.")
        if game.created_by_id == user.pk:
            raise GameError("You created this game: cancel it instead of leaving.")
        deleted, _ = game.seats.filter(user=user).delete()
        if not deleted:
            raise NotAllowed("You are not seated in this game.")
        _bump(game)
        game.save()
    return game


def decline_invitation(*, game_id: int, user: User) -> None:
    Invitation.objects.filter(game_id=game_id, user=user).delete()


def invite(*, game_id: int, by: User, invitees: Iterable[User]) -> list[User]:
    """Invite more friends to a table that still has room; returns those newly invited."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.created_by_id != by.pk:
            raise NotAllowed("Only the player who created the game can invite.")
        if game.status != Game.Status.OPEN:
            raise Conflict("This game has already started.")
        seated = set(game.seats.values_list("user_id", flat=True))
        already = set(game.invitations.values_list("user_id", flat=True))
        new = [u for u in invitees if u.pk not in seated and u.pk not in already]
        room = game.players - len(seated)
        if len(already) + len(new) > room:
            raise GameError(f"Only {room} seat(s) are free.")
        Invitation.objects.bulk_create(Invitation(game=game, user=u, invited_by=by) for u in new)
        _bump(game)
        game.save()
    return new


def cancel_game(*, game_id: int, user: User) -> None:
    with transaction.atomic():
        game = _locked(game_id)
        if game.created_by_id != user.pk:
            raise NotAllowed("Only the player who created the game can cancel it.")
        if game.status != Game.Status.OPEN:
            raise Conflict("A game in progress cannot be cancelled.")
        game.status = Game.Status.CANCELLED
        game.invitations.all().delete()
        _bump(game)
        game.save()


def _start(game: Game) -> None:
    """Seat order is shuffled here; the engine picks the first player from the seed."""
    seats = list(game.seats.all())
    rng = random.SystemRandom()
    rng.shuffle(seats)
    for position, seat in enumerate(seats):
        seat.position = position
    Seat.objects.bulk_update(seats, ["position"])
    game.seed = secrets.randbits(62)
    state = engine.new_game(game.config, game.seed)
    game.state = engine.state_to_json(state)
    game.status = Game.Status.ACTIVE
    game.current_seat = state.current_seat
    _start_turn_clock(game, state)
    if not game.solo:
        from games import tasks

        enqueue(tasks.notify_turn, game.pk, state.turn)  # "the game has started: you play first"
    game.started_at = game.turn_started_at
    game.invitations.all().delete()
    game.version += 1
    game.save()
