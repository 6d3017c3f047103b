"""The leaderboards page: boards, filters, the friends view, solo high scores, and its cost."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from records import leaderboards
from records.forms import LeaderboardFilters
from records.models import SeatResult
from tests.clients import as_user
from tests.factories import UserFactory
from tests.records.helpers import quick_game

pytestmark = pytest.mark.django_db

URL = reverse("records:leaderboards")


def board(client, **params) -> list[str]:
    """The usernames of the rows, in order."""
    response = client.get(URL, params)
    assert response.status_code == 200
    if "solo_tables" in response.context:
        return [
            row["result"].user.username
            for table in response.context["solo_tables"]
            for row in table["results"]
        ]
    return [row["username"] for row in response.context["rows"]]


def test_anonymous_visitors_are_sent_to_log_in():
    response = Client().get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_the_rating_board_puts_the_winner_first(player, other_player):
    quick_game(player, other_player)
    client = as_user(player)
    assert board(client) == ["alice", "bob"]
    response = client.get(URL)
    assert b"provisional" in response.content
    assert response.context["rows"][0]["is_me"]


def test_the_rating_board_has_a_table_per_side(player, other_player):
    quick_game(player, other_player, side="A")
    quick_game(other_player, player, side="B", seed=2)
    client = as_user(player)
    assert board(client, side="A") == ["alice", "bob"]
    assert board(client, side="B") == ["bob", "alice"]


def test_bots_are_left_out_of_the_players_boards_and_have_their_own(player, other_player):
    bot = UserFactory(username="bramble", bot_level="hard")
    quick_game(bot, player)
    quick_game(player, other_player, seed=2)
    client = as_user(player)
    for kind in ("rating", "wins", "best"):
        assert "bramble" not in board(client, board=kind)
        assert board(client, board=kind, pool="bots")[0] == "bramble"
    assert b"bot</span>" in client.get(URL, {"pool": "bots"}).content


def test_wins_count_first_places_and_filter_by_player_count(player, other_player, carol):
    quick_game(player, other_player)
    quick_game(player, other_player, seed=2)
    quick_game(other_player, player, carol, seed=3)
    client = as_user(player)
    response = client.get(URL, {"board": "wins"})
    rows = {row["username"]: row for row in response.context["rows"]}
    assert (rows["alice"]["wins"], rows["alice"]["games"]) == (2, 3)
    assert (rows["bob"]["wins"], rows["bob"]["games"]) == (1, 3)
    assert board(client, board="wins") == ["alice", "bob", "carol"]
    assert board(client, board="wins", players="3") == ["bob", "alice", "carol"]
    assert board(client, board="wins", players="4") == []


def test_scores_filter_by_side_spirits_and_period(player, other_player):
    long_ago = timezone.now() - timedelta(days=60)
    quick_game(player, other_player, side="B", finished_at=long_ago)
    quick_game(other_player, player, spirits=True, seed=2)
    client = as_user(player)
    assert set(board(client, board="best")) == {"alice", "bob"}
    assert board(client, board="wins", side="B") == ["alice", "bob"]
    assert board(client, board="wins", spirits="on") == ["bob", "alice"]
    assert board(client, board="wins", spirits="off") == ["alice", "bob"]
    assert board(client, board="wins", period="30") == ["bob", "alice"]
    assert board(client, board="wins", period="7", side="B") == []
    assert board(client, board="rating", period="7") != []


def test_the_best_score_board_shows_each_players_best(player, other_player):
    first = quick_game(player, other_player)
    second = quick_game(other_player, player, seed=2)
    best = max(
        SeatResult.objects.filter(user=player, game__in=[first, second]).values_list(
            "total", flat=True
        )
    )
    response = as_user(player).get(URL, {"board": "best"})
    assert {r["username"]: r["best"] for r in response.context["rows"]}["alice"] == best


def test_the_average_board_asks_for_a_few_games(player, other_player, settings):
    quick_game(player, other_player)
    client = as_user(player)
    assert board(client, board="average") == []
    quick_game(player, other_player, seed=2)
    quick_game(other_player, player, seed=3)
    rows = client.get(URL, {"board": "average"}).context["rows"]
    assert {r["username"] for r in rows} == {"alice", "bob"}
    assert rows[0]["average"] >= rows[1]["average"]


def test_the_friends_view_shows_only_people_i_have_played_with(player, other_player, carol):
    dave = UserFactory(username="dave")
    quick_game(player, other_player)
    quick_game(carol, dave, seed=2)
    client = as_user(player)
    assert set(board(client)) == {"alice", "bob", "carol", "dave"}
    assert set(board(client, friends="on")) == {"alice", "bob"}
    assert set(board(client, board="wins", friends="on")) == {"alice", "bob"}
    assert board(as_user(UserFactory()), friends="on") == []


def test_solo_high_scores_have_suns_per_configuration(player, other_player):
    quick_game(player, side="A")
    quick_game(other_player, side="A", seed=2)
    quick_game(other_player, side="B", spirits=True, seed=3)
    client = as_user(player)
    response = client.get(URL, {"board": "solo"})
    tables = {(t["side"], t["spirits"]): t["results"] for t in response.context["solo_tables"]}
    assert set(tables) == {("A", False), ("A", True), ("B", False), ("B", True)}
    a_plain = [row["result"] for row in tables[("A", False)]]
    assert len(a_plain) == 2 and a_plain[0].total >= a_plain[1].total
    assert all(r.suns is not None for r in a_plain)
    assert [row["result"].user.username for row in tables[("B", True)]] == ["bob"]
    assert b"\xe2\x98\x80" in response.content  # the sun
    assert board(client, board="solo", side="B", spirits="on") == ["bob"]
    assert board(client, board="solo", friends="on") == ["alice"]


def test_bad_filter_values_fall_back_to_the_defaults(player, other_player):
    quick_game(player, other_player)
    client = as_user(player)
    response = client.get(URL, {"board": "nope", "side": "C", "players": "9", "period": "x"})
    assert response.status_code == 200
    assert response.context["board"] == "rating"
    assert [r["username"] for r in response.context["rows"]] == ["alice", "bob"]


def test_an_htmx_request_gets_only_the_board(player, other_player):
    quick_game(player, other_player)
    response = as_user(player).get(URL, {"board": "wins"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="board"') and "<html" not in html
    assert "alice" in html


def queries(client, url, params=None) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, params or {}).status_code == 200
    return len(captured)


def test_the_page_costs_the_same_for_2_or_10_games(
    player, other_player, carol, django_assert_num_queries
):
    for seed in (1, 2, 3):  # enough games for alice to be on every board: no "your place" row
        quick_game(player, other_player, seed=seed)
    quick_game(player, seed=3)
    client = as_user(player)
    views = [{"board": b} for b in ("rating", "wins", "average", "best", "solo")]
    views.append({"board": "wins", "friends": "on", "period": "30"})
    counts = [queries(client, URL, params) for params in views]
    people = [UserFactory() for _ in range(4)]
    for seed in range(4, 12):
        quick_game(people[seed % 4], carol, player, seed=seed)
        quick_game(people[seed % 4], seed=seed)
    for params, count in zip(views, counts, strict=True):
        with django_assert_num_queries(count):
            client.get(URL, params)


@pytest.mark.parametrize(("kind", "place"), [("rating", 3), ("wins", 2)])  # no win: shared 2nd
def test_a_player_below_the_top_rows_sees_their_own_place(
    player, other_player, carol, monkeypatch, kind, place
):
    monkeypatch.setattr("records.leaderboards.TOP", 1)
    quick_game(player, other_player, carol)  # alice first, bob second, carol third
    response = as_user(carol).get(URL, {"board": kind})
    assert [row["username"] for row in response.context["rows"]] == ["alice"]
    mine = response.context["my_row"]
    assert (mine["username"], mine["place"], mine["is_me"]) == ("carol", place, True)
    assert b'class="my-place"' in response.content


def test_a_player_among_the_top_rows_gets_no_extra_row(player, other_player):
    quick_game(player, other_player)
    response = as_user(other_player).get(URL)
    assert response.context["my_row"] is None
    assert b'class="my-place"' not in response.content


def test_the_all_time_boards_read_the_running_totals_and_agree_with_the_results(
    player, other_player, carol, monkeypatch
):
    """Every all-time score board, under every filter, ranks as the results grouped by player
    do (the boards over the last days still group them), and reads no result row. Only the
    top row is shown, so the viewer's own place is read from the tallies, and must agree with
    the count of the players ahead."""
    monkeypatch.setattr("records.places.AVERAGE_MIN_GAMES", 2)
    monkeypatch.setattr("records.leaderboards.AVERAGE_MIN_GAMES", 2)
    monkeypatch.setattr("records.leaderboards.TOP", 1)
    dave = UserFactory(username="dave")
    bot = UserFactory(username="bramble", bot_level="easy")
    old = timezone.now() - timedelta(days=400)
    quick_game(player, other_player, finished_at=old)
    quick_game(other_player, carol, player, side="B", spirits=True, seed=2)
    quick_game(carol, player, shared=True, seed=3, side="B")
    quick_game(dave, carol, other_player, player, seed=5, spirits=True)
    quick_game(carol, dave, seed=7, finished_at=old)
    quick_game(bot, dave, seed=4)
    quick_game(player, seed=6)  # solo: on no score board
    since_ever = timezone.now() - timedelta(days=10_000)
    viewer = dave
    for pool in ("players", "bots"):
        for side in ("", "A", "B"):
            for players in ("", "2", "3", "4"):
                for spirits in ("", "on", "off"):
                    for kind in ("wins", "average", "best"):
                        filters = {
                            **LeaderboardFilters.DEFAULTS,
                            "pool": pool,
                            "side": side,
                            "players": players,
                            "spirits": spirits,
                        }
                        with CaptureQueriesContext(connection) as read:
                            kept = leaderboards._score_rows(kind, filters, None, None, viewer)
                        grouped = leaderboards._score_rows(kind, filters, since_ever, None, viewer)
                        assert kept == grouped, (kind, filters)
                        assert not any("seatresult" in q["sql"] for q in read.captured_queries)
    monkeypatch.setattr("records.leaderboards.TOP", 50)
    friends = leaderboards.friends_and_me(dave)
    filters = {**LeaderboardFilters.DEFAULTS, "board": "wins"}
    kept = leaderboards._score_rows("wins", filters, None, friends, viewer)
    assert kept == leaderboards._score_rows("wins", filters, since_ever, friends, viewer)
    assert {row["username"] for row in kept[0]} == {"dave", "carol", "bob", "alice"}
