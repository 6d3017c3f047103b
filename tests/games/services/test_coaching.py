"""Learning from the hard bot: a review of one's turns after a game, a hint during solo play."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.engine import review as engine_review
from games.engine.bots.players import HardBot
from games.models import Game, Review
from games.services import coaching
from records.models import Rating, SeatResult
from tests.factories import PASSWORD, UserFactory
from tests.games.helpers import play_to_the_end, play_turns, start_game, user_to_move
from tests.records.helpers import real_game

pytestmark = pytest.mark.django_db

# A lighter hard bot where the test is about the plumbing, not the bot's strength.
QUICK = HardBot(budget=engine_review.REVIEW_BUDGET, top=3, solo_samples=1, rival_samples=1)


def recorded_game(players: int = 2, seed: int = 7) -> tuple[engine.GameConfig, list]:
    config = engine.GameConfig(players=players, side="A")
    state, rng, actions = engine.new_game(config, seed), random.Random(seed), []
    policy = engine.get_policy("easy")
    while not state.finished:
        action = policy(state, rng)
        actions.append(action)
        state = engine.apply(state, action)
    return config, actions


# The engine's review


def test_a_review_is_reproducible_and_survives_json():
    config, actions = recorded_game()
    first = engine_review.review_turns(config, 7, actions, 0, turns=[1, 3], bot=QUICK)
    again = engine_review.review_turns(config, 7, actions, 0, turns=[1, 3], bot=QUICK)
    assert [t.turn for t in first] == [1, 3]
    assert [t.to_json() for t in first] == [t.to_json() for t in again]
    for turn in first:
        assert engine_review.TurnReview.from_json(turn.to_json()).to_json() == turn.to_json()
        assert turn.suggested and isinstance(turn.suggested[-1], engine.EndTurn)
        json.dumps(turn.to_json())


def test_the_bot_decides_from_the_seats_view_only(monkeypatch):
    """Every decision is asked with view_for(state at the turn's start, seat): counts of the
    pouch and the draw pile, never their order."""
    config, actions = recorded_game()
    asked = []
    real_suggest = engine_review.suggest

    def spy(view, rng, bot=None):
        asked.append(view)
        return real_suggest(view, rng, bot)

    monkeypatch.setattr(engine_review, "suggest", spy)
    reviews = engine_review.review_turns(config, 7, actions, 1, turns=[2, 4], bot=QUICK)
    assert len(asked) == len(reviews) == 2
    for view, turn in zip(asked, reviews, strict=True):
        assert view == engine.view_for(turn.before, 1)
        assert "pouch" not in view and "deck" not in view
        assert view["pouch_count"] == len(turn.before.pouch)


def test_the_same_view_gives_the_same_suggestion_whatever_is_hidden():
    config, actions = recorded_game()
    state = engine.replay(config, 7, actions[:12])
    hidden_changed = dataclasses.replace(
        state, pouch=tuple(reversed(state.pouch)), deck=tuple(reversed(state.deck))
    )
    seat = state.current_seat
    assert engine.view_for(state, seat) == engine.view_for(hidden_changed, seat)
    plans = [
        engine_review.suggest(engine.view_for(s, seat), random.Random(3), QUICK)
        for s in (state, hidden_changed)
    ]
    assert plans[0].actions == plans[1].actions


# The review of a finished game on the site


@pytest.fixture
def finished(django_capture_on_commit_callbacks, player, other_player):
    return real_game(django_capture_on_commit_callbacks, player, other_player, seed=3)


@pytest.fixture
def two_turns_only(monkeypatch):
    """The hard bot on the first two turns only: the whole game would take a minute."""
    real = coaching.own_turns_of
    monkeypatch.setattr(coaching, "own_turns_of", lambda game, seat: real(game, seat)[:2])


def test_a_player_asks_for_a_review_and_reads_it(
    client, finished, player, two_turns_only, django_capture_on_commit_callbacks
):
    client.force_login(player)
    url = reverse("games:review", args=[finished.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert "Review my turns" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url)
    assert response.status_code == 302
    review = Review.objects.get(game=finished)
    assert review.status == Review.Status.DONE and len(review.turns) == 2
    html = client.get(url).content.decode()
    assert "The hard bot (" in html and html.count('class="board board-A') == 4
    assert "Take the tokens of space" in html
    # The score sheet offers it to the players.
    assert url in client.get(reverse("records:sheet", args=[finished.pk])).content.decode()


def test_asking_twice_makes_one_review_once(
    client, finished, player, two_turns_only, django_capture_on_commit_callbacks
):
    client.force_login(player)
    url = reverse("games:review", args=[finished.pk])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url)
        client.post(url)
    assert Review.objects.filter(game=finished).count() == 1
    review = Review.objects.get(game=finished)
    assert coaching.make_review(review.pk) is False  # done: a late task finds nothing to claim


def test_a_failed_review_can_be_asked_again(
    client, finished, player, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(*args, **kwargs):
        raise RuntimeError("the bot fell over")

    monkeypatch.setattr(engine_review, "review_turns", broken)
    client.force_login(player)
    url = reverse("games:review", args=[finished.pk])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url)
    assert Review.objects.get(game=finished).status == Review.Status.FAILED
    assert "could not be made" in client.get(url).content.decode()
    monkeypatch.undo()
    monkeypatch.setattr(coaching, "own_turns_of", lambda game, seat: [])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url)
    review = Review.objects.get(game=finished)
    assert review.status == Review.Status.DONE and review.turns == []  # no turn of one's own
    assert "nothing to review" in client.get(url).content.decode()


def test_asking_for_a_review_answers_at_once_and_the_page_shows_progress_then_the_review(
    client, finished, player, two_turns_only, django_capture_on_commit_callbacks
):
    """The bot's minute of search happens on a worker: the answer only queues it, the page says
    how far the worker has got, asks again every few seconds, and stops once it is there."""
    client.force_login(player)
    url = reverse("games:review", args=[finished.pk])
    with django_capture_on_commit_callbacks() as queued:  # tasks deferred, as with a worker
        response = client.post(url)
    assert response.status_code == 302 and len(queued) == 1
    review = Review.objects.get(game=finished)
    assert review.status == Review.Status.PENDING and review.turns == []
    waiting = client.get(url).content.decode()
    assert "Your review is queued" in waiting and 'hx-trigger="every 3s"' in waiting

    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.RUNNING, started_at=timezone.now(), turns_total=5, turns_done=1
    )
    part = client.get(url, {"fragment": "review"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Reviewing: turn 2 of 5." in part and 'max="5" value="1"' in part
    assert 'hx-trigger="every 3s"' in part and "<h1" not in part  # the part alone

    Review.objects.filter(pk=review.pk).update(status=Review.Status.PENDING)
    queued[0]()  # the worker takes it
    done = client.get(url, {"fragment": "review"}, HTTP_HX_REQUEST="true").content.decode()
    assert "In short" in done and "Turn " in done
    assert "hx-get" not in done and "hx-trigger" not in done  # the asking stops


def test_the_review_tells_its_progress_turn_by_turn(finished, player, two_turns_only, monkeypatch):
    review = Review.objects.create(game=finished, position=finished.seats.get(user=player).position)
    seen = []
    real_suggest = engine_review.suggest

    def spy(view, rng, bot=None):
        row = Review.objects.get(pk=review.pk)
        seen.append((row.turns_done, row.turns_total))
        return real_suggest(view, rng, QUICK)

    monkeypatch.setattr(engine_review, "suggest", spy)
    assert coaching.make_review(review.pk) is True
    assert seen == [(0, 2), (1, 2)]
    review.refresh_from_db()
    assert (review.turns_done, review.turns_total, review.status) == (2, 2, Review.Status.DONE)


def test_the_review_says_in_words_whose_choice_is_worth_more(client, finished, player):
    """A bare "+7.1" read as if the bot's board scored more, when its board often shows fewer
    points (it valued what its choice set up)."""
    played = {"stacks": [[]] * 23, "cube_mask": 0}
    turn = {
        "turn": 4, "played_value": 20.0, "suggested_value": 27.1, "played_points": 12,
        "suggested_points": 10, "played_words": ["Take the tokens of space 1"],
        "suggested_words": ["Take the tokens of space 2"], "played_player": played,
        "suggested_player": played,
    }  # fmt: skip
    Review.objects.create(
        game=finished,
        position=finished.seats.get(user=player).position,
        status=Review.Status.DONE,
        turns=[turn, {**turn, "turn": 6, "suggested_value": 20.5}],
    )
    client.force_login(player)
    html = client.get(reverse("games:review", args=[finished.pk])).content.decode()
    assert "+7.1" not in html and "(+" not in html
    assert "its own choices would have been worth 7.1 points more than yours in all" in html
    assert "the bot's choice worth 7.1 points more" in html
    assert "fewer points right after the turn (10 against your 12)" in html
    # The turn with the lesson opens; the one played as the bot would is a line until opened.
    assert html.count("<details open>") == 1 and html.count("<details>") == 1


def test_only_the_players_may_ask_and_only_once_the_game_is_over(
    client, finished, stranger, player, other_player
):
    client.force_login(stranger)
    url = reverse("games:review", args=[finished.pk])
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    assert not Review.objects.exists()
    active = start_game(player, other_player)
    client.force_login(player)
    refused = client.post(reverse("games:review", args=[active.pk]))
    assert refused.status_code == 409 and "once the game is over" in refused.content.decode()
    assert client.get(reverse("games:review", args=[987654])).status_code == 404
    assert not Review.objects.exists()


# Hints


def test_a_solo_player_gets_a_hint_for_the_rest_of_the_turn(client, player):
    game = start_game(player)
    client.force_login(player)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Ask the hard bot for a hint" in page
    response = client.post(reverse("games:hint", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert "The hard bot would:" in html and "Take the tokens of space" in html
    assert "End the turn" in html
    game.refresh_from_db()
    assert game.move_count == 0  # a hint plays nothing


def test_a_hint_is_refused_in_a_game_that_may_be_rated(client, player, other_player):
    game = start_game(player, other_player)
    mover = game.seats.get(position=game.current_seat).user
    client.force_login(mover)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Ask the hard bot for a hint" not in page
    response = client.post(reverse("games:hint", args=[game.pk]))
    assert response.status_code == 403
    assert "on their own" in response.content.decode()
    assert cache.get(coaching.hint_key(game.pk, game.version)) is None


def test_an_unrated_game_allows_hints_on_ones_own_turn_only(client, player):
    unconfirmed = UserFactory(email_confirmed_at=None)
    game = start_game(player, unconfirmed)
    mover = game.seats.get(position=game.current_seat).user
    waiter = game.seats.exclude(position=game.current_seat).get().user
    client.force_login(waiter)
    assert client.post(reverse("games:hint", args=[game.pk])).status_code == 409
    client.force_login(mover)
    assert client.post(reverse("games:hint", args=[game.pk])).status_code == 200


def test_a_hint_is_for_the_players_of_a_game_in_progress(client, player, stranger):
    game = start_game(player)
    client.force_login(stranger)
    assert client.post(reverse("games:hint", args=[game.pk])).status_code == 403
    play_turns(game, 1)
    game.status = Game.Status.FINISHED
    game.save(update_fields=["status"])
    client.force_login(player)
    assert client.post(reverse("games:hint", args=[game.pk])).status_code == 409


def test_a_waiting_page_asking_again_queues_one_hint(client, player, monkeypatch):
    """While the worker thinks, the page asks every second: one task is queued, not one each."""
    queued = []
    monkeypatch.setattr(coaching, "send_now", lambda task, *args: queued.append(args))
    game = start_game(player)
    client.force_login(player)
    client.post(reverse("games:hint", args=[game.pk]), HTTP_HX_REQUEST="true")  # the button
    for _ in range(3):
        response = client.get(reverse("games:hint", args=[game.pk]), HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert "is thinking" in response.content.decode()
    assert queued == [(game.pk, game.version)]


def test_the_finished_game_page_offers_the_review_to_its_players(client, finished, player):
    client.force_login(player)
    html = client.get(reverse("games:detail", args=[finished.pk])).content.decode()
    assert reverse("games:review", args=[finished.pk]) in html


def test_the_hint_answers_at_once_and_outlines_its_hexes_on_the_board_once_made(
    client, player, monkeypatch
):
    """The answer only asks a worker; the page shows the bot at work and asks again; once the
    hint is made the answer is the plan, and the player's board with the plan's hexes."""
    queued = []
    monkeypatch.setattr(coaching, "send_now", lambda task, *args: queued.append(args))
    game = start_game(player)
    client.force_login(player)
    url = reverse("games:hint", args=[game.pk])
    first = client.post(url, HTTP_HX_REQUEST="true").content.decode()
    assert queued == [(game.pk, game.version)]
    assert "The hard bot is thinking…" in first and 'hx-trigger="load delay:1s"' in first
    assert "my-board" not in first  # the board is left alone meanwhile

    coaching.make_hint(game.pk, game.version)  # the worker
    made = cache.get(coaching.hint_key(game.pk, game.version))
    assert made["cells"]  # the plan places tokens
    outlines = len(set(made["cells"]))
    ready = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    hint_part, board_part = ready.split('<section id="my-board"', 1)
    assert "The hard bot would:" in hint_part and "hx-get" not in hint_part  # no more asking
    assert 'hx-swap-oob="true"' in board_part
    assert board_part.count("hex-ring-hint") == outlines
    for cell in made["cells"]:
        assert f'data-cell="{cell}"' in board_part

    # The page drawn again (a reload) shows the same hint and the same outlines.
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "The hard bot would:" in page and page.count("hex-ring-hint") == outlines
    # Without JavaScript, the hint's own page shows the plan over the board.
    plain = client.post(url).content.decode()
    assert "The hard bot would:" in plain and plain.count("hex-ring-hint") == outlines


def test_a_hint_made_for_an_earlier_position_outlines_nothing(client, player):
    game = start_game(player)
    client.force_login(player)
    client.post(reverse("games:hint", args=[game.pk]), HTTP_HX_REQUEST="true")  # made (eager)
    play_turns(game, 1)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "hex-ring-hint" not in page and "The hard bot would:" not in page


# Hints and whether the game counts (testers: unconfirm, ask, confirm again, still rated)


def confirmation_link(address: str) -> str:
    """The path of the newest confirmation link emailed to `address`."""
    message = [m for m in mail.outbox if m.to == [address]][-1]
    return re.search(r"https?://[^/\s]+(/accounts/confirm/\S+/)", message.body).group(1)


def change_address(client, user, address: str, callbacks) -> None:
    """Through the profile, as the player would: the address is unconfirmed until its link."""
    form = {
        "display_name": user.display_name,
        "email": address,
        "time_zone": user.time_zone,
        "current_password": PASSWORD,
    }
    with callbacks(execute=True):
        assert client.post(reverse("profile"), form).status_code == 302


def test_a_player_who_unconfirms_their_address_mid_game_gets_no_hint_and_the_game_counts(
    client, player, other_player, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player)
    cheat = user_to_move(game)
    client.force_login(cheat)
    change_address(client, cheat, "second@example.com", django_capture_on_commit_callbacks)
    cheat.refresh_from_db()
    assert not cheat.can_play_rated  # the address is waiting for its link

    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Ask the hard bot for a hint" not in page
    for ask in (client.post, client.get):
        refused = ask(reverse("games:hint", args=[game.pk]))
        assert refused.status_code == 403 and "on their own" in refused.content.decode()
    assert cache.get(coaching.hint_key(game.pk, game.version)) is None

    assert client.post(confirmation_link("second@example.com")).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(game, seed=2)
    game.refresh_from_db()
    assert game.uncounted == Game.Uncounted.COUNTS
    assert SeatResult.objects.filter(game=game, counts=True).count() == 2
    assert Rating.objects.filter(user=cheat, pool="players").exists()


def test_confirming_an_address_during_an_unrated_game_does_not_make_it_count(
    client, player, django_capture_on_commit_callbacks
):
    """The other way round: a game that started unrated allows hints, and stays unrated."""
    newcomer = UserFactory(email_confirmed_at=None)
    game = start_game(player, newcomer)
    while user_to_move(game) != newcomer:
        play_turns(game, 1)
    client.force_login(newcomer)
    asked = client.post(reverse("games:hint", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert asked.status_code == 200 and "The hard bot would:" in asked.content.decode()
    change_address(client, newcomer, "newcomer@example.com", django_capture_on_commit_callbacks)
    assert client.post(confirmation_link("newcomer@example.com")).status_code == 200
    newcomer.refresh_from_db()
    assert newcomer.can_play_rated

    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(game, seed=3)
    game.refresh_from_db()
    assert game.uncounted == Game.Uncounted.UNCONFIRMED
    assert not SeatResult.objects.filter(game=game, counts=True).exists()
    assert not Rating.objects.filter(user__in=[player, newcomer]).exists()


def test_a_solo_game_in_which_a_hint_was_taken_counts_for_no_records(
    client, player, django_capture_on_commit_callbacks
):
    game = start_game(player)
    client.force_login(player)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "A solo game in which you take a hint counts for no records." in page
    asked = client.post(reverse("games:hint", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert asked.status_code == 200
    game.refresh_from_db()
    assert game.uncounted == Game.Uncounted.HINTED  # marked before the hint was made

    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(game, seed=4)
    game.refresh_from_db()
    assert game.uncounted == Game.Uncounted.HINTED
    [result] = SeatResult.objects.filter(game=game)
    assert not result.counts
    sheet = client.get(reverse("records:sheet", args=[game.pk])).content.decode()
    assert "a hint from the hard bot was taken during it" in sheet


def test_a_link_on_another_site_cannot_take_a_hint_for_a_solo_player(client, player, monkeypatch):
    """Only the form's POST takes a hint: a GET (an image or link elsewhere) changes nothing."""
    queued = []
    monkeypatch.setattr(coaching, "send_now", lambda task, *args: queued.append(args))
    game = start_game(player)
    client.force_login(player)
    refused = client.get(reverse("games:hint", args=[game.pk]))
    assert refused.status_code == 409
    assert "with the button on the game page" in refused.content.decode()
    game.refresh_from_db()
    assert game.uncounted == Game.Uncounted.COUNTS and queued == []


def test_marking_a_hint_keeps_a_reason_already_stored_in_the_row_and_the_object(game):
    Game.objects.filter(pk=game.pk).update(uncounted=Game.Uncounted.UNCONFIRMED)
    game.refresh_from_db()
    coaching._mark_hinted(game)
    assert game.uncounted == Game.Uncounted.UNCONFIRMED
    game.refresh_from_db()
    assert game.uncounted == Game.Uncounted.UNCONFIRMED
