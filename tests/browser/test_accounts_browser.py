import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_visitor_signs_up_logs_out_logs_back_in_and_sees_their_profile(
    live_server, new_page, screenshots
):
    page = new_page(width=360, height=740)  # a small phone
    page.goto(live_server.url)
    page.get_by_role("link", name="Create an account").click()

    page.get_by_label("Username").fill("wanderer")
    page.get_by_label("Display name").fill("The Wanderer")
    page.get_by_label("Email address").fill("wanderer@example.com")
    page.locator("#id_password1").fill("mountains-and-rivers-42")
    page.locator("#id_password2").fill("mountains-and-rivers-42")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("Welcome, The Wanderer!")).to_be_visible()

    page.get_by_role("button", name="Log out").click()
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()

    nav.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("wanderer")
    page.get_by_label("Password").fill("mountains-and-rivers-42")
    page.screenshot(path=str(screenshots / "login-phone.png"), full_page=True)
    page.get_by_role("button", name="Log in").click()

    nav.get_by_role("link", name="Profile").click()
    expect(page.get_by_role("heading", name="The Wanderer")).to_be_visible()
    expect(page.get_by_label("Email address")).to_have_value("wanderer@example.com")
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= 360, "nothing should need horizontal scrolling on a phone"
    page.screenshot(path=str(screenshots / "profile-phone.png"), full_page=True)
