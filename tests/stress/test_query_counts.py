"""Queries per request stay flat: the game page costs the same for 2 or 4 players and for a game
just started or 300 moves in, and the poll touches the database at most once."""

import random

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine, presence
from games.models import Game, Move, recent_moves
from games.models.replaying import verify
from games.narration import move_detail
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db

# Issue 16's budget. A page seen before at this version: session, user, the game with its seats
# and their users, the waiting count; the newest moves and the table talk come from the cache
# (games/presenters/shared_parts.py), read once per version by whoever looks first. Issue 34
# adds one: whether the player has finished 3 games yet (the turn reminder opens until then,
# games/presenters/help.py; past that the cache answers).
PAGE_QUERIES = 6
POLL_QUERIES = 1  # the version, once; then the cache answers


def with_moves(game: Game, count: int, seed: int = 0) -> Game:
    """The game `count` moves in, written as `services.play` writes them (much faster).

    Random legal actions, with a turn reset now and then (players do take turns back); near the
    end the last turn is taken back rather than ended, so the game is still in progress.
    """
    rng = random.Random(seed)
    state = game.engine_state()
    users = {s.position: s.user for s in game.seats.select_related("user")}
    moves = []
    for seq in range(1, count + 1):
        actions = engine.legal_actions(state)
        resets = [a for a in actions if isinstance(a, engine.ResetTurn)]
        plain = [a for a in actions if not isinstance(a, engine.ResetTurn)]
        action = resets[0] if resets and rng.random() < 0.15 else rng.choice(plain)
        after = engine.apply(state, action)
        if after.finished:
            action, after = resets[0], engine.apply(state, resets[0])
        moves.append(
            Move(
                game=game,
                seq=seq,
                seat=state.current_seat,
                user=users[state.current_seat],
                turn=state.turn,
                action=action.to_json(),
                detail=move_detail(state, action, after),
            )
        )
        state = after
    Move.objects.bulk_create(moves)
    recent_moves.remember(game, moves)  # as services keep the newest on the game row
    game.state = engine.state_to_json(state)
    game.version += count
    game.move_count += count
    game.current_seat = state.current_seat
    game.save()
    assert verify(game) is None
    return game


def page_queries(client, game: Game, user) -> int:
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return len(queries)


@pytest.fixture
def two_player_game():
    return start_game(UserFactory(), UserFactory())


@pytest.fixture
def four_player_game():
    return start_game(UserFactory(), UserFactory(), UserFactory(), UserFactory(), spirits=True)


def test_the_game_page_costs_the_same_queries_for_any_table_and_any_length(
    client, two_player_game, four_player_game
):
    counts = set()
    for game in (two_player_game, four_player_game):
        for moves in (0, 300):
            if moves:
                game = with_moves(game, moves, seed=game.pk)
            for seat in game.seats.select_related("user"):  # the player to move and the others
                # The first look after others moved also marks it seen; with the cache empty,
                # this player is also the first to read this version's log.
                cache.clear()
                assert page_queries(client, game, seat.user) <= PAGE_QUERIES
                counts.add(page_queries(client, game, seat.user))
    assert len(counts) == 1
    assert counts.pop() <= PAGE_QUERIES


def test_the_poll_needs_no_query_while_the_version_is_cached_and_one_otherwise(
    client, two_player_game
):
    game = two_player_game
    seat = game.seats.first()
    url = reverse("games:poll", args=[game.pk])
    params = {"v": game.version, "p": presence.token_for(game.pk, seat.user_id)}
    with CaptureQueriesContext(connection) as cold:
        assert client.get(url, params).status_code == 204
    with CaptureQueriesContext(connection) as warm:
        assert client.get(url, params).status_code == 204
    assert len(cold) <= POLL_QUERIES
    assert len(warm) == 0


def test_my_games_costs_the_same_queries_for_one_game_or_many(client, django_assert_num_queries):
    """The list reads no game's state (deferred) and loads seats for all games at once."""
    player = UserFactory()
    finished = start_game(player, UserFactory())
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    start_game(player, UserFactory())
    client.force_login(player)
    url = reverse("games:mine")
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    assert not any('"games_game"."state"' in q["sql"] for q in few.captured_queries)
    for _ in range(4):
        start_game(player, UserFactory(), UserFactory())
        done = start_game(player, UserFactory())
        Game.objects.filter(pk=done.pk).update(status=Game.Status.FINISHED)
    with django_assert_num_queries(len(few)):
        assert client.get(url).status_code == 200
