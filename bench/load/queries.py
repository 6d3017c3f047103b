"""Database queries per request for the game page and the poll, on the seeded bench games.

Run by bench/load/run.py in the bench environment; prints one line per case. The suite holds the
same limits (tests/stress/test_query_counts.py); this shows them on a realistic database.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")

import django

django.setup()

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games import presence  # noqa: E402
from games.models import Game  # noqa: E402
from games.models.versions import version_cache_key  # noqa: E402

MODEL_BACKEND = "accounts.backends.PlayerBackend"  # the site's one log-in backend (settings)


def count(client: Client, url: str) -> tuple[int, int]:
    client.get(url)  # once to warm caches that live longer than a request (e.g. the cards)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return len(queries), response.status_code


def page_bytes(client: Client, url: str) -> tuple[int, int]:
    """The page's size as rendered, and as sent to a browser that accepts gzip (they all do)."""
    raw = len(client.get(url).content)
    wire = len(client.get(url, headers={"Accept-Encoding": "gzip"}).content)
    return raw, wire


def main() -> None:
    games = Game.objects.filter(status=Game.Status.ACTIVE).annotate(n=Count("moves"))
    cases = []
    for players in (2, 3, 4):
        table = games.filter(players=players)
        cases += [table.order_by("n").first(), table.order_by("-n").first()]
    for game in filter(None, cases):
        client = Client(HTTP_HOST="127.0.0.1")
        for seat in game.seats.select_related("user").order_by("position")[:2]:
            client.force_login(seat.user, backend=MODEL_BACKEND)
            n, status = count(client, f"/games/{game.pk}/")
            who = "to move" if seat.position == game.current_seat else "waiting"
            raw, wire = page_bytes(client, f"/games/{game.pk}/")
            print(
                f"game page  {game.players} players, {game.n:3d} moves, {who:7s}: "
                f"{n} queries (HTTP {status}), {raw:,} bytes of HTML, {wire:,} on the wire (gzip)"
            )
        token = presence.token_for(game.pk, seat.user_id)
        poll = f"/games/{game.pk}/poll/?v={game.version}&p={token}"
        n, status = count(Client(HTTP_HOST="127.0.0.1"), poll)
        print(f"poll       {game.players} players, cached version: {n} queries (HTTP {status})")
        cache.delete(version_cache_key(game.pk))
        with CaptureQueriesContext(connection) as queries:
            Client(HTTP_HOST="127.0.0.1").get(poll)
        print(f"poll       {game.players} players, version not cached: {len(queries)} queries")


if __name__ == "__main__":
    main()
