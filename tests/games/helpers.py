"""Helpers for tests that play through the site's one writer."""

from __future__ import annotations

import random

from games import engine, services
from games.models import Game


def start_game(creator, *others, side: str = "A", spirits: bool = False) -> Game:
    """An active game with the creator and `others` seated (invited, then joined)."""
    game = services.create_game(
        creator=creator,
        players=1 + len(others),
        side=side,
        spirits=spirits,
        invitees=others,
    )
    for user in others:
        game = services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def user_to_move(game: Game):
    game.refresh_from_db()
    return game.seats.get(position=game.current_seat).user


def first_legal(game: Game) -> dict:
    """A legal action that moves the game forward (never a reset)."""
    state = game.engine_state()
    actions = [a for a in engine.legal_actions(state) if not isinstance(a, engine.ResetTurn)]
    return actions[0].to_json()


def _automatic_turn(game: Game) -> bool:
    """Plays the turn of a bot or of a player who left (as the worker would): True if it did.
    A player who resigned or was dropped may not play it themselves."""
    mover = game.seats.select_related("user").get(position=game.current_seat)
    if not services.is_automatic(mover):
        return False
    services.play_automatic_turn(game.pk, game.engine_state().turn)
    game.refresh_from_db()
    return True


def play_to_the_end(game: Game, seed: int = 0, limit: int = 5000) -> Game:
    """Plays random legal actions through services.play until the game is over."""
    rng = random.Random(seed)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        if _automatic_turn(game):
            continue
        state = game.engine_state()
        actions = [a for a in engine.legal_actions(state) if not isinstance(a, engine.ResetTurn)]
        action = rng.choice(actions)
        services.play(
            game_id=game.pk,
            user=user_to_move(game),
            action=action.to_json(),
            expected_version=game.version,
        )
    raise AssertionError("the game did not end")


def play_one_action(game: Game, rng: random.Random) -> None:
    """One random legal action of the current turn, ending the turn once nothing is in hand."""
    if _automatic_turn(game):
        return
    state = game.engine_state()
    actions = [a for a in engine.legal_actions(state) if not isinstance(a, engine.ResetTurn)]
    ends = [a for a in actions if isinstance(a, engine.EndTurn)]
    action = ends[0] if ends and not state.hand else rng.choice(actions)
    services.play(
        game_id=game.pk,
        user=user_to_move(game),
        action=action.to_json(),
        expected_version=game.version,
    )
    game.refresh_from_db()


def play_turns(game: Game, turns: int, seed: int = 0) -> Game:
    """Plays whole turns of random legal actions through services.play."""
    rng = random.Random(seed)
    game.refresh_from_db()
    target = game.engine_state().turn + turns
    while game.status == Game.Status.ACTIVE and game.engine_state().turn < target:
        play_one_action(game, rng)
    return game


def play_until_the_last_action(game: Game, seed: int = 0, limit: int = 5000) -> dict:
    """Plays random legal actions until the next one would end the game; returns that action
    (an end of turn), for a test to play it the way a player would, through a page."""
    rng = random.Random(seed)
    for _ in range(limit):
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE, "the game ended before its last action"
        if _automatic_turn(game):
            continue
        state = game.engine_state()
        actions = [a for a in engine.legal_actions(state) if not isinstance(a, engine.ResetTurn)]
        enders = [a for a in actions if engine.apply(state, a).finished]
        if enders:
            return enders[0].to_json()
        action = rng.choice(actions)
        services.play(
            game_id=game.pk,
            user=user_to_move(game),
            action=action.to_json(),
            expected_version=game.version,
        )
    raise AssertionError("the game did not reach its last action")
