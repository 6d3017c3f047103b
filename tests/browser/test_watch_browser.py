"""Watching a friend's game in the browser: Alice shares a read-only link from her game page; a
visitor without an account opens it and sees the game go on by itself as Bob plays, with
nothing a seat keeps private (a plan, the face-down spirit cards, the talk, the pouch order);
once Alice revokes the link it answers 404, and a table opened to watchers needs no link."""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game
from games.services import plans
from tests.browser.test_accessibility_browser import serious_problems
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import first_legal, play_to_the_end, start_game, user_to_move
from tests.security.conftest import pouch_and_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTE = "Alice's private plan, planted for the watchers"


def test_a_visitor_watches_through_alices_link_until_she_revokes_it(
    live_server, new_page, settings, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    alice, bob = UserFactory(display_name="Alice"), UserFactory(display_name="Bob")
    game = start_game(alice, bob, spirits=True)
    plans.save_notes(game_id=game.pk, user=alice, notes=NOTE)
    url = live_server.url + game.get_absolute_url()
    alice_page, bob_page = new_page(), new_page()
    for page, user in ((alice_page, alice), (bob_page, bob)):
        log_in(page, live_server.url, user.username)
        page.goto(url)

    alice_page.get_by_text("Let friends watch this game").click()
    alice_page.get_by_role("button", name="Make a read-only link").click()
    alice_page.get_by_text("Let friends watch this game").click()
    shared = alice_page.get_by_label("Read-only link").input_value()
    assert shared.startswith(settings.SITE_URL) and "/watch/" in shared
    link = live_server.url + urlsplit(shared).path
    # Bob's page has the same link, the table's, once drawn again.
    bob_page.reload()
    bob_page.get_by_text("Let friends watch this game").click()
    expect(bob_page.get_by_label("Read-only link")).to_have_value(shared)

    watcher = new_page(360, 800)  # no account
    watcher.goto(link)
    expect(watcher.locator("#controls")).to_contain_text("You are watching")
    assert serious_problems(watcher) == []
    assert watcher.evaluate("document.scrollingElement.scrollWidth") <= 360
    version = watcher.locator("#game-version").input_value()

    # The player to move plays; the watcher's page follows by itself.
    mover = user_to_move(game)
    services.play(
        game_id=game.pk, user=mover, action=first_legal(game), expected_version=game.version
    )
    expect(watcher.locator("#game-version")).not_to_have_value(version, timeout=10_000)
    watcher.screenshot(path=str(screenshots / "watch-360.png"), full_page=True)

    # Nothing a seat keeps private is in the watcher's page.
    game = Game.objects.get(pk=game.pk)
    html = watcher.content()
    assert NOTE not in html and 'id="plan"' not in html and 'id="talk"' not in html
    assert "Your board" not in html and "Resign" not in html
    state = game.engine_state()
    for player in state.players:
        for card_id in player.spirit_options:  # dealt face down, not yet chosen
            assert card_id not in html
    pouch, deck = pouch_and_deck(game)
    assert str(game.seed) not in html
    assert " ".join(pouch[:8]) not in html and " ".join(deck[:4]) not in html
    assert watcher.get_by_role("button", name="End my turn").count() == 0

    # Alice revokes: the link is dead, for the watcher's page too.
    alice_page.reload()
    alice_page.get_by_text("Let friends watch this game").click()
    alice_page.get_by_role("button", name="Revoke the link").click()
    # The watcher's open page leaves the board, which no longer follows the game, for the words.
    expect(watcher.locator("main")).to_contain_text("it was revoked", timeout=10_000)
    assert watcher.request.get(link).status == 404
    poll = f"{live_server.url}/games/{game.pk}/poll/?v=0&w={link.rstrip('/').rsplit('/', 1)[1]}"
    assert watcher.request.get(poll).status == 404
    forged = watcher.request.get(link[:-3] + "xyz/")
    assert forged.status == 404 and "no such game to watch" in forged.text()


def test_a_table_open_to_watchers_needs_no_link(live_server, new_page, settings):
    settings.GAME_POLL_SECONDS = 1
    alice, bob = UserFactory(), UserFactory()
    game = start_game(alice, bob)
    creator = game.created_by
    page = new_page()
    log_in(page, live_server.url, creator.username)
    page.goto(live_server.url + game.get_absolute_url())
    page.get_by_text("Let friends watch this game").click()
    page.get_by_role("button", name="Open the table to every watcher").click()
    page.get_by_text("Let friends watch this game").click()
    expect(page.locator("#watch")).to_contain_text("This table is open to watchers")

    visitor = new_page()
    visitor.goto(live_server.url + f"/games/{game.pk}/watch/")
    expect(visitor.locator("#controls")).to_contain_text("You are watching")
    # A logged-in stranger who opens the game's own address is shown the watchers' page.
    stranger = new_page()
    log_in(stranger, live_server.url, UserFactory().username)
    stranger.goto(live_server.url + game.get_absolute_url())
    expect(stranger).to_have_url(live_server.url + f"/games/{game.pk}/watch/")

    # The game ends while they watch: the visitor is told so, the stranger (logged in) is
    # taken to the final score sheet, both without reloading.
    play_to_the_end(game)
    expect(visitor.locator("main")).to_contain_text("This game is over", timeout=10_000)
    expect(stranger).to_have_url(live_server.url + f"/games/{game.pk}/sheet/", timeout=10_000)
