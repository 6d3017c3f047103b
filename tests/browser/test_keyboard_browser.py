"""A whole turn with the keyboard alone: Tab reaches every space, token and hex, Enter plays it,
and the focus is visible."""

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tab_to(page: Page, selector: str, presses: int = 150) -> None:
    """Press Tab until the focused element matches `selector`, as a keyboard player would."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(
            "s => !!document.activeElement && document.activeElement.matches(s)", selector
        ):
            return
    raise AssertionError(f"Tab never reached {selector}")


def press_and_wait(page: Page, key: str) -> None:
    """Press, and wait for the move to change the board. In the full suite a press was lost now
    and then (2 runs of 5 on 1 December, never alone; cause not found): a player presses again,
    and so does this test, once, if the focused control is still there."""
    before = page.locator("#game-version").input_value()
    changed = "v => document.getElementById('game-version').value !== v"
    page.keyboard.press(key)
    try:
        page.wait_for_function(changed, arg=before, timeout=8_000)
    except PlaywrightTimeoutError:
        page.keyboard.press(key)
        page.wait_for_function(changed, arg=before, timeout=10_000)


def focus_is_visible(page: Page) -> bool:
    """The focused element (or, for a board hex, its ring) is drawn differently when focused."""
    return page.evaluate(
        """() => {
          const el = document.activeElement;
          const ring = el.querySelector && el.querySelector('.hex-ring-target');
          if (ring) return getComputedStyle(ring).strokeWidth === '5px';
          const style = getComputedStyle(el);
          return style.outlineStyle !== 'none' && style.outlineWidth !== '0px';
        }"""
    )


def test_a_whole_turn_is_played_with_the_keyboard(live_server, page):
    game = start_game(UserFactory(), UserFactory())
    mover = user_to_move(game)
    log_in(page, live_server.url, mover.username)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")

    tab_to(page, "#central button:not([disabled])")
    assert focus_is_visible(page)
    press_and_wait(page, "Enter")
    for _ in range(3):
        tab_to(page, "#hand .hand-token")
        page.keyboard.press("Enter")
        page.locator("#my-board g.hex-target").first.wait_for()
        tab_to(page, "#my-board g.hex-target")
        assert focus_is_visible(page)
        press_and_wait(page, " ")
    tab_to(page, "form:has(input[name=type][value=end_turn]) button[type=submit]")
    press_and_wait(page, "Enter")

    game.refresh_from_db()
    assert game.engine_state().turn == 1
    assert len([m for m in game.moves.all() if m.user_id == mover.pk]) == 5
