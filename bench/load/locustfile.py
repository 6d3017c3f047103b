"""Load clients for bench/load/run.py (headless locust); no Django here, only HTTP.

Pick a scenario by class name: `locust -f bench/load/locustfile.py --headless PageUser`.
The plan written by bench/load/seed.py (BENCH_PLAN) gives each game's seats (a logged-in session
cookie, a CSRF secret and the signed presence token of each player) and the legal actions that
continue the game, in order.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections import deque

from locust import FastHttpUser, constant, task

PLAN = json.loads(open(os.environ["BENCH_PLAN"]).read())  # noqa: SIM115
GAMES = PLAN["games"]
# Move clients by default post as htmx does (and get the changed fragments back); with
# BENCH_HTMX=0 they post as a plain form without JavaScript (and get a redirect).
HTMX = os.environ.get("BENCH_HTMX", "1") == "1"
MOVE = "move (htmx)" if HTMX else "move (no JS)"  # the runner reads the row of this name


# With BENCH_FLOOR_EVERY=N, every client of a scenario opens the floor page instead for the first
# quarter of every N seconds of the clock, all together: the runner compares the scenario's CPU
# with the floor's served by the same workers in the same seconds (the machine drifts within a
# minute). Whole slices rather than a floor request now and then: a worker serving one kind of
# request has it in its caches, as the floor's own run does.
FLOOR_EVERY = float(os.environ.get("BENCH_FLOOR_EVERY", "0"))


def floor_turn() -> bool:
    return bool(FLOOR_EVERY) and time.time() % FLOOR_EVERY < FLOOR_EVERY / 4


class BenchUser(FastHttpUser):
    abstract = True
    host = PLAN["base_url"]
    wait_time = constant(0)

    def open_floor(self) -> None:
        seat = random.choice(random.choice(GAMES)["seats"])
        with self.client.get(
            "/bench/floor/", headers={"Cookie": seat["cookie"]}, name="floor", catch_response=True
        ) as response:
            if response.status_code != 200 or b'id="floor"' not in response.content:
                response.failure(f"status {response.status_code}")


class FloorUser(BenchUser):
    """A player opening the floor page (bench/load/floor.py): the least a logged-in page does."""

    @task
    def floor(self) -> None:
        self.open_floor()


class PageUser(BenchUser):
    """A player opening one of their games (any seat: the player to move or one who waits)."""

    @task
    def game_page(self) -> None:
        if floor_turn():
            return self.open_floor()
        game = random.choice(GAMES)
        seat = random.choice(game["seats"])
        with self.client.get(
            f"/games/{game['id']}/",
            headers={"Cookie": seat["cookie"]},
            name="game page",
            catch_response=True,
        ) as response:
            if response.status_code != 200 or b'id="game"' not in response.content:
                response.failure(f"status {response.status_code}")


class PollUser(BenchUser):
    """An open game page asking "has anything changed?" (no session cookie, as the page does)."""

    @task
    def poll(self) -> None:
        if floor_turn():
            return self.open_floor()
        game = random.choice(GAMES)
        seat = random.choice(game["seats"])
        with self.client.get(
            f"/games/{game['id']}/poll/?v={game['version']}&p={seat['presence']}",
            name="poll",
            catch_response=True,
        ) as response:
            if response.status_code not in (200, 204):
                response.failure(f"status {response.status_code}")


# Games waiting for a client, each with the index of its next planned action and its version.
# A client plays one turn of a game and puts it back: submissions spread over all the games.
# BENCH_PART="i/n" keeps every n-th game from the i-th, so that successive move runs (each a new
# locust process that knows only the seeded versions) play different games.
_part, _parts = map(int, os.environ.get("BENCH_PART", "0/1").split("/"))
_queue = deque((g, 0, g["version"]) for g in GAMES[_part::_parts] if g["plan"])


class MoveUser(BenchUser):
    """The player to move posting legal actions, one turn at a time, game after game."""

    @task
    def play_a_turn(self) -> None:
        if floor_turn():
            return self.open_floor()
        if not _queue:
            self.environment.runner.quit()  # every planned action was played
            return
        game, step, version = _queue.popleft()
        plan = game["plan"]
        seat = plan[step][0]
        while step < len(plan) and plan[step][0] == seat:
            if not self._post(game, seat, plan[step][1], version):
                return  # refused (counted as a failure): the game leaves the rotation
            step, version = step + 1, version + 1
        game["version"] = version  # the poll clients ask about the current version
        if step < len(plan):
            _queue.append((game, step, version))

    def _post(self, game: dict, seat: int, action: dict, version: int) -> bool:
        login = game["seats"][seat]
        headers = {"Cookie": login["cookie"], "X-CSRFToken": login["csrf"]}
        if HTMX:
            headers["HX-Request"] = "true"
        data = {"version": str(version), **{k: str(v) for k, v in action.items()}}
        expected = 200 if HTMX else 302
        with self.client.post(
            f"/games/{game['id']}/act/",
            data=data,
            headers=headers,
            name=MOVE,
            catch_response=True,
            allow_redirects=False,
        ) as response:
            if response.status_code != expected:
                response.failure(f"status {response.status_code}: {response.text[:200]}")
                return False
        return True
