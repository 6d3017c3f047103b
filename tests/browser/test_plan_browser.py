"""A private plan in the browser: Alice, waiting, writes notes and pencils tokens on her plan pad
while Bob's page stays as it was and never holds any of it; when her turn comes her page shows
by itself which pencilled hexes the central board now allows, outlined on her board. The notes
work without JavaScript too, and the pages pass axe at a phone's width."""

import pytest
from playwright.sync_api import Page, expect

from games import engine
from games.models import Plan
from games.presenters.plans import PENCIL_CLASS
from tests.browser.test_accessibility_browser import serious_problems
from tests.browser.test_play_browser import log_in
from tests.factories import PASSWORD, UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTE = "Alice's secret: herons by the lake, fields on the right"


def fetch(page: Page, path: str, htmx: bool = False) -> str:
    headers = {"HX-Request": "true"} if htmx else {}
    return page.request.get(path, headers=headers).text()


def test_alice_plans_while_waiting_bob_sees_nothing_and_her_turn_shows_what_is_possible(
    live_server, new_page, settings, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    alice, bob = UserFactory(display_name="Alice"), UserFactory(display_name="Bob")
    game = start_game(alice, bob)
    if user_to_move(game) == alice:
        game = play_turns(game, turns=1)
    base = live_server.url
    url = base + game.get_absolute_url()
    alice_page, bob_page = new_page(360, 800), new_page()
    for page, user in ((alice_page, alice), (bob_page, bob)):
        log_in(page, base, user.username)
        page.goto(url)
    bob_version = bob_page.locator("#game-version").input_value()

    # Alice's notes, saved with htmx: the status line says so, nothing else moves.
    alice_page.get_by_label("Notes").fill(NOTE)
    alice_page.get_by_role("button", name="Save my notes").click()
    expect(alice_page.locator("#plan-saved")).to_contain_text("Saved at")
    # 100,000 characters, posted past the box's own limit: refused with the limit, not stored.
    alice_page.locator("#plan-notes-text").evaluate(
        "(box) => { box.removeAttribute('maxlength'); box.value = 'x'.repeat(100000); }"
    )
    alice_page.get_by_role("button", name="Save my notes").click()
    expect(alice_page.locator("#plan-saved")).to_contain_text("the limit is 5,000")
    assert Plan.objects.get(seat__user=alice).notes == NOTE

    # The plan pad: choose a colour, tap a ringed hex; a second token stacks on it.
    alice_page.get_by_role("link", name="Open the plan pad").click()
    expect(alice_page.get_by_role("heading", name="Pencil a token")).to_be_visible()
    position = game.seats.get(user=alice).position
    geo = engine.geometry(game.side)
    stacks = game.engine_state().players[position].stacks
    empty = [geo.names[i] for i, s in enumerate(stacks) if not s]
    alice_page.get_by_role("link", name="trunk").click()
    alice_page.locator(f'#pad g.hex-target[data-cell="{empty[0]}"]').click()
    expect(alice_page.locator(f'#pad g.{PENCIL_CLASS}[data-cell="{empty[0]}"]')).to_be_visible()
    alice_page.get_by_role("link", name="foliage").click()
    alice_page.locator(f'#pad g.hex-target[data-cell="{empty[0]}"]').click()
    expect(alice_page.locator("#pad .plan-rows li")).to_have_count(2)
    alice_page.get_by_role("link", name="water").click()
    alice_page.locator(f'#pad g.hex-target[data-cell="{empty[1]}"]').click()
    expect(alice_page.locator("#pad .plan-rows li")).to_have_count(3)
    # Foliage on foliage is no hex to tap; a forged stroke is refused in words, nothing stored.
    expect(alice_page.locator(f'#pad g.hex-target[data-cell="{empty[0]}"]')).to_have_count(0)
    token = next(c["value"] for c in alice_page.context.cookies() if c["name"] == "csrftoken")
    pencil = f"{base}/games/{game.pk}/plan/pencil/"
    for form in ({"cell": empty[0], "colour": "green"}, {"cell": empty[2], "colour": "pink"}):
        refused = alice_page.request.post(
            pencil, form=form, headers={"X-CSRFToken": token, "Referer": pencil}
        )
        assert refused.status == 400 and "Not possible" in refused.text()
    assert len(Plan.objects.get(seat__user=alice).marks) == 3
    assert serious_problems(alice_page) == []
    alice_page.screenshot(path=str(screenshots / "plan-pad-360.png"), full_page=True)

    # Bob's page was never redrawn for it, and nothing he can fetch holds any of it.
    assert bob_page.locator("#game-version").input_value() == bob_version
    for text in (
        bob_page.content(),
        fetch(bob_page, url + "?fragment=game", htmx=True),
        fetch(bob_page, f"{base}/games/{game.pk}/poll/?v=0"),
        fetch(bob_page, f"{base}/games/{game.pk}/talk/"),
        fetch(bob_page, f"{base}/games/{game.pk}/plan/"),
    ):
        assert NOTE not in text and PENCIL_CLASS not in text and "Pencilled on" not in text

    # Bob ends his turn: Alice's game page (open again) turns to her turn by itself and tells
    # which of her pencilled tokens the central board allows, ringed on her board.
    alice_page.goto(url)
    expect(alice_page.locator("#controls")).to_contain_text("Waiting for Bob")
    game = play_turns(game, turns=1)
    expect(alice_page.locator("#controls")).to_contain_text("Your turn", timeout=10_000)
    rows = alice_page.locator("#plan .plan-row")
    expect(rows).to_have_count(3)
    central = game.engine_state().central
    for row, colour in zip(rows.all(), ("brown", "green", "blue"), strict=True):
        spaces = [str(i + 1) for i, space in enumerate(central) if colour in space]
        if spaces:
            expect(row).to_contain_text(f"{', '.join(spaces)} of the central board")
        else:
            expect(row).to_contain_text("no space of the central board offers one")
    expect(alice_page.locator(f"#my-board g.{PENCIL_CLASS}")).to_have_count(2)
    assert serious_problems(alice_page) == []
    alice_page.screenshot(path=str(screenshots / "plan-turn-360.png"), full_page=True)
    assert alice_page.evaluate("document.scrollingElement.scrollWidth") <= 360
    bob_html = bob_page.content()
    assert PENCIL_CLASS not in bob_html and NOTE not in bob_html


def test_the_notes_work_without_javascript(live_server, browser):
    alice, bob = UserFactory(), UserFactory()
    game = start_game(alice, bob)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(alice.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + game.get_absolute_url())
    page.get_by_label("Notes").fill("Plain form, no script")
    page.get_by_role("button", name="Save my notes").click()
    expect(page.get_by_label("Notes")).to_have_value("Plain form, no script")
    assert page.url.endswith(f"/games/{game.pk}/#plan")
    # The pad's plain form pencils too.
    page.get_by_role("link", name="Open the plan pad").click()
    page.get_by_role("link", name="field").click()
    page.get_by_role("button", name="Pencil it").click()
    expect(page.locator("#pad .plan-rows li")).to_have_count(1)
    assert "colour=yellow" in page.url
    context.close()
