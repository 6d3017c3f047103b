"""An evening of two friends: Ana invites Bea by her email address; Bea, who has no account,
follows the emailed link, signs up from the header and takes her seat; they play the whole game.
Both pages are open the whole time and checked at the hand-overs and at the end, without a reload:
the last mover's page and the other's show the ranking the score sheet shows."""

import re

import pytest
from django.core import mail
from django.urls import reverse
from playwright.sync_api import Page, expect

from accounts import emails
from accounts.models import User
from games.models import Game
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import play_until_the_last_action
from tests.journeys.test_three_players import finish_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADDRESS = "bea@example.org"
SEAT_BOX = "2nd seat: a friend's username or email address"


def ranking_of(page: Page) -> list[str]:
    return [" ".join(t.split()) for t in page.locator("ol.ranking > li").all_inner_texts()]


def test_a_friend_invited_by_address_signs_up_from_the_header_and_plays_a_whole_game(
    live_server, new_page, settings, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    base = live_server.url
    UserFactory(username="ana", display_name="Ana")

    # Ana creates the table, naming Bea's address in the second seat.
    ana = new_page(width=1280, height=900)
    log_in(ana, base, "ana")
    ana.goto(f"{base}/games/new/")
    ana.get_by_label("2", exact=True).check()
    ana.get_by_label("Name of the game").fill("Bea's first river")
    ana.get_by_label(SEAT_BOX).fill(ADDRESS)
    ana.get_by_role("button", name="Create the game").click()
    expect(ana.get_by_text(f"{ADDRESS} (invited)")).to_be_visible()
    game = Game.objects.get(name="Bea's first river")

    # Bea follows the email's link on her phone: who invites her to what, before any account.
    (invitation,) = [m for m in mail.outbox if m.to == [ADDRESS]]
    link = re.search(r"https?://[^/\s]+(/games/invited/[^/\s]+/)", invitation.body).group(1)
    bea = new_page(width=360, height=800)
    bea.goto(base + link)
    expect(bea.get_by_role("heading", name="Ana invites you to play Harmonies")).to_be_visible()
    expect(bea.locator(".invitation-welcome")).to_contain_text("Bea's first river")
    bea.locator(".site-header").get_by_role("link", name="Sign up").click()  # from the header
    expect(bea.locator(".invitation-note")).to_contain_text("Ana invites you to")
    expect(bea.get_by_label("Email address")).to_have_value(ADDRESS)
    bea.get_by_label("Username").fill("bea")
    bea.locator("#id_password1").fill("rivers-and-mountains-42")
    bea.locator("#id_password2").fill("rivers-and-mountains-42")
    bea.get_by_role("button", name="Sign up").click()
    expect(bea.get_by_text("Welcome, bea!")).to_be_visible()
    assert bea.url == base + link  # back at the table, the invitation kept

    # She confirms her address from the email before she sits down: a game counts only if every
    # address at the table was confirmed when it started (games.results.starting_reason).
    bea_user = User.objects.get(username="bea")
    bea.goto(base + reverse("confirm_email", args=[emails.confirmation_token(bea_user)]))
    bea.get_by_role("button", name="Confirm my address").click()
    expect(bea.get_by_role("heading", name="Email address confirmed")).to_be_visible()
    bea.goto(base + link)
    bea.get_by_role("button", name="Take a seat").click()
    expect(bea.locator("#game")).to_be_visible()

    # Ana's table page turns into the game by itself.
    expect(ana.locator("#game")).to_be_visible(timeout=15_000)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    pages = {
        seat.position: (ana if seat.user.username == "ana" else bea)
        for seat in game.seats.select_related("user")
    }
    names = {seat.position: seat.user.public_name for seat in game.seats.select_related("user")}

    # Two hand-overs through the pages: the waiting page turns to "Your turn" by itself.
    for _ in range(2):
        game.refresh_from_db()
        mover, waiting = pages[game.current_seat], pages[1 - game.current_seat]
        expect(mover.get_by_role("heading", name="Your turn")).to_be_visible(timeout=10_000)
        expect(
            waiting.get_by_role("heading", name=f"Waiting for {names[game.current_seat]}")
        ).to_be_visible()
        finish_turn(mover, game)
        expect(waiting.get_by_role("heading", name="Your turn")).to_be_visible(timeout=10_000)

    # The middle of the game is played through the writer; both pages follow by their polls.
    last = play_until_the_last_action(game, seed=3)
    assert last["type"] == "end_turn"
    game.refresh_from_db()
    mover, waiting = pages[game.current_seat], pages[1 - game.current_seat]
    # The page must be drawn at the game's last version: "End my turn" is already there on a
    # page drawn partway through the writer's moves, and a click from it is refused as stale.
    expect(mover.locator("#game-version")).to_have_value(str(game.version), timeout=10_000)
    expect(mover.get_by_role("button", name="End my turn")).to_be_visible(timeout=10_000)
    expect(
        waiting.get_by_role("heading", name=f"Waiting for {names[game.current_seat]}")
    ).to_be_visible(timeout=10_000)

    # The last "End my turn": both pages show the end, and the ranking the score sheet shows.
    mover.get_by_role("button", name="End my turn").click()
    for page in (mover, waiting):
        expect(page.locator("#controls .turn-banner")).to_have_text("Game over", timeout=10_000)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    on_pages = [ranking_of(mover), ranking_of(waiting)]
    mover.screenshot(path=str(screenshots / "journey-invited-last-mover.png"), full_page=True)
    waiting.screenshot(path=str(screenshots / "journey-invited-other.png"), full_page=True)
    sheet = new_page(width=1280, height=900)
    log_in(sheet, base, "ana")
    sheet.goto(base + reverse("records:sheet", args=[game.pk]))
    on_sheet = ranking_of(sheet)
    assert on_pages[0] == on_pages[1] == on_sheet, (on_pages, on_sheet)
    assert len(on_sheet) == 2 and not any("None" in line for line in on_sheet)
    for seat in game.seats.select_related("user"):
        assert any(
            f"{seat.user.public_name}, {seat.final_score} point" in line for line in on_sheet
        )
    assert bea.evaluate("document.documentElement.scrollWidth") <= 360
