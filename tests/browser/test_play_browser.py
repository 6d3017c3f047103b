"""Two people, two browsers, one complete game of Harmonies through the page."""

import pytest
from playwright.sync_api import Page, expect

from games import engine
from games.models import Game
from games.presenters.game import LOG_LENGTH
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def version(page: Page) -> str:
    return page.locator("#game-version").input_value()


def click_and_wait(page: Page, locator) -> None:
    """Click something that changes the game, and wait for the page to show the new version."""
    before = version(page)
    locator.click()
    page.wait_for_function(
        "v => document.getElementById('game-version').value !== v", arg=before, timeout=10_000
    )


def click_target(page: Page, kind: str, cell: str) -> None:
    target = page.locator(f'#my-board g.hex-target[data-cell="{cell}"]')
    expect(target).to_be_visible()
    click_and_wait(page, target)


def play_one_step(page: Page, game: Game, turn_index: int) -> None:
    """Choose the next action with the engine, then do it with a click like a player would."""
    state = game.engine_state()
    legal = engine.legal_actions(state)
    spirits = [a for a in legal if isinstance(a, engine.ChooseSpirit)]
    if spirits:
        name = engine.card(spirits[0].card_id).name
        click_and_wait(page, page.get_by_role("button", name=f"Keep {name}"))
        return
    if state.taken_space is None:
        space = next(a.space for a in legal if isinstance(a, engine.TakeTokens))
        button = page.locator("#central button").nth(space)
        click_and_wait(page, button)
        return
    if state.hand:
        colour = state.hand[0]
        cell = engine.token_targets(state, colour)[0]
        page.get_by_label(f"Select {colour} token").first.click()
        click_target(page, "token", cell)
        return
    cubes = [a for a in legal if isinstance(a, engine.PlaceCube)]
    if cubes:
        card_id = cubes[0].card_id
        slot = page.locator("#my-cards .card-slot").filter(
            has=page.locator(f"a[href='?card={card_id}']")
        )
        slot.get_by_role("link").click()
        click_target(page, "cube", cubes[0].cell)
        return
    takes = [a for a in legal if isinstance(a, engine.TakeCard)]
    if takes and turn_index % 2 == 0:
        name = engine.card(takes[0].card_id).name
        click_and_wait(page, page.get_by_role("button", name=f"Take {name}"))
        return
    click_and_wait(page, page.get_by_role("button", name="End my turn"))


def play_whole_turn(page: Page, game: Game) -> None:
    """The player of `page` plays their turn with clicks, to its end, once their page (which
    updates by itself) says it is their turn: the clicks follow the stored state."""
    expect(page.locator("#controls")).to_contain_text("Your turn", timeout=20_000)
    game.refresh_from_db()
    turn = game.engine_state().turn
    for step in range(40):
        game.refresh_from_db()
        if game.engine_state().turn != turn:
            return
        play_one_step(page, game, step)
    raise AssertionError("the turn did not end")


def test_two_friends_play_a_whole_game_from_invitation_to_score_sheet(
    live_server, new_page, screenshots, settings
):
    settings.GAME_POLL_SECONDS = 1
    alice = UserFactory(username="alice", display_name="Alice")
    UserFactory(username="bob", display_name="Bob")
    base = live_server.url

    alice_page = new_page()
    log_in(alice_page, base, "alice")
    alice_page.get_by_role("link", name="New game").first.click()
    alice_page.get_by_label("2", exact=True).check()
    alice_page.get_by_label("A: rivers").check()
    alice_page.get_by_label("Play with Nature's Spirits").check()
    alice_page.get_by_label("2nd seat: a friend's username or email address").fill("bob")
    alice_page.get_by_role("button", name="Create the game").click()
    expect(alice_page.get_by_text("1 free seat")).to_be_visible()
    game = Game.objects.get(created_by=alice)

    bob_page = new_page(width=360, height=780)  # Bob plays on his phone
    log_in(bob_page, base, "bob")
    expect(bob_page.get_by_text("Alice invites you")).to_be_visible()
    bob_page.get_by_role("button", name="Join").click()
    expect(bob_page.locator("#game")).to_be_visible()
    alice_page.goto(f"{base}/games/{game.pk}/")

    pages = {}
    for seat in game.seats.select_related("user"):
        pages[seat.position] = alice_page if seat.user == alice else bob_page

    steps = log_checks = 0
    checked_live_update = False
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        page = pages[game.current_seat]
        expect(page.get_by_role("heading", name="Your turn")).to_be_visible(timeout=5_000)
        state = game.engine_state()
        if not checked_live_update and state.turn == 1 and state.taken_space is None:
            checked_live_update = True  # the waiting page turned to "Your turn" by itself
            page.screenshot(path=str(screenshots / f"turn-2-seat-{game.current_seat}.png"))
        play_one_step(page, game, state.turn)
        steps += 1
        game.refresh_from_db()
        if game.move_count > LOG_LENGTH and game.status == Game.Status.ACTIVE:
            # Own moves arrive as one new entry on top; the log keeps the page's length.
            entries = page.locator("#move-log > li")
            assert entries.count() == LOG_LENGTH
            assert entries.first.get_attribute("value") == str(game.move_count)
            log_checks += 1
        assert steps < 600, "the game should end"

    assert checked_live_update and log_checks
    for position, page in pages.items():
        expect(page.get_by_role("heading", name="Game over")).to_be_visible(timeout=5_000)
        expect(page.get_by_role("heading", name="Score sheet")).to_be_visible()
        page.screenshot(path=str(screenshots / f"final-seat-{position}.png"), full_page=True)
    assert bob_page.evaluate("document.documentElement.scrollWidth") <= 360
    game.refresh_from_db()
    assert game.finalized_at is not None
    assert sorted(game.seats.values_list("rank", flat=True))[0] == 1
