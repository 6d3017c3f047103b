"""The review of a finished game on a phone: asking answers at once (a worker makes it), the page
says how far the bot has got and shows the review by itself when it is ready, then stops asking;
the turns fold so that the page stays a few screens long."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import queue, tasks
from games.engine import review as engine_review
from games.engine.bots.players import HardBot
from games.models import Review
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import play_to_the_end, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 360, 800


@pytest.fixture
def quick_bot(monkeypatch):
    """A hard bot in a hurry: the page is under test here, not the bot (a whole review takes it
    a minute and a half)."""
    hurried = HardBot(budget=0.2, top=1, solo_samples=1, rival_samples=1)
    monkeypatch.setattr(engine_review, "HardBot", lambda **_: hurried)


def test_a_review_answers_at_once_shows_its_progress_then_the_turns_compactly(
    live_server, new_page, quick_bot, monkeypatch, screenshots
):
    queued = []
    monkeypatch.setattr(queue, "send_now", lambda task, *args: queued.append((task, args)))
    player = UserFactory()
    game = play_to_the_end(start_game(player, UserFactory()), seed=3)
    page = new_page(WIDTH, HEIGHT)
    log_in(page, live_server.url, player.username)
    page.goto(f"{live_server.url}/games/{game.pk}/review/")

    page.get_by_role("button", name="Review my turns").click()
    expect(page.locator("#review")).to_contain_text("Your review is queued")
    (args,) = [args for name, args in queued if name == "games.review_seat"]

    review = Review.objects.get(pk=args[0])
    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.RUNNING, started_at=timezone.now(), turns_total=14, turns_done=4
    )
    expect(page.locator("#review")).to_contain_text("Reviewing: turn 5 of 14.", timeout=8_000)
    Review.objects.filter(pk=review.pk).update(status=Review.Status.PENDING)
    tasks.review_seat(*args)  # the worker
    expect(page.locator("#review")).to_contain_text("In short", timeout=8_000)
    expect(page.locator("#review[hx-get]")).to_have_count(0)  # no more asking
    page.screenshot(path=screenshots / "review-360.png", full_page=True)

    turns = page.locator(".review-turn")
    assert turns.count() >= 6
    opened = page.locator(".review-turn details[open]")
    assert 1 <= opened.count() <= 3
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 5 * HEIGHT, f"the review is {height} px tall on a phone"
    # A folded turn opens at a tap, boards side by side within the screen.
    folded_id = page.locator(".review-turn:has(details:not([open]))").first.get_attribute("id")
    folded = page.locator(f"#{folded_id}")
    folded.locator("summary").click()
    boards = folded.locator(".review-compare .board")
    expect(boards).to_have_count(2)
    first, second = (boards.nth(i).bounding_box() for i in range(2))
    assert abs(first["y"] - second["y"]) < 2 and second["x"] + second["width"] <= WIDTH
