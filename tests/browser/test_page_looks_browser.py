"""What the page looks like: buttons drawn as what they do, no empty panels."""

import pytest

from games import services
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_secondary_button_is_not_drawn_as_a_primary_one(live_server, page):
    ann = UserFactory(username="ann")
    game = services.create_game(creator=ann, players=2, side="A", spirits=False)
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}{game.get_absolute_url()}")

    cancel = page.get_by_role("button", name="Cancel the game")
    background = cancel.evaluate("b => getComputedStyle(b).backgroundColor")

    assert background in ("rgba(0, 0, 0, 0)", "transparent")


def test_a_solo_game_shows_no_empty_panel_for_other_players(live_server, page):
    ann = UserFactory(username="ann")
    game = services.create_game(creator=ann, players=1, side="A", spirits=False)
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}{game.get_absolute_url()}")

    assert page.locator("#others").count() == 1
    assert not page.locator("#others").is_visible()
