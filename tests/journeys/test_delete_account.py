"""Alice leaves the site: from her profile, with her password, she deletes her account while Bob
looks at the game they are playing (with Carol). His page hears of it by itself, without a reload:
Alice resigned, a stand-in played her turn, and the game goes on. She is logged out for good; the
game they finished earlier still reads whole for Bob, under "a deleted player"; and a newcomer
cannot take her name."""

import pytest
from playwright.sync_api import Page, expect

from accounts.models import DELETED_NAME
from games.models import Game
from tests.browser.test_play_browser import log_in
from tests.factories import PASSWORD, UserFactory
from tests.games.helpers import play_to_the_end, play_turns, start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def alice_to_move(alice, bob, carol) -> Game:
    """A game of three in progress with Alice to move: her deletion passes the turn on."""
    game = start_game(alice, bob, carol)
    while user_to_move(game) != alice:
        play_turns(game, 1)
    return game


def expect_no_alice(page: Page) -> None:
    expect(page.locator("main")).to_contain_text(DELETED_NAME)
    expect(page.locator("main")).not_to_contain_text("Alice")


def test_alice_deletes_her_account_while_bob_watches_their_game(
    live_server, new_page, settings, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    base = live_server.url
    alice, bob, carol = (
        UserFactory(username=name, display_name=name.title()) for name in ("alice", "bob", "carol")
    )
    finished = play_to_the_end(start_game(alice, bob))
    running = alice_to_move(alice, bob, carol)

    # Bob has the running game open: it waits for Alice.
    bobs = new_page()
    log_in(bobs, base, "bob")
    bobs.goto(base + running.get_absolute_url())
    expect(bobs.get_by_role("heading", name="Waiting for Alice")).to_be_visible()
    bobs.evaluate("window.notReloaded = true")

    # Alice deletes her account from her profile, with her password.
    alices = new_page(width=360, height=740)
    log_in(alices, base, "alice")
    alices.goto(base + "/accounts/profile/")
    alices.get_by_role("link", name="Delete my account").click()
    alices.get_by_label("Your password").fill("not my password")
    alices.get_by_role("button", name="Delete my account").click()
    expect(alices.get_by_text("That is not your password, so nothing was deleted")).to_be_visible()
    alices.get_by_label("Your password").fill(PASSWORD)
    alices.get_by_role("button", name="Delete my account").click()
    expect(alices.get_by_text("Your account is deleted")).to_be_visible()
    nav = alices.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()  # logged out
    alices.screenshot(path=str(screenshots / "deleted-account-phone.png"), full_page=True)

    # Bob's page, untouched by him: Alice resigned, a stand-in played her turn, the game goes on.
    game = bobs.locator("#game")
    expect(game).to_contain_text(f"{DELETED_NAME} resigned.", timeout=10_000)
    expect(game).to_contain_text(f"A stand-in for {DELETED_NAME}")
    running.refresh_from_db()
    assert running.status == Game.Status.ACTIVE
    mover = user_to_move(running)
    heading = "Your turn" if mover == bob else "Waiting for Carol"
    expect(bobs.get_by_role("heading", name=heading)).to_be_visible()
    expect(game).not_to_contain_text("Alice")
    assert bobs.evaluate("window.notReloaded") is True
    bobs.screenshot(path=str(screenshots / "deleted-account-bobs-game.png"), full_page=True)

    # Alice cannot log in again, by her name or the placeholder.
    for username in ("alice", f"deleted~{alice.pk}"):
        alices.goto(base + "/accounts/login/")
        alices.get_by_label("Username").fill(username)
        alices.get_by_label("Password").fill(PASSWORD)
        alices.get_by_role("button", name="Log in").click()
        expect(alices.get_by_text("Please enter a correct username and password")).to_be_visible()

    # The finished game still reads whole for Bob, under the neutral name.
    bobs.goto(base + "/history/")
    expect_no_alice(bobs)
    bobs.get_by_role("link", name="Replay").first.click()
    expect(bobs).to_have_url(f"{base}/games/{finished.pk}/replay/")
    expect_no_alice(bobs)
    bobs.goto(base + "/history/")
    bobs.get_by_role("link", name="Score sheet").first.click()
    expect(bobs).to_have_url(f"{base}/games/{finished.pk}/sheet/")
    expect_no_alice(bobs)
    bobs.get_by_role("link", name=DELETED_NAME).first.click()  # her page: gone, and says so
    expect(bobs.get_by_role("heading", name="A deleted player")).to_be_visible()

    # A newcomer cannot take her name.
    newcomer = new_page()
    newcomer.goto(base + "/accounts/signup/")
    newcomer.get_by_label("Username").fill("Alice")
    newcomer.get_by_label("Email address").fill("someone@example.com")
    newcomer.locator("#id_password1").fill("mountains-and-rivers-42")
    newcomer.locator("#id_password2").fill("mountains-and-rivers-42")
    newcomer.get_by_role("button", name="Sign up").click()
    expect(newcomer.get_by_text("That username is taken. Please choose another.")).to_be_visible()
