"""The early ends of a table, as each person at it sees them: a declined invitation and a cancelled
table (issue 18; the early ends of a game in progress are in test_game_end_browser.py)."""

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_declined_invitation_tells_the_creator_and_frees_the_seat(live_server, new_page):
    ann = UserFactory(display_name="Ann")
    bob = UserFactory(display_name="Bob")
    game = services.create_game(creator=ann, players=2, side="A", spirits=False, invitees=[bob])
    bob_page = new_page(360, 800)
    log_in(bob_page, live_server.url, bob.username)
    bob_page.goto(f"{live_server.url}{game.get_absolute_url()}")

    bob_page.get_by_role("button", name="Decline").click()
    expect(bob_page.get_by_text("Invitation declined. Ann will be told.")).to_be_visible()
    bob_page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(bob_page.get_by_role("button", name="Decline")).to_have_count(0)

    ann_page = new_page()
    log_in(ann_page, live_server.url, ann.username)
    ann_page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(ann_page.get_by_text("Bob declined the invitation")).to_be_visible()
    expect(ann_page.get_by_text("1 free seat")).to_be_visible()


def test_a_cancelled_table_says_so_to_everyone_who_was_at_it(live_server, new_page):
    ann = UserFactory(display_name="Ann")
    bob, cat = UserFactory(display_name="Bob"), UserFactory(display_name="Cat")
    game = services.create_game(
        creator=ann, players=3, side="A", spirits=False, invitees=[bob, cat]
    )
    services.join_game(game_id=game.pk, user=bob)
    ann_page = new_page()
    log_in(ann_page, live_server.url, ann.username)
    ann_page.goto(f"{live_server.url}{game.get_absolute_url()}")
    ann_page.get_by_role("button", name="Cancel the game").click()
    expect(ann_page.get_by_text("The game is cancelled.")).to_be_visible()

    for person in (ann, bob, cat):
        page = new_page(360, 800)
        log_in(page, live_server.url, person.username)
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
        expect(page.get_by_text("This table was cancelled by Ann.")).to_be_visible()
        expect(page.get_by_role("button", name="Take a seat")).to_have_count(0)
        expect(page.get_by_role("button", name="Decline")).to_have_count(0)
        page.goto(f"{live_server.url}/games/")
        expect(page.get_by_text("cancelled by Ann")).to_be_visible()
