"""The replay in a real browser: step links swapped in by htmx, the address follows, arrow keys."""

import pytest
from playwright.sync_api import Page, expect

from tests.factories import PASSWORD, UserFactory
from tests.records.helpers import quick_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


@pytest.mark.parametrize("width", [1280, 360])
def test_a_spectator_steps_through_a_finished_game(live_server, new_page, screenshots, width):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = quick_game(alice, bob, spirits=True)
    UserFactory(username="mallory")
    page = new_page(width=width, height=900)
    log_in(page, live_server.url, "mallory")
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    expect(page.locator(".replay-position")).to_contain_text("Move 0 of")

    page.get_by_role("link", name="Forward one move").click()
    expect(page.locator(".replay-position")).to_contain_text("Move 1 of")
    assert page.url.endswith("?move=1")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay-position")).to_contain_text("Move 2 of")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".replay-position")).to_contain_text("Move 1 of")
    page.get_by_label("Jump to").select_option(label="The end")
    expect(page.locator(".replay-position")).to_contain_text("game over")
    page.go_back()
    expect(page.locator(".replay-position")).to_contain_text("Move 1 of")

    page.goto(f"{live_server.url}/games/{game.pk}/replay/?move=30")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(screenshots / f"replay-{width}.png"), full_page=True)
    for path in ("/leaderboards/?board=wins", f"/games/{game.pk}/sheet/", "/players/alice/"):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
