"""Play again, as two players see it: A clicks Play again, B clicks Join the rematch, and the new
game starts with the same settings; and a friend's name is offered as it is typed (issue 14)."""

import os
import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game
from games.services import friends
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("FRIENDS_SHOTS")  # a folder: pictures of the pages, to look at


def test_one_click_each_starts_the_rematch_with_the_same_settings(live_server, new_page):
    ann = UserFactory(display_name="Ann")
    bob = UserFactory(display_name="Bob")
    old = services.create_game(
        creator=ann, players=2, side="B", spirits=True, invitees=[bob], turn_limit_days=3,
        on_timeout=Game.OnTimeout.DROP,
    )  # fmt: skip
    services.join_game(game_id=old.pk, user=bob)
    services.resign(game_id=old.pk, user=bob)

    ann_page = new_page()
    log_in(ann_page, live_server.url, ann.username)
    ann_page.goto(f"{live_server.url}{old.get_absolute_url()}")
    if SHOTS:
        ann_page.screenshot(path=f"{SHOTS}/finished-1280.png", full_page=True)
    ann_page.get_by_role("button", name="Play again").click()
    expect(ann_page.get_by_text("A new table with the same settings")).to_be_visible()
    rematch = Game.objects.get(rematch_of=old)

    bob_page = new_page(360, 800)
    log_in(bob_page, live_server.url, bob.username)
    bob_page.goto(f"{live_server.url}{old.get_absolute_url()}")
    expect(bob_page.get_by_role("button", name="Play again")).to_have_count(0)
    if SHOTS:
        bob_page.screenshot(path=f"{SHOTS}/join-360.png", full_page=True)
    bob_page.get_by_role("button", name="Join the rematch").click()
    expect(bob_page).to_have_url(f"{live_server.url}{rematch.get_absolute_url()}")
    expect(bob_page.get_by_role("heading", name="Game over")).to_have_count(0)

    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ACTIVE
    assert (rematch.players, rematch.side, rematch.spirits) == (2, "B", True)
    assert (rematch.turn_limit_days, rematch.on_timeout) == (3, Game.OnTimeout.DROP)
    ann_page.goto(f"{live_server.url}{old.get_absolute_url()}")
    expect(ann_page.get_by_role("link", name="Go to the rematch")).to_be_visible()


def test_the_new_game_form_offers_friends_as_a_name_is_typed(live_server, new_page):
    ann = UserFactory(display_name="Ann")
    UserFactory(username="bobbin", display_name="Bobbin")
    friends.add_friend(user=ann, name="bobbin")
    UserFactory(username="boberto")  # no friend of Ann's: never offered
    page = new_page(360, 800)
    log_in(page, live_server.url, ann.username)
    page.goto(f"{live_server.url}/games/new/")
    page.locator("#id_friend_2").press_sequentially("bo")
    options = page.locator("#friend-options-2 option")
    expect(options).to_have_count(1)
    expect(options.first).to_have_attribute("value", "bobbin")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/new-game-360.png", full_page=True)
    page.locator("#id_friend_2").fill("bobbin")  # as choosing the offered name does
    page.locator("input[name=players][value='3']").check()
    page.locator("#id_seat_3").select_option("easy")
    expect(page.locator("#id_friend_3")).to_be_hidden()  # a bot's seat needs no name
    page.get_by_role("button", name="Create the game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(created_by=ann)
    assert game.invitations.get().user.username == "bobbin"


def test_a_friend_is_added_on_the_profile_and_their_record_shown(live_server, new_page):
    ann = UserFactory(display_name="Ann")
    bob = UserFactory(display_name="Bob")
    UserFactory(username="cleo", display_name="Cleo")
    old = services.create_game(creator=ann, players=2, side="A", spirits=False, invitees=[bob])
    services.join_game(game_id=old.pk, user=bob)
    services.resign(game_id=old.pk, user=bob)
    for width in (360, 1280):
        page = new_page(width, 800)
        log_in(page, live_server.url, ann.username)
        page.goto(f"{live_server.url}/players/{ann.username}/")
        if width == 360:
            page.get_by_label("Add a friend by username").fill("cleo")
            page.get_by_role("button", name="Add", exact=True).click()
            expect(page.get_by_text("Cleo is now among your friends.")).to_be_visible()
            page.get_by_label("Add a friend by username").fill(ann.username)
            page.get_by_role("button", name="Add", exact=True).click()
            expect(page.get_by_text("That is you")).to_be_visible()
        expect(page.get_by_role("link", name="Cleo")).to_be_visible()
        expect(page.get_by_role("button", name="Remove Bob")).to_be_visible()
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/profile-{width}.png", full_page=True)
