"""Bots, resignations and time limits: automatic turns go through the one writer too."""

from datetime import timedelta

import pytest
import time_machine
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from games import engine, services
from games.models import Game
from games.models.replaying import verify
from games.services import absent
from games.services.bots import bots_for
from tests.factories import UserFactory
from tests.games.helpers import first_legal, play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db


def test_a_game_against_bots_starts_at_once_and_bots_play_their_turns(
    player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            creator=player, players=3, side="A", spirits=True, bots=bots_for(["easy", "medium"])
        )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert user_to_move(game) == player  # the bots moved until it was the human's turn
    bot_moves = game.moves.filter(user=None)
    assert all(m.detail.get("bot") for m in bot_moves)
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=1)
    game.refresh_from_db()
    assert user_to_move(game) == player
    assert verify(game) is None


def test_two_bots_of_one_level_are_two_players():
    easy_1, easy_2 = bots_for(["easy", "easy"])
    assert easy_1 != easy_2 and easy_1.is_bot and easy_2.is_bot
    assert not easy_1.has_usable_password()


def test_resigning_a_two_player_game_ends_it_and_ranks_the_resigner_last(
    player, other_player, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player)
    play_turns(game, turns=6)  # 3 turns each: resigned, not abandoned
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game_id=game.pk, user=player)
    game.refresh_from_db()
    assert (game.status, game.end_reason) == (Game.Status.FINISHED, "resigned")
    ranks = dict(game.seats.values_list("user__username", "rank"))
    assert ranks == {"alice": 2, "bob": 1}
    assert game.moves.filter(action__type="resign").count() == 1
    assert verify(game) is None
    with pytest.raises(services.Conflict):
        services.resign(game_id=game.pk, user=other_player)


def test_in_a_bigger_game_a_stand_in_plays_for_the_resigned_player(
    player, other_player, stranger, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, stranger)
    quitter = user_to_move(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game_id=game.pk, user=quitter)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert user_to_move(game) != quitter  # the stand-in finished the quitter's turn
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=4)
    game.refresh_from_db()
    assert user_to_move(game) != quitter
    assert game.moves.filter(user=None, detail__automatic=True).exists()
    assert verify(game) is None


def test_a_timed_out_turn_can_be_skipped_or_the_game_ended(player, other_player):
    game = services.create_game(
        creator=player, players=2, side="B", spirits=False, invitees=[other_player],
        turn_limit_days=1,
    )  # fmt: skip
    services.join_game(game_id=game.pk, user=other_player)
    game.refresh_from_db()
    absent = user_to_move(game)
    waiting = other_player if absent == player else player
    assert game.turn_deadline - game.turn_started_at == timedelta(days=1)

    with pytest.raises(services.Conflict, match="still has time"):
        services.skip_turn(game_id=game.pk, user=waiting, expected_version=game.version)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        with pytest.raises(services.Conflict, match="your own turn"):
            services.skip_turn(game_id=game.pk, user=absent, expected_version=game.version)
        services.skip_turn(game_id=game.pk, user=waiting, expected_version=game.version)
        game.refresh_from_db()
        assert user_to_move(game) == waiting
        assert game.moves.filter(detail__stand_in=True).exists()
    assert verify(game) is None

    services.play(
        game_id=game.pk, user=waiting, action=first_legal(game), expected_version=game.version
    )
    game.refresh_from_db()
    with time_machine.travel(timezone.now() + timedelta(days=3)):
        game.refresh_from_db()
        services.end_stalled_game(game_id=game.pk, user=absent, expected_version=game.version)
    game.refresh_from_db()
    # Ended before anyone played 3 turns of their own: abandoned, not merely "ended".
    assert (game.status, game.end_reason) == (Game.Status.FINISHED, "abandoned")
    assert game.ended_by.user == waiting


def test_the_page_offers_skip_and_end_once_time_is_up(client, player, other_player):
    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, invitees=[other_player],
        turn_limit_days=3,
    )  # fmt: skip
    services.join_game(game_id=game.pk, user=other_player)
    game.refresh_from_db()
    waiting = other_player if user_to_move(game) == player else player
    client.force_login(waiting)
    url = reverse("games:detail", args=[game.pk])
    assert b"Time left for this turn" in client.get(url).content
    with time_machine.travel(timezone.now() + timedelta(days=4)):
        html = client.get(url).content.decode()
        assert "ran out of time" in html and "End the game now" in html
        response = client.post(reverse("games:skip", args=[game.pk]), {"version": game.version})
        assert response.status_code == 302
    game.refresh_from_db()
    assert user_to_move(game) == waiting


def test_the_new_game_form_seats_bots_and_sets_a_time_limit(client, player):
    client.force_login(player)
    response = client.post(
        reverse("games:new"),
        {"players": 3, "side": "A", "seat_2": "hard", "seat_3": "", "seat_4": "easy",
         "turn_limit_days": "7", "invite": ""},
    )  # fmt: skip
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert game.turn_limit_days == 7
    levels = sorted(s.user.bot_level for s in game.seats.select_related("user"))
    assert levels == ["", "hard"]  # seat 4 is beyond a 3-player table
    assert game.status == Game.Status.OPEN


def test_the_new_game_form_refuses_more_players_than_seats(client, player):
    UserFactory(username="carol")
    client.force_login(player)
    response = client.post(
        reverse("games:new"),
        {"players": 2, "side": "A", "seat_2": "easy", "invite": "carol"},
    )
    assert b"no seat left for friends" in response.content
    assert not Game.objects.exists()


def _bot_to_move(player, monkeypatch) -> Game:
    """A two-player game against the easy bot, waiting on the bot's turn (its task not run)."""
    from games import tasks

    monkeypatch.setattr(tasks.play_automatic_turn, "apply_async", lambda *a, **k: None)
    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, bots=bots_for(["easy"])
    )
    game.refresh_from_db()
    if user_to_move(game) == player:
        play_turns(game, turns=1)
        game.refresh_from_db()
    assert user_to_move(game).is_bot
    return game


def test_a_lost_bot_turn_is_played_by_the_sweep(player, monkeypatch):
    from games import tasks

    game = _bot_to_move(player, monkeypatch)  # its task was lost
    monkeypatch.undo()
    assert tasks.sweep_automatic_turns() == 0  # within the grace period
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        assert tasks.sweep_automatic_turns() == 1
    game.refresh_from_db()
    assert user_to_move(game) == player


@pytest.mark.parametrize(
    ("table", "ends"),
    [
        (["human"], True),  # one opponent left
        (["easy"], True),
        (["human", "easy"], False),  # a person remains to play against
        (["easy", "hard"], True),  # only bots would be left
        (["human", "human"], False),
    ],
)
def test_the_page_says_what_resigning_will_do(player, client, table, ends):
    humans = [UserFactory() for kind in table if kind == "human"]
    bots = bots_for([kind for kind in table if kind != "human"])
    game = services.create_game(
        creator=player, players=1 + len(table), side="A", spirits=False,
        invitees=humans, bots=bots,
    )  # fmt: skip
    for human in humans:
        services.join_game(game_id=game.pk, user=human)
    seat = game.seats.select_related("user").get(user=player)
    assert services.leaving_ends_game(list(game.seats.select_related("user")), seat) is ends
    client.force_login(player)
    html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert ("The game ends at once" in html) is ends
    assert ("A stand-in will play your remaining turns" in html) is not ends


def test_my_games_never_says_your_turn_in_a_game_one_has_left(
    client, player, other_player, stranger, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, stranger)
    mover = game.seats.get(position=(game.current_seat + 1) % 3).user  # the next to play
    services.resign(game_id=game.pk, user=mover)
    with django_capture_on_commit_callbacks(execute=False):  # the stand-in has not played yet
        play_turns(game, 1)
    game.refresh_from_db()
    assert game.seats.get(user=mover).position == game.current_seat
    client.force_login(mover)
    html = client.get(reverse("games:mine")).content.decode()
    your_turn = html.split("<h2>Your turn</h2>", 1)[1].split("</section>", 1)[0]
    assert game.title not in your_turn and "Nothing waits for you" in your_turn
    assert "You left this game; a stand-in plays your turn" in html


def _watch_the_lock(monkeypatch, on_decide=None) -> list[bool]:
    """Per call of the bot's policy, whether the game row was locked then."""
    locked = [False]
    calls: list[bool] = []
    lock = absent.locked

    def locking(game_id):
        locked[0] = True
        return lock(game_id)

    real = engine.get_policy

    def policy(name):
        choose = real(name)

        def watched(state, rng):
            calls.append(locked[0])
            if on_decide is not None:
                on_decide(len(calls))
            return choose(state, rng)

        return watched

    monkeypatch.setattr(absent, "locked", locking)
    monkeypatch.setattr(absent.engine, "get_policy", policy)
    return calls


def test_a_bot_decides_its_turn_before_the_game_is_locked(player, monkeypatch):
    game = _bot_to_move(player, monkeypatch)
    calls = _watch_the_lock(monkeypatch)
    turn = game.engine_state().turn
    assert services.play_automatic_turn(game.pk, turn)
    assert calls and not any(calls)  # every decision made with the row unlocked
    game.refresh_from_db()
    assert user_to_move(game) == player
    assert game.engine_state().turn == turn + 1
    assert verify(game) is None


def test_a_game_changed_while_the_bot_thought_is_decided_again_under_the_lock(player, monkeypatch):
    game = _bot_to_move(player, monkeypatch)
    # The turn as the bot decides it on the game as it stands, undisturbed.
    expected = [a.to_json() for a in absent._decide_turn(game, game.engine_state(), "easy")]

    def someone_else_changes_the_game(call: int) -> None:
        if call == 1:
            Game.objects.filter(pk=game.pk).update(version=F("version") + 1)

    calls = _watch_the_lock(monkeypatch, someone_else_changes_the_game)
    turn = game.engine_state().turn
    assert services.play_automatic_turn(game.pk, turn)
    assert not calls[0] and calls[-1]  # decided before the lock, then again under it
    game.refresh_from_db()
    played = [m.action for m in game.moves.filter(turn=turn).order_by("seq")]
    assert played == expected  # the same seed and state: the same moves, logged once
    assert verify(game) is None


def test_a_bot_turn_already_played_while_it_thought_is_not_played_twice(player, monkeypatch):
    game = _bot_to_move(player, monkeypatch)
    turn = game.engine_state().turn
    assert services.play_automatic_turn(game.pk, turn)
    moves = game.moves.count()
    assert not services.play_automatic_turn(game.pk, turn)  # a duplicate task
    assert game.moves.count() == moves
