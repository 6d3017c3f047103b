"""axe-core (shipped inside axe-playwright-python, nothing downloaded) finds no serious or critical
accessibility problem on the pages a player uses most, at a phone's and a desktop's width."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from games import services
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import play_to_the_end, start_game, user_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def serious_problems(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("width", [360, 1280])
def test_the_main_pages_have_no_serious_accessibility_problem(live_server, new_page, width):
    ann, bob = UserFactory(), UserFactory()
    live = start_game(ann, bob)
    over = play_to_the_end(start_game(ann, bob))
    viewer = user_to_move(live)
    services.play(
        game_id=live.pk,
        user=viewer,
        action={"type": "take_tokens", "space": 0},
        expected_version=live.version,
    )
    live.refresh_from_db()
    colour = live.engine_state().hand[0]
    page = new_page(width, 800)
    log_in(page, live_server.url, viewer.username)

    problems = {}
    for path in (
        f"/games/{live.pk}/?token={colour}",
        "/games/new/",
        f"/games/{over.pk}/sheet/",
        f"/games/{over.pk}/",
    ):
        page.goto(live_server.url + path)
        problems[path] = serious_problems(page)

    assert problems == {path: [] for path in problems}
