"""The rules page in Chromium: no serious accessibility problem and nothing wider than the screen,
at a phone's width and a desktop's; and a newcomer reaches it by every way in: the home page,
the header, the invitation email, the new-game form and the game page."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from tests.browser.test_accessibility_browser import serious_problems
from tests.browser.test_invitations_browser import new_table
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEADING = "How to play Harmonies"


def on_the_rules(page, anchor: str = "") -> None:
    expect(page).to_have_url(re.compile(rf"/rules/{re.escape(anchor)}$"))
    expect(page.get_by_role("heading", name=HEADING, level=1)).to_be_visible()


@pytest.mark.parametrize("width", [360, 1280])
def test_the_rules_read_well_and_pass_axe_at_a_phones_and_a_desktops_width(
    live_server, new_page, screenshots, width
):
    page = new_page(width, 800)
    page.goto(f"{live_server.url}/rules/")
    on_the_rules(page)
    assert serious_problems(page) == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    for board in page.locator("svg.board").all():  # every example's board within the screen
        box = board.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    # The worked examples draw with the page sprite: its pictures arrived.
    assert page.locator("svg.board use").count() > 0
    page.screenshot(path=str(screenshots / f"rules-{width}.png"), full_page=True)


def test_a_visitor_finds_the_rules_from_the_home_page_and_the_header(live_server, new_page):
    page = new_page(360, 780)
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Read the rules").click()
    on_the_rules(page)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Rules").click()
    on_the_rules(page)
    page.get_by_role("link", name="The river (side A)").click()  # the contents jump within
    expect(page.locator("#river")).to_be_in_viewport()


def test_an_invited_friend_follows_the_email_to_the_rules(live_server, new_page):
    UserFactory(username="alice", display_name="Alice")
    alice = new_page()
    log_in(alice, live_server.url, "alice")
    alice.get_by_role("navigation", name="Main").get_by_role("link", name="New game").click()
    alice.get_by_role("link", name="The rules, with examples").click()  # the form's own link
    on_the_rules(alice)
    new_table(alice, live_server.url, "friend@example.org")

    (message,) = mail.outbox
    path = re.search(r"The rules: https?://[^/\s]+(/rules/)", message.body)[1]
    assert f'{path}"' in message.alternatives[0][0]  # the HTML part links there too
    friend = new_page(360, 780)
    friend.goto(live_server.url + path)
    on_the_rules(friend)


def test_a_player_opens_the_rules_from_the_game_page_on_a_phone(live_server, new_page):
    ann, bob = UserFactory(), UserFactory()
    game = start_game(ann, bob)
    pages = {}
    for user in (ann, bob):
        pages[user] = new_page(360, 780)
        log_in(pages[user], live_server.url, user.username)
        pages[user].goto(f"{live_server.url}/games/{game.pk}/")
    for page in pages.values():  # mover and waiting player alike
        page.locator(".phone-jumps").get_by_role("link", name="Rules").click()
        on_the_rules(page, "#turn")
        expect(page.locator("#turn")).to_be_in_viewport()


# Every card face's words, measured where the browser draws them (the faces live in the sprite):
# [symbol, words, left edge, right edge] of each centred line.
CARD_WORDS = """() => [...document.querySelectorAll('symbol[id^="card-"]')].flatMap(symbol =>
  [...symbol.querySelectorAll('text[text-anchor="middle"]')].map(text => {
    const x = parseFloat(text.getAttribute('x')), half = text.getComputedTextLength() / 2;
    return [symbol.id, text.textContent, x - half, x + half];
  }))"""


def test_every_card_faces_words_fit_on_the_card(live_server, new_page):
    # The spirit cards on the rules page (and every game page) print their scoring on the face:
    # "Building group of 2+: 6" once ran past both edges of the Stork's card.
    from games.pictures.cards import WIDTH
    from games.pictures.sprite import sprite_url

    page = new_page(360, 800)
    page.goto(live_server.url + sprite_url())
    lines = page.evaluate(CARD_WORDS)
    assert len(lines) > 42
    outside = [line for line in lines if line[2] < 2 or line[3] > WIDTH - 2]
    assert outside == []
