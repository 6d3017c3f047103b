"""A game page in a background tab: the turn arrives, the title counts it, a notice shows."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A stand-in for the browser's Notification API that records what the page does with it.
FAKE_NOTIFICATIONS = """
window.__shown = [];
window.__asked = 0;
window.Notification = function (title, options) { window.__shown.push([title, options.body]); };
window.Notification.permission = %r;
window.Notification.requestPermission = function () {
  window.__asked += 1;
  window.Notification.permission = "granted";
  return Promise.resolve("granted");
};
Object.defineProperty(document, "hidden", { get: function () { return true; } });
"""


def waiting_players_page(live_server, new_page, permission: str):
    game = start_game(UserFactory(), UserFactory())
    mover = user_to_move(game)
    waiting = game.seats.exclude(user=mover).get().user
    page = new_page()
    page.add_init_script(FAKE_NOTIFICATIONS % permission)
    log_in(page, live_server.url, waiting.username)
    page.goto(live_server.url + game.get_absolute_url())
    return game, page


def test_a_background_tab_shows_a_notification_and_counts_the_turn_in_its_title(
    live_server, new_page, settings
):
    settings.GAME_POLL_SECONDS = 1
    game, page = waiting_players_page(live_server, new_page, "granted")
    expect(page.locator("#notify-offer")).to_be_hidden()  # already allowed: nothing to ask
    assert not page.title().startswith("(")
    play_turns(game, turns=1)
    page.wait_for_function("() => window.__shown.length > 0", timeout=10_000)
    game.refresh_from_db()
    assert page.evaluate("window.__shown") == [["Your turn", f"It is your turn in {game.name}."]]
    assert page.title().startswith("(1) ")


def test_permission_is_asked_on_a_click_never_on_load(live_server, new_page):
    _game, page = waiting_players_page(live_server, new_page, "default")
    offer = page.locator("#notify-offer")
    expect(offer).to_be_visible()
    assert page.evaluate("window.__asked") == 0
    page.get_by_role("button", name="Notify me when it is my turn").click()
    expect(offer).to_be_hidden()
    assert page.evaluate("window.__asked") == 1
