"""Boards as rows, and "since your last visit": what the others did while you were away."""

import pytest
from django.test import Client

from games import engine, services
from games.models import Board, Game, Seat
from games.models.replaying import verify
from games.presenters import recap
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db


def page(user, game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(game.get_absolute_url()).content.decode()


def test_the_writer_stores_each_seat_board_at_the_end_of_each_turn():
    game = play_turns(start_game(UserFactory(), UserFactory()), turns=5, seed=1)

    boards = list(game.boards.order_by("turn"))

    assert [b.turn for b in boards] == [0, 1, 2, 3, 4]
    state = game.engine_state()
    last = boards[-1]
    assert last.player == state.players[last.position].to_json()
    assert last.move_seq == game.moves.filter(turn=4).order_by("-seq").first().seq
    assert verify(game) is None


def test_verify_finds_a_board_that_differs_from_the_replay():
    game = play_turns(start_game(UserFactory(), UserFactory()), turns=3, seed=2)
    board = game.boards.get(turn=1)
    board.score = {**board.score, "total": board.score["total"] + 1}
    board.save()

    assert verify(game) == "the stored board of turn 1 differs from the replay"


def test_a_player_back_after_two_opponent_turns_sees_what_changed_once():
    ann, bob, cat = UserFactory(display_name="Ann"), UserFactory(), UserFactory()
    game = start_game(ann, bob, cat)
    while user_to_move(game) != ann:
        game = play_turns(game, turns=1)
    page(ann, game)  # Ann looks, then the others play while she is away
    game = play_turns(game, turns=1, seed=5)
    game = play_turns(game, turns=2, seed=6)
    game.refresh_from_db()
    others = [s for s in game.seats.select_related("user") if s.user_id != ann.pk]

    html = page(ann, game)

    assert "Since your last visit" in html
    for seat in others:
        assert f"<strong>{seat.user.public_name}</strong>:" in html
    assert "hex-fresh" in html and "point" in html
    again = page(ann, game)
    assert "Since your last visit" not in again and "hex-fresh" not in again


def test_the_recap_follows_the_player_to_another_device():
    ann, bob = UserFactory(), UserFactory()
    game = start_game(ann, bob)
    page(ann, game)
    game = play_turns(game, turns=2, seed=3)

    assert "Since your last visit" in page(ann, game)  # a new client: another device
    assert game.seats.get(user=ann).seen_move == Game.objects.get(pk=game.pk).move_count


def test_nothing_to_recap_for_a_game_already_seen():
    ann, bob = UserFactory(), UserFactory()
    game = start_game(ann, bob)

    page(ann, game)

    assert "Since your last visit" not in page(ann, game)
    assert not Board.objects.filter(game=game).exists()


def play(game: Game, user, kind: type) -> Game:
    """`user` plays the first legal action of this kind."""
    action = next(a for a in engine.legal_actions(game.engine_state()) if isinstance(a, kind))
    services.play(
        game_id=game.pk, user=user, action=action.to_json(), expected_version=game.version
    )
    game.refresh_from_db()
    return game


def test_the_recap_starts_from_the_boards_as_the_player_last_saw_them(
    django_assert_max_num_queries,
):
    """Ann looks while Bob is in the middle of his turn: afterwards she is told only of the
    tokens he placed since, and the look that tells her reads no board from the history."""
    ann, bob = UserFactory(display_name="Ann"), UserFactory(display_name="Bob")
    game = start_game(ann, bob)
    while user_to_move(game) != bob:
        game = play_turns(game, turns=1)
    game = play(game, bob, engine.TakeTokens)
    game = play(game, bob, engine.PlaceToken)
    page(ann, game)  # one of Bob's three tokens is on his board
    game = play(game, bob, engine.PlaceToken)
    game = play(game, bob, engine.PlaceToken)
    game = play(game, bob, engine.EndTurn)

    client = Client()
    client.force_login(ann)
    # Session, user, game and seats, seen, waiting count, and whether Ann has finished 3 games
    # (the turn reminder, games/presenters/help.py).
    with django_assert_max_num_queries(6):
        html = client.get(game.get_absolute_url()).content.decode()

    assert "<strong>Bob</strong>: 2 tokens" in html


def test_a_look_from_before_the_seat_kept_the_boards_is_told_from_the_stored_turn_ends():
    ann, bob = UserFactory(display_name="Ann"), UserFactory(display_name="Bob")
    game = start_game(ann, bob)
    while user_to_move(game) != bob:
        game = play_turns(game, turns=1)
    page(ann, game)
    Seat.objects.filter(game=game, user=ann).update(seen_boards="")  # as looks were stored
    game = play_turns(game, turns=1, seed=4)

    html = page(ann, game)

    assert "<strong>Bob</strong>: 3 tokens" in html


def test_the_boards_kept_for_a_player_hold_nothing_the_others_keep_hidden():
    ann, bob = UserFactory(), UserFactory()
    game = start_game(ann, bob, spirits=True)
    ann_seat, bob_seat = game.seats.get(user=ann), game.seats.get(user=bob)
    state = game.engine_state()
    dealt = state.players[bob_seat.position].spirit_options
    assert dealt  # Bob has not chosen his Nature's Spirit yet: the two he was dealt are his

    kept = recap.seen_boards(state, ann_seat.position)

    assert '"stacks"' in kept and not any(card in kept for card in dealt)
