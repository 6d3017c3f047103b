"""What the page looks like: buttons drawn as what they do, no empty panels."""

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_secondary_button_is_not_drawn_as_a_primary_one(live_server, page):
    ann = UserFactory(username="ann")
    game = services.create_game(creator=ann, players=2, side="A", spirits=False)
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}{game.get_absolute_url()}")

    cancel = page.get_by_role("button", name="Cancel the game")
    background = cancel.evaluate("b => getComputedStyle(b).backgroundColor")

    assert background in ("rgba(0, 0, 0, 0)", "transparent")


def test_a_solo_game_shows_no_empty_panel_for_other_players(live_server, page):
    ann = UserFactory(username="ann")
    game = services.create_game(creator=ann, players=1, side="A", spirits=False)
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}{game.get_absolute_url()}")

    assert page.locator("#others").count() == 1
    assert not page.locator("#others").is_visible()


def _turn_with_a_token_in_hand(player, other):
    game = start_game(player, other)
    mover = user_to_move(game)
    services.play(
        game_id=game.pk,
        user=mover,
        action={"type": "take_tokens", "space": 0},
        expected_version=game.version,
    )
    game.refresh_from_db()
    return game, mover, game.engine_state().hand[0]


def test_with_javascript_the_hexes_are_tapped_not_chosen_from_a_list(live_server, page):
    game, mover, colour = _turn_with_a_token_in_hand(UserFactory(), UserFactory())
    log_in(page, live_server.url, mover.username)
    page.goto(f"{live_server.url}{game.get_absolute_url()}?token={colour}")

    assert not page.locator("select[name=cell]").is_visible()
    assert page.get_by_text("Or tap a highlighted hex").is_visible()


def test_without_javascript_the_list_names_hexes_in_words(live_server, browser):
    game, mover, colour = _turn_with_a_token_in_hand(UserFactory(), UserFactory())
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        log_in(page, live_server.url, mover.username)
        page.goto(f"{live_server.url}{game.get_absolute_url()}?token={colour}")

        choices = page.locator("select[name=cell] option").all_inner_texts()
        assert choices and all(text.startswith("column ") for text in choices)
        assert not page.get_by_text("Or tap a highlighted hex").is_visible()
    finally:
        context.close()


def test_the_seat_message_goes_once_the_player_acts(live_server, page):
    ann, bob = UserFactory(), UserFactory()
    game = services.create_game(creator=ann, players=2, side="A", spirits=False, public=True)
    log_in(page, live_server.url, bob.username)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    page.get_by_role("button", name="Take a seat").click()
    expect(page.get_by_text("You have a seat at this table.")).to_be_visible()

    # The game started with Bob's seat; the page's next exchange with the site clears the note.
    # The note can be on screen before htmx (a deferred script) has loaded: wait for it.
    page.wait_for_function("() => window.htmx !== undefined")
    page.evaluate("htmx.ajax('GET', location.pathname + '?fragment=game', '#game')")
    expect(page.get_by_text("You have a seat at this table.")).to_have_count(0)


def test_new_game_shows_only_the_seats_of_the_table_size(live_server, page):
    ann = UserFactory()
    log_in(page, live_server.url, ann.username)
    page.goto(f"{live_server.url}/games/new/")

    page.get_by_label("2", exact=True).check()
    assert page.get_by_label("Seat 2").is_visible()
    assert not page.get_by_label("Seat 3").is_visible()
    assert not page.get_by_label("Seat 4").is_visible()
    page.get_by_label("4", exact=True).check()
    assert page.get_by_label("Seat 4").is_visible()
    select = page.get_by_label("Seat 2").bounding_box()
    assert select["width"] >= 200  # the choices are not cut off


def test_the_invitation_link_has_a_copy_button(live_server, page):
    ann = UserFactory()
    game = services.create_game(creator=ann, players=2, side="A", spirits=False)
    log_in(page, live_server.url, ann.username)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")

    page.get_by_role("button", name="Copy").click()

    expect(page.get_by_text("Copied: paste it into a message")).to_be_visible()
