"""The deal of the week's pages: the deal and its board, starting it once, the spoiler guard,
past weeks and the comparison of finished games."""

import itertools
import re
from datetime import UTC, date, datetime

import pytest
import time_machine
from django.urls import reverse

from games.models import Game, WeeklyDeal
from games.presenters import weekly as presenting
from games.services import friends, weekly
from tests.games.helpers import play_to_the_end, play_turns

pytestmark = pytest.mark.django_db

WEDNESDAY = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)
MONDAY = "2026-11-30"
NEXT_MONDAY = datetime(2026, 12, 7, 0, 0, 1, tzinfo=UTC)
THIS_WEEK = reverse("weekly:this")
PLAY = reverse("weekly:play")


@pytest.fixture(autouse=True)
def in_that_week():
    with time_machine.travel(WEDNESDAY, tick=True):
        yield


def finished_game(user, seed: int = 0) -> Game:
    return play_to_the_end(weekly.play_weekly(user=user, week=MONDAY), seed=seed)


def page_of(client, user, path: str = THIS_WEEK) -> str:
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_names_the_deal_its_week_in_utc_and_offers_to_play_it(client, player):
    page = page_of(client, player)
    deal = WeeklyDeal.objects.get()
    assert f"Solo, side {deal.side}" in page
    assert "Monday 00:00 to the next Monday 00:00 UTC" in page
    assert "Play this week's deal" in page and 'value="2026-11-30"' in page
    assert "Monday 7 December, 00:00 UTC" in page
    assert 'href="/weekly/" aria-current="page">Weekly deal' in page


def test_it_asks_for_a_log_in(client):
    assert client.get(THIS_WEEK).status_code == 302
    assert client.post(PLAY, {"week": MONDAY}).status_code == 302
    assert Game.objects.count() == 0


def test_play_starts_the_game_and_the_page_then_offers_to_resume_it(client, player, post):
    client.force_login(player)
    response = post(client, PLAY, {"week": MONDAY})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert client.get(game.get_absolute_url()).status_code == 200
    page = client.get(THIS_WEEK).content.decode()
    assert "Resume your game" in page and "Play this week" not in page


@pytest.mark.parametrize("attempt", ["second start", "double click", "other tab"])
def test_playing_it_twice_is_refused_in_words_and_stores_nothing(client, player, post, attempt):
    client.force_login(player)
    post(client, PLAY, {"week": MONDAY})
    other = client
    if attempt == "other tab":  # a page drawn before the first start, posted from elsewhere
        other = type(client)()
        other.force_login(player)
    response = post(other, PLAY, {"week": MONDAY})
    assert response.status_code == 409
    assert "already played this week&#x27;s deal" in response.content.decode()
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    ("data", "status", "words"),
    [
        ({"week": "2026-11-23"}, 409, "closed on 30 November 2026"),
        ({"week": "2026-12-07"}, 404, "not dealt yet"),
        ({"week": "2026-12-02"}, 404, "starts on a Monday"),
        ({"week": "<script>"}, 404, "no such week"),
        ({}, 404, "no such week"),
        ({"week": "2026-11-30\x00"}, 400, ""),  # refused before the view, by the middleware
    ],
)
def test_a_forged_or_stale_start_is_refused_and_stores_nothing(
    client, player, post, data, status, words
):
    client.force_login(player)
    response = post(client, PLAY, data)
    assert response.status_code == status
    assert words in response.content.decode()
    assert Game.objects.count() == 0 and WeeklyDeal.objects.count() == 0


def test_a_page_drawn_before_the_week_closed_cannot_start_the_old_deal(client, player, post):
    page_of(client, player)
    with time_machine.travel(NEXT_MONDAY):
        response = post(client, PLAY, {"week": MONDAY})
    assert response.status_code == 409 and "closed" in response.content.decode()
    assert Game.objects.count() == 0


def test_play_takes_only_a_post(client, player):
    client.force_login(player)
    assert client.get(PLAY, {"week": MONDAY}).status_code == 405
    assert Game.objects.count() == 0


def test_the_board_shows_names_and_scores_but_no_board_until_one_has_finished(
    client, player, other_player, stranger
):
    theirs = finished_game(other_player)
    score = theirs.seats.get().final_score
    weekly.play_weekly(user=player, week=MONDAY)  # playing, not finished
    for viewer in (player, stranger):
        page = page_of(client, viewer)
        assert "Bob" in page and f"<td>{score}</td>" in page
        assert "compare" not in page  # no link to the boards
        for name in ("records:sheet", "records:replay", "records:export"):
            response = client.get(reverse(name, args=[theirs.pk]))
            assert response.status_code == 403, name
            assert "deal of the week" in response.content.decode()


def test_a_finished_player_sees_the_others_boards(client, player, other_player):
    theirs = finished_game(other_player)
    finished_game(player, seed=1)
    page = page_of(client, player)
    assert "/compare/?game=" in page
    assert client.get(reverse("records:sheet", args=[theirs.pk])).status_code == 200
    assert client.get(reverse("records:replay", args=[theirs.pk])).status_code == 200


def test_after_the_week_closes_anyone_not_playing_it_sees_the_boards(
    client, player, other_player, stranger
):
    theirs = finished_game(other_player)
    weekly.play_weekly(user=player, week=MONDAY)
    with time_machine.travel(NEXT_MONDAY):
        page = page_of(client, stranger, reverse("weekly:week", args=[MONDAY]))
        assert "/compare/?game=" in page and "can no longer be started" in page
        assert client.get(reverse("records:sheet", args=[theirs.pk])).status_code == 200
        client.force_login(player)  # still in the middle of it: no spoilers yet
        assert client.get(reverse("records:sheet", args=[theirs.pk])).status_code == 403


def test_the_board_ranks_by_score_and_shares_equal_places(client, player, other_player, carol):
    games = [finished_game(user, seed=n) for n, user in enumerate((player, other_player, carol))]
    scores = sorted((g.seats.get().final_score for g in games), reverse=True)
    client.force_login(player)
    response = client.get(THIS_WEEK)
    lines = response.context["everyone"]
    assert [line.score for line in lines] == scores
    assert lines[0].place == 1
    for index, (before, line) in enumerate(itertools.pairwise(lines), start=2):
        assert line.place == (before.place if line.score == before.score else index)


def test_the_friends_board_shows_only_friends(client, player, other_player, carol):
    for n, user in enumerate((player, other_player, carol)):
        finished_game(user, seed=n)
    friends.add_friend(user=player, name=other_player.username)
    client.force_login(player)
    response = client.get(THIS_WEEK)
    assert {line.name for line in response.context["friends"]} == {"Alice", "Bob"}
    assert len(response.context["everyone"]) == 3
    assert "You and your friends" in response.content.decode()


def test_a_hinted_game_is_listed_but_not_ranked(client, player, other_player):
    hinted = weekly.play_weekly(user=other_player, week=MONDAY)
    Game.objects.filter(pk=hinted.pk).update(uncounted=Game.Uncounted.HINTED)  # as a hint does
    play_to_the_end(hinted)
    client.force_login(player)
    response = client.get(THIS_WEEK)
    assert response.context["everyone"] == []
    assert [line.name for line in response.context["unranked"]] == ["Bob"]
    assert "Not ranked" in response.content.decode()
    assert "took a hint from the hard bot" in response.content.decode()


def test_the_board_is_capped_with_the_viewers_own_place_below(
    client, player, other_player, carol, monkeypatch
):
    monkeypatch.setattr(presenting, "BOARD_LENGTH", 1)
    people = (player, other_player, carol)
    games = {user: finished_game(user, seed=n) for n, user in enumerate(people)}
    scores = {user: g.seats.get().final_score for user, g in games.items()}
    worst = min(scores, key=lambda u: (scores[u], -games[u].pk))
    client.force_login(worst)
    lines = client.get(THIS_WEEK).context["everyone"]
    assert len(lines) == 2 and lines[-1].mine
    assert lines[-1].place == 1 + sum(1 for s in scores.values() if s > scores[worst])


def test_a_past_week_never_opened_has_no_board_and_makes_no_deal(client, player):
    page = page_of(client, player, reverse("weekly:week", args=["2026-11-16"]))
    assert "Nobody opened the deal of that week" in page
    assert WeeklyDeal.objects.filter(week=date(2026, 11, 16)).count() == 0


def test_this_weeks_address_leads_to_the_weekly_page(client, player):
    client.force_login(player)
    assert client.get(reverse("weekly:week", args=[MONDAY]))["Location"] == THIS_WEEK


@pytest.mark.parametrize(
    ("path", "status"),
    [("/weekly/2026-12-14/", 404), ("/weekly/2026-12-01/", 404), ("/weekly/2026-13-01/", 404)],
)
def test_a_future_or_impossible_week_is_refused(client, player, path, status):
    client.force_login(player)
    assert client.get(path).status_code == status
    assert WeeklyDeal.objects.count() == 0


def test_the_comparison_shows_the_boards_sheets_and_replays_side_by_side(
    client, player, other_player
):
    mine, theirs = finished_game(player), finished_game(other_player, seed=3)
    with time_machine.travel(NEXT_MONDAY):
        client.force_login(player)
        week_page = client.get(reverse("weekly:week", args=[MONDAY])).content.decode()
        # Bob's line links his game beside the viewer's own.
        link = re.search(r'href="(/weekly/2026-11-30/compare/\?game=\d+&amp;game=\d+)"', week_page)
        response = client.get(link.group(1).replace("&amp;", "&"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Replay Alice's game" in page and "Replay Bob's game" in page
    assert reverse("records:replay", args=[mine.pk]) in page
    assert reverse("records:replay", args=[theirs.pk]) in page
    assert "Points by category" in page and "<svg" in page
    # Other games of the deal may be chosen beside them, those shown already ticked.
    assert page.count('type="checkbox" name="game"') == 2 and page.count(" checked>") == 2


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("", 400),
        ("?game=x", 400),
        ("?game=1&game=2&game=3&game=4&game=5", 400),
        ("?game=99999", 404),
        ("?game=-1", 404),
        ("?game=99999999999999999999", 404),
    ],
)
def test_a_forged_comparison_is_refused(client, player, query, status):
    finished_game(player)
    client.force_login(player)
    response = client.get(reverse("weekly:compare", args=[MONDAY]) + query)
    assert response.status_code == status


def test_the_comparison_refuses_other_games_and_unrevealed_deals(
    client, player, other_player, game
):
    theirs = finished_game(other_player)
    client.force_login(player)
    compare = reverse("weekly:compare", args=[MONDAY])
    assert client.get(f"{compare}?game={theirs.pk}").status_code == 403  # not finished it yet
    finished_game(player, seed=2)
    assert client.get(f"{compare}?game={theirs.pk}").status_code == 200
    assert client.get(f"{compare}?game={game.pk}").status_code == 404  # not of this deal
    other_week = reverse("weekly:compare", args=["2026-11-23"])
    assert client.get(f"{other_week}?game={theirs.pk}").status_code == 404


def test_my_games_links_the_weekly_page(client, player):
    page = page_of(client, player, reverse("games:mine"))
    assert f'href="{THIS_WEEK}"' in page


def test_a_game_in_play_is_on_the_board_only_once_finished(client, player, other_player):
    play_turns(weekly.play_weekly(user=other_player, week=MONDAY), 2)
    client.force_login(player)
    context = client.get(THIS_WEEK).context
    assert context["everyone"] == [] and context["playing"] == 1


def test_a_game_finished_after_the_week_closed_joins_its_board(client, player, other_player):
    late = weekly.play_weekly(user=other_player, week=MONDAY)
    with time_machine.travel(NEXT_MONDAY):
        play_to_the_end(late)
        client.force_login(player)
        page = client.get(reverse("weekly:week", args=[MONDAY]))
    assert [line.name for line in page.context["everyone"]] == ["Bob"]


def test_strangers_cannot_see_a_weekly_game_in_play(client, player, stranger):
    game = weekly.play_weekly(user=player, week=MONDAY)
    client.force_login(stranger)
    assert client.get(game.get_absolute_url()).status_code == 403
