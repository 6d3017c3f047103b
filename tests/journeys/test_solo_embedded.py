"""A solo evening on the embedded default, for real: `make run`'s processes (Procfile.dev under
honcho: the development server, the two workers and beat, on the filesystem broker and the file
cache, with nothing set) serve a fresh SQLite site in a folder of its own. The player asks for a
hint (the page answers at once and shows the plan by itself, its hexes outlined on the board),
plays on, ends the game, and asks for a review of their turns: the page answers at once, says how
far the bot has got and shows the review when the worker has made it. No request waits for a bot.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.factories import PASSWORD
from tests.site.test_embedded_worker import SHAPING, manage

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

MAKE_PLAYER = f"""
from django.utils import timezone
from accounts.models import User
user = User.objects.create_user("sol", "sol@example.com", {PASSWORD!r}, display_name="Sol")
User.objects.filter(pk=user.pk).update(email_confirmed_at=timezone.now())
"""

# The rest of a solo game through the writer, as if played on: three more turns, then resigned.
PLAY_ON = """
from games.models import Game
from games import services
from tests.games.helpers import play_turns
game = Game.objects.get()
play_turns(game, turns=3, seed=5)
services.resign(game_id=game.pk, user=game.seats.get().user)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def embedded_site(tmp_path):
    """The whole site as `make run` starts it, on its own port and folder; always stopped."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in SHAPING}
    env.update(VAR_DIR=str(tmp_path), SITE_URL=url, PORT=str(port), PYTHONUNBUFFERED="1")
    manage(env, "migrate", "--no-input", "-v", "0")
    manage(env, "shell", "--no-imports", "-c", MAKE_PLAYER)
    log = tmp_path / "honcho.log"
    honcho = str(Path(sys.executable).parent / "honcho")
    with log.open("w") as out:
        site = subprocess.Popen(
            [honcho, "-f", "Procfile.dev", "start", "-p", str(port)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/accounts/login/", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or site.poll() is not None:
                    raise AssertionError("the site did not start:\n" + log.read_text()) from None
                time.sleep(0.3)
        yield url, env, log
    finally:
        os.killpg(site.pid, signal.SIGTERM)
        try:
            site.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(site.pid, signal.SIGKILL)
            site.wait()


def test_a_solo_game_with_a_hint_and_a_review_on_the_embedded_default(
    embedded_site, new_page, screenshots
):
    url, env, log = embedded_site
    page = new_page(width=360, height=800)
    page.goto(url + "/accounts/login/")
    page.get_by_label("Username").fill("sol")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(url + "/games/new/")
    page.get_by_label("Solo").check()
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_role("heading", name="Your turn")).to_be_visible()

    # The hint: the button answers at once; a bots worker thinks; the page shows the plan itself.
    started = time.monotonic()
    page.get_by_role("button", name="Ask the hard bot for a hint").click()
    expect(page.locator("#hint.is-thinking")).to_contain_text("The hard bot is thinking…")
    assert time.monotonic() - started < 3, "the hint's request waited for the bot"
    expect(page.locator("#hint")).to_contain_text("The hard bot would:", timeout=60_000)
    expect(page.locator("#my-board g.hex-suggested").first).to_be_visible()
    page.screenshot(path=str(screenshots / "journey-solo-embedded-hint.png"), full_page=False)

    # Played on (through the writer, in the site's own database), then ended: the page follows.
    manage(env, "shell", "--no-imports", "-c", PLAY_ON)
    expect(page.locator("#controls .turn-banner")).to_have_text("Game over", timeout=20_000)
    expect(page.locator("#final")).to_contain_text("Sol resigned")

    # The review: asked for, answered at once, progress, then the review by itself.
    page.get_by_role("link", name="Review my turns with the hard bot").click()
    started = time.monotonic()
    page.get_by_role("button", name="Review my turns").click()
    expect(page.locator("#review")).to_contain_text("Your review is queued")
    assert time.monotonic() - started < 3, "the review's request waited for the bot"
    expect(page.locator("#review")).to_contain_text("Reviewing: turn", timeout=60_000)
    expect(page.locator("#review")).to_contain_text("In short", timeout=180_000)
    expect(page.locator("#review[hx-get]")).to_have_count(0)  # it stops asking
    page.screenshot(path=str(screenshots / "journey-solo-embedded-review.png"), full_page=True)
    worked = log.read_text()
    assert "games.make_hint" in worked and "games.review_seat" in worked  # by the workers
