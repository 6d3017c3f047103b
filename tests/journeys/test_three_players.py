"""An evening at a table of three: a message during one's own turn, a resignation during another
player's turn, a turn whose time runs out. Every seat's page is open the whole time and checked
at each moment, without a reload."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games import services, tasks
from games.models import Game
from tests.browser.test_play_browser import click_and_wait, log_in, play_one_step
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def say(page: Page, text: str) -> None:
    page.locator("#talk-text").fill(text)
    page.locator("#talk-form").get_by_role("button", name="Send").click()
    expect(page.locator("#talk-text")).to_have_value("")


def finish_turn(page: Page, game: Game) -> None:
    """The rest of the mover's turn, click by click, until the turn has passed."""
    game.refresh_from_db()
    turn = game.engine_state().turn
    for _ in range(20):
        game.refresh_from_db()
        if game.engine_state().turn != turn:
            return
        play_one_step(page, game, turn_index=1)  # odd: no card, straight to the end
    raise AssertionError("the turn did not end")


def test_three_players_through_a_message_a_resignation_and_a_timeout(
    live_server, new_page, settings, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    people = [UserFactory(username=n, display_name=n.title()) for n in ("ana", "ben", "cleo")]
    game = services.create_game(
        creator=people[0], players=3, side="A", spirits=False, invitees=people[1:],
        turn_limit_days=1,
    )  # fmt: skip
    for user in people[1:]:
        services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    seat_of = {s.user.username: s.position for s in game.seats.select_related("user")}
    order = sorted(people, key=lambda u: (seat_of[u.username] - game.current_seat) % 3)
    mover, nxt, third = order  # the player to move, the one after, the last
    pages = {}
    for user, width in ((mover, 1280), (nxt, 360), (third, 1280)):
        page = new_page(width=width, height=900)
        log_in(page, live_server.url, user.username)
        page.goto(live_server.url + game.get_absolute_url())
        pages[user.username] = page
    m, n, t = (pages[u.username] for u in order)

    def everyone_sees(text: str) -> None:
        for page in pages.values():
            expect(page.locator("#game")).to_contain_text(text, timeout=10_000)

    expect(m.get_by_role("heading", name="Your turn")).to_be_visible()
    for page in (n, t):
        expect(page.get_by_role("heading", name=f"Waiting for {mover.public_name}")).to_be_visible()

    # 1. The mover takes tokens: a turn in progress.
    click_and_wait(m, m.locator("#central button:not([disabled])").first)
    expect(m.locator("#hand .hand-token")).to_have_count(3)

    # 2. A message reaches the mover during their own turn; the turn in progress is untouched.
    version = m.locator("#game-version").input_value()
    say(t, "Nice opening!")
    expect(m.locator("#talk-messages")).to_contain_text("Nice opening!", timeout=10_000)
    assert m.locator("#game-version").input_value() == version
    expect(m.locator("#hand .hand-token")).to_have_count(3)
    say(m, "Thanks, watch my river")  # and the mover answers from their turn
    for page in (n, t):
        expect(page.locator("#talk-messages")).to_contain_text("Thanks, watch my river")

    # 3. The third player resigns during the mover's turn: every page hears of it at once.
    t.get_by_text("Resign from this game").click()
    t.get_by_role("button", name="Resign").click()
    expect(t.locator("#game")).to_contain_text("You resigned from this game")
    everyone_sees(f"{third.public_name} resigned.")
    # The mover's page was redrawn by itself, with the turn where they left it.
    expect(m.get_by_role("heading", name="Your turn")).to_be_visible()
    expect(m.locator("#hand .hand-token")).to_have_count(3)
    m.screenshot(path=str(screenshots / "journey-3p-resigned-mover.png"), full_page=True)

    # 4. The mover ends the turn; the next player's phone turns to "Your turn" by itself.
    game.refresh_from_db()
    finish_turn(m, game)
    expect(n.get_by_role("heading", name="Your turn")).to_be_visible(timeout=10_000)
    expect(m.get_by_role("heading", name=f"Waiting for {nxt.public_name}")).to_be_visible()

    # 5. The next player's time runs out: the sweep has a stand-in play it; the resigned seat's
    #    stand-in plays too, and the turn comes back to the mover, on every page by itself.
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(minutes=1))
    assert tasks.sweep_timeouts() == 1
    everyone_sees(f"A stand-in for {nxt.public_name} (whose time ran out)")
    expect(m.get_by_role("heading", name="Your turn")).to_be_visible(timeout=10_000)
    expect(n.get_by_role("heading", name=f"Waiting for {mover.public_name}")).to_be_visible()
    expect(t.get_by_role("heading", name=f"Waiting for {mover.public_name}")).to_be_visible()
    n.screenshot(path=str(screenshots / "journey-3p-timed-out-phone.png"), full_page=True)
    assert n.evaluate("document.documentElement.scrollWidth") <= 360
    game.refresh_from_db()
    assert game.seats.get(user=nxt).timed_out_at is not None
