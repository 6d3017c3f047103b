"""Block in the browser, as the three people would live it: Alice blocks Bob from his page; Bob
then tries to invite her (refused: "this player cannot be invited") and to sit at her open table
(refused); in the game they already share with Carol, Bob writes, and Carol's page shows it while
Alice's, polled at the same moment, does not; Alice unblocks Bob from her profile and Bob can
invite her again."""

import pytest
from playwright.sync_api import Page, expect

from accounts.models import Block
from games import services
from games.models import Game
from games.views.blocks import STILL_PLAYING
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def invite_by_name(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/games/new/")
    page.get_by_label("2", exact=True).check()
    page.get_by_label("2nd seat: a friend's username or email address").fill(name)
    page.get_by_role("button", name="Create the game").click()


def test_alice_blocks_bob_he_cannot_reach_her_carol_still_reads_him_and_alice_unblocks(
    live_server, new_page, settings, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    carol = UserFactory(username="carol", display_name="Carol")
    shared = start_game(alice, bob, carol)
    open_table = services.create_game(creator=alice, players=2, side="A", spirits=False)
    base = live_server.url
    pages = {}
    for user in (alice, bob, carol):
        pages[user.username] = new_page()
        log_in(pages[user.username], base, user.username)
    alice_page, bob_page, carol_page = pages["alice"], pages["bob"], pages["carol"]

    # Alice blocks Bob from his player page: a confirmation first, then the button (htmx).
    alice_page.goto(f"{base}/players/bob/")
    alice_page.get_by_role("link", name="Block Bob").click()
    expect(alice_page.get_by_role("heading", name="Block Bob?")).to_be_visible()
    expect(alice_page.get_by_text(STILL_PLAYING)).to_be_visible()
    alice_page.screenshot(path=str(screenshots / "block-confirm.png"), full_page=True)
    alice_page.get_by_role("button", name="Block Bob").click()
    expect(alice_page.get_by_role("heading", name="Bob is blocked")).to_be_visible()
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()

    # Bob invites Alice by name: refused, in the same words as any refusal to be invited.
    invite_by_name(bob_page, base, "alice")
    expect(bob_page.get_by_text("This player cannot be invited: Alice.")).to_be_visible()
    assert "block" not in bob_page.locator("main").inner_text().lower()
    assert not Game.objects.filter(created_by=bob).exists()

    # Bob has the link of Alice's open table: its page looks as ever, its seat is refused.
    bob_page.goto(f"{base}/games/invitation/{open_table.invite_token}/")
    bob_page.get_by_role("button", name="Take a seat").click()
    expect(bob_page.get_by_text("You cannot take a seat at this table.")).to_be_visible()
    assert not open_table.seats.filter(user=bob).exists()

    # The game they share goes on. Bob writes; Carol's page shows it without a reload, and
    # Alice's page, drawn again by the same poll, does not.
    game_url = f"{base}/games/{shared.pk}/"
    for page in (alice_page, carol_page, bob_page):
        page.goto(game_url)
    talk_version = int(alice_page.locator("#talk-version").input_value())
    bob_page.locator("#talk-text").fill("Alice, can you read me?")
    bob_page.locator("#talk-form").get_by_role("button", name="Send").click()
    expect(bob_page.locator("#talk-messages")).to_contain_text("Alice, can you read me?")
    expect(carol_page.locator("#talk-messages")).to_contain_text(
        "Alice, can you read me?", timeout=10_000
    )
    # Alice's talk was fetched again at the new version (the poll saw it change)...
    expect(alice_page.locator("#talk-version")).to_have_value(str(talk_version + 1), timeout=10_000)
    # ...and still shows nothing of his.
    expect(alice_page.locator("#talk-messages")).not_to_contain_text("can you read me")
    expect(alice_page.locator("#talk-messages")).to_contain_text("No messages yet.")
    carol_page.screenshot(path=str(screenshots / "block-carol-sees.png"), full_page=True)
    alice_page.screenshot(path=str(screenshots / "block-alice-does-not.png"), full_page=True)

    # Alice unblocks Bob from her profile; Bob can invite her again.
    alice_page.goto(f"{base}/accounts/profile/")
    blocked_list = alice_page.locator("#blocked")
    expect(blocked_list).to_contain_text("Bob")
    blocked_list.get_by_role("button", name="Unblock Bob").click()
    expect(blocked_list).to_contain_text("Bob is unblocked")
    expect(blocked_list).to_contain_text("You have blocked nobody.")
    assert not Block.objects.exists()
    invite_by_name(bob_page, base, "alice")
    expect(bob_page.get_by_text("1 free seat")).to_be_visible()
    table = Game.objects.get(created_by=bob, status=Game.Status.OPEN)
    assert table.invitations.filter(user=alice).exists()
