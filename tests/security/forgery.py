"""How the fuzz forges requests: the junk, the Forger that sends them and checks every answer,
the actions and the seats a request is forged from (tests/security/forged_requests.py builds
one generator per endpoint on them)."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import pytest
from django.urls import reverse

from games import engine
from games.models import Game
from tests.answers import answered
from tests.security.conftest import World, client_for, snapshot

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
        status = answered(response)
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
