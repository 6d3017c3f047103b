"""On a phone (360 x 800) a whole turn is played on one screen: no scrolling to find the hand, the
hexes to tap or the button that ends the turn."""

import pytest
from playwright.sync_api import Page

from tests.browser.test_play_browser import click_and_wait, log_in
from tests.factories import UserFactory
from tests.games.helpers import start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 360, 800


def box(page: Page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


def on_screen(page: Page, selector: str, above: float = HEIGHT) -> bool:
    """The element's middle is inside the viewport (above `above`), without scrolling."""
    found = box(page, selector)
    middle_x, middle_y = found["x"] + found["width"] / 2, found["y"] + found["height"] / 2
    return 0 <= middle_x <= WIDTH and 0 <= middle_y <= above


def action_bar_top(page: Page) -> float:
    bar = box(page, "#controls")
    assert bar["y"] + bar["height"] <= HEIGHT + 1, "the action bar is not at the bottom edge"
    return bar["y"]


def test_a_whole_turn_fits_on_a_phone_screen(live_server, new_page):
    game = start_game(UserFactory(), UserFactory())
    mover = user_to_move(game)
    page = new_page(WIDTH, HEIGHT)
    log_in(page, live_server.url, mover.username)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")

    bar = action_bar_top(page)
    assert on_screen(page, "#central button:not([disabled])", above=bar)
    assert on_screen(page, "#my-board svg", above=bar)
    click_and_wait(page, page.locator("#central button:not([disabled])").first)

    for _ in range(3):
        bar = action_bar_top(page)
        assert on_screen(page, "#hand .hand-token", above=bar)
        page.locator("#hand .hand-token").first.click()
        page.locator("#my-board g.hex-target").first.wait_for()
        bar = action_bar_top(page)
        targets = page.locator("#my-board g.hex-target")
        visible = [
            i
            for i in range(targets.count())
            if on_screen(page, f"#my-board g.hex-target >> nth={i}", bar)
        ]
        assert visible, "no hex to tap above the action bar"
        assert page.evaluate("window.scrollY") == 0
        click_and_wait(page, targets.nth(visible[0]))

    action_bar_top(page)
    end = page.get_by_role("button", name="End my turn")
    assert on_screen(page, "#controls button:has-text('End my turn')")
    assert page.evaluate("window.scrollY") == 0
    click_and_wait(page, end)
    game.refresh_from_db()
    assert game.engine_state().turn == 1


def test_the_cards_and_the_other_boards_are_one_tap_away(live_server, new_page):
    game = start_game(UserFactory(), UserFactory())
    mover = user_to_move(game)
    page = new_page(WIDTH, HEIGHT)
    log_in(page, live_server.url, mover.username)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")

    page.locator("#controls").get_by_role("link", name="Animal cards").click()
    assert on_screen(page, "#display .card-slot")
    page.locator("#controls").get_by_role("link", name="Other boards").click()
    assert on_screen(page, "#others .opponent svg")
