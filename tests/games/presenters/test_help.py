"""Help on the game page (games/presenters/help.py): every card says what it asks for and pays,
every figure of the score table says how it adds up, and the reminder of a turn is open for a
newcomer and folded for a player who has finished a few games."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.presenters import help
from games.presenters.game import score_rows
from games.presenters.score_table import score_table
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move
from tests.records.helpers import quick_game

pytestmark = pytest.mark.django_db

CATEGORIES = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit")


def page(user, game) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def finish_games(user, count: int) -> None:
    for seed in range(count):
        quick_game(user, UserFactory(), seed=seed + 1, record=False)


@pytest.fixture
def mid_game(player, other_player):
    """Eight turns into a two-player game with Nature's Spirit cards."""
    return play_turns(start_game(player, other_player, spirits=True), turns=8, seed=2)


def the_other(game, user):
    return next(s.user for s in game.seats.select_related("user") if s.user_id != user.pk)


# --- cards -----------------------------------------------------------------------------------


def test_a_card_opens_to_its_words_and_a_link_to_the_rules():
    html = help.card_help_html("animal_01", 1)
    assert html.startswith('<details class="card-help" name="card-help"><summary>About')
    assert '<span class="visually-hidden"> the Crocodile card</span>' in html
    for line in engine.card_help("animal_01", 1).lines:
        assert line in html
    assert "2 cubes left; the next makes it worth 9 (5 more)." in html
    assert f'href="{reverse("rules")}#cards"' in html


def test_a_spirit_links_to_the_spirits_and_a_completed_card_says_so():
    assert f'href="{reverse("rules")}#spirits"' in help.card_help_html("spirit_lion", 0)
    assert "Its cube is still on the card" in help.card_help_html("spirit_lion", 0)
    assert "Completed: all 3 cubes are placed" in help.card_help_html("animal_01", completed=True)
    assert "left;" not in help.card_help_html("animal_01")  # a card on offer has no progress


def test_every_card_on_the_page_explains_itself(mid_game):
    mover = user_to_move(mid_game)
    html = page(mover, mid_game)
    view = engine.view_for(mid_game.engine_state(), None)
    shown = list(view["display"])
    for player in view["players"]:
        shown += [held["card_id"] for held in player["cards"]]
        shown += [player["spirit"]] if player["spirit"] else []
    assert shown
    for card_id in shown:
        name = engine.card(card_id).name
        assert f'<span class="visually-hidden"> the {name} card</span>' in html
    assert html.count('<details class="card-help"') >= len(shown)


# --- scores ----------------------------------------------------------------------------------


def test_the_explanations_add_up_to_every_column_of_the_table(mid_game):
    state = mid_game.engine_state()
    view = engine.view_for(state, None)
    sheets = engine.score_sheets(state)
    explained = help.score_explanations(mid_game.side, view["players"], sheets)
    assert explained == help.score_explanations(mid_game.side, view["players"])
    for column, sheet in zip(explained, sheets, strict=True):
        assert list(column) == list(CATEGORIES)
        for category, line in column.items():
            assert line.total == getattr(sheet, category)


def test_each_figure_of_the_table_opens_to_its_sum_and_the_totals_do_not(mid_game):
    state = mid_game.engine_state()
    view = engine.view_for(state, None)
    sheets = engine.score_sheets(state)
    rows = score_rows(list(sheets), [p["animal_cubes"] for p in view["players"]])
    explained = help.score_explanations(mid_game.side, view["players"], sheets)
    html = str(score_table(["Ann", "Bob"], rows, explained))
    assert html.count('<details class="score-why"') == len(CATEGORIES) * 2
    trees = explained[0]["trees"]
    assert f'<summary title="{trees.text}">{trees.total}<span class="visually-hidden">' in html
    assert f"<strong>Ann, Trees:</strong> {trees.text}" in html
    assert f'href="{reverse("rules")}#trees">Rules: Trees</a>' in html
    total_row = re.search(r'<tr class="total-row">.*?</tr>', html).group()
    assert "<details" not in total_row
    # The game page hands over a function, called only when the table is drawn.
    assert str(score_table(["Ann", "Bob"], rows, lambda: explained)) == html
    # Without explanations the table is what it always was.
    assert "<details" not in str(score_table(["Ann", "Bob"], rows))


def test_the_words_are_escaped():
    rows = [{"key": "trees", "label": "Trees", "values": [0], "total": False, "note": False}]
    line = engine.explain_board("A", [()] * 23)[0]
    html = str(score_table(["<b>Ann</b>"], rows, [{"trees": line}]))
    assert "<b>Ann</b>" not in html and "&lt;b&gt;Ann&lt;/b&gt;, Trees" in html


def test_the_game_page_explains_the_viewers_column_first(mid_game, player):
    html = page(player, mid_game)
    state = mid_game.engine_state()
    mine = next(s.position for s in mid_game.seats.all() if s.user_id == player.pk)
    sheet = engine.score_sheets(state)[mine]
    first = engine.explain_view(mid_game.side, engine.view_for(state, None)["players"][mine])[0]
    assert first.total == sheet.trees
    cells = re.findall(r"<strong>([^<]*), Trees:</strong> ([^<]*) <a", html)
    assert cells[0] == (player.public_name, first.text)


def test_the_score_sheet_explains_every_player(player, other_player):
    game = quick_game(player, other_player, seed=3)
    client = Client()
    client.force_login(player)
    html = client.get(reverse("records:sheet", args=[game.pk])).content.decode()
    assert html.count('<details class="score-why"') == len(CATEGORIES) * 2
    state = game.engine_state()
    players = engine.view_for(state, None)["players"]
    for seat in game.seats.select_related("user"):
        sheet = engine.score_sheets(state)[seat.position]
        line = engine.explain_view(game.side, players[seat.position])
        assert f"<strong>{seat.user.public_name}, Trees:</strong> {line[0].text}" in html
        assert line[0].total == sheet.trees


# --- the turn reminder -----------------------------------------------------------------------


def test_a_newcomer_sees_the_reminder_open_on_their_turn(game):
    mover = user_to_move(game)
    html = page(mover, game)
    assert '<details id="turn-reminder" class="turn-reminder" hx-preserve open>' in html
    assert "Take the 3 tokens of one space of the central board." in html
    assert f'href="{reverse("rules")}#turn"' in html
    assert "turn-reminder" not in page(the_other(game, mover), game)  # not their turn


def test_a_player_with_three_finished_games_finds_it_folded(game):
    mover = user_to_move(game)
    finish_games(mover, help.REMINDER_GAMES)
    html = page(mover, game)
    assert '<details id="turn-reminder" class="turn-reminder" hx-preserve>' in html


def test_two_finished_games_and_games_left_early_do_not_fold_it(player):
    finish_games(player, help.REMINDER_GAMES - 1)
    assert help.reminder_open(player)
    resigned = start_game(player, UserFactory())
    services.resign(game_id=resigned.pk, user=player)  # the game ends, without them at the end
    assert help.reminder_open(player)
    finish_games(player, 1)
    assert not help.reminder_open(player)


def test_counting_costs_one_query_and_none_once_past_the_mark(player, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert help.reminder_open(player)
    finish_games(player, help.REMINDER_GAMES + 2)
    with django_assert_num_queries(1):
        assert not help.reminder_open(player)
    with django_assert_num_queries(0):
        assert not help.reminder_open(player)


def test_the_cache_down_costs_the_query_and_nothing_else(player, monkeypatch):
    finish_games(player, help.REMINDER_GAMES)

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    assert not help.reminder_open(player)
