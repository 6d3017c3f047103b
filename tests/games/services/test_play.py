"""Playing through the one writer: every refusal leaves the game exactly as it was."""

import threading

import pytest
from django.core.management import call_command
from django.db import connection

from games import engine, services
from games.models import Game, Move
from games.models.replaying import verify
from tests.factories import UserFactory
from tests.games.helpers import first_legal, play_to_the_end, start_game, user_to_move

pytestmark = pytest.mark.django_db


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return game.state, game.version, game.current_seat, game.moves.count()


def test_a_legal_action_is_applied_logged_and_versioned(game):
    mover, before = user_to_move(game), snapshot(game)
    action = first_legal(game)
    result = services.play(
        game_id=game.pk, user=mover, action=action, expected_version=game.version
    )
    game.refresh_from_db()
    assert game.version == before[1] + 1
    assert game.state == engine.state_to_json(result.state)
    move = Move.objects.get(game=game)
    assert (move.seq, move.user, move.action) == (1, mover, action)


def test_the_page_after_a_move_reads_the_new_state_without_parsing_it(game):
    mover, action = user_to_move(game), first_legal(game)
    result = services.play(
        game_id=game.pk, user=mover, action=action, expected_version=game.version
    )
    assert result.game.engine_state() is result.state
    assert engine.state_from_json(result.game.state) == result.state


@pytest.mark.parametrize(
    "action",
    [
        {"type": "place_token", "colour": "blue", "cell": "0,0"},  # nothing taken yet
        {"type": "take_tokens", "space": 9},
        {"type": "take_tokens", "space": "1"},
        {"type": "take_card", "card_id": "animal_99"},
        {"type": "teleport"},
        {"type": "end_turn"},
        "not even an object",
        {"type": "take_tokens", "space": 10**30},
    ],
)
def test_an_illegal_or_malformed_action_changes_nothing(game, action):
    before = snapshot(game)
    with pytest.raises(services.RuleViolation) as refused:
        services.play(
            game_id=game.pk, user=user_to_move(game), action=action, expected_version=before[1]
        )
    assert refused.value.message[0].isupper()
    assert snapshot(game) == before


def test_a_stale_page_is_refused(game):
    before = snapshot(game)
    with pytest.raises(services.StaleVersion):
        services.play(
            game_id=game.pk,
            user=user_to_move(game),
            action=first_legal(game),
            expected_version=before[1] - 1,
        )
    with pytest.raises(services.StaleVersion):
        services.play(
            game_id=game.pk, user=user_to_move(game), action=first_legal(game), expected_version="x"
        )
    assert snapshot(game) == before


def test_a_double_click_applies_once(game):
    mover, action, version = user_to_move(game), first_legal(game), game.version
    services.play(game_id=game.pk, user=mover, action=action, expected_version=version)
    with pytest.raises(services.StaleVersion):
        services.play(game_id=game.pk, user=mover, action=action, expected_version=version)
    assert game.moves.count() == 1


def test_the_player_not_to_move_is_refused(game, player, other_player):
    waiting = other_player if user_to_move(game) == player else player
    before = snapshot(game)
    with pytest.raises(services.Conflict, match="not your turn"):
        services.play(
            game_id=game.pk, user=waiting, action=first_legal(game), expected_version=before[1]
        )
    assert snapshot(game) == before


def test_a_stranger_cannot_act(game, stranger):
    before = snapshot(game)
    with pytest.raises(services.NotAllowed):
        services.play(
            game_id=game.pk, user=stranger, action=first_legal(game), expected_version=before[1]
        )
    assert snapshot(game) == before


def test_an_unknown_game_is_refused(player):
    with pytest.raises(services.NotFound, match="no such game"):
        services.play(game_id=999999, user=player, action={"type": "end_turn"}, expected_version=0)


@pytest.mark.parametrize("game_id", ["7; DROP TABLE games_game", None, -1, 0, 10**30, "1e3"])
def test_a_game_id_that_names_no_row_is_no_such_game(game, game_id):
    mover = user_to_move(game)
    with pytest.raises(services.NotFound, match="no such game"):
        services.play(game_id=game_id, user=mover, action={"type": "end_turn"}, expected_version=1)
    assert Game.objects.filter(pk=game.pk).exists()


def test_a_game_plays_to_the_end_finalizes_once_and_replays(
    game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(game, seed=3)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.finalized_at is not None
    seats = list(game.seats.order_by("position"))
    state = game.engine_state()
    assert [s.final_score for s in seats] == [sh.total for sh in engine.score_sheets(state)]
    assert {s.rank for s in seats} <= {1, 2}
    assert services.finalize(game.pk) is False  # a second run changes nothing
    assert verify(game) is None
    call_command("verify_games")

    with pytest.raises(services.Conflict, match="over"):
        services.play(
            game_id=game.pk, user=seats[0].user, action={"type": "end_turn"}, expected_version=0
        )


def test_verify_games_notices_a_tampered_state(game):
    mover = user_to_move(game)
    services.play(
        game_id=game.pk, user=mover, action=first_legal(game), expected_version=game.version
    )
    Game.objects.filter(pk=game.pk).update(
        state=engine.state_to_json(engine.new_game(game.config, 1))
    )
    with pytest.raises(Exception, match="do not replay"):
        call_command("verify_games")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_racing_submissions_for_one_turn_exactly_one_wins():
    alice, bob = UserFactory(), UserFactory()
    game = start_game(alice, bob)
    mover, version = user_to_move(game), game.version
    state = game.engine_state()
    takes = [a.to_json() for a in engine.legal_actions(state) if isinstance(a, engine.TakeTokens)]
    barrier = threading.Barrier(2)
    outcomes = []

    def submit(action):
        try:
            barrier.wait(timeout=10)
            services.play(game_id=game.pk, user=mover, action=action, expected_version=version)
            outcomes.append("won")
        except services.StaleVersion:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(a,)) for a in takes[:2]]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes) == ["stale", "won"]
    game.refresh_from_db()
    assert game.version == version + 1
    assert list(game.moves.values_list("seq", flat=True)) == [1]
    assert verify(game) is None
