"""The site header on a small phone (360 px): every link of the navigation is in sight, and
nothing needs scrolling sideways."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 360
# History and Weekly deal are left out at this width: My games links to both.
LINKS = ["My games", "New game", "Open tables", "Rules", "Leaderboards", "Profile"]


@pytest.mark.parametrize("waiting", [0, 2], ids=["nothing waiting", "two games waiting"])
def test_the_header_fits_a_360_px_phone_with_every_link_in_sight(
    live_server, new_page, screenshots, waiting
):
    player = UserFactory()
    for _ in range(waiting):  # the count on My games and the Next game link are drawn too
        game = start_game(player, UserFactory())
        if user_to_move(game) != player:
            play_turns(game, turns=1)
    links = LINKS
    if waiting:  # the count is in the link's name
        links = [f"My games {waiting} waiting for your move", *LINKS[1:], "Next game"]
    page = new_page(WIDTH, 800)
    log_in(page, live_server.url, player.username)
    page.goto(f"{live_server.url}/games/")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= WIDTH
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Harmonies")).to_be_visible()  # its name, for readers
    targets = [nav.get_by_role("link", name=name, exact=True) for name in links]
    targets.append(nav.get_by_role("button", name="Log out"))
    for target in targets:
        found = target.bounding_box()
        assert found is not None and found["x"] >= 0, f"{target} is not drawn"
        assert found["x"] + found["width"] <= WIDTH, f"{target} is cut off at the right"
        assert found["height"] >= 24, f"{target} is too small to tap"
    header = page.locator(".site-header").bounding_box()
    page.screenshot(path=str(screenshots / f"header-phone-{waiting}.png"))
    assert header["height"] <= 70, "the links take two rows at most"
    page.screenshot(path=str(screenshots / f"header-phone-{waiting}.png"))
