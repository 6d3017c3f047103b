"""The guided first game in Chromium: from sign-up to its score sheet explained, with a second
tab on the same lesson that follows without a reload, a reload in the middle, a step done out of
order, axe on the guide at a phone's and a desktop's width, and the whole lesson without
JavaScript on a phone."""

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from games.services import guide as lessons
from tests.browser.test_accessibility_browser import serious_problems
from tests.browser.test_play_browser import click_and_wait, click_target, log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def guide_says(page: Page, words: str) -> None:
    expect(page.locator("#guide")).to_contain_text(words)


def outlined(page: Page, selector: str) -> bool:
    """Whether guide.css outlines the part the step means."""
    style = page.locator(selector).first.evaluate("e => getComputedStyle(e).outlineStyle")
    return style == "dashed"


def place(page: Page, colour: str, cell: str) -> None:
    page.get_by_label(f"Select {colour} token").first.click()
    click_target(page, "token", cell)


def test_a_newcomer_learns_from_sign_up_to_the_score_sheet(
    live_server, new_page, screenshots, settings
):
    settings.GAME_POLL_SECONDS = 1
    page = new_page(width=1280, height=900)
    page.goto(live_server.url)
    page.get_by_role("link", name="Sign up and take the lesson").click()
    page.get_by_label("Username").fill("learner")
    page.get_by_label("Email address").fill("learner@example.com")
    page.locator("#id_password1").fill("mountains-and-rivers-42")
    page.locator("#id_password2").fill("mountains-and-rivers-42")
    page.get_by_role("button", name="Sign up").click()
    offer = page.get_by_role("heading", name="New to Harmonies? Learn it in five minutes")
    expect(offer).to_be_visible()
    page.get_by_role("button", name="Start the guided game").click()

    guide_says(page, "Now: Take a space.")
    assert outlined(page, "#central")
    game = Game.objects.get(guided=True)
    # A second tab on the same lesson: it follows every step by itself.
    other = page.context.new_page()
    other.goto(f"{live_server.url}/games/{game.pk}/")
    guide_says(other, "Now: Take a space.")

    click_and_wait(page, page.locator("#central button").nth(0))
    guide_says(page, "Now: Place a token.")
    guide_says(page, "put the brown token down first")
    assert outlined(page, "#hand")
    guide_says(other, "Now: Place a token.")

    place(page, "brown", "2,2")
    guide_says(page, "Now: Stack a token.")
    place(page, "green", "2,2")
    guide_says(page, "Now: Take an animal card.")
    assert outlined(page, "#display")
    page.screenshot(path=str(screenshots / "guide-take-a-card.png"), full_page=True)

    page.reload()  # in the middle: the guide is where the board is
    guide_says(page, "Now: Take an animal card.")
    guide_says(page, "step 4 of 7")

    click_and_wait(page, page.get_by_role("button", name="Take Koala"))
    guide_says(page, "Now: Place an animal cube.")
    guide_says(page, "Build the habitat drawn on your Koala card")
    place(page, "green", "1,1")
    guide_says(page, "Your board has the Koala habitat")
    assert outlined(page, "#my-cards")

    # The other tab, up to date by its poll, places the cube: the first one follows.
    guide_says(other, "Your board has the Koala habitat")
    other.locator("#my-cards").get_by_role("link", name="Place a cube").click()
    click_target(other, "cube", "2,2")
    guide_says(other, "Now: End your turn.")
    guide_says(page, "Now: End your turn.")
    assert outlined(page, "#controls form .button >> text=End my turn")

    click_and_wait(page, page.get_by_role("button", name="End my turn"))
    guide_says(page, "Now: Read the scores.")
    assert outlined(page, "#scores")
    page.get_by_role("button", name="Finish the lesson").click()

    expect(page.get_by_role("heading", name="Your score sheet, line by line")).to_be_visible()
    guide_says(page, "Trees: 4 points")
    guide_says(page, "Koala has 1 of 4 cubes placed")
    expect(page.get_by_role("link", name="Start a real game")).to_be_visible()
    expect(page.locator("#final")).to_contain_text("it was a guided first game")
    # The other tab hears the end too, without a reload.
    expect(other.get_by_role("heading", name="Your score sheet, line by line")).to_be_visible()
    page.screenshot(path=str(screenshots / "guide-score-sheet.png"), full_page=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.uncounted == Game.Uncounted.GUIDED

    page.get_by_role("link", name="Start a real game").click()
    expect(page.get_by_role("button", name="Create the game")).to_be_visible()


def test_a_step_done_out_of_order_is_told_and_nothing_breaks(live_server, new_page, screenshots):
    learner = UserFactory(username="learner")
    lessons.start_guided_game(learner)
    page = new_page(width=360, height=780)
    log_in(page, live_server.url, "learner")
    page.get_by_role("link", name="Resume the guided game").click()
    guide_says(page, "Now: Take a space.")
    click_and_wait(page, page.get_by_role("button", name="Take Koala"))
    guide_says(page, "Done ahead of the lesson's order: take an animal card.")
    guide_says(page, "Now: Take a space.")
    # On a phone the guide is above the board.
    guide_top = page.locator("#guide").bounding_box()["y"]
    assert guide_top < page.locator("#my-board").bounding_box()["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(screenshots / "guide-phone.png"), full_page=True)


@pytest.mark.parametrize("width", [360, 1280])
def test_the_guide_has_no_serious_accessibility_problem(live_server, new_page, width):
    learner = UserFactory(username="learner")
    game = lessons.start_guided_game(learner)
    page = new_page(width, 800)
    log_in(page, live_server.url, "learner")
    problems = {"my games": serious_problems(page)}
    page.goto(f"{live_server.url}/games/{game.pk}/")
    click_and_wait(page, page.locator("#central button").nth(0))
    problems["a step"] = serious_problems(page)
    game.refresh_from_db()
    lessons.finish_lesson(game_id=game.pk, user=learner, expected_version=game.version)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.get_by_role("heading", name="Your score sheet, line by line")).to_be_visible()
    problems["the sheet"] = serious_problems(page)
    assert problems == {name: [] for name in problems}


def test_the_whole_lesson_works_without_javascript_on_a_phone(live_server, browser, screenshots):
    """Plain forms and links, at 360 px: every step reads as text (the hex to stack on is named
    as the list names it), the sheet is explained, and "Take the lesson again" is the lesson."""
    learner = UserFactory(username="learner")
    game = lessons.start_guided_game(learner)
    context = browser.new_context(viewport={"width": 360, "height": 780}, java_script_enabled=False)
    context.set_default_timeout(10_000)
    page = context.new_page()
    log_in(page, live_server.url, "learner")
    page.get_by_role("link", name="Resume the guided game").click()
    guide_says(page, "Now: Take a space.")

    def place(colour: str, cell: str) -> None:
        page.get_by_label(f"Select {colour} token").first.click()
        page.locator("#hand select[name=cell]").select_option(value=cell)
        page.locator("#hand").get_by_role("button", name="Place").click()

    page.get_by_role("button", name="Take space 1").click()
    guide_says(page, "Now: Place a token.")
    place("brown", "2,2")
    guide_says(page, "Now: Stack a token.")
    guide_says(page, "The green token can go on your brown token in column 3, 3rd from the top.")
    place("green", "2,2")
    guide_says(page, "Now: Take an animal card.")
    page.get_by_role("button", name="Take Koala").click()
    guide_says(page, "Now: Place an animal cube.")
    place("green", "1,1")
    guide_says(page, "Your board has the Koala habitat")
    page.locator("#my-cards").get_by_role("link", name="Place a cube").click()
    page.locator("#my-cards").get_by_role("button", name="Place").click()
    guide_says(page, "Now: End your turn.")
    page.get_by_role("button", name="End my turn").click()
    guide_says(page, "Now: Read the scores.")
    page.get_by_role("button", name="Finish the lesson").click()
    guide_says(page, "Trees: 4 points")
    guide_says(page, "This board would have made 3 suns")
    page.screenshot(path=str(screenshots / "guide-no-js-sheet-360.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.get_by_role("button", name="Take the lesson again").click()
    guide_says(page, "Now: Take a space.")
    again = Game.objects.get(guided=True, status=Game.Status.ACTIVE)
    assert again.pk != game.pk and page.url.endswith(again.get_absolute_url())
    context.close()
