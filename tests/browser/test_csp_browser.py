"""The Content-Security-Policy in a real browser: the check every browser test runs catches a
violation, and the table page's script (moved out of inline handlers) still does its job."""

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.test_play_browser import log_in
from tests.browsers import REPORT_VIOLATIONS, VIOLATION_MARKERS
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_inline_style_is_refused_and_reported(browser, live_server):
    context = browser.new_context()
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        html = '<p id="x" style="color: red">x</p>'
        page.evaluate("html => document.body.insertAdjacentHTML('beforeend', html)", html)
        page.wait_for_function("document.getElementById('x') !== null")
        page.wait_for_timeout(300)  # the report is queued as a task
        colour = page.evaluate("getComputedStyle(document.getElementById('x')).color")
    finally:
        context.close()
    assert colour != "rgb(255, 0, 0)", "the inline style applied: no policy?"
    assert any(marker in text for text in messages for marker in VIOLATION_MARKERS), messages


def test_a_waiting_table_opens_the_game_by_itself_when_it_starts(live_server, new_page):
    alice = UserFactory(username="alice", display_name="Alice")
    UserFactory(username="bob", display_name="Bob")
    base = live_server.url

    alice_page = new_page()
    log_in(alice_page, base, "alice")
    alice_page.get_by_role("link", name="New game").first.click()
    alice_page.get_by_label("2", exact=True).check()
    alice_page.get_by_label("2nd seat: a friend's username or email address").fill("bob")
    alice_page.get_by_role("button", name="Create the game").click()
    expect(alice_page.get_by_text("1 free seat")).to_be_visible()
    assert Game.objects.get(created_by=alice).status == Game.Status.OPEN

    link = alice_page.locator("#invite-link")
    alice_page.wait_for_load_state("load")  # table.js (deferred) has bound its click handler
    link.click()  # selects the whole link, ready to copy (static/js/table.js)
    alice_page.wait_for_function(
        "() => { const e = document.getElementById('invite-link');"
        " return e.value.length > 0 && e.selectionStart === 0"
        " && e.selectionEnd === e.value.length; }",
        timeout=5000,
    )

    bob_page = new_page()
    log_in(bob_page, base, "bob")
    expect(bob_page.get_by_text("Alice invites you")).to_be_visible()
    bob_page.get_by_role("button", name="Join").click()
    expect(bob_page.locator("#game")).to_be_visible()
    # Alice's table page polls every 5 s and reloads itself into the game.
    expect(alice_page.locator("#game")).to_be_visible(timeout=15_000)
