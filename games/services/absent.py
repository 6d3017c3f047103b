"""Absent players: bot and stand-in turns, time limits, resignation."""

import logging
import random
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import engine
from games.models import Game, Move, Seat
from games.narration import move_detail
from games.queue import enqueue
from games.services.core import (
    STAND_IN_POLICY,
    bump,
    check_version,
    finish,
    is_automatic,
    locked,
    log_moves,
    next_seq,
    save_state,
    table_and_seat,
)
from games.services.errors import Conflict, GameError

logger = logging.getLogger(__name__)


def play_automatic_turn(game_id: int, turn: int) -> bool:
    """Plays turn `turn` for a bot or a player who left; False when it is not (or no longer) due.

    The turn is decided before the game row is locked: the hard bot thinks for up to 3 s, and a
    lock held that long would hold up everyone else's changes to the game (on SQLite, to every
    game). Under the lock the decision is used only if the game is still at the version it was
    decided on; otherwise it is decided again there. The bots' choices depend on the state and
    the seed only, so both ways give the same moves.
    """
    game = Game.objects.filter(pk=game_id).first()
    due = _automatic_turn_due(game, turn) if game is not None else None
    if due is None:
        return False
    decided_on = game.version
    decided = _decide_turn(game, due[0], due[1])
    with transaction.atomic():
        game = locked(game_id)
        due = _automatic_turn_due(game, turn)
        if due is None:
            return False
        state, policy, detail = due
        if game.version != decided_on:
            decided = _decide_turn(game, state, policy)
        _log_turn(game, state, decided, detail)
    return True


def _automatic_turn_due(
    game: Game, turn: int
) -> tuple[engine.GameState, str, dict[str, bool]] | None:
    """(state, policy, move detail) when turn `turn` is a bot's or a stand-in's to play now."""
    if game.status != Game.Status.ACTIVE:
        return None
    state = game.engine_state()
    if state.turn != turn:
        return None
    seat = game.seats.select_related("user").get(position=state.current_seat)
    if not is_automatic(seat):
        return None
    policy = seat.user.bot_level if not seat.left else STAND_IN_POLICY
    return state, policy, {"automatic": True, "bot": seat.user.is_bot}


def overdue_automatic_turns(now, *, grace: timedelta = timedelta(minutes=1)) -> list:
    """(game id, turn) of active games waiting on a bot or a player who left for too long."""
    waiting = (
        Seat.objects.filter(
            game__status=Game.Status.ACTIVE,
            game__current_seat=F("position"),
            game__turn_started_at__lte=now - grace,
        )
        .filter(
            Q(user__bot_level__gt="") | Q(resigned_at__isnull=False) | Q(dropped_at__isnull=False)
        )
        .select_related("game")[:200]
    )
    return [(seat.game_id, seat.game.engine_state().turn) for seat in waiting]


def skip_turn(*, game_id: int, user: User, expected_version: object) -> Game:
    """Another player moves a timed-out game on: a stand-in plays the absent player's turn."""
    with transaction.atomic():
        game = locked(game_id)
        seats, _seat = _check_can_act_on_timeout(game, user, expected_version)
        late = next(s for s in seats if s.position == game.current_seat)
        turn = game.engine_state().turn
        _stand_in_for_late(game, late, requested_by=user.public_name)
        enqueue("games.notify_timeout", game.pk, turn)  # everyone hears it, as from the sweep
    return game


def end_stalled_game(*, game_id: int, user: User, expected_version: object) -> Game:
    """Another player ends a timed-out game: it is scored as the boards stand, and the player
    whose time ran out is ranked with those who left."""
    with transaction.atomic():
        game = locked(game_id)
        seats, seat = _check_can_act_on_timeout(game, user, expected_version)
        late = next(s for s in seats if s.position == game.current_seat)
        _mark_timed_out(late, missed=True)
        _log_site_event(game, seat, "end_game")
        _finish_early(game, reason=Game.EndReason.ENDED, ended_by=late)
    return game


def act_on_timeout(game_id: int, turn: int) -> bool:
    """The timeout sweep: the turn `turn` passed its limit, so do what the creator chose (a
    stand-in plays it, or the late player is dropped). False when it is no longer due."""
    with transaction.atomic():
        game = locked(game_id)
        if not timed_out(game):
            return False
        state = game.engine_state()
        if state.turn != turn:
            return False
        seats = list(game.seats.select_related("user"))
        late = next(s for s in seats if s.position == state.current_seat)
        if is_automatic(late):
            return False  # a bot or a stand-in owes this turn; the automatic sweep plays it
        if game.on_timeout == Game.OnTimeout.DROP:
            now = timezone.now()
            late.dropped_at = now
            _mark_timed_out(late, missed=True)
            _log_site_event(game, late, "drop")
            if leaving_ends_game(seats, late):
                _finish_early(game, reason=Game.EndReason.TIMED_OUT, ended_by=late)
            else:
                _play_turn_for(game, state, policy=STAND_IN_POLICY, detail={"automatic": True})
        else:
            _stand_in_for_late(game, late, requested_by="")
        enqueue("games.notify_timeout", game.pk, turn)
    return True


def due_timeouts(now, *, limit: int = 200) -> list[tuple[int, int]]:
    """(game id, turn) of active games whose turn deadline has passed (a deadline moved into
    the future, by a vacation for instance, is simply not due)."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, turn_deadline__lte=now).order_by(
        "turn_deadline"
    )[:limit]
    return [(game.pk, game.engine_state().turn) for game in games]


def leaving_ends_game(seats: list[Seat], leaving: Seat) -> bool:
    """Whether the game ends when `leaving` leaves: it goes on only while at least two players
    remain, one of them a person (not a bot, not someone who left) to play against."""
    others = [s for s in seats if s.pk != leaving.pk and not s.left]
    return len(others) <= 1 or all(s.user.is_bot for s in others)


def resign(*, game_id: int, user: User) -> Game:
    """A player gives up. The game ends when one opponent, or only bots, would be left;
    otherwise the stand-in plays the resigned seat's turns. The resigner ranks after everyone
    who did not leave."""
    with transaction.atomic():
        game = locked(game_id)
        seats, seat = table_and_seat(game, user)
        if game.status == Game.Status.FINISHED:
            raise Conflict(_("This game is over: there is nothing left to resign from."))
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("Only a game in progress can be resigned."))
        if game.guided:  # its page offers to end the lesson instead (games.services.guide)
            raise Conflict(_("A lesson is not resigned: end it with the guide's button."))
        _refuse_if_left(seat)
        seat.resigned_at = timezone.now()
        seat.save(update_fields=["resigned_at"])
        _log_site_event(game, seat, "resign")
        if leaving_ends_game(seats, seat):
            _finish_early(game, reason=Game.EndReason.RESIGNED, ended_by=seat)
        else:
            state = game.engine_state()
            if state.current_seat == seat.position:
                _play_turn_for(game, state, policy=STAND_IN_POLICY, detail={"automatic": True})
            else:
                bump(game)
                game.save()
    return game


def timed_out(game: Game) -> bool:
    return (
        game.status == Game.Status.ACTIVE
        and game.turn_deadline is not None
        and timezone.now() >= game.turn_deadline
    )


def _refuse_if_left(seat: Seat) -> None:
    """A player who resigned or was dropped can do nothing more in the game."""
    if seat.resigned_at is not None:
        raise Conflict(_("You resigned from this game: a stand-in plays your turns."))
    if seat.dropped_at is not None:
        raise Conflict(_("You were dropped from this game when your turn's time ran out."))


def _check_can_act_on_timeout(
    game: Game, user: User, expected_version: object
) -> tuple[list[Seat], Seat]:
    seats, seat = table_and_seat(game, user)
    if game.status == Game.Status.FINISHED:
        raise Conflict(_("This game is over."))
    if game.status != Game.Status.ACTIVE:
        raise Conflict(_("This game is not in progress."))
    _refuse_if_left(seat)
    check_version(game, expected_version)
    if seat.position == game.current_seat:
        raise Conflict(_("It is your own turn: play it rather than skip it."))
    if not timed_out(game):
        raise Conflict(_("The player to move still has time for this turn."))
    return seats, seat


def _mark_timed_out(seat: Seat, *, missed: bool) -> None:
    """The seat's time ran out: it ranks after those who never ran out, from the first time."""
    seat.timed_out_at = seat.timed_out_at or timezone.now()
    seat.turns_missed += 1 if missed else 0
    seat.save(update_fields=["timed_out_at", "turns_missed", "dropped_at"])


def _stand_in_for_late(game: Game, late: Seat, *, requested_by: str) -> None:
    if is_automatic(late):
        raise GameError(_("A stand-in already plays this turn."))
    _mark_timed_out(late, missed=True)
    detail = {"stand_in": True, "timed_out": True}
    if requested_by:
        detail["requested_by"] = requested_by
    _play_turn_for(game, game.engine_state(), policy=STAND_IN_POLICY, detail=detail)


def _decide_turn(game: Game, state: engine.GameState, policy: str) -> list[engine.Action]:
    """The actions a policy plays for the rest of the current turn (the engine only, no query)."""
    choose = engine.get_policy(policy)
    rng = random.Random(f"{game.seed}:{state.turn}")
    turn = state.turn
    actions = []
    while not state.finished and state.turn == turn:
        action = choose(state, rng)
        state = engine.apply(state, action)
        actions.append(action)
    return actions


def _play_turn_for(game: Game, state: engine.GameState, *, policy: str, detail: dict) -> None:
    """Plays the rest of the current turn with a policy, logging each action like a player's."""
    _log_turn(game, state, _decide_turn(game, state, policy), detail)


def _log_turn(
    game: Game, state: engine.GameState, actions: list[engine.Action], detail: dict
) -> None:
    """Apply a decided rest of the turn to the locked game, each action logged as a move."""
    before, turn, seat = state, state.turn, state.current_seat
    moves = []
    for action in actions:
        after = engine.apply(state, action)
        moves.append(
            Move(
                game=game,
                seq=next_seq(game),
                seat=seat,
                user=None,
                turn=turn,
                action=action.to_json(),
                detail={**move_detail(state, action, after), **detail},
            )
        )
        state = after
    log_moves(game, moves)
    save_state(game, before, state)


def _log_site_event(game: Game, seat: Seat, kind: str) -> None:
    event = Move(
        game=game,
        seq=next_seq(game),
        seat=seat.position,
        user=seat.user,
        turn=game.engine_state().turn,
        action={"type": kind},
    )
    log_moves(game, [event])


def _finish_early(game: Game, *, reason: str, ended_by: Seat) -> None:
    """The game ends before the rules end it: scored as the boards stand, results stored now."""
    finish(game, game.engine_state(), reason=reason, ended_by=ended_by)
    bump(game)
    game.save()
