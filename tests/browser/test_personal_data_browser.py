"""Download my data, from the profile's button to the file saved by the browser."""

import json
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from games.services import talk
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game
from tests.records.helpers import quick_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_downloads_their_data_from_the_profile(live_server, new_page, screenshots):
    ana = UserFactory(username="ana", display_name="Ana")
    ben = UserFactory(username="ben", display_name="Ben", email="ben.private@ben.example")
    finished = quick_game(ana, ben)
    running = play_turns(start_game(ana, ben), turns=1)
    talk.post(game_id=running.pk, user=ana, text="Your move, Ben.")

    page = new_page(width=360, height=800)
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/accounts/profile/#my-data")
    button = page.get_by_role("button", name="Download my data")
    expect(button).to_be_visible()
    page.locator("#my-data").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "profile-my-data-phone.png"), full_page=True)
    with page.expect_download() as download_info:
        button.click()
    download = download_info.value

    day = timezone.localdate(timezone=ana.tzinfo).isoformat()
    assert download.suggested_filename == f"harmonies-data-ana-{day}.json"
    text = Path(download.path()).read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["account"]["username"] == "ana"
    assert data["account"]["email"] == "ana@example.com"
    games = {entry["id"]: entry for entry in data["games"]}
    assert set(games) == {finished.pk, running.pk}
    assert games[finished.pk]["export"]["seed"] == finished.seed
    assert [seat["name"] for seat in games[running.pk]["seats"]] == [
        seat.user.public_name for seat in running.seats.order_by("position")
    ]
    assert [message["text"] for message in data["talk"]] == ["Your move, Ben."]
    # This very log-in, from this browser, is in the file; Ben's address and Ana's secrets not.
    [log_in_row] = data["log_ins"]["successful"]
    assert "Chrome" in log_in_row["browser"]
    assert "ben.private@ben.example" not in text
    assert User.objects.get(username="ana").password not in text

    # The page stays the profile, ready for whatever the player does next.
    expect(page.get_by_role("heading", name="Ana")).to_be_visible()
