"""Invitations that arrive, through the UI only: by username to a friend, by address to anyone."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from games.models import Game
from tests.browser.test_play_browser import click_and_wait, log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def invitation_path(message) -> str:
    return re.search(r"https?://[^/\s]+(/games/invited/[^/\s]+/)", message.body).group(1)


def new_table(page, base: str, invite: str) -> None:
    page.goto(f"{base}/games/new/")
    page.get_by_label("2", exact=True).check()
    page.get_by_label("2nd seat: a friend's username or email address").fill(invite)
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_text("1 free seat")).to_be_visible()


def test_a_friend_invited_by_name_follows_the_email_and_plays(live_server, new_page):
    alice = UserFactory(username="alice", display_name="Alice")
    UserFactory(username="bob", display_name="Bob")
    base = live_server.url
    alice_page = new_page()
    log_in(alice_page, base, "alice")
    new_table(alice_page, base, "bob")

    (message,) = mail.outbox  # Bob's mailbox: one email
    assert message.to == ["bob@example.com"]
    assert message.subject == "Alice invites you to a game of Harmonies"

    bob_page = new_page(width=360, height=780)
    log_in(bob_page, base, "bob")
    bob_page.goto(base + invitation_path(message))
    expect(bob_page.get_by_text("Alice (created the game)")).to_be_visible()
    bob_page.get_by_role("button", name="Take a seat").click()
    expect(bob_page.locator("#game")).to_be_visible()
    game = Game.objects.get(created_by=alice)
    assert game.status == Game.Status.ACTIVE

    # Whoever plays first takes three tokens from the central board, in their own browser.
    first = game.seats.get(position=game.current_seat).user
    page = bob_page if first.username == "bob" else alice_page
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
    click_and_wait(page, page.locator("#central button").first)
    game.refresh_from_db()
    assert game.move_count == 1


def test_a_stranger_invited_by_address_signs_up_and_lands_on_take_a_seat(
    live_server, new_page, screenshots
):
    alice = UserFactory(username="alice", display_name="Alice")
    base = live_server.url
    alice_page = new_page()
    log_in(alice_page, base, "alice")
    new_table(alice_page, base, "wanderer@example.org")
    expect(alice_page.get_by_text("wanderer@example.org (invited)")).to_be_visible()
    alice_page.screenshot(path=str(screenshots / "table-invited-by-address.png"), full_page=True)

    (message,) = mail.outbox
    assert message.to == ["wanderer@example.org"]
    path = invitation_path(message)

    page = new_page(width=360, height=780)
    page.goto(base + path)  # not logged in: who invites to what, and the two ways on
    expect(page.get_by_role("heading", name="Alice invites you to play Harmonies")).to_be_visible()
    page.screenshot(path=str(screenshots / "invitation-welcome-phone.png"), full_page=True)
    page.get_by_role("link", name="Create an account to join").click()
    expect(page.locator(".invitation-note")).to_contain_text("Alice invites you to")
    expect(page.get_by_label("Email address")).to_have_value("wanderer@example.org")
    page.get_by_label("Username").fill("wanderer")
    page.locator("#id_password1").fill("mountains-and-rivers-42")
    page.locator("#id_password2").fill("mountains-and-rivers-42")
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_text("Welcome, wanderer!")).to_be_visible()
    expect(page.get_by_role("button", name="Take a seat")).to_be_visible()
    assert page.url == base + path
    page.screenshot(path=str(screenshots / "take-a-seat-after-sign-up.png"), full_page=True)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#game")).to_be_visible()
    game = Game.objects.get(created_by=alice)
    assert game.status == Game.Status.ACTIVE
    assert game.seats.filter(user__username="wanderer").exists()
