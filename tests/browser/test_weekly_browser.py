"""Two players play the deal of the week in their own browsers: the same start, each at their
own pace, once each, and both on the week's board, where their boards are then compared."""

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser.test_accessibility_browser import serious_problems
from tests.browser.test_play_browser import log_in, play_one_step
from tests.factories import UserFactory
from tests.games.helpers import play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What a player sees of the start: the central board's spaces and the display of animal cards.
START = """() => ({
  central: [...document.querySelectorAll('#central button')].map(b => b.getAttribute('aria-label')),
  display: document.getElementById('display').innerText,
})"""


def open_weekly(page: Page) -> None:
    """From the header on a desktop; on a small phone the header leaves it to My games."""
    header_link = page.get_by_role("navigation", name="Main").get_by_role(
        "link", name="Weekly deal"
    )
    if header_link.is_visible():
        header_link.click()
    else:
        page.get_by_role("link", name="My games").first.click()
        page.get_by_role("link", name="Deal of the week", exact=True).click()
    expect(page.get_by_role("heading", name="Deal of the week", exact=True)).to_be_visible()


def test_two_players_play_the_deal_of_the_week_from_one_start_onto_one_board(
    live_server, new_page, screenshots
):
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    base = live_server.url
    alice_page = new_page()
    bob_page = new_page(width=360, height=780)  # Bob plays on his phone
    bob_tab = new_page(width=360, height=780)  # and the weekly page open on another device
    for page, name in ((alice_page, "alice"), (bob_page, "bob"), (bob_tab, "bob")):
        log_in(page, base, name)
        open_weekly(page)
    expect(alice_page.get_by_text("Monday 00:00 UTC").first).to_be_visible()
    assert serious_problems(bob_page) == []

    starts = {}
    for page, user in ((alice_page, alice), (bob_page, bob)):
        page.get_by_role("button", name="Play this week's deal").click()
        expect(page.locator("#game")).to_be_visible()
        expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
        starts[user.username] = page.evaluate(START)
    assert starts["alice"] == starts["bob"]
    assert len(starts["alice"]["central"]) == Game.objects.get(created_by=alice).config.spaces

    # Bob's other page, drawn before he started, cannot start the deal a second time.
    bob_tab.get_by_role("button", name="Play this week's deal").click()
    expect(bob_tab.get_by_text("You have already played this week's deal")).to_be_visible()
    assert Game.objects.filter(created_by=bob).count() == 1

    # Each at their own pace: Alice's moves change her page without a reload, never Bob's game.
    alice_game = Game.objects.get(created_by=alice)
    for step in range(3):
        alice_game.refresh_from_db()
        play_one_step(alice_page, alice_game, step)
    assert Game.objects.get(created_by=bob).move_count == 0
    bob_page.reload()
    assert bob_page.evaluate(START) == starts["bob"]

    # Both play on to the end (as in test_play_browser, the clicks are the same each turn).
    for user in (alice, bob):
        play_to_the_end(Game.objects.get(created_by=user), seed=user.pk)
    scores = {
        user.username: Game.objects.get(created_by=user).seats.get().final_score
        for user in (alice, bob)
    }

    for page in (alice_page, bob_page):
        open_weekly(page)
        board = page.locator(".weekly-board").first
        for name, username in (("Alice", "alice"), ("Bob", "bob")):
            row = board.get_by_role("row").filter(has=page.get_by_role("link", name=name))
            expect(row).to_contain_text(str(scores[username]))
        expect(page.get_by_text("You scored")).to_be_visible()
        expect(page.get_by_role("button", name="Play this week's deal")).to_have_count(0)
    assert bob_page.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious_problems(alice_page) == []
    alice_page.screenshot(path=str(screenshots / "weekly-board.png"), full_page=True)

    # Alice has finished: she may compare her board with Bob's, side by side, with the replays.
    alice_page.get_by_role("link", name="Compare Bob's board").click()
    expect(alice_page.get_by_role("heading", name="Boards compared")).to_be_visible()
    expect(alice_page.get_by_role("link", name="Replay Alice's game")).to_be_visible()
    expect(alice_page.get_by_role("link", name="Replay Bob's game")).to_be_visible()
    assert serious_problems(alice_page) == []
    alice_page.screenshot(path=str(screenshots / "weekly-compare.png"), full_page=True)
    alice_page.get_by_role("link", name="Replay Bob's game").click()
    expect(alice_page.get_by_role("heading", name="Replay", exact=True)).to_be_visible()

    # And Bob, on his phone, compares his with hers.
    bob_page.screenshot(path=str(screenshots / "weekly-board-360.png"), full_page=True)
    bob_page.get_by_role("link", name="Compare Alice's board").click()
    expect(bob_page.get_by_role("heading", name="Boards compared")).to_be_visible()
    assert serious_problems(bob_page) == []
    assert bob_page.evaluate("document.documentElement.scrollWidth") <= 360
    bob_page.screenshot(path=str(screenshots / "weekly-compare-360.png"), full_page=True)
