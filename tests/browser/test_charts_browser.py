"""The charts in Chromium: a player's profile (rating history, averages against all players,
best boards) and the score sheet's points by turn, at a phone's and a desktop's width, read by
each player of the game, with no serious accessibility problem and no sideways scrolling."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.browser.test_accessibility_browser import serious_problems
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.records.helpers import quick_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fits(page: Page, width: int) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [360, 1280])
def test_players_see_their_charts_on_the_profile_and_the_sheet(
    live_server, new_page, screenshots, width
):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob", display_name="Bob <B>")
    start = timezone.now() - timedelta(days=5)
    for day in range(4):  # four rated games, won in turn
        order = (ann, bob) if day % 2 else (bob, ann)
        quick_game(*order, seed=day + 1, finished_at=start + timedelta(days=day))
    quick_game(ann, seed=11, spirits=True)
    pages = {}
    for user in (ann, bob):
        pages[user.username] = new_page(width, 900)
        log_in(pages[user.username], live_server.url, user.username)

    # Bob looks at Ann's profile: four rated games, two sets of averages, her best boards.
    page = pages["bob"]
    page.goto(f"{live_server.url}/players/ann/")
    charts = page.locator("section.charts")
    expect(charts.get_by_role("heading", name="How ann plays")).to_be_visible()
    rating = charts.get_by_role("img", name="ann's rating after each game against players")
    expect(rating).to_be_visible()
    expect(rating.locator("circle.chart-point")).to_have_count(4)
    expect(
        charts.get_by_role("img", name="in multiplayer games, against all players")
    ).to_be_visible()
    expect(charts.get_by_role("img", name="in solo games, against all players")).to_be_visible()
    figures = charts.locator("details.chart-figures").first
    figures.locator("summary").click()
    expect(figures.get_by_role("row")).to_have_count(5)  # the header and four games
    boards = charts.locator(".best-boards a")
    expect(boards).to_have_count(4)  # three multiplayer games, one solo
    assert fits(page, width)
    assert serious_problems(page) == []
    page.screenshot(path=str(screenshots / f"charts-profile-{width}.png"), full_page=True)

    # A best board opens its score sheet, where Bob's name is drawn escaped in the legend.
    boards.first.click()
    expect(page.get_by_role("heading", name="Points by turn")).to_be_visible()
    sheet_url = page.url
    for name in ("ann", "bob"):
        other = pages[name]
        other.goto(sheet_url)
        chart = other.get_by_role("img", name="Each player's points after each turn")
        expect(chart).to_be_visible()
        expect(chart.locator("g.chart-series")).to_have_count(2)
        expect(chart.locator("text", has_text="Bob <B>")).to_have_count(1)
        other.get_by_text("The figures").click()
        expect(
            other.locator(".chart-figures").get_by_role("columnheader", name="Bob <B>")
        ).to_be_visible()
        assert fits(other, width)
        assert serious_problems(other) == []
    pages["ann"].screenshot(path=str(screenshots / f"charts-sheet-{width}.png"), full_page=True)
