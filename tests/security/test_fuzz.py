"""Forged and malformed requests against every endpoint that takes input.

Every request below is forged in at least one way that makes it inapplicable: sent by a visitor,
a stranger or the waiting player, without a CSRF token, from a stale page, with a malformed or
illegal action, with a junk or foreign token. The rules, per endpoint, say what each must be
answered; on top of them, for every request:

- never a 5xx;
- a refusal (4xx) carries a message: the site's refusal, Django's CSRF, 404 or 405 page (a 405
  with its Allow header); the game poll alone answers bare statuses other than 405, as htmx
  reads them, not people;
- nothing changes: games (state, version, status...), moves, seats, invitations, users (their
  email switches) and the results tables are compared with a snapshot every BATCH requests and
  at the end of each test.

The generator is seeded (FUZZ_SEED, 7 by default), so a failure replays exactly. The suite sends
4,960 requests: every endpoint, and every kind of forgery and of answer that the full volume of
10,820 sends for the default seed (each kind by who sends it, how, and what must come back).
`make bench` sends the full volume (FUZZ_FULL=1). The number of requests and the time taken are
printed at the end of the run.
"""

from __future__ import annotations

import ipaddress
import os
import random
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from urllib.parse import quote

import pytest
import time_machine
from django.core import signing
from django.urls import reverse
from django.utils import timezone

from accounts import unsubscribe
from accounts.models import EMAIL_KINDS
from games import engine, presence
from games.models import Game
from tests.security.conftest import World, client_for, snapshot

pytestmark = pytest.mark.django_db

SEED = int(os.environ.get("FUZZ_SEED", "7"))
FULL = os.environ.get("FUZZ_FULL", "") == "1"
BATCH = 100  # requests between two snapshots
MISSING_GAME = 2**31 - 7  # no game has this id
TABLES: dict[tuple[str, int], object] = {}  # who sits where: asked once per test, not per request

LOGIN = "/accounts/login/"
BOARD_NOTICE = "message message-error"  # the notice above a redrawn board
REFUSED = "That did not work"  # games/refused.html
NOT_FOUND = "Nothing here"  # templates/404.html
CSRF_FAILED = "Please try again"  # templates/403_csrf.html
NUL_REFUSED = "cannot have"  # harmonies_site.middleware.RejectNulBytesMiddleware
NOT_PLAYING = "You are not playing in this game."
NO_SUCH_GAME = "There is no such game."

# --- Junk -----------------------------------------------------------------------------------------

JUNK = [
    "", " ", "\t", "\r\n", "0x1", "1e3", "-1", "-0", "+1", "1.5", "NaN", "Infinity", "null",
    "None", "true", "[]", "{}", '{"type": "take_tokens", "space": 0}', "9" * 20, "9" * 5000,
    str(2**63), str(-(2**63)), "²", "٣", "①", "<script>alert(1)</script>", "' OR 1=1 --",
    '"; DROP TABLE games_game; --', "../../etc/passwd", "%00", "\x00", "a\x00b", "🎲", "é",
    "\u202e", "\ufeff", "Ω" * 300, "x" * 10_000, "0,0,0", "99,99", "-1,-1", "animal_99",
    "spirit_unicorn", "BLUE", "blue ", "animal_01\x00", "card_id", "type", "__proto__",
]  # fmt: skip
# Ranges of characters for random text: ASCII, control characters, Latin, Greek, Arabic, CJK,
# emoji, private use, specials. No surrogates: they cannot be sent as UTF-8.
CODE_POINTS = [
    (0x20, 0x7E),
    (0x01, 0x1F),
    (0xA0, 0x2FF),
    (0x370, 0x3FF),
    (0x600, 0x6FF),
    (0x4E00, 0x4E80),
    (0x1F300, 0x1F64F),
    (0xE000, 0xE0FF),
    (0xFFF0, 0xFFFD),
]


def junk(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.6:
        return rng.choice(JUNK)
    if roll < 0.8:
        return str(rng.randint(-(10**30), 10**30))
    length = rng.choice([1, 2, 5, 20, 200])
    return "".join(chr(rng.randint(*rng.choice(CODE_POINTS))) for _ in range(length))


def junk_query(rng: random.Random) -> dict[str, str]:
    """Parameters nobody reads, sometimes."""
    names = ["x", "page", "user", "seat", "game_id", "debug", "admin", "type[]", "ü", "__proto__"]
    return {rng.choice(names): junk(rng) for _ in range(rng.choice([0, 0, 1, 2]))}


# --- Requests, their rules, and the runner --------------------------------------------------------


def _carries_nul(forged) -> bool:
    values = []
    for value in forged.data.values():
        values.extend(value if isinstance(value, list) else [value])
    return "%00" in forged.url or any("\x00" in str(v) for v in values)


@dataclass
class Forged:
    """One forged request and what it must be answered: the allowed statuses, each with the
    texts its answer must contain (for a redirect: the start of its Location)."""

    label: str
    method: str
    url: str
    who: str  # a user's name, or "anon"
    expect: dict[int, tuple[str, ...]]
    data: dict = field(default_factory=dict)
    htmx: bool = False
    csrf: str = ""  # with CSRF enforced: "missing", "junk" or "foreign" (another browser's)
    headers: dict = field(default_factory=dict)
    check: object = None  # an extra check of the response, or None

    def __str__(self) -> str:
        data = {k: short(v) for k, v in self.data.items()}
        csrf = f" csrf={self.csrf}" if self.csrf else ""
        return f"{self.method.upper()} {self.url[:120]} as {self.who}{csrf} htmx={self.htmx} {data}"


def short(value):
    return value[:40] + "..." if isinstance(value, str) and len(value) > 40 else value


class Forger:
    def __init__(self, world: World, node: pytest.Item) -> None:
        self.world = world
        self.node = node  # the test, whose report carries the counts to the summary
        self.users = {u.username: u for u in (world.alice, world.bob, world.carol, world.mallory)}
        self.plain = {name: client_for(user) for name, user in self.users.items()}
        self.plain["anon"] = client_for(None)
        self.guarded = {name: client_for(user, csrf=True) for name, user in self.users.items()}
        self.guarded["anon"] = client_for(None, csrf=True)
        for name, client in self.guarded.items():  # each browser gets its own CSRF cookie
            client.get(reverse("login") if name == "anon" else reverse("games:lobby"))
        TABLES.clear()

    def send(self, forged: Forged):
        headers = dict(forged.headers)
        if forged.htmx:
            headers["HX-Request"] = "true"
        data = dict(forged.data)
        if forged.csrf:
            client = self.guarded[forged.who]
            if forged.csrf == "junk":
                data["csrfmiddlewaretoken"] = "x" * 32
            elif forged.csrf == "foreign":
                other = next(n for n in self.guarded if n != forged.who)
                headers["X-CSRFToken"] = self.guarded[other].cookies["csrftoken"].value
        else:
            client = self.plain[forged.who]
        if forged.method not in ("get", "post"):  # PUT, PATCH, DELETE, OPTIONS: no form
            return getattr(client, forged.method)(forged.url, headers=headers)
        call = client.get if forged.method == "get" else client.post
        return call(forged.url, data, headers=headers)

    def verify(self, forged: Forged, response) -> None:
        status = response.status_code
        where = f"{forged}\n -> {status}: {response.content[:300]!r}"
        assert status < 500, where
        if status == 400 and _carries_nul(forged):  # refused before any view: nothing changed
            assert NUL_REFUSED in response.content.decode(), where
            return
        assert status in forged.expect, f"expected {sorted(forged.expect)}: {where}"
        texts = forged.expect[status]
        if 300 <= status < 400:
            assert any(response["Location"].startswith(t) for t in texts or ("",)), where
            return
        body = response.content.decode()
        if status == 405:
            assert response["Allow"], where
        if status >= 400 and (forged.label != "poll" or status == 405):
            assert body.strip(), f"a refusal without a message: {where}"
        for text in texts:
            assert text in body, f"{text!r} missing: {where}"
        if forged.check is not None:
            forged.check(response)

    def run(self, label: str, forged: Iterable[Forged]) -> int:
        """Sends them all, checking each answer, and the database every BATCH requests."""
        started = time.perf_counter()
        baseline = snapshot()
        batch: list[Forged] = []
        count = 0
        for one in forged:
            self.verify(one, self.send(one))
            batch.append(one)
            count += 1
            if len(batch) == BATCH:
                assert_unchanged(baseline, batch)
                batch = []
        assert_unchanged(baseline, batch)
        self.node.user_properties.append(("forged", (label, count, time.perf_counter() - started)))
        return count


def assert_unchanged(baseline: dict, batch: list[Forged]) -> None:
    now = snapshot()
    if now != baseline:
        changed = [key for key in baseline if baseline[key] != now[key]]
        sent = "\n".join(str(f) for f in batch)
        raise AssertionError(f"{changed} changed by one of these requests:\n{sent}")


def volume(suite: int, full: int) -> int:
    """How many requests a test sends: `full` with FUZZ_FULL=1 (`make bench`)."""
    return full if FULL else suite


@pytest.fixture
def forger(world, request) -> Forger:
    return Forger(world, request.node)


def anyone_forging(rng: random.Random, forger: Forger) -> tuple[str, str]:
    """(who, csrf): a visitor, someone without a valid CSRF token, or a logged-in player."""
    roll = rng.random()
    if roll < 0.12:
        return "anon", ""
    if roll < 0.24:
        return rng.choice(list(forger.guarded)), rng.choice(["missing", "junk", "foreign"])
    return rng.choice(["alice", "bob", "carol", "mallory"]), ""


def gatekept(who: str, csrf: str) -> dict[int, tuple[str, ...]] | None:
    """What the CSRF check and the log-in requirement answer before any view code runs."""
    if csrf:
        return {403: (CSRF_FAILED,)}
    if who == "anon":
        return {302: (LOGIN,)}
    return None


# --- games:act ------------------------------------------------------------------------------------

ACTION_FIELDS = ("space", "colour", "cell", "card_id", "discard")
TYPES = ["choose_spirit", "take_tokens", "place_token", "take_card", "place_cube", "reset_turn",
         "end_turn"]  # fmt: skip
CELLS = sorted(set(engine.geometry("A").names) | set(engine.geometry("B").names))
CARDS = [*engine.ANIMAL_CARD_IDS, *engine.SPIRIT_CARD_IDS]
VALID = {
    "space": [str(n) for n in range(5)],
    "colour": list(engine.COLOURS),
    "cell": CELLS,
    "card_id": CARDS,
    "discard": list(engine.ANIMAL_CARD_IDS),
}


def last(value):
    """A field sent twice is read as its last value (QueryDict.get)."""
    return value[-1] if isinstance(value, list) else value


def action_read_from(fields: dict) -> dict:
    """The rule for reading an action from a form: the last value of each action field, empty
    fields absent, and `space` a number when it is written in (a few) ASCII digits."""
    action: dict = {"type": last(fields.get("type", ""))}
    for name in ACTION_FIELDS:
        value = last(fields.get(name, ""))
        if value != "":
            digits = name == "space" and value.isascii() and value.isdigit() and len(value) < 10
            action[name] = int(value) if digits else value
    return action


def well_formed(fields: dict) -> bool:
    try:
        engine.action_from_json(action_read_from(fields))
    except engine.IllegalAction:
        return False
    return True


def legal(state: engine.GameState, fields: dict) -> bool:
    try:
        engine.apply(state, engine.action_from_json(action_read_from(fields)))
    except engine.IllegalAction:
        return False
    return True


def action_fields(rng: random.Random) -> dict:
    """An action as a form would post it: well-formed or not, legal or not, with extras."""
    roll = rng.random()
    if roll < 0.35:  # a well-formed action, which the state may or may not allow
        kind = rng.choice(TYPES)
        needs = {
            "choose_spirit": ["card_id"],
            "take_tokens": ["space"],
            "place_token": ["colour", "cell"],
            "take_card": ["card_id"],
            "place_cube": ["card_id", "cell"],
            "reset_turn": [],
            "end_turn": rng.choice([[], ["discard"]]),
        }[kind]
        fields = {"type": kind, **{name: rng.choice(VALID[name]) for name in needs}}
    else:  # anything at all
        fields = {"type": rng.choice(TYPES) if rng.random() < 0.8 else junk(rng)}
        for name in ACTION_FIELDS:
            if rng.random() < 0.4:
                fields[name] = rng.choice(VALID[name]) if rng.random() < 0.5 else junk(rng)
    if rng.random() < 0.15:  # a field twice: the last one counts
        name = rng.choice(list(fields))
        fields[name] = [junk(rng), fields[name]]
    if rng.random() < 0.2:
        fields.update(junk_query(rng))
    return fields


def version_field(rng: random.Random, current: int) -> tuple[dict, bool]:
    """The page's version: ({"version": ...} or nothing, whether it is the current one)."""
    roll = rng.random()
    if roll < 0.5:
        value: object = str(current)
    elif roll < 0.6:
        return {}, False
    elif roll < 0.75:
        value = str(current + rng.choice([-2, -1, 1, 1000]))
    elif roll < 0.9:
        value = junk(rng)
    else:
        value = rng.choice([[str(current), str(current - 1)], [junk(rng), str(current)]])
    try:
        ok = int(str(last(value))) == current
    except ValueError:
        ok = False
    return {"version": value}, ok


def seated_in(game: Game) -> set[str]:
    key = ("seated", game.pk)
    if key not in TABLES:
        TABLES[key] = set(game.seats.values_list("user__username", flat=True))
    return TABLES[key]


def invited_to(game: Game) -> set[str]:
    key = ("invited", game.pk)
    if key not in TABLES:
        pending = game.invitations.filter(declined_at__isnull=True)
        TABLES[key] = set(pending.values_list("user__username", flat=True))
    return TABLES[key]


def to_move(game: Game) -> str | None:
    key = ("to move", game.pk)
    if key not in TABLES:
        seat = game.seats.filter(position=game.current_seat).first()
        TABLES[key] = seat.user.username if game.current_seat is not None and seat else None
    return TABLES[key]


def act_answer(world: World, game: Game, who: str, fields: dict, version_ok: bool, htmx: bool):
    """What games:act answers a logged-in player, by the order of the referee's checks."""
    if who not in seated_in(game):
        return {403: (NOT_PLAYING,)}
    has_board = game.status in (Game.Status.ACTIVE, Game.Status.FINISHED)

    def refused(status: int, message: str = "") -> dict:
        if has_board:  # the fresh board, with the reason above it
            return {status: (BOARD_NOTICE, message) if message else (BOARD_NOTICE,)}
        return {status: (message,) if htmx and message else () if htmx else (REFUSED,)}

    if not well_formed(fields):
        return refused(400)
    if game.status == Game.Status.FINISHED:
        return refused(409, "This game is over.")
    if game.status == Game.Status.CANCELLED:
        return refused(409, "This table was cancelled.")
    if game.status != Game.Status.ACTIVE:
        return refused(409, "This game has not started yet.")
    if not version_ok:
        return refused(409, "The board changed since your page was drawn")
    if who != to_move(game):
        return refused(409, "It is not your turn.")
    if not legal(game.engine_state(), fields):
        return refused(400)
    return None  # a legal move: not a forgery


def forged_actions(world: World, forger: Forger, rng: random.Random, n: int) -> Iterator[Forged]:
    games = [world.fresh(g) for g in world.games]
    active, timed_out = games[0], games[1]
    sent = 0
    while sent < n:
        fields = action_fields(rng)
        htmx = rng.random() < 0.75
        roll = rng.random()
        who, csrf = "alice", ""
        if roll < 0.24:
            who, game = "anon", rng.choice(games)
        elif roll < 0.44:  # the right player, the right page, a legal move: but no CSRF token
            who, csrf, game = to_move(active), rng.choice(["missing", "junk", "foreign"]), active
        elif roll < 0.69:
            who, game = rng.choice(["mallory", "carol"]), rng.choice(games)
        elif roll < 0.73:
            who, game = rng.choice(["alice", "bob"]), None
        elif roll < 0.92:
            game = active if rng.random() < 0.75 else timed_out
            mover = to_move(game)
            who = mover if rng.random() < 0.6 else ({"alice", "bob"} - {mover}).pop()
        else:
            game = rng.choice(games[2:])
            who = rng.choice(sorted(seated_in(game)))
        current = game.version if game is not None else 1
        version, version_ok = version_field(rng, current)
        data = {**fields, **version}
        url = reverse("games:act", args=[game.pk if game is not None else MISSING_GAME])
        if rng.random() < 0.03:  # a GET instead of a POST
            expect = {302: (LOGIN,)} if who == "anon" else {405: ()}
            yield Forged("act", "get", url, who, expect, data, htmx)
            sent += 1
            continue
        expect = gatekept(who, csrf)
        if expect is None and game is None:
            expect = {404: (NO_SUCH_GAME,)}
        if expect is None:
            expect = act_answer(world, game, who, fields, version_ok, htmx)
            if expect is None:  # would be played: forge the version instead
                data["version"] = str(game.version - 1)
                expect = act_answer(world, game, who, fields, False, htmx)
        yield Forged("act", "post", url, who, expect, data, htmx, csrf)
        sent += 1


def test_forged_actions_are_refused_and_change_nothing(world, forger):
    rng, n = random.Random(SEED), volume(1200, 2400)
    assert forger.run("act", forged_actions(world, forger, rng, n)) == n


# --- games:detail with selections and fragments ---------------------------------------------------


def no_selection(response) -> None:
    assert "hex-target" not in response.content.decode(), "a junk selection highlighted hexes"


def forged_views(world: World, forger: Forger, rng: random.Random, n: int) -> Iterator[Forged]:
    games = [world.fresh(g) for g in world.games]
    active = games[0]
    # What the player to move may select in each game with a board: never sent by them.
    selectable = {}
    for game in games:
        if game.status == Game.Status.ACTIVE:
            state = game.engine_state()
            options = engine.cube_options(state, state.current_seat)
            selectable[game.pk] = (to_move(game), set(state.hand), set(options))
    for _ in range(n):
        game = rng.choice([active, active, active, *games])
        mover, held, placeable = selectable.get(game.pk, (None, set(), set()))
        roll = rng.random()
        who = (
            "anon"
            if roll < 0.1
            else rng.choice(["mallory", "carol"])
            if roll < 0.25
            else rng.choice(sorted(seated_in(game)))
        )
        # A selection the viewer may not make: a junk one, or for the waiting player any at all.
        colours = [c for c in engine.COLOURS if who != mover or c not in held]
        cards = [c for c in CARDS if who != mover or c not in placeable]
        params = {
            "token": rng.choice(colours) if rng.random() < 0.4 else junk(rng),
            "card": rng.choice(cards) if rng.random() < 0.4 else junk(rng),
            "fragment": rng.choice(["game", "select", "select", "", junk(rng)]),
            **junk_query(rng),
        }
        for name in ("token", "card"):
            if rng.random() < 0.3:
                del params[name]
        htmx = rng.random() < 0.8
        game_id = game.pk if rng.random() > 0.04 else MISSING_GAME
        url = reverse("games:detail", args=[game_id])
        check = None
        if rng.random() < 0.1:  # the whole move log, which reads no parameter at all
            url = reverse("games:log", args=[game_id])
            if who == "anon":
                expect = {302: (LOGIN,)}
            elif game_id == MISSING_GAME:
                expect = {404: (NOT_FOUND,)}
            else:
                expect = {200: ()} if who in seated_in(game) else {403: (NOT_PLAYING,)}
            yield Forged("log", "get", url, who, expect, params, htmx)
            continue
        if who == "anon":
            expect = {302: (LOGIN,)}
        elif game_id == MISSING_GAME:
            expect = {404: (NOT_FOUND,)}
        elif game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
            allowed = who in seated_in(game) or who in invited_to(game)
            expect = {200: ("<html",)} if allowed else {403: ("by invitation only",)}
        elif who not in seated_in(game):
            expect = {403: (NOT_PLAYING,)}
        else:
            fragment = params.get("fragment")
            whole = not htmx or fragment not in ("game", "select")
            expect = {200: ("<html",) if whole else ('id="game-version"',)}
            check = no_selection
        yield Forged("detail", "get", url, who, expect, params, htmx, check=check)


def test_junk_selections_and_fragments_are_ignored(world, forger):
    rng = random.Random(SEED + 1)
    assert forger.run("detail", forged_views(world, forger, rng, 400)) == 400


# --- games:poll -----------------------------------------------------------------------------------


def forged_polls(world: World, forger: Forger, rng: random.Random, n: int) -> Iterator[Forged]:
    games = [world.fresh(g) for g in world.games]
    users = [world.alice, world.bob, world.carol, world.mallory]
    for _ in range(n):
        game = rng.choice(games)
        game_id = game.pk if rng.random() > 0.1 else rng.choice([MISSING_GAME, 10**30, 0])
        user = rng.choice(users)
        real = presence.token_for(game.pk, user.pk)
        p = rng.choice(
            [
                junk(rng),
                presence.token_for(game.pk + 1000, user.pk),  # signed, for another game
                real[:-2] + ("xx" if not real.endswith("xx") else "yy"),  # tampered
                signing.dumps([game.pk, user.pk]),  # signed with another salt
                signing.Signer(salt="games.presence").sign(f"{game.pk}:{user.pk}"),
            ]
        )
        v = rng.choice([str(game.version), str(game.version - 1), junk(rng), ""])
        params = {"v": v, "p": p, **junk_query(rng)}
        if rng.random() < 0.1:
            params["v"] = [junk(rng), str(game.version)]
        url = reverse("games:poll", args=[game_id])
        who = rng.choice(["anon", "anon", "alice", "mallory"])
        # No token here is valid, so the session decides: a game's players are told, everyone
        # else gets what a missing game gets.
        if game_id != game.pk or who not in seated_in(game):
            expect = {404: ()}
        elif last(params["v"]) == str(game.version):
            expect = {204: ()}
        else:
            expect = {200: ()}
        if rng.random() < 0.03:
            yield Forged("poll", "post", url, who, {405: ()}, params)
        else:
            yield Forged("poll", "get", url, who, expect, params)


def test_forged_polls_answer_a_status_and_mark_nobody_present(world, forger):
    rng, n = random.Random(SEED + 2), volume(400, 3600)
    assert forger.run("poll", forged_polls(world, forger, rng, n)) == n
    for game in world.games:
        for user in (world.alice, world.bob, world.carol, world.mallory):
            assert not presence.is_looking(game.pk, user.pk), "a forged token marked presence"


# --- join, leave, cancel, decline, resign, skip, end ----------------------------------------------

VERBS = ["join", "leave", "cancel", "decline", "resign", "skip", "end"]
STARTED = "This game has already started"
CANCELLED = "This table was cancelled."


def verb_answer(world: World, verb: str, game: Game | None, who: str, data: dict):
    """What a table or absent-player action answers a logged-in player; None when it would
    really happen (then only sent without CSRF, or as a GET)."""
    if game is None:
        return {404: (REFUSED,)}
    seated = who in seated_in(game)
    if game.status == Game.Status.CANCELLED and verb in ("join", "leave", "cancel", "decline"):
        return {409: (CANCELLED,)}
    if verb == "decline":  # each refusal says what is true
        if seated:
            return {409: ("You already have a seat at this table",)}
        invited = who in invited_to(game) and game.status == Game.Status.OPEN
        return None if invited else {403: ("You are not invited to this table.",)}
    is_open = game.status == Game.Status.OPEN
    creator = game.created_by.username == who
    detail = reverse("games:detail", args=[game.pk])
    if verb == "join":
        if seated:
            return {302: (detail,)}  # already there: nothing to do
        if not is_open:
            return {409: (STARTED,)}
        if who in invited_to(game) or data.get("token") == game.invite_token:
            return None
        return {403: ("by invitation only",)}
    if verb == "leave":
        if not is_open:
            return {409: ("Only a game that has not started can be left.",)}
        return {400: ("cancel it instead",)} if creator else {403: ("not seated",)}
    if verb == "cancel":
        if not creator:
            return {403: ("Only the player who created the game can cancel it.",)}
        return None if is_open else {409: ("A game in progress cannot be cancelled.",)}
    if not seated:
        return {403: (NOT_PLAYING,)}
    if game.status == Game.Status.FINISHED:
        return {409: ("over",)}
    if game.status != Game.Status.ACTIVE:
        return {409: ("in progress",)}
    seat = game.seats.get(user__username=who)
    if seat.resigned_at is not None:
        return {409: ("You resigned",)}  # a seat that left can do nothing more
    if seat.dropped_at is not None:
        return {409: ("You were dropped",)}
    if verb == "resign":
        return None
    try:
        version_ok = int(str(last(data.get("version")))) == game.version
    except ValueError:
        version_ok = False
    if not version_ok:
        return {409: ("The board changed",)}
    if who == to_move(game):
        return {409: ("It is your own turn",)}
    if game.turn_deadline is None or game.turn_deadline > timezone.now():
        return {409: ("still has time",)}
    return None


def forged_verbs(world: World, forger: Forger, rng: random.Random, n: int) -> Iterator[Forged]:
    games = [world.fresh(g) for g in world.games]
    tokens = [g.invite_token for g in games]
    for _ in range(n):
        verb = rng.choice(VERBS)
        game = rng.choice(games) if rng.random() > 0.05 else None
        who, csrf = anyone_forging(rng, forger)
        data = junk_query(rng)
        if verb == "join" and rng.random() < 0.7:
            # A junk token, or the link of another game (never this game's own).
            others = [t for t in tokens if game is None or t != game.invite_token]
            data["token"] = rng.choice(others) if rng.random() < 0.4 else junk(rng)
        if verb in ("skip", "end") and game is not None:
            data.update(version_field(rng, game.version)[0])
        htmx = rng.random() < 0.3
        url = reverse(f"games:{verb}", args=[game.pk if game is not None else MISSING_GAME])
        if rng.random() < 0.05:
            expect = {302: (LOGIN,)} if who == "anon" else {405: ()}
            yield Forged(verb, "get", url, who, expect, data, htmx)
            continue
        expect = gatekept(who, csrf)
        if expect is None:
            expect = verb_answer(world, verb, game, who, data)
            if expect is None:  # it would really happen: send it without a CSRF token instead
                csrf, expect = rng.choice(["missing", "junk", "foreign"]), {403: (CSRF_FAILED,)}
        if htmx and REFUSED in next(iter(expect.values())):
            expect = {status: () for status in expect}  # htmx gets the bare message
        yield Forged(verb, "post", url, who, expect, data, htmx, csrf)


def test_forged_table_actions_are_refused_and_change_nothing(world, forger):
    rng = random.Random(SEED + 3)
    assert forger.run("table actions", forged_verbs(world, forger, rng, 1300)) == 1300


# --- Invitation links -----------------------------------------------------------------------------

SLUG = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"


def forged_invitations(world: World, forger: Forger, rng: random.Random, n: int):
    real = {g.invite_token for g in world.games}
    for _ in range(n):
        if rng.random() < 0.5:
            token = "".join(rng.choice(SLUG) for _ in range(rng.choice([1, 8, 22, 40])))
        else:
            token = junk(rng) or "x"
        if token in real:
            continue
        who = rng.choice(["anon", "alice", "mallory", "carol"])
        url = "/games/invitation/" + quote(token, safe="") + "/"
        if not re.fullmatch(r"[-a-zA-Z0-9_]+", token):
            expect = {404: (NOT_FOUND,)}  # not even an invitation address
        else:
            expect = {302: (LOGIN,)} if who == "anon" else {404: (NOT_FOUND,)}
        yield Forged("invitation", "get", url, who, expect, junk_query(rng))


def test_forged_invitation_links_are_not_found(world, forger):
    rng, n = random.Random(SEED + 4), volume(260, 520)
    assert forger.run("invitation", forged_invitations(world, forger, rng, n)) >= n - n // 26


# --- New game -------------------------------------------------------------------------------------

FORM_ERROR = 'class="errorlist'  # a field's errors, as Django renders them


def broken_new_game(rng: random.Random) -> dict:
    """A new-game form with at least one field no valid form has, and noise in the others."""
    data = {
        "players": rng.choice(["1", "2", "3", "4", junk(rng)]),
        "side": rng.choice(["A", "B", junk(rng)]),
        "spirits": rng.choice(["on", "", junk(rng)]),
        "public": rng.choice(["on", "", junk(rng)]),
        "turn_limit_days": rng.choice(["", "1", "7", junk(rng)]),
        "seat_2": rng.choice(["", "easy", "hard", junk(rng)]),
        "seat_3": rng.choice(["", "medium", junk(rng)]),
        **junk_query(rng),
    }
    breaker = rng.choice(["players", "side", "invite", "invite-self", "limit", "seat"])
    if breaker == "players":
        data["players"] = rng.choice(["0", "5", "-1", "two", "", "²", "2.0", "02", junk(rng)])
    elif breaker == "side":
        data["side"] = rng.choice(["C", "a", "", "AB", junk(rng)])
    elif breaker == "invite":
        data["invite"] = f"nobody-{rng.randint(0, 10**9)} " + junk(rng)
    elif breaker == "invite-self":
        data["invite"] = rng.choice(["alice", "ALICE", "alice, bob"])
    elif breaker == "limit":
        data["turn_limit_days"] = rng.choice(["2", "0", "-1", "365", "x"])
    else:
        data[rng.choice(["seat_2", "seat_3", "seat_4"])] = rng.choice(["impossible", "bot", "x"])
    if rng.random() < 0.1:
        data["players"] = [junk(rng), data["players"]]
    return data


def forged_new_games(world: World, forger: Forger, rng: random.Random, n: int):
    url = reverse("games:new")
    for _ in range(n):
        roll = rng.random()
        who, csrf = "alice", ""
        if roll < 0.15:
            who = "anon"
        elif roll < 0.3:
            csrf = rng.choice(["missing", "junk", "foreign"])
        expect = gatekept(who, csrf) or {200: (FORM_ERROR,)}
        yield Forged("new game", "post", url, who, expect, broken_new_game(rng), False, csrf)


def test_junk_new_games_are_refused_with_the_reasons(world, forger):
    rng = random.Random(SEED + 5)
    assert forger.run("new game", forged_new_games(world, forger, rng, 100)) == 100


# --- Unsubscribe links ----------------------------------------------------------------------------


def forged_unsubscribes(world: World, forger: Forger, rng: random.Random, n: int):
    users = [world.alice, world.bob, world.carol, world.mallory]
    kinds = list(EMAIL_KINDS)
    with time_machine.travel(timezone.now() - timedelta(days=61)):
        expired = {(u.pk, k): unsubscribe.token_for(u, k) for u in users for k in kinds}
    for _ in range(n):
        user, kind = rng.choice(users), rng.choice(kinds)
        real = unsubscribe.token_for(user, kind)
        roll = rng.random()
        if roll < 0.25:  # a real link for another kind of email
            token = real
            kind = rng.choice([k for k in kinds if k != kind])
        elif roll < 0.4:  # expired
            token = expired[(user.pk, kind)]
        elif roll < 0.55:  # tampered
            i = rng.randrange(len(real))
            token = real[:i] + ("A" if real[i] != "A" else "B") + real[i + 1 :]
        elif roll < 0.65:  # signed for another purpose
            token = rng.choice(
                [signing.dumps(user.pk), presence.token_for(world.active.pk, user.pk)]
            )
        elif roll < 0.75:  # a real link with an unknown kind
            token, kind = real, rng.choice(["is_staff", "email", "all", junk(rng) or "x"])
        else:
            token = junk(rng) or "x"
        url = f"/accounts/unsubscribe/{quote(kind, safe='')}/{quote(token, safe='')}/"
        if "/" in kind + token or {kind, token} & {".", ".."}:
            expect = {400: (), 404: ()}  # does not even fit the address
        else:
            expect = {400: ("This link does not work",)}
        who = rng.choice(["anon", "anon", "mallory", "alice"])
        method = rng.choice(["get", "post"])
        # No CSRF check here on purpose (RFC 8058 one-click): the signature is the proof.
        yield Forged("unsubscribe", method, url, who, expect, {"List-Unsubscribe": "One-Click"})


def test_forged_unsubscribe_links_switch_nothing_off(world, forger):
    rng, n = random.Random(SEED + 6), volume(600, 1800)
    assert forger.run("unsubscribe", forged_unsubscribes(world, forger, rng, n)) == n


# --- Results pages --------------------------------------------------------------------------------

FILTERS = {
    "board": ["rating", "wins", "average", "best", "solo"],
    "pool": ["players", "bots"],
    "side": ["", "A", "B"],
    "players": ["", "2", "3", "4"],
    "spirits": ["", "on", "off"],
    "period": ["all", "30", "7"],
}


def filters_fell_back(response) -> None:
    filters = response.context["filters"]
    for name, allowed in FILTERS.items():
        assert filters[name] in allowed or str(filters[name]) in allowed, (name, filters[name])
    assert filters["friends"] in (True, False)


def replay_clamped(response) -> None:
    assert 0 <= response.context["upto"] <= response.context["total"]


def forged_results(world: World, forger: Forger, rng: random.Random, n: int):
    games = [world.fresh(g) for g in world.games]
    finished = games[4]
    for _ in range(n):
        who = rng.choice(["anon", "alice", "mallory", "carol", "bob"])
        page = rng.choice(["replay", "sheet", "leaderboards", "history", "player"])
        htmx = rng.random() < 0.3
        check = None
        if page in ("replay", "sheet"):
            game = rng.choice([finished, finished, *games]) if rng.random() > 0.05 else None
            url = reverse(f"records:{page}", args=[game.pk if game else MISSING_GAME])
            params = {"move": junk(rng)} if page == "replay" else {}
            if page == "replay" and rng.random() < 0.3:
                params["move"] = str(rng.choice([-5, 0, 3, 10**6, -(10**40)]))
            params.update(junk_query(rng))
            if game is None:
                expect = {404: (NOT_FOUND,)}
            elif game.status == Game.Status.CANCELLED:
                expect = {409: (CANCELLED,)}
            elif game.status != Game.Status.FINISHED:
                expect = {403: ("This game is not over",)}
            else:
                expect = {200: ()}
                check = replay_clamped if page == "replay" else None
        elif page == "leaderboards":
            url = reverse("records:leaderboards")
            params = {
                name: rng.choice(values) if rng.random() < 0.3 else junk(rng)
                for name, values in FILTERS.items()
                if rng.random() < 0.7
            }
            params["friends"] = rng.choice(["on", "", junk(rng)])
            expect, check = {200: ()}, filters_fell_back
        elif page == "history":
            url, params, expect = reverse("records:history"), {"page": junk(rng)}, {200: ()}
        else:
            name = rng.choice(["alice", "bob", junk(rng) or "x"])
            url = "/players/" + quote(name, safe="") + "/"
            params = {"page": junk(rng)}
            expect = {200: ()} if name in ("alice", "bob") else {404: (NOT_FOUND,)}
            if "/" in name:  # not even a player's address: no log-in asked
                yield Forged(page, "get", url, who, {404: (NOT_FOUND,)}, params, htmx)
                continue
        if who == "anon":
            expect, check = {302: (LOGIN,)}, None
        if htmx:
            check = None  # a fragment: its context is not captured
        yield Forged(page, "get", url, who, expect, params, htmx, check=check)


def test_junk_in_the_results_pages_is_ignored_or_refused(world, forger):
    rng = random.Random(SEED + 7)
    assert forger.run("results", forged_results(world, forger, rng, 400)) == 400


# --- The site's edges: static files, cookies, proxies ---------------------------------------------

STATIC_FILES = ["/static/css/site.css", "/static/js/game.js", "/static/vendor/htmx.min.js"]
NOT_TAKEN = "does not take"  # harmonies_site.middleware.ExplainMethodNotAllowedMiddleware
PROXY_REFUSED = "did not say where it came from"  # harmonies_site.client_address
NOT_ADDRESSES = [
    "not-an-ip", "unknown", "1.2.3.4:8080", "999.1.1.1", "1.2.3", "::ffff:zz", "localhost",
    "<script>alert(1)</script>", "' OR 1=1 --", "1.2.3.4/32", "\x00", "[::1]",
]  # fmt: skip


def _is_address(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


def forged_edges(world: World, forger: Forger, rng: random.Random, n: int) -> Iterator[Forged]:
    """Other methods on static files (a CORS preflight among them), cookies with a NUL spelled in
    a quoted value, and a forwarded-for entry that is not an address. Sent with
    TRUSTED_PROXY_COUNT = 1."""
    for _ in range(n):
        kind = rng.choice(["static", "cookie", "proxy"])
        who = rng.choice(["anon", "alice", "mallory"])
        if kind == "static":
            method = rng.choice(["post", "put", "patch", "delete", "options"])
            headers = {}
            if method == "options":  # a CORS preflight
                headers = {
                    "Origin": "https://elsewhere.example",
                    "Access-Control-Request-Method": "POST",
                }
            url = rng.choice(STATIC_FILES)
            yield Forged("edges", method, url, who, {405: (NOT_TAKEN,)}, headers=headers)
        elif kind == "cookie":
            value = rng.choice(["abcdefghijklmnop", junk(rng).replace('"', "") or "x", "a" * 32])
            if not value.isascii():  # a header carries bytes (latin-1 to WSGI): keep to ASCII
                value = "abcdefghij"
            forged = f'"{value}\\000"'  # the octal escape: the cookie parser unquotes it to a NUL
            name = rng.choice(["sessionid", "csrftoken", "theme"])
            logged_in = who != "anon" and name != "sessionid"
            cookie = f"{name}={forged}"
            if logged_in:
                cookie = f"sessionid={forger.plain[who].cookies['sessionid'].value}; {cookie}"
            url = rng.choice(["/", reverse("games:lobby")])
            if url == "/":
                expect = {302: (reverse("games:mine"),)} if logged_in else {200: ()}
            else:
                expect = {200: ()} if logged_in else {302: (LOGIN,)}
            yield Forged("edges", "get", url, who, expect, headers={"Cookie": cookie})
        else:
            hop = rng.choice([*NOT_ADDRESSES, junk(rng)]).strip()
            if not hop or not hop.isascii() or "," in hop or _is_address(hop):
                continue
            forwarded = rng.choice([hop, f"6.6.6.6, {hop}"])  # the counted entry is the last
            url = rng.choice(["/", LOGIN, reverse("password_reset"), reverse("games:lobby")])
            method = "post" if url != "/" and rng.random() < 0.5 else "get"
            data = {"username": "alice", "password": "nope", "email": "alice@example.com"}
            yield Forged(
                "edges", method, url, who, {400: (PROXY_REFUSED,)},
                data if method == "post" else {}, headers={"X-Forwarded-For": forwarded},
            )  # fmt: skip


def test_forged_edges_are_answered_in_words(world, forger, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    rng = random.Random(SEED + 8)
    assert forger.run("edges", forged_edges(world, forger, rng, 300)) >= 250
