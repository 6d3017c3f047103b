"""Where the time of a game page goes, in one process, without HTTP: presenter, template, total
(CPU time of this process, so that other work on the machine does not blur the figures).

Run after bench/load/run.py has seeded `harmonies_bench`; it uses run.py's environment unless
DATABASE_URL and the others are set (any database with games in progress will do):
    .venv/bin/python bench/load/page_cost.py [--games 60]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")

from bench.load.run import ENV

for name in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "DATABASE_URL",
             "REDIS_URL", "LOG_LEVEL"):  # fmt: skip
    os.environ.setdefault(name, ENV[name])

import django  # noqa: E402

django.setup()

from django.test import Client, RequestFactory  # noqa: E402

from games.jinja import render_page  # noqa: E402
from games.models import Game  # noqa: E402
from games.presenters.game import game_page  # noqa: E402

MODEL_BACKEND = "accounts.backends.PlayerBackend"  # the site's one log-in backend (settings)


def ms(samples: list[float]) -> str:
    return f"mean {statistics.mean(samples) * 1000:5.1f} ms, max {max(samples) * 1000:5.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    games = list(Game.objects.filter(status=Game.Status.ACTIVE).order_by("pk")[: args.games])
    request = RequestFactory().get("/")
    for label, to_move in (("player to move", True), ("player waiting", False)):
        presenter, template, whole = [], [], []
        for game in games:
            seats = list(game.seats.select_related("user"))
            seat = next(s for s in seats if (s.position == game.current_seat) == to_move)
            request.user = seat.user
            started = time.process_time()
            context = game_page(game, seats, seat)
            presenter.append(time.process_time() - started)
            started = time.process_time()
            render_page(request, "games/game.html", context)
            template.append(time.process_time() - started)
            client = Client(HTTP_HOST="127.0.0.1")
            client.force_login(seat.user, backend=MODEL_BACKEND)
            client.get(f"/games/{game.pk}/")
            started = time.process_time()
            response = client.get(f"/games/{game.pk}/")
            whole.append(time.process_time() - started)
            assert response.status_code == 200, response
        print(f"{label} ({len(games)} games)")
        print(f"  presenter (games.presenters.game.game_page)  {ms(presenter)}")
        print(f"  template (Jinja2 games/game.html)       {ms(template)}")
        print(f"  whole request (test client, 5 queries)  {ms(whole)}")


if __name__ == "__main__":
    main()
