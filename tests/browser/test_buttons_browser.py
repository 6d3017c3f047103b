"""Buttons look like what they do: a secondary or dangerous action is not drawn as the main one."""

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
