"""The calendar address on the profile, on a phone and a desktop."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
def test_a_player_gets_renews_and_turns_off_their_calendar_address(
    live_server, new_page, screenshots, width
):
    user = UserFactory(username="planner")
    page = new_page(width=width, height=800)
    log_in(page, live_server.url, "planner")
    page.goto(f"{live_server.url}/accounts/profile/#calendar")
    page.get_by_role("button", name="Get a calendar address").click()
    expect(page.get_by_text("Your calendar address is ready.")).to_be_visible()
    address = page.get_by_label("Your calendar address")
    first = address.input_value()
    assert (
        first == f"http://127.0.0.1:8000/calendar/{User.objects.get(pk=user.pk).calendar_token}.ics"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#calendar").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"profile-calendar-{width}.png"), full_page=True)

    page.get_by_role("button", name="Get a new address").click()
    expect(page.get_by_text("the old one no longer works")).to_be_visible()
    assert page.get_by_label("Your calendar address").input_value() != first
    feed = page.request.get(live_server.url + first.removeprefix("http://127.0.0.1:8000"))
    assert feed.status == 404

    page.get_by_role("button", name="Turn it off").click()
    expect(page.get_by_role("button", name="Get a calendar address")).to_be_visible()
