"""Table talk in the browser: two players chat during a game and each sees the other's message
without reloading; someone outside the game can neither read nor post; the next turn email
carries what the player has not read."""

import pytest
from django.core import mail
from django.core.cache import cache
from playwright.sync_api import Page, expect

from games import presence
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def say(page: Page, text: str) -> None:
    page.locator("#talk-text").fill(text)
    page.locator("#talk-form").get_by_role("button", name="Send").click()
    expect(page.locator("#talk-messages")).to_contain_text(text)
    expect(page.locator("#talk-text")).to_have_value("")  # the box is empty again


def test_two_players_chat_a_stranger_is_kept_out_and_the_turn_email_carries_the_talk(
    live_server, new_page, settings, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    game = start_game(UserFactory(), UserFactory())
    mover = user_to_move(game)
    waiting = game.seats.exclude(user=mover).get().user
    stranger = UserFactory()
    url = live_server.url + game.get_absolute_url()

    mover_page, waiting_page = new_page(), new_page()
    for page, user in ((mover_page, mover), (waiting_page, waiting)):
        log_in(page, live_server.url, user.username)
        page.goto(url)
    version = mover_page.locator("#game-version").input_value()

    # The waiting player writes; the player on their turn sees it arrive (no reload).
    waiting_page.locator("#talk-text").fill("<b>Good luck!</b>")
    waiting_page.locator("#talk-form").get_by_role("button", name="Send").click()
    expect(waiting_page.locator("#talk-error")).to_contain_text("without HTML tags")
    expect(waiting_page.locator("#talk-text")).to_have_value("<b>Good luck!</b>")  # kept
    waiting_page.locator("#talk-text").fill("nul\x00byte")
    waiting_page.locator("#talk-form").get_by_role("button", name="Send").click()
    expect(waiting_page.locator("#talk-error")).to_contain_text("a character it cannot have")
    expect(waiting_page.locator("#talk-messages")).to_contain_text("No messages yet.")
    say(waiting_page, "Good luck! Rules: https://example.org/rules")
    arrived = mover_page.locator("#talk-messages .talk-message", has_text="Good luck!")
    expect(arrived).to_be_visible(timeout=10_000)
    expect(arrived.locator(".badge")).to_have_text("new")
    link = arrived.get_by_role("link", name="https://example.org/rules")
    expect(link).to_have_attribute("rel", "nofollow noopener")
    # The turn in progress is untouched: the board was not redrawn, its version is the same.
    assert mover_page.locator("#game-version").input_value() == version

    # And back: the waiting player's page shows the answer by itself too.
    say(mover_page, "Thanks, you too!")
    expect(waiting_page.locator("#talk-messages")).to_contain_text("Thanks, you too!")
    mover_page.screenshot(path=str(screenshots / "talk-1280.png"), full_page=True)

    # Someone outside the game: 403 for reading and for posting, in words.
    outsider = new_page()
    log_in(outsider, live_server.url, stranger.username)
    talk_url = f"{live_server.url}/games/{game.pk}/talk/"
    read = outsider.request.get(talk_url)
    assert read.status == 403 and "Good luck" not in read.text()
    token = next(c["value"] for c in outsider.context.cookies() if c["name"] == "csrftoken")
    posted = outsider.request.post(
        talk_url, form={"text": "let me in"}, headers={"X-CSRFToken": token, "Referer": talk_url}
    )
    assert posted.status == 403 and "not playing in this game" in posted.text()

    # The waiting player leaves; a last word comes; the turn ends: their email carries it,
    # and not what they already read on the page.
    waiting_page.close()
    cache.delete(presence._key(game.pk, waiting.pk))  # as after the grace period
    say(mover_page, "See you next turn")
    mail.outbox.clear()
    play_turns(game, turns=1)
    (email,) = [m for m in mail.outbox if m.to == [waiting.email]]
    assert f"- {mover.public_name}: See you next turn" in email.body
    assert "Thanks, you too!" not in email.body and "let me in" not in email.body


def test_on_a_phone_the_talk_is_one_tap_from_the_action_bar_and_keeps_a_draft(
    live_server, new_page, screenshots, settings
):
    settings.GAME_POLL_SECONDS = 1
    game = start_game(UserFactory(), UserFactory())
    waiting = game.seats.exclude(user=user_to_move(game)).get().user
    page = new_page(360, 800)
    log_in(page, live_server.url, waiting.username)
    page.goto(live_server.url + game.get_absolute_url())
    board_top = page.locator("#central").bounding_box()["y"]
    page.locator("#controls").get_by_role("link", name="Talk").click()
    expect(page.locator("#talk-text")).to_be_in_viewport()
    say(page, "Hello from a phone")
    page.screenshot(path=str(screenshots / "talk-360.png"))
    # A half-written message survives the board being redrawn when the other player moves.
    page.locator("#talk-text").fill("Half a thou")
    play_turns(game, turns=1)
    expect(page.locator("#controls")).to_contain_text("Your turn", timeout=10_000)
    expect(page.locator("#talk-text")).to_have_value("Half a thou")
    page.goto(live_server.url + game.get_absolute_url())
    assert page.locator("#central").bounding_box()["y"] == board_top  # the board stays on top


def test_a_message_sent_while_the_board_is_redrawn_empties_the_box_and_shows_once(
    live_server, new_page, settings
):
    """The poll redraws the talk while a message is on its way (the other player moved): the box
    is emptied all the same and the message is listed, so nobody sends it twice."""
    settings.GAME_POLL_SECONDS = 1
    game = start_game(UserFactory(), UserFactory())
    waiting = game.seats.exclude(user=user_to_move(game)).get().user
    page = new_page()
    log_in(page, live_server.url, waiting.username)
    page.goto(live_server.url + game.get_absolute_url())
    held = []
    page.route(
        "**/talk/",
        lambda route: held.append(route) if route.request.method == "POST" else route.continue_(),
    )
    page.locator("#talk-text").fill("Sent during a redraw")
    page.locator("#talk-form").get_by_role("button", name="Send").click()
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the message never left the page"
    play_turns(game, turns=1)  # the poll now redraws the board and the talk under the request
    expect(page.locator("#controls")).to_contain_text("Your turn", timeout=10_000)
    held[0].continue_()
    expect(page.locator("#talk-messages")).to_contain_text("Sent during a redraw", timeout=10_000)
    expect(page.locator("#talk-text")).to_have_value("")
    expect(
        page.locator("#talk-messages .talk-message", has_text="Sent during a redraw")
    ).to_have_count(1)
