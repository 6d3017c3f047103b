"""Help on the game page, in Chromium: a newcomer on their turn reads the turn reminder, taps a
card of the display and a figure of the score table to read how they work, while the other
player's page goes on updating by itself; a player with finished games finds the reminder folded.
The help passes axe, opened, at a phone's and a desktop's width."""

import pytest
from playwright.sync_api import Page, expect

from games import engine
from games.presenters.help import REMINDER_GAMES
from tests.browser.test_accessibility_browser import serious_problems
from tests.browser.test_play_browser import click_and_wait, log_in, play_one_step
from tests.factories import UserFactory
from tests.games.helpers import start_game, user_to_move
from tests.records.helpers import quick_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def veteran_of(user) -> None:
    """`user` has played REMINDER_GAMES games to the end."""
    for seed in range(REMINDER_GAMES):
        quick_game(user, UserFactory(), seed=seed + 1, record=False)


def inside_the_window(page: Page, locator) -> None:
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box


def first_display_card(game):
    return engine.card(engine.view_for(game.engine_state(), None)["display"][0])


def test_a_newcomer_reads_the_help_while_the_other_page_updates_and_a_veteran_finds_it_folded(
    live_server, new_page, screenshots, settings
):
    settings.GAME_POLL_SECONDS = 1
    game = start_game(UserFactory(), UserFactory())
    newcomer = user_to_move(game)
    veteran = next(s.user for s in game.seats.select_related("user") if s.user != newcomer)
    veteran_of(veteran)
    mover_page, waiting_page = new_page(), new_page(360, 780)  # the veteran waits on a phone
    log_in(mover_page, live_server.url, newcomer.username)
    log_in(waiting_page, live_server.url, veteran.username)
    for page in (mover_page, waiting_page):
        page.goto(f"{live_server.url}/games/{game.pk}/")

    # The newcomer's reminder is open on their turn; the waiting page has none.
    reminder = mover_page.locator("#turn-reminder")
    expect(reminder).to_have_attribute("open", "")
    expect(reminder.get_by_text("Take the 3 tokens of one space")).to_be_visible()
    expect(waiting_page.locator("#turn-reminder")).to_have_count(0)

    # A tap on a card of the display: its habitat, its cube, its points.
    card = first_display_card(game)
    words = engine.card_help(card.id)
    slot = mover_page.locator("#display .card-slot").first
    slot.get_by_text("About").click()
    text = slot.locator(".card-help-text")
    expect(text).to_be_visible()
    expect(text).to_contain_text(words.habitat)
    expect(text).to_contain_text(words.cube)
    expect(text).to_contain_text(words.points)
    inside_the_window(mover_page, text)
    # With the keyboard too: the next card's "About" opens with Enter, and the first one closes.
    second = mover_page.locator("#display .card-slot").nth(1).locator("summary")
    second.focus()
    mover_page.keyboard.press("Enter")
    next_text = mover_page.locator("#display .card-slot").nth(1).locator(".card-help-text")
    expect(next_text).to_be_visible()
    expect(text).to_be_hidden()

    # A tap on the viewer's trees figure: how it adds up.
    trees = mover_page.locator("#scores tbody tr").first.locator("td").first
    trees.locator("summary").click()
    why = trees.locator(".score-why-text")
    expect(why).to_be_visible()
    expect(why).to_contain_text(f"{newcomer.public_name}, Trees:")
    expect(why).to_contain_text("No trees: 0")
    inside_the_window(mover_page, why)
    mover_page.screenshot(path=str(screenshots / "game-help-open.png"))

    # The newcomer folds the reminder and takes tokens: it stays folded through the redraw,
    # and the waiting page shows the move without a reload.
    reminder.locator("summary").click()
    expect(reminder).not_to_have_attribute("open", "")
    before = waiting_page.locator("#game-version").input_value()
    play_one_step(mover_page, game, 0)
    expect(reminder).not_to_have_attribute("open", "")
    waiting_page.wait_for_function(
        "v => document.getElementById('game-version').value !== v", arg=before, timeout=10_000
    )
    expect(waiting_page.locator("#move-log")).to_contain_text(newcomer.public_name)
    expect(waiting_page.locator("#turn-reminder")).to_have_count(0)

    # The newcomer ends the turn; the veteran's page turns by itself, the reminder folded.
    while True:
        game.refresh_from_db()
        if game.current_seat != next(
            s.position for s in game.seats.all() if s.user_id == newcomer.pk
        ):
            break
        play_one_step(mover_page, game, 0)  # 0: takes a card of the display on the way
    expect(waiting_page.get_by_role("heading", name="Your turn")).to_be_attached(timeout=10_000)
    folded = waiting_page.locator("#turn-reminder")
    expect(folded).to_be_attached()
    expect(folded).not_to_have_attribute("open", "")
    expect(folded.get_by_text("Take the 3 tokens of one space")).to_be_hidden()
    folded.locator("summary").click()
    expect(folded.get_by_text("Take the 3 tokens of one space")).to_be_visible()
    # The card the newcomer took explains itself on the veteran's phone, within the screen.
    taken = waiting_page.locator("#others .card-slot").first
    taken.get_by_text("About").click()
    expect(taken.locator(".card-help-text")).to_contain_text("No cube placed yet")
    inside_the_window(waiting_page, taken.locator(".card-help-text"))
    waiting_page.screenshot(path=str(screenshots / "game-help-veteran-phone.png"))


@pytest.mark.parametrize("width", [360, 1280])
def test_the_help_opened_has_no_serious_accessibility_problem(
    live_server, new_page, screenshots, width
):
    game = start_game(UserFactory(), UserFactory(), spirits=True)
    mover = user_to_move(game)
    page = new_page(width, 800)
    log_in(page, live_server.url, mover.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # First turn of a spirit game: keep a spirit, take tokens, so cards and figures are shown.
    spirit = engine.card(engine.legal_actions(game.engine_state())[0].card_id)
    page.locator(".spirit-choice summary").first.click()
    expect(page.locator(".spirit-choice .card-help-text").first).to_contain_text(spirit.name)
    assert serious_problems(page) == []
    click_and_wait(page, page.get_by_role("button", name=f"Keep {spirit.name}"))

    expect(page.locator("#turn-reminder")).to_have_attribute("open", "")
    slot = page.locator("#display .card-slot").first
    slot.get_by_text("About").click()
    inside_the_window(page, slot.locator(".card-help-text"))
    assert serious_problems(page) == []
    mine = page.locator("#my-cards .card-slot").first
    mine.get_by_text("About").click()
    expect(mine.locator(".card-help-text")).to_contain_text("Its cube is still on the card")
    inside_the_window(page, mine.locator(".card-help-text"))
    figure = page.locator("#scores tbody tr").nth(4).locator("td").first
    figure.locator("summary").click()
    expect(figure.locator(".score-why-text")).to_be_visible()
    inside_the_window(page, figure.locator(".score-why-text"))
    assert serious_problems(page) == []
    figure.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"game-help-scores-{width}.png"))
