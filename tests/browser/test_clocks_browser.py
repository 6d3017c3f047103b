"""The clocks in Chromium, under time-machine: a time bank spent, topped up and run out, and a
weekend pause, with both players' pages open and updating by themselves."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from playwright.sync_api import Page, expect

from games import services, tasks
from games.models import Game
from tests.browser.test_accessibility_browser import serious_problems
from tests.browser.test_play_browser import log_in, play_whole_turn
from tests.factories import UserFactory
from tests.games.helpers import user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PARIS = ZoneInfo("Europe/Paris")
# A Tuesday morning; the clocks tick on from here, so every figure checked keeps a margin.
TUESDAY = datetime(2026, 12, 8, 9, 0, tzinfo=UTC)


def deadline_line(page: Page):
    return page.locator("p.deadline")


def pages_of(new_page, live_server, game: Game, width: int = 1280) -> dict:
    """Each player's game page, logged in and open."""
    pages = {}
    for seat in game.seats.select_related("user"):
        page = new_page(width, 900)
        log_in(page, live_server.url, seat.user.username)
        page.goto(live_server.url + game.get_absolute_url())
        pages[seat.user.pk] = page
    return pages


def test_a_time_bank_game_spends_tops_up_and_runs_out_as_its_clock_says(
    live_server, new_page, settings, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    with time_machine.travel(TUESDAY, tick=True) as traveller:
        ann, bob = UserFactory(), UserFactory()
        page = new_page(360, 800)
        log_in(page, live_server.url, ann.username)
        page.goto(live_server.url + "/games/new/")
        expect(page.get_by_label("Days in each player's bank")).to_be_hidden()
        page.get_by_label("A time bank").check()
        expect(page.get_by_label("Time limit per turn")).to_be_hidden()
        page.get_by_label("Days in each player's bank").fill("2")
        page.get_by_label("Hours added per move").fill("6")
        assert serious_problems(page) == []
        pace = page.locator("fieldset", has_text="Pace")
        pace.screenshot(path=screenshots / "clock-form-360.png")
        page.get_by_label("2nd seat: a friend's username or email address").fill(bob.username)
        page.get_by_role("button", name="Create the game").click()
        expect(page.get_by_text("Clock: A 2-day time bank, +6 h per move.")).to_be_visible()
        page.screenshot(path=screenshots / "clock-bank-table-360.png", full_page=True)
        game = Game.objects.get(created_by=ann)
        services.join_game(game_id=game.pk, user=bob)
        game.refresh_from_db()

        first = user_to_move(game)
        second = bob if first == ann else ann
        pages = pages_of(new_page, live_server, game)
        expect(deadline_line(pages[first.pk])).to_have_text(
            "Time bank: 1 day 23 h left (+6 h per move)."
        )
        # The player waiting sees their own bank after the mover's.
        expect(deadline_line(pages[second.pk])).to_have_text(
            f"{first.public_name}'s time bank: 1 day 23 h left (+6 h per move). Your bank: 2 days."
        )
        pages[second.pk].set_viewport_size({"width": 360, "height": 800})
        pages[second.pk].screenshot(path=screenshots / "clock-bank-waiting-360.png")

        # The first player takes ten and a half hours; the second, one.
        traveller.shift(timedelta(hours=10, minutes=30))
        play_whole_turn(pages[first.pk], game)
        expect(deadline_line(pages[first.pk])).to_have_text(
            f"{second.public_name}'s time bank: 1 day 23 h left (+6 h per move). "
            "Your bank: 1 day 19 h."
        )
        traveller.shift(timedelta(hours=1))
        play_whole_turn(pages[second.pk], game)
        # Back to the first: 2 days, less 10.5 h, plus 6 h, shown without a reload.
        expect(deadline_line(pages[first.pk])).to_have_text(
            "Time bank: 1 day 19 h left (+6 h per move)."
        )
        expect(deadline_line(pages[second.pk])).to_have_text(
            f"{first.public_name}'s time bank: 1 day 19 h left (+6 h per move). Your bank: 2 days."
        )

        # The first player then lets the bank run out: the stand-in plays, the bank restarts
        # from the increment, and the second player's page says it is their turn.
        traveller.shift(timedelta(days=1, hours=20))
        assert tasks.sweep_timeouts() == 1
        expect(deadline_line(pages[second.pk])).to_have_text(
            "Time bank: 1 day 23 h left (+6 h per move)."
        )
        expect(pages[first.pk].locator("#log")).to_contain_text("stand-in")
        traveller.shift(timedelta(minutes=30))
        play_whole_turn(pages[second.pk], game)
        expect(deadline_line(pages[first.pk])).to_have_text(
            "Time bank: 5 h 59 min left (+6 h per move)."
        )
        pages[first.pk].screenshot(path=screenshots / "clock-bank-after-timeout.png")

        # Two timed turns each: My games forecasts the end from that pace.
        mine = pages[second.pk]
        mine.goto(live_server.url + reverse("games:mine"))
        expect(mine.locator(".game-item", has_text=game.title)).to_contain_text("ends about")
        assert serious_problems(mine) == []


def test_a_weekend_pause_stops_the_clock_until_monday_in_the_players_time_zone(
    live_server, new_page, settings
):
    settings.GAME_POLL_SECONDS = 1
    friday_evening = datetime(2026, 12, 11, 18, 0, tzinfo=PARIS)
    with time_machine.travel(friday_evening, tick=True) as traveller:
        ann, bob = UserFactory(time_zone="Europe/Paris"), UserFactory(time_zone="Europe/Paris")
        page = new_page(1280, 900)
        log_in(page, live_server.url, ann.username)
        page.goto(live_server.url + "/games/new/")
        page.get_by_label("Time limit per turn").select_option("1")
        page.get_by_label("Pause at weekends").check()
        page.get_by_label("2nd seat: a friend's username or email address").fill(bob.username)
        page.get_by_role("button", name="Create the game").click()
        expect(page.get_by_text("Clock: 1 day per turn, paused at weekends.")).to_be_visible()
        game = Game.objects.get(created_by=ann)
        services.join_game(game_id=game.pk, user=bob)
        game.refresh_from_db()
        # Six hours on Friday, then eighteen from Monday 00:00.
        monday_evening = datetime(2026, 12, 14, 18, 0, tzinfo=PARIS)
        assert abs(game.turn_deadline - monday_evening) < timedelta(minutes=1)

        first = user_to_move(game)
        second = bob if first == ann else ann
        traveller.move_to(datetime(2026, 12, 13, 20, 0, tzinfo=PARIS))  # Sunday evening
        assert tasks.sweep_timeouts() == 0  # more than a day has gone by, but not on the clock
        pages = pages_of(new_page, live_server, game)
        expect(deadline_line(pages[first.pk])).to_have_text(
            "Time left for this turn: 18 h. Paused for the weekend until Monday 00:00 your time."
        )
        expect(deadline_line(pages[second.pk])).to_contain_text(
            f"Paused for {first.public_name}'s weekend until Monday 00:00 your time."
        )
        # Played on Sunday: the next turn's whole day waits for Monday, on both pages.
        play_whole_turn(pages[first.pk], game)
        expect(deadline_line(pages[second.pk])).to_have_text(
            "Time left for this turn: 1 day. Paused for the weekend until Monday 00:00 your time."
        )
        game.refresh_from_db()
        assert game.turn_deadline == datetime(2026, 12, 15, 0, 0, tzinfo=PARIS)

        traveller.move_to(datetime(2026, 12, 14, 23, 0, tzinfo=PARIS))  # Monday 23:00
        assert tasks.sweep_timeouts() == 0
        traveller.move_to(datetime(2026, 12, 15, 0, 1, tzinfo=PARIS))
        assert tasks.sweep_timeouts() == 1
        # The stand-in played the second player's turn: the first player's page says so.
        expect(deadline_line(pages[first.pk])).to_contain_text("Time left for this turn: 23 h")
        expect(pages[first.pk].locator("#log")).to_contain_text("stand-in")


@pytest.mark.parametrize("width", [360, 1280])
def test_the_weekend_pause_shows_only_with_a_clock_to_pause(
    live_server, new_page, screenshots, width
):
    ann = UserFactory()
    page = new_page(width, 900)
    log_in(page, live_server.url, ann.username)
    page.goto(live_server.url + "/games/new/")
    pause = page.get_by_label("Pause at weekends")
    limit = page.get_by_label("Time limit per turn")
    expect(limit).to_have_value("")  # no time limit at first: nothing to pause
    expect(pause).to_be_hidden()
    limit.select_option("3")
    expect(pause).to_be_visible()
    pause.check()
    page.locator("fieldset", has_text="Pace").screenshot(
        path=screenshots / f"clock-pause-{width}.png"
    )
    # Back to no limit: the ticked box hides and is not posted, so the game is created.
    limit.select_option("")
    expect(pause).to_be_hidden()
    page.get_by_label("A time bank").check()
    expect(pause).to_be_visible()
    expect(pause).to_be_checked()
    page.get_by_label("A limit per turn").check()
    expect(pause).to_be_hidden()
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_text("needs a time limit")).to_have_count(0)
    game = Game.objects.get(created_by=ann)
    assert (game.clock, game.turn_limit_days, game.pause_weekends) == ("turn", None, False)


def test_without_scripts_a_pause_with_no_limit_is_refused_in_words(live_server, browser):
    ann = UserFactory()
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 800})
    page = context.new_page()
    try:
        log_in(page, live_server.url, ann.username)
        page.goto(live_server.url + "/games/new/")
        pause = page.get_by_label("Pause at weekends")
        expect(pause).to_be_visible()
        pause.check()
        page.get_by_role("button", name="Create the game").click()
        expect(
            page.get_by_text("Pausing at weekends needs a time limit or a time bank.")
        ).to_be_visible()
        assert not Game.objects.filter(created_by=ann).exists()
    finally:
        context.close()
