"""Absent players: bot and stand-in turns, time limits, resignation."""

import logging
import random
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import User
from games import engine
from games.models import Game, Move, Seat
from games.narration import move_detail
from games.queue import enqueue
from games.services.core import (
    STAND_IN_POLICY,
    _bump,
    _check_version,
    _locked,
    _next_seq,
    _save_state,
    _seat_of,
    _seating,
    is_automatic,
)
from games.services.errors import Conflict

logger = logging.getLogger(__name__)


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


def resigning_ends_game(seats: list[Seat], leaving: Seat) -> bool:
    """Whether the game ends when `leaving` resigns: it goes on only while at least two players
    remain, one of them a person (not a bot, not someone who resigned) to play against."""
    others = [s for s in seats if s.pk != leaving.pk and s.resigned_at is None]
    return len(others) <= 1 or all(s.user.is_bot for s in others)


def resign(*, game_id: int, user: User) -> Game:
    """A player gives up. The game ends when one opponent, or only bots, would be left;
    otherwise the stand-in plays the resigned seat's turns. The resigner is ranked last."""
    with transaction.atomic():
        game = _locked(game_id)
        seats, seat = _seating(game, user)
        if game.status != Game.Status.ACTIVE:
            raise Conflict("Only a game in progress can be resigned.")
        if seat.resigned_at is not None:
            raise Conflict("You have already resigned from this game.")
        seat.resigned_at = timezone.now()
        seat.save(update_fields=["resigned_at"])
        _log_site_event(game, seat, "resign")
        if resigning_ends_game(seats, seat):
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
    _check_version(game, expected_version)
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
    moves = []
    while not state.finished and state.turn == turn:
        action = choose(state, rng)
        after = engine.apply(state, action)
        moves.append(
            Move(
                game=game,
                seq=_next_seq(game),
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
        seq=_next_seq(game),
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
