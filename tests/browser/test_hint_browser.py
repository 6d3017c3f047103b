"""The hint from a solo player's page: the button answers at once with the bot at work, the page
asks again until the worker has made the hint, then shows the plan with its hexes outlined on the
player's board; on a phone the plan stays a few lines over the board."""

import pytest
from playwright.sync_api import expect

from games.services import coaching
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker_later(monkeypatch):
    """The hint's task is kept, as a broker keeps it for a worker, until the test runs it."""
    queued = []
    monkeypatch.setattr(coaching, "send_now", lambda task, *args: queued.append((task, args)))
    return queued


@pytest.mark.parametrize("width,height", [(1280, 900), (360, 800)], ids=["desktop", "phone"])
def test_a_solo_player_asks_for_a_hint_and_sees_its_hexes_on_the_board(
    live_server, new_page, worker_later, screenshots, width, height
):
    player = UserFactory()
    game = start_game(player)
    page = new_page(width, height)
    log_in(page, live_server.url, player.username)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")

    page.get_by_role("button", name="Ask the hard bot for a hint").click()
    thinking = page.locator("#hint.is-thinking")
    expect(thinking).to_contain_text("The hard bot is thinking…")
    assert [args for _task, args in worker_later] == [(game.pk, game.version)]
    expect(page.locator("#my-board .hex-ring-hint")).to_have_count(0)

    task, args = worker_later[0]
    assert task == "games.make_hint"
    coaching.make_hint(*args)  # the worker, a moment later: the page asks again by itself
    hint = page.locator("#hint")
    expect(hint).to_contain_text("The hard bot would:")
    expect(thinking).to_have_count(0)
    cells = coaching.hint_state(game.pk, game.version)[0]["cells"]
    outlined = page.locator("#my-board g.hex-suggested")
    expect(outlined).to_have_count(len(set(cells)))
    for cell in cells:
        expect(page.locator(f'#my-board g.hex-suggested[data-cell="{cell}"]')).to_be_visible()
    page.screenshot(path=screenshots / f"hint-{width}.png", full_page=False)

    if width == 360:
        # Compact: a few lines in the sticky bar, not half the screen over the board.
        assert hint.bounding_box()["height"] <= 0.2 * height
        hint.locator("summary").click()  # folds away; the outlines stay on the board
        assert hint.bounding_box()["height"] <= 40
        expect(outlined.first).to_be_visible()
