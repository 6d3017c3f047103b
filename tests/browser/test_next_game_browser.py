"""The next-game button in the browser: a player with three games waiting opens the oldest
from the header, plays it, and "Next game waiting for me" walks them through the other two in
a row, the opponent's page turning to their turn meanwhile; then nothing is left waiting."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from tests.browser.test_accessibility_browser import serious_problems
from tests.browser.test_play_browser import log_in, play_whole_turn
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_next_game_button_walks_three_waiting_games(
    live_server, new_page, settings, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    player = UserFactory(display_name="Pat")
    games = []
    for minutes in (30, 60, 10):  # the second is the oldest, then the first, then the third
        game = start_game(player, UserFactory())
        if user_to_move(game) != player:
            game = play_turns(game, turns=1)
        started = timezone.now() - timedelta(minutes=minutes)
        Game.objects.filter(pk=game.pk).update(turn_started_at=started)
        games.append(game)
    in_order = [games[1], games[0], games[2]]
    first_opponent = in_order[0].seats.exclude(user=player).get().user

    page = new_page(360, 800)
    log_in(page, live_server.url, player.username)
    opponent_page = new_page()
    log_in(opponent_page, live_server.url, first_opponent.username)
    opponent_page.goto(live_server.url + in_order[0].get_absolute_url())
    expect(opponent_page.locator("#controls")).to_contain_text("Waiting for Pat")

    page.goto(live_server.url + "/games/")
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Next game", exact=True).click()
    assert serious_problems(page) == []
    for index, game in enumerate(in_order):
        expect(page).to_have_url(live_server.url + game.get_absolute_url())
        expect(page.locator("#controls")).to_contain_text("Your turn")
        play_whole_turn(page, game)
        expect(page.locator("#controls")).to_contain_text("Waiting for")
        left = len(in_order) - index - 1
        button = page.get_by_role("link", name="Next game waiting for me")
        if left:
            expect(page.locator(".next-game")).to_contain_text(f"{left} other game")
            if index == 0:
                page.screenshot(path=str(screenshots / "next-game-360.png"), full_page=True)
            button.click()
        else:
            expect(button).to_have_count(0)
    # The opponent of the first game saw their turn come without reloading.
    expect(opponent_page.locator("#controls")).to_contain_text("Your turn", timeout=10_000)

    page.goto(live_server.url + "/games/next/")
    expect(page.get_by_role("heading", name="No game is waiting for you")).to_be_visible()
    expect(nav.get_by_role("link", name="Next game", exact=True)).to_have_count(0)
    page.get_by_role("link", name="My games").last.click()
    expect(page).to_have_url(live_server.url + "/games/")
