"""The one place that changes a game.

Every change locks the game row, checks who is asking and what page they acted from (the version),
lets the engine judge the action, appends the move, saves state and version together, and queues
side effects after the commit. Views call these functions and turn `GameError` into HTTP.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games import engine
from games.models import Game, Invitation, Move, Seat
from games.narration import move_detail

logger = logging.getLogger(__name__)


class GameError(Exception):
    """A refusal a player can read; `status` is the HTTP status the view answers with."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowed(GameError):
    status = 403


class NotFound(GameError):
    status = 404


class Conflict(GameError):
    status = 409


class StaleVersion(Conflict):
    """The page was rendered from an older version; the player sees the fresh board instead."""


class RuleViolation(GameError):
    """The engine refused the action; the message is the engine's reason."""


@dataclass(frozen=True)
class PlayResult:
    game: Game
    state: engine.GameState
    move: Move


VERSION_CACHE_SECONDS = 300


def version_cache_key(game_id: int) -> str:
    return f"game-version:{game_id}"


def cached_version(game_id: int) -> int | None:
    """The game's version as last published, or None (unknown, or the cache is down)."""
    try:
        return cache.get(version_cache_key(game_id))
    except Exception:  # the cache is an optimisation: Redis down must not stop the site
        logger.warning("cache unavailable reading the version of game %s", game_id)
        return None


def remember_version(game_id: int, version: int) -> None:
    try:
        cache.set(version_cache_key(game_id), version, timeout=VERSION_CACHE_SECONDS)
    except Exception:
        # Pollers fall back to the database once the short-lived entry expires.
        logger.warning("cache unavailable publishing version %s of game %s", version, game_id)


def _publish_version(game: Game) -> None:
    """After commit, tell pollers the new version without them touching the database."""
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: remember_version(game_id, version))


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise NotFound("There is no such game.") from None


def _bump(game: Game) -> None:
    game.version += 1
    _publish_version(game)


# --- Creating and filling a table -----------------------------------------------------------------


def create_game(
    *,
    creator: User,
    players: int,
    side: str,
    spirits: bool,
    public: bool = False,
    invitees: Iterable[User] = (),
    turn_limit_days: int | None = None,
) -> Game:
    """A new table with the creator seated; a solo game starts at once."""
    engine.GameConfig(players=players, side=side, spirits=spirits)  # validates
    invitees = [u for u in invitees if u.pk != creator.pk]
    if len(invitees) > players - 1:
        raise GameError(f"A {players}-player game has room for {players - 1} invited friends.")
    with transaction.atomic():
        game = Game.objects.create(
            created_by=creator,
            players=players,
            side=side,
            spirits=spirits,
            public=public,
            turn_limit_days=turn_limit_days,
        )
        Seat.objects.create(game=game, user=creator)
        Invitation.objects.bulk_create(
            Invitation(game=game, user=u, invited_by=creator) for u in invitees
        )
        if players == 1:
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
        has_link = invite_token is not None and secrets.compare_digest(
            invite_token, game.invite_token
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
    _start_turn_clock(game, state.current_seat)
    game.started_at = game.turn_started_at
    game.invitations.all().delete()
    game.version += 1
    game.save()


# --- Playing --------------------------------------------------------------------------------------


def play(*, game_id: int, user: User, action: object, expected_version: object) -> PlayResult:
    """Apply one action for the user's seat, if the page they acted from is still current."""
    parsed = _parse_action(action)
    with transaction.atomic():
        game = _locked(game_id)
        seat = _seat_of(game, user)
        if game.status == Game.Status.FINISHED:
            raise Conflict("This game is over.")
        if game.status != Game.Status.ACTIVE:
            raise Conflict("This game has not started yet.")
        if not _same_version(expected_version, game.version):
            raise StaleVersion("The board changed since your page was drawn; here it is now.")
        before = game.engine_state()
        if seat.position != before.current_seat:
            raise Conflict("It is not your turn.")
        try:
            after = engine.apply(before, parsed)
        except engine.IllegalAction as exc:
            raise RuleViolation(_sentence(str(exc))) from None
        move = Move.objects.create(
            game=game,
            seq=game.moves.count() + 1,
            seat=seat.position,
            user=user,
            turn=before.turn,
            action=parsed.to_json(),
            detail=move_detail(before, parsed, after),
        )
        _save_state(game, before, after)
    return PlayResult(game=game, state=after, move=move)


def _save_state(game: Game, before: engine.GameState, after: engine.GameState) -> None:
    from games import tasks  # tasks import services; import here to keep the graph acyclic

    game.state = engine.state_to_json(after)
    _bump(game)
    if (
        after.current_seat != before.current_seat or after.turn != before.turn
    ) and not after.finished:
        _start_turn_clock(game, after.current_seat)
    if after.finished:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.current_seat = None
        game.turn_deadline = None
        tasks.finalize_game.delay_on_commit(game.pk)
    game.save()


def _start_turn_clock(game: Game, seat: int) -> None:
    """A new turn: who is to move, since when, and by when if the game has a time limit."""
    now = timezone.now()
    game.current_seat = seat
    game.turn_started_at = now
    game.turn_deadline = (
        now + timedelta(days=game.turn_limit_days) if game.turn_limit_days else None
    )


def _parse_action(action: object) -> engine.Action:
    try:
        return engine.action_from_json(action)
    except engine.IllegalAction as exc:
        raise RuleViolation(_sentence(str(exc))) from None


def _same_version(expected: object, actual: int) -> bool:
    try:
        return int(str(expected)) == actual
    except ValueError:
        return False


def _seat_of(game: Game, user: User) -> Seat:
    seat = game.seats.filter(user=user).first() if user.is_authenticated else None
    if seat is None:
        raise NotAllowed("You are not playing in this game.")
    return seat


def _sentence(reason: str) -> str:
    reason = reason.strip()
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith((".", "!", "?")) else ".")


# --- End of game ----------------------------------------------------------------------------------


def finalize(game_id: int) -> bool:
    """Store final scores and ranks once; False when there was nothing (left) to do."""
    with transaction.atomic():
        # The conditional UPDATE is the claim: a second run, or a racing one, updates 0 rows.
        claimed = Game.objects.filter(
            pk=game_id, status=Game.Status.FINISHED, finalized_at__isnull=True
        ).update(finalized_at=timezone.now())
        if not claimed:
            return False
        game = Game.objects.get(pk=game_id)
        state = game.engine_state()
        sheets = engine.score_sheets(state)
        placing = {p.seat: p.place for p in engine.ranking(state, sheets)}
        seats = list(game.seats.all())
        for seat in seats:
            seat.final_score = sheets[seat.position].total
            seat.rank = placing[seat.position]
        Seat.objects.bulk_update(seats, ["final_score", "rank"])
        _bump(game)
        game.save(update_fields=["version", "updated_at"])
    return True


def games_for(user: User):
    """Games the user sits at or is invited to (the My games page sorts them)."""
    return Game.objects.filter(Q(seats__user=user) | Q(invitations__user=user)).distinct()
