"""The forged requests, one generator per endpoint, each with the rules its answers must keep
(built on tests/security/forgery.py; tests/security/test_fuzz.py sends them)."""

from __future__ import annotations

import ipaddress
import random
import re
from collections.abc import Iterator
from datetime import timedelta
from urllib.parse import quote

import time_machine
from django.core import signing
from django.urls import reverse
from django.utils import timezone

from accounts import unsubscribe
from accounts.models import EMAIL_KINDS
from games import engine, presence
from games.models import Game
from tests.security.conftest import World
from tests.security.forgery import (
    BOARD_NOTICE,
    CARDS,
    CSRF_FAILED,
    LOGIN,
    MISSING_GAME,
    NO_SUCH_GAME,
    NOT_FOUND,
    NOT_PLAYING,
    REFUSED,
    Forged,
    Forger,
    action_fields,
    anyone_forging,
    gatekept,
    invited_to,
    junk,
    junk_query,
    last,
    legal,
    seated_in,
    to_move,
    version_field,
    well_formed,
)


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
        # The clock's boxes, as a page with or without scripts posts them, or forged.
        "clock": rng.choice(["", "turn", "bank", junk(rng)]),
        "bank_days": rng.choice(["", "1", "30", junk(rng)]),
        "increment_hours": rng.choice(["", "0", "12", junk(rng)]),
        "pause_weekends": rng.choice(["on", "", junk(rng)]),
        **junk_query(rng),
    }
    breaker = rng.choice(["players", "side", "invite", "invite-self", "limit", "seat", "clock"])
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
    elif breaker == "clock":
        data.update(forged_clock(rng))
    else:
        data[rng.choice(["seat_2", "seat_3", "seat_4"])] = rng.choice(["impossible", "bot", "x"])
    if rng.random() < 0.1:
        data["players"] = [junk(rng), data["players"]]
    return data


def forged_clock(rng: random.Random) -> dict:
    """Clock fields no clock is made of (games.clocks.check_clock refuses every one)."""
    bank = {"clock": "bank", "turn_limit_days": "", "bank_days": "7", "increment_hours": "12"}
    return rng.choice(
        [
            {"clock": rng.choice(["Bank", "turns", "both", "x", "bank turn", "0"])},
            {"clock": ["turn", "x"]},  # two radios at once: the last one is read
            {**bank, "bank_days": rng.choice(["0", "31", "-1", "x", "", "1.5", "9" * 30])},
            {**bank, "increment_hours": rng.choice(["49", "-1", "x", "1e3", "9" * 30])},
            # No time added per move while late players are stood in for: refused, as a bank
            # that ran out could never be played again.
            {**bank, "increment_hours": "0", "on_timeout": "stand_in"},
            {**bank, "turn_limit_days": rng.choice(["1", "3", "14"])},  # both clocks at once
            {"clock": "turn", "turn_limit_days": "", "pause_weekends": "on"},  # nothing to pause
        ]
    )


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
