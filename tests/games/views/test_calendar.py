"""The private calendar feed of turn deadlines, and its address on the profile."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from games.models import Game
from games.views import calendar as ical
from tests.clients import as_user
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db


def feed_url(user) -> str:
    return reverse("calendar_feed", args=[user.calendar_token])


def events(response) -> list:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content).walk("VEVENT")


def fetch(user):
    cache.clear()  # the feed is cached for a few minutes; these tests look at each change
    return Client().get(feed_url(user))


@pytest.fixture
def timed_game(player, other_player):
    """A game with a 3-day limit per turn."""
    game = start_game(player, other_player)
    deadline = timezone.now().replace(microsecond=0) + timedelta(days=3)
    Game.objects.filter(pk=game.pk).update(turn_limit_days=3, turn_deadline=deadline)
    game.refresh_from_db()
    return game


def waiting(game):
    return user_to_move(game)


def test_a_player_has_no_calendar_address_until_they_ask(player):
    assert player.calendar_token is None
    page = as_user(player).get(reverse("profile")).content.decode()
    assert "Get a calendar address" in page and ".ics" not in page


def test_asking_gives_a_secret_address_shown_on_the_profile(player):
    client = as_user(player)
    response = client.post(reverse("calendar_address"), {"action": "renew"})
    assert response.status_code == 302 and response.url.endswith("#calendar")
    player.refresh_from_db()
    assert len(player.calendar_token) == 43
    page = client.get(reverse("profile")).content.decode()
    assert f'value="http://127.0.0.1:8000{feed_url(player)}"' in page
    assert f'href="webcal://127.0.0.1:8000{feed_url(player)}"' in page


def test_the_feed_has_an_event_ending_at_each_limit_of_a_turn_waiting_for_the_player(timed_game):
    user = waiting(timed_game)
    user.renew_calendar_token()
    (event,) = events(fetch(user))
    deadline = timed_game.turn_deadline
    assert event.decoded("dtend") == deadline
    assert event.decoded("dtstart") == deadline - timedelta(minutes=30)
    assert str(event["summary"]) == f"Your turn in {timed_game.title}"
    url = "http://127.0.0.1:8000" + timed_game.get_absolute_url()
    assert str(event["url"]) == url and url in str(event["description"])
    assert str(event["uid"]) == f"game-{timed_game.pk}-turn-0@127.0.0.1"


def test_the_times_in_words_are_in_the_player_s_time_zone(timed_game):
    user = waiting(timed_game)
    user.time_zone = "Asia/Tokyo"
    user.save()
    user.renew_calendar_token()
    (event,) = events(fetch(user))
    local = timezone.localtime(timed_game.turn_deadline, user.tzinfo)
    assert f"{local:%A %-d %B, %H:%M} (Asia/Tokyo)" in str(event["description"])


def test_the_event_keeps_its_uid_within_a_turn_and_moves_on_with_the_next(timed_game):
    first = waiting(timed_game)
    first.renew_calendar_token()
    uid = str(events(fetch(first))[0]["uid"])
    assert str(events(fetch(first))[0]["uid"]) == uid
    play_turns(timed_game, 2)  # back to the same player, on a later turn
    timed_game.refresh_from_db()
    assert waiting(timed_game) == first and timed_game.turn_deadline is not None
    (event,) = events(fetch(first))
    assert str(event["uid"]) == f"game-{timed_game.pk}-turn-2@127.0.0.1" != uid


def test_turns_of_others_games_without_a_limit_and_finished_games_are_left_out(
    timed_game, player, other_player
):
    for user in (player, other_player):
        user.renew_calendar_token()
    mover = waiting(timed_game)
    other = other_player if mover == player else player
    assert events(fetch(other)) == []  # not their turn
    start_game(player, other_player)  # no time limit: it adds nothing, whoever is to move
    assert len(events(fetch(mover))) == 1 and events(fetch(other)) == []
    Game.objects.filter(pk=timed_game.pk).update(status=Game.Status.FINISHED)
    assert events(fetch(mover)) == []


def test_a_user_written_game_name_stays_text(timed_game):
    Game.objects.filter(pk=timed_game.pk).update(name='Tea, cake; <b>"fun"</b>\nBEGIN:VEVENT')
    user = waiting(timed_game)
    user.renew_calendar_token()
    response = fetch(user)
    (event,) = events(response)
    assert str(event["summary"]) == 'Your turn in Tea, cake; <b>"fun"</b>\nBEGIN:VEVENT'
    assert response.content.count(b"\r\nBEGIN:VEVENT\r\n") == 1  # its line break is escaped


def test_a_renewed_address_retires_the_old_one(player):
    client = as_user(player)
    client.post(reverse("calendar_address"), {"action": "renew"})
    player.refresh_from_db()
    old = feed_url(player)
    response = client.post(reverse("calendar_address"), {"action": "renew"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert feed_url(player) != old
    assert Client().get(old).status_code == 404
    assert Client().get(feed_url(player)).status_code == 200


def test_a_turned_off_address_finds_nothing(player):
    url = reverse("calendar_feed", args=[player.renew_calendar_token()])
    as_user(player).post(reverse("calendar_address"), {"action": "stop"})
    player.refresh_from_db()
    assert player.calendar_token is None
    assert Client().get(url).status_code == 404
    assert "Get a calendar address" in as_user(player).get(reverse("profile")).content.decode()


@pytest.mark.parametrize("token", ["x", "a" * 43, "a" * 44, "%3Cb%3E" * 6 + "a"])
def test_unknown_addresses_are_404(player, token):
    player.renew_calendar_token()
    assert Client().get(f"/calendar/{token}.ics").status_code == 404


def test_an_inactive_player_s_feed_is_gone(player):
    player.renew_calendar_token()
    player.is_active = False
    player.save()
    assert Client().get(feed_url(player)).status_code == 404


def test_the_address_changes_only_by_a_logged_in_post(player):
    response = Client().post(reverse("calendar_address"), {"action": "renew"})
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert as_user(player).get(reverse("calendar_address")).status_code == 405
    player.refresh_from_db()
    assert player.calendar_token is None
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(reverse("calendar_address"), {"action": "renew"}).status_code == 403


def test_the_feed_is_read_only(player):
    player.renew_calendar_token()
    assert Client().post(feed_url(player)).status_code == 405
    assert Client().head(feed_url(player)).status_code == 200


def test_a_fetch_costs_two_queries_and_a_second_one_comes_from_the_cache(
    timed_game, django_assert_num_queries
):
    user = waiting(timed_game)
    user.renew_calendar_token()
    cache.clear()
    with django_assert_num_queries(2):
        first = Client().get(feed_url(user))
    with django_assert_num_queries(1):
        again = Client().get(feed_url(user))
    assert again.content == first.content
    assert first["Cache-Control"] == "private, max-age=300"


def test_an_address_fetched_far_too_often_is_refused_for_a_while(player, monkeypatch):
    monkeypatch.setattr(ical, "FETCH_RATE", "2/h")
    monkeypatch.setattr(ical, "CACHE_SECONDS", 0)
    player.renew_calendar_token()
    cache.clear()
    assert [Client().get(feed_url(player)).status_code for _ in range(3)] == [200, 200, 429]
    refused = Client().get(feed_url(player))
    assert refused["Retry-After"] == "3600" and b"too often" in refused.content
