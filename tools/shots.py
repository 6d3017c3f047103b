"""`make shots`: the main pages and every email, at a phone's and a desktop's width, as PNG files.

Builds a throwaway SQLite site (`var/shots.sqlite3`) from a seeded demo, serves it with runserver on
127.0.0.1:8799, and has Debian's chromium (Playwright, never a downloaded browser) log in and take a
full-page picture of each page at 360 and 1280 px into `test-results/shots/`. The emails sent
while the demo was played are rendered from their HTML parts: the whole site in a minute.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browsers import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the suite's own launch)

DB = ROOT / "var" / "shots.sqlite3"
OUT = ROOT / "test-results" / "shots"
PORT = 8799
BASE = f"http://127.0.0.1:{PORT}"
PASSWORD = "harmonies-shots"
WIDTHS = {"phone": (360, 800), "desktop": (1280, 900)}

ENV = {
    **os.environ,
    "DATABASE_URL": f"sqlite:///{DB}",
    "DEBUG": "true",
    "SITE_URL": BASE,
    "REDIS_URL": "",
    # One runserver and no worker: its tasks run in it (and its cache is its own).
    "CELERY_TASK_ALWAYS_EAGER": "true",
}


def main() -> int:
    if not Path(CHROMIUM).exists():
        print(f"make shots needs Debian's chromium at {CHROMIUM} (apt-get install chromium)")
        return 1
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    DB.parent.mkdir(exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{DB}{suffix}").unlink(missing_ok=True)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], env=ENV, cwd=ROOT, check=True)
    pages = _seed()
    server = subprocess.Popen(
        [*manage, "runserver", "--noreload", f"127.0.0.1:{PORT}"],
        env=ENV,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_until_up()
        written = _take_pictures(pages)
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{written} pictures in {OUT.relative_to(ROOT)}/")
    return 0


def _seed() -> list[tuple[str, str | None, str]]:
    """Players and games in every state a page can show; returns (name, who looks, path)."""
    os.environ.update(ENV)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")
    import django

    django.setup()
    from django.core import mail
    from django.test.utils import override_settings

    from accounts.models import User
    from games import engine, services
    from games.models import Game

    def player(username: str, name: str) -> User:
        user = User.objects.create_user(
            username=username, email=f"{username}@example.com", password=PASSWORD
        )
        user.display_name = name
        user.save()
        if hasattr(user, "email_confirmed_at"):  # rated play asks for a confirmed address
            User.objects.filter(pk=user.pk).update(email_confirmed_at=user.date_joined)
        return user

    def play(game: Game, *, turns: int | None = None, seed: int = 1) -> Game:
        """Random legal moves through the one writer: `turns` whole turns, or to the end."""
        rng = random.Random(seed)
        game.refresh_from_db()
        start = game.engine_state().turn
        while game.status == Game.Status.ACTIVE:
            state = game.engine_state()
            if turns is not None and state.turn >= start + turns:
                break
            choices = [
                a for a in engine.legal_actions(state) if not isinstance(a, engine.ResetTurn)
            ]
            ends = [a for a in choices if isinstance(a, engine.EndTurn)]
            action = ends[0] if ends and not state.hand else rng.choice(choices)
            user = game.seats.get(position=state.current_seat).user
            services.play(
                game_id=game.pk, user=user, action=action.to_json(), expected_version=game.version
            )
            game.refresh_from_db()
        return game

    with override_settings(
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend", CELERY_TASK_ALWAYS_EAGER=True
    ):
        mail.outbox = []
        ann, bob, cat = player("ann", "Ann"), player("bob", "Bob"), player("cat", "Cat")
        live = services.create_game(
            creator=ann, players=3, side="A", spirits=True, invitees=[bob, cat]
        )
        for user in (bob, cat):
            services.join_game(game_id=live.pk, user=user)
        live = play(live, turns=7)
        to_move = live.seats.get(position=live.current_seat).user
        waiting = next(s.user for s in live.seats.all() if s.user_id != to_move.pk)
        over = services.create_game(creator=ann, players=2, side="B", spirits=False, invitees=[bob])
        services.join_game(game_id=over.pk, user=bob)
        over = play(over, seed=2)
        table = services.create_game(
            creator=ann, players=4, side="A", spirits=False, invitees=[cat], public=True
        )
        emails = list(mail.outbox)
    kinds = set()
    for message in emails:  # one of each kind: names and numbers aside, the same subject
        kind = re.sub(r"\b(Ann|Bob|Cat)\b|\d+", "", message.subject)
        html = next((body for body, type_ in message.alternatives if type_ == "text/html"), None)
        if html and kind not in kinds:
            kinds.add(kind)
            slug = re.sub(r"[^a-z0-9]+", "-", message.subject.lower()).strip("-")[:40]
            (OUT / f"email-{len(kinds):02d}-{slug}.html").write_text(html)
    return [
        ("home-anonymous", None, "/"),
        ("log-in", None, "/accounts/login/"),
        ("sign-up", None, "/accounts/signup/"),
        ("home", "ann", "/"),
        ("my-games", "ann", "/games/"),
        ("new-game", "ann", "/games/new/"),
        ("table", "ann", f"/games/{table.pk}/"),
        ("lobby", "bob", "/games/lobby/"),
        ("game-your-turn", to_move.username, f"/games/{live.pk}/"),
        ("game-waiting", waiting.username, f"/games/{live.pk}/"),
        ("game-over", "ann", f"/games/{over.pk}/"),
        ("score-sheet", "ann", f"/games/{over.pk}/sheet/"),
        ("replay", "ann", f"/games/{over.pk}/replay/?move=20"),
        ("review", "ann", f"/games/{over.pk}/review/"),
        ("leaderboards", "ann", "/leaderboards/"),
        ("history", "ann", "/history/"),
        ("profile", "ann", "/players/ann/"),
        ("email-preferences", "ann", "/accounts/profile/emails/"),
        ("own-profile", "ann", "/accounts/profile/"),
    ]


def _wait_until_up(seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(BASE + "/accounts/login/", timeout=2)
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("the shots server did not start")


def _take_pictures(pages: list[tuple[str, str | None, str]]) -> int:
    from playwright.sync_api import sync_playwright

    written = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        for width_name, (width, height) in WIDTHS.items():
            contexts = {}
            for name, who, path in pages:
                if who not in contexts:
                    contexts[who] = _logged_in(browser, who, width, height)
                page = contexts[who]
                page.goto(BASE + path)
                page.screenshot(path=str(OUT / f"{name}-{width_name}.png"), full_page=True)
                written += 1
            for email in sorted(OUT.glob("email-*.html")):
                page = contexts[None]
                page.set_content(email.read_text())
                page.screenshot(path=str(OUT / f"{email.stem}-{width_name}.png"), full_page=True)
                written += 1
            for page in contexts.values():
                page.context.close()
        browser.close()
    return written


def _logged_in(browser, username: str | None, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(15_000)
    page = context.new_page()
    if username:
        page.goto(BASE + "/accounts/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", PASSWORD)
        page.click("form button[type=submit], form input[type=submit]")
        page.wait_for_load_state()
    return page


if __name__ == "__main__":
    raise SystemExit(main())
