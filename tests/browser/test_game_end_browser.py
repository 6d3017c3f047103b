"""Every early end of a game, seen by every person at the table: the game page says Game over with
the reason and the stored ranking, offers no turn control and stops polling. The games are driven
through the services (fast); the browser only looks, or clicks the button that ends the game."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games import services
from games.models import Game
from games.services.bots import bots_for
from tests.factories import PASSWORD, UserFactory
from tests.games.helpers import play_to_the_end, play_turns, start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def people(db):
    return [UserFactory(username=name) for name in ("ann", "bob", "cat", "dan")]


@pytest.fixture
def pages(new_page, live_server):
    """One logged-in page per person, opened on first use."""
    opened: dict[str, Page] = {}

    def page_of(user) -> Page:
        if user.username not in opened:
            page = new_page()
            page.goto(f"{live_server.url}/accounts/login/")
            page.get_by_label("Username").fill(user.username)
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url(lambda url: "/accounts/login/" not in url)
            opened[user.username] = page
        return opened[user.username]

    return page_of


def expect_game_over(page: Page, game: Game, reason: str) -> None:
    """The finished page: Game over, the reason, the stored ranking, no controls, no polling."""
    expect(page.locator("#controls .turn-banner")).to_have_text("Game over")
    expect(page.locator("#final .end-reason")).to_contain_text(reason)
    stored = [
        seat.user.public_name
        for seat in game.seats.select_related("user").order_by("rank", "position")
    ]
    lines = page.locator("#final .ranking li")
    expect(lines).to_have_count(len(stored))
    for index, name in enumerate(stored):
        expect(lines.nth(index)).to_contain_text(name)
    expect(page.get_by_role("link", name="Full score sheet")).to_be_visible()
    expect(page.get_by_role("link", name="Replay the game")).to_be_visible()
    for control in ("#central", "#hand", "#display", "details.resign"):
        expect(page.locator(control)).to_have_count(0)
    expect(page.get_by_role("button", name="End my turn")).to_have_count(0)
    assert page.locator("#poll").get_attribute("hx-trigger") is None


def check_everyone(pages, live_server, game: Game, reason: str) -> None:
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    for seat in game.seats.select_related("user"):
        if seat.user.is_bot:
            continue
        page = pages(seat.user)
        page.goto(live_server.url + game.get_absolute_url())
        expect_game_over(page, game, reason)


def test_every_early_end_reads_game_over_for_everyone(people, pages, live_server, settings):
    settings.GAME_POLL_SECONDS = 1
    ann, bob, cat, dan = people

    # Two players, the one to move resigns at move 0 while the other's page is open.
    game = start_game(ann, bob)
    mover = user_to_move(game)
    watcher = bob if mover == ann else ann
    watching = pages(watcher)
    watching.goto(live_server.url + game.get_absolute_url())
    expect(watching.locator("#controls .turn-banner")).to_contain_text("Waiting for")
    resigning = pages(mover)
    resigning.goto(live_server.url + game.get_absolute_url())
    resigning.get_by_text("Resign from this game").click()
    resigning.get_by_role("button", name="Resign").click()
    game.refresh_from_db()
    expect_game_over(resigning, game, f"{mover.public_name} resigned in round 1")
    # The page left open turns into the finished page by its own poll, and then stops polling.
    expect(watching.locator("#controls .turn-banner")).to_have_text("Game over", timeout=8_000)
    expect_game_over(watching, game, "the game was abandoned")

    # Two players, mid-game, the one waiting resigns.
    game = start_game(ann, bob)
    play_turns(game, turns=7)
    waiting = bob if user_to_move(game) == ann else ann
    services.resign(game_id=game.pk, user=waiting)
    check_everyone(pages, live_server, game, f"{waiting.public_name} resigned in round 4")

    # Three players: one resigns, the two others play to the natural end.
    game = start_game(ann, bob, cat)
    services.resign(game_id=game.pk, user=cat)
    play_to_the_end(game, seed=1)
    check_everyone(pages, live_server, game, "played to its end")
    assert game.seats.get(user=cat).rank == 3

    # Four players, two resign; the last two finish the game.
    game = start_game(ann, bob, cat, dan)
    play_turns(game, turns=4)
    services.resign(game_id=game.pk, user=dan)
    services.resign(game_id=game.pk, user=cat)
    play_to_the_end(game, seed=2)
    check_everyone(pages, live_server, game, "played to its end")
    assert {game.seats.get(user=cat).rank, game.seats.get(user=dan).rank} == {3, 4}

    # The last person leaves a table of bots.
    game = services.create_game(
        creator=ann, players=3, side="A", spirits=False, bots=bots_for(["easy", "medium"])
    )
    services.resign(game_id=game.pk, user=ann)
    check_everyone(pages, live_server, game, "Ann resigned")

    # Solo.
    game = services.create_game(creator=bob, players=1, side="B", spirits=False)
    play_turns(game, turns=3)
    services.resign(game_id=game.pk, user=bob)
    check_everyone(pages, live_server, game, "Bob resigned in round 4")

    # "End the game now" after a turn ran out of time, clicked on the page.
    game = services.create_game(
        creator=ann, players=2, side="A", spirits=False, invitees=[bob], turn_limit_days=1
    )
    services.join_game(game_id=game.pk, user=bob)
    late = user_to_move(game)
    ender = bob if late == ann else ann
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(minutes=1))
    page = pages(ender)
    page.goto(live_server.url + game.get_absolute_url())
    page.get_by_role("button", name="End the game now").click()
    game.refresh_from_db()
    expect_game_over(page, game, f"ended after {late.public_name}'s turn ran out of time")
    check_everyone(pages, live_server, game, f"ended after {late.public_name}'s turn ran out")
