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
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import User
from games import engine, reminders
from games.models import Game, Invitation, Move, Seat
from games.narration import move_detail
from games.queue import enqueue

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


# Short, so that if publishing a new version failed (a Redis blip), pollers see it within a minute.
VERSION_CACHE_SECONDS = 60


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
    bots: Iterable[User] = (),
) -> Game:
    """A new table with the creator (and any bots) seated; it starts once every seat is taken."""
    engine.GameConfig(players=players, side=side, spirits=spirits)  # validates
    invitees = [u for u in invitees if u.pk != creator.pk]
    bots = list(bots)
    if any(not b.is_bot for b in bots):
        raise GameError("Only computer opponents can be seated without joining.")
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


# --- Playing --------------------------------------------------------------------------------------


def play(*, game_id: int, user: User, action: object, expected_version: object) -> PlayResult:
    """Apply one action for the user's seat, if the page they acted from is still current."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = _seat_of(game, user)
        # Who asks comes before what: a stranger's forged action is refused as a stranger's.
        parsed = _parse_action(action)
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
        _start_turn_clock(game, after)
        if after.current_seat != before.current_seat:  # one "your turn" email per turn
            enqueue(tasks.notify_turn, game.pk, after.turn)
    if after.finished:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.current_seat = None
        game.turn_deadline = None
        enqueue(tasks.finalize_game, game.pk)
    game.save()


def _start_turn_clock(game: Game, state: engine.GameState) -> None:
    """A new turn: who is to move, since when, and by when if the game has a time limit."""
    now = timezone.now()
    game.current_seat = seat = state.current_seat
    game.turn_started_at = now
    game.turn_deadline = (
        now + timedelta(days=game.turn_limit_days) if game.turn_limit_days else None
    )
    mover = game.seats.select_related("user").get(position=seat)
    reminders.plan_turn(game, mover)
    if is_automatic(mover):
        from games import tasks

        # A moment later, as a person would; the task checks the turn is still due.
        enqueue(tasks.play_automatic_turn, game.pk, state.turn, countdown=1)


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
        seats = list(game.seats.all())
        placing = _placing(state, sheets, {s.position for s in seats if s.resigned_at})
        for seat in seats:
            seat.final_score = sheets[seat.position].total
            seat.rank = placing[seat.position]
        Seat.objects.bulk_update(seats, ["final_score", "rank"])
        _bump(game)
        game.save(update_fields=["version", "updated_at"])
    return True


def _placing(state, sheets, resigned: set[int]) -> dict[int, int]:
    """Places by the rules (total, then animal cubes, then shared), except that players who
    resigned come after everyone who did not."""
    order = engine.ranking(state, sheets)
    key = {p.seat: (p.seat not in resigned, p.total, p.animal_cubes) for p in order}
    return {seat: 1 + sum(1 for k in key.values() if k > mine) for seat, mine in key.items()}


def games_for(user: User):
    """Games the user sits at or is invited to (the My games page sorts them)."""
    return Game.objects.filter(Q(seats__user=user) | Q(invitations__user=user)).distinct()


# --- Absent players: automatic turns, time limits, resignation ------------------------------------

SITE_EVENTS = frozenset({"resign", "end_game"})  # logged beside engine actions, never replayed
STAND_IN_POLICY = "easy"


def is_automatic(seat: Seat) -> bool:
    """Bots and players who resigned have their turns played for them."""
    return seat.user.is_bot or seat.resigned_at is not None


def play_automatic_turn(game_id: int, turn: int) -> bool:
    """Plays turn `turn` for a bot or a resigned player; False when it is not (or no longer) due."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.ACTIVE:
            return False
        state = game.engine_state()
        if state.turn != turn:
            return False
        seat = game.seats.select_related("user").get(position=state.current_seat)
        if not is_automatic(seat):
            return False
        level = seat.user.bot_level if seat.resigned_at is None else STAND_IN_POLICY
        detail = {"automatic": True, "bot": seat.user.is_bot}
        _play_turn_for(game, state, policy=level, detail=detail)
    return True


def overdue_automatic_turns(now, *, grace: timedelta = timedelta(minutes=1)) -> list:
    """(game id, turn) of active games waiting on a bot or a resigned player for too long."""
    waiting = (
        Seat.objects.filter(
            game__status=Game.Status.ACTIVE,
            game__current_seat=F("position"),
            game__turn_started_at__lte=now - grace,
        )
        .filter(Q(user__bot_level__gt="") | Q(resigned_at__isnull=False))
        .select_related("game")[:200]
    )
    return [(seat.game_id, seat.game.engine_state().turn) for seat in waiting]


def skip_turn(*, game_id: int, user: User, expected_version: object) -> Game:
    """Another player moves a timed-out game on: a stand-in plays the absent player's turn."""
    with transaction.atomic():
        game = _locked(game_id)
        _check_can_act_on_timeout(game, user, expected_version)
        state = game.engine_state()
        detail = {"stand_in": True, "requested_by": user.public_name}
        _play_turn_for(game, state, policy=STAND_IN_POLICY, detail=detail)
    return game


def end_stalled_game(*, game_id: int, user: User, expected_version: object) -> Game:
    """Another player ends a timed-out game: it is scored as the boards stand."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = _check_can_act_on_timeout(game, user, expected_version)
        _log_site_event(game, seat, "end_game")
        _finish_early(game, reason="ended")
    return game


def resign(*, game_id: int, user: User) -> Game:
    """A player gives up. With one opponent left the game ends; otherwise the stand-in plays
    the resigned seat's turns. Either way the resigned player is ranked last."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = _seat_of(game, user)
        if game.status != Game.Status.ACTIVE:
            raise Conflict("Only a game in progress can be resigned.")
        if seat.resigned_at is not None:
            raise Conflict("You have already resigned from this game.")
        seat.resigned_at = timezone.now()
        seat.save(update_fields=["resigned_at"])
        _log_site_event(game, seat, "resign")
        still_playing = [s for s in game.seats.select_related("user") if s.resigned_at is None]
        if not any(not s.user.is_bot for s in still_playing) or len(still_playing) <= 1:
            _finish_early(game, reason="resigned")
        else:
            state = game.engine_state()
            if state.current_seat == seat.position:
                _play_turn_for(game, state, policy=STAND_IN_POLICY, detail={"automatic": True})
            else:
                _bump(game)
                game.save()
    return game


def timed_out(game: Game) -> bool:
    return (
        game.status == Game.Status.ACTIVE
        and game.turn_deadline is not None
        and timezone.now() >= game.turn_deadline
    )


def _check_can_act_on_timeout(game: Game, user: User, expected_version: object) -> Seat:
    seat = _seat_of(game, user)
    if game.status != Game.Status.ACTIVE:
        raise Conflict("This game is not in progress.")
    if not _same_version(expected_version, game.version):
        raise StaleVersion("The board changed since your page was drawn; here it is now.")
    if seat.position == game.current_seat:
        raise Conflict("It is your own turn: play it rather than skip it.")
    if not timed_out(game):
        raise Conflict("The player to move still has time for this turn.")
    return seat


def _play_turn_for(game: Game, state: engine.GameState, *, policy: str, detail: dict) -> None:
    """Plays the rest of the current turn with a policy, logging each action like a player's."""
    choose = engine.get_policy(policy)
    rng = random.Random(f"{game.seed}:{state.turn}")
    before, turn, seat = state, state.turn, state.current_seat
    seq = game.moves.count()
    moves = []
    while not state.finished and state.turn == turn:
        action = choose(state, rng)
        after = engine.apply(state, action)
        seq += 1
        moves.append(
            Move(
                game=game,
                seq=seq,
                seat=seat,
                user=None,
                turn=turn,
                action=action.to_json(),
                detail={**move_detail(state, action, after), **detail},
            )
        )
        state = after
    Move.objects.bulk_create(moves)
    _save_state(game, before, state)


def _log_site_event(game: Game, seat: Seat, kind: str) -> None:
    Move.objects.create(
        game=game,
        seq=game.moves.count() + 1,
        seat=seat.position,
        user=seat.user,
        turn=game.engine_state().turn,
        action={"type": kind},
    )


def _finish_early(game: Game, *, reason: str) -> None:
    from games import tasks

    game.status = Game.Status.FINISHED
    game.end_reason = reason
    game.finished_at = timezone.now()
    game.current_seat = None
    game.turn_deadline = None
    _bump(game)
    game.save()
    enqueue(tasks.finalize_game, game.pk)
