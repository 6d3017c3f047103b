"""A vacation, as both players of a timed game see it: the player to move sets "Away until" on
their phone, saves it a second time, and comes back early. The other player's game page is open
the whole time and follows each step without a reload."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games import services
from games.models import Game
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def save_away(page: Page) -> None:
    page.locator("form[action$='/away/']").get_by_role("button", name="Save").click()


def test_a_vacation_set_saved_twice_and_ended_early(live_server, new_page, settings, screenshots):
    settings.GAME_POLL_SECONDS = 1
    ana = UserFactory(username="ana", display_name="Ana")
    ben = UserFactory(username="ben", display_name="Ben")
    game = services.create_game(
        creator=ana, players=2, side="A", spirits=False, invitees=[ben], turn_limit_days=3
    )
    services.join_game(game_id=game.pk, user=ben)
    game.refresh_from_db()
    mover, waiting = (ana, ben) if game.seats.get(user=ana).position == game.current_seat else (
        ben, ana,
    )  # fmt: skip
    deadline = game.turn_deadline

    profile = new_page(width=360, height=800)  # the one going away, on a phone
    log_in(profile, live_server.url, mover.username)
    own_game = profile.context.new_page()
    own_game.goto(live_server.url + game.get_absolute_url())
    watching = new_page(width=1280, height=900)
    log_in(watching, live_server.url, waiting.username)
    watching.goto(live_server.url + game.get_absolute_url())
    expect(watching.get_by_role("heading", name=f"Waiting for {mover.public_name}")).to_be_visible()
    expect(watching.locator(".away-note")).to_have_count(0)

    # 1. Away for five days: the profile says so and the box keeps the date.
    until = timezone.localdate(timezone=mover.tzinfo) + timedelta(days=5)
    label = f"away until {until.day} {until:%B}"
    profile.goto(live_server.url + "/accounts/profile/#away")
    box = profile.get_by_label("Away until")
    box.fill(until.isoformat())
    save_away(profile)
    expect(profile.locator(".messages")).to_contain_text(
        f"You are away until {until:%A} {until.day} {until:%B}"
    )
    expect(profile.get_by_label("Away until")).to_have_value(until.isoformat())
    profile.screenshot(path=str(screenshots / "journey-vacation-phone.png"), full_page=True)

    # The other player's open page hears of it by itself; so does the traveller's own game page.
    expect(watching.locator(".away-note")).to_contain_text(
        f"{mover.public_name} is {label}: the time limit of this turn waits for their return.",
        timeout=10_000,
    )
    expect(watching.locator("#game")).to_contain_text(label)
    expect(own_game.locator(".away-note")).to_contain_text(f"You are {label}", timeout=10_000)
    game.refresh_from_db()
    paused_deadline = game.turn_deadline
    assert paused_deadline > deadline + timedelta(days=4)

    # 2. Saved a second time, unchanged: still away, the clock still waits.
    save_away(profile)
    expect(profile.locator(".messages")).to_contain_text("You are away until")
    expect(profile.get_by_label("Away until")).to_have_value(until.isoformat())
    assert User.objects.get(pk=mover.pk).away_until == until
    game.refresh_from_db()
    assert game.turn_deadline == paused_deadline
    expect(watching.locator(".away-note")).to_contain_text(label)

    # 3. Back early: the box emptied, the clocks run again, and both game pages say so.
    profile.get_by_label("Away until").fill("")
    save_away(profile)
    expect(profile.locator(".messages")).to_contain_text(
        "Welcome back: your turn clocks run again."
    )
    expect(profile.get_by_label("Away until")).to_have_value("")
    expect(watching.locator(".away-note")).to_have_count(0, timeout=10_000)
    expect(watching.locator("#game")).not_to_contain_text(label)
    expect(own_game.locator(".away-note")).to_have_count(0, timeout=10_000)
    game = Game.objects.get(pk=game.pk)
    assert deadline - timedelta(minutes=5) <= game.turn_deadline <= deadline + timedelta(minutes=5)
    assert profile.evaluate("document.documentElement.scrollWidth") <= 360
