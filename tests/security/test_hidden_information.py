"""Nothing the site sends shows hidden information: the pouch order, the draw pile's order or the
seed (with which anyone could work out both).

Everything a player or visitor can be sent is rendered twice, each time with another pouch and
draw-pile order stored in the games (the seed itself stays put: replays use it). Every page,
htmx fragment, poll answer, refusal and email must come out the same, byte for byte (CSRF tokens
masked), and none may contain a seed or a run of the pouch or the pile in their order.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import engine
from games.mail import digest, endings, turns
from games.models import Game, Seat
from tests.security.conftest import World, pouch_and_deck, reshuffle_hidden_orders

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')
WITH_BOARDS = ("active", "timed_out", "finished")
REPLAY_STEPS = (0, 7, 40, 10_000)
WATCH_TOKEN = "a-watch-token-for-the-test"


@dataclass(frozen=True)
class Ask:
    label: str
    path: str
    data: dict = field(default_factory=dict)
    post: bool = False
    htmx: bool = False
    undo: bool = False  # a move that is rolled back once its answer is read


def requests_to_make(world: World) -> list[Ask]:
    """Every kind of answer the site gives about games: pages, fragments, polls, refusals."""
    active, timed_out, finished, table = (
        world.fresh(world.active),
        world.fresh(world.timed_out),
        world.fresh(world.finished),
        world.fresh(world.open),
    )
    state = active.engine_state()
    colour = state.hand[0]
    target = engine.token_targets(state, colour)[0]
    missing = next(c for c in engine.COLOURS if c not in state.hand)
    held = sorted(c["card_id"] for p in engine.view_for(state, 0)["players"] for c in p["cards"])
    asks = []
    for name in WITH_BOARDS:
        base = f"/games/{getattr(world, name).pk}/"
        asks += [
            Ask(f"{name} page", base),
            Ask(f"{name} game fragment", base, {"fragment": "game"}, htmx=True),
            Ask(f"{name} log", base + "log/"),
            Ask(f"{name} poll", base + "poll/", {"v": "0"}),
            Ask(f"{name} sheet", base + "sheet/"),
        ]
    act, version = f"/games/{active.pk}/act/", active.version
    # A watcher's page and the plan pad, the other views of a game in progress.
    Game.objects.filter(pk=active.pk).update(watch_token=WATCH_TOKEN)
    watch = f"/games/{active.pk}/watch/{WATCH_TOKEN}/"
    asks += [
        Ask("a watcher's page", watch),
        Ask("a watcher's fragment", watch, {"fragment": "game"}, htmx=True),
        Ask("a watcher's poll", f"/games/{active.pk}/poll/", {"v": "0", "w": WATCH_TOKEN}),
        Ask("the plan pad", f"/games/{active.pk}/plan/", {"colour": colour}),
    ]
    asks += [
        Ask("select a token", act[:-4], {"token": colour, "fragment": "select"}, htmx=True),
        Ask("select a card", act[:-4], {"card": held[:1], "fragment": "select"}, htmx=True),
        Ask("a whole page with a selection", act[:-4], {"token": colour}),
        Ask(
            "an illegal move",
            act,
            {"type": "place_token", "colour": missing, "cell": target, "version": version},
            post=True,
        ),
        Ask(
            "an illegal move, htmx",
            act,
            {"type": "take_tokens", "space": "0", "version": version},
            post=True,
            htmx=True,
        ),
        Ask("a stale page", act, {"type": "end_turn", "version": version - 1}, post=True),
        # A legal move that draws nothing (undone afterwards): what comes back is the same.
        Ask(
            "a legal move, htmx",
            act,
            {"type": "place_token", "colour": colour, "cell": target, "version": version},
            post=True,
            htmx=True,
            undo=True,
        ),
        Ask(
            "a skip refused",
            f"/games/{timed_out.pk}/skip/",
            {"version": timed_out.version - 1},
            post=True,
        ),
        Ask("the open table", f"/games/{table.pk}/"),
        Ask("an invitation", f"/games/invitation/{table.invite_token}/"),
        Ask("my games", "/games/"),
        Ask("the lobby", "/games/lobby/"),
        Ask("leaderboards", "/leaderboards/"),
        Ask("a leaderboard fragment", "/leaderboards/", {"board": "best"}, htmx=True),
        Ask("history", "/history/"),
        Ask("a profile", "/players/alice/"),
        Ask("my profile", "/accounts/profile/"),
        Ask("home", "/"),
    ]
    for step in REPLAY_STEPS:
        path = f"/games/{finished.pk}/replay/"
        asks += [
            Ask(f"replay {step}", path, {"move": step}),
            Ask(f"replay {step}, htmx", path, {"move": step}, htmx=True),
        ]
    return asks


def rendered(world: World, when) -> dict[tuple[str, str], str]:
    """Every answer, as text: status, the headers htmx reads, and the body with CSRF masked."""
    out = {}
    with time_machine.travel(when, tick=False):
        cache.clear()  # presence and versions: each round starts alike
        clients = {"anon": Client()}
        for user in (world.alice, world.bob, world.carol, world.mallory):
            clients[user.username] = Client()
            clients[user.username].force_login(user)
        for ask in requests_to_make(world):
            for who, client in clients.items():
                headers = {"HX-Request": "true"} if ask.htmx else {}
                with transaction.atomic():
                    call = client.post if ask.post else client.get
                    response = call(ask.path, ask.data, headers=headers)
                    transaction.set_rollback(ask.undo)
                hx = {k: v for k, v in response.items() if k.startswith("HX-") or k == "Location"}
                body = CSRF.sub(r"\1…", response.content.decode())
                out[(ask.label, who)] = f"{response.status_code} {hx}\n{body}"
    return out


def emails(world: World, when) -> dict[str, str]:
    """The turn, reminder, digest and game-over emails of the world's games, as sent."""
    User.objects.update(email_digest=True, last_digest_on=None)
    Seat.objects.update(notified_turn=None, game_over_notified_at=None)
    mail.outbox = []
    with time_machine.travel(when, tick=False):
        cache.clear()  # nobody is looking at a game: the turn email goes out
        active, alice = world.fresh(world.active), world.alice
        assert turns.send_turn(active.pk, active.engine_state().turn)
        seat = Seat.objects.get(game=active, user=alice)
        due = timezone.now() - timedelta(minutes=1)
        Seat.objects.filter(pk=seat.pk).update(remind_at=due)
        assert turns.send_reminder(seat.pk, due)
        assert digest.send_digest(alice.pk, timezone.localdate())
        assert endings.send_game_over(world.finished.pk) == 2
    return {
        f"{m.subject} to {m.to}": "\n".join(
            [m.subject, m.body, *(a[0] for a in m.alternatives), json.dumps(m.extra_headers)]
        )
        for m in mail.outbox
    }


# A run of token colours, or of card ids, in a text: words with at most a few other characters
# between them ('", "', ", ", " ", "<br>"...). A leaked order would show as one.
COLOURS = "|".join(engine.COLOURS)
COLOUR_RUN = re.compile(rf"(?:\b(?:{COLOURS})\b[^\w]{{0,4}}){{8,}}")
CARD_RUN = re.compile(r"(?:\b(?:animal|spirit)_[a-z0-9]+\b[^\w]{0,4}){4,}")
WORD = re.compile(r"[a-z]+_[a-z0-9]+|[a-z]+")
TAG = re.compile(r"<[^>]*>")


def windows(order: list[str], length: int) -> set[tuple[str, ...]]:
    return {tuple(order[i : i + length]) for i in range(len(order) - length + 1)}


@dataclass
class Secrets:
    seeds: list[str]
    pouch_runs: set[tuple[str, ...]]  # every 8 tokens in a row of a pouch, in its order
    deck_runs: set[tuple[str, ...]]  # every 4 cards in a row of a draw pile

    def found_in(self, text: str) -> list[str]:
        found = [seed for seed in self.seeds if seed in text]
        # As sent (an order in an attribute or JSON), and as read (an order in a list).
        for version in (text, TAG.sub(" ", text)):
            for pattern, known, length in ((COLOUR_RUN, self.pouch_runs, 8),
                                           (CARD_RUN, self.deck_runs, 4)):  # fmt: skip
                for run in pattern.finditer(version):
                    if windows(WORD.findall(run.group()), length) & known:
                        found.append(run.group()[:80])
        return found


def secrets_of(world: World) -> Secrets:
    """The seeds, and the pouch and pile orders stored in the games; for the finished game also
    the pouch and pile as they stood at each replayed step."""
    secrets = Secrets([], set(), set())
    orders = []
    for name in WITH_BOARDS:
        game = world.fresh(getattr(world, name))
        secrets.seeds.append(str(game.seed))
        orders.append(pouch_and_deck(game))
    finished = world.fresh(world.finished)
    actions = [m.action for m in finished.moves.order_by("seq")]
    for step in REPLAY_STEPS:
        state = engine.replay(finished.config, finished.seed, actions[:step])
        orders.append((list(state.pouch), list(state.deck)))
    for pouch, deck in orders:
        secrets.pouch_runs |= windows(pouch, 8)
        secrets.deck_runs |= windows(deck, 4)
    return secrets


def leaks(outputs: dict, secrets: Secrets) -> list[tuple]:
    return [(key, found) for key, text in outputs.items() if (found := secrets.found_in(text))]


def test_nothing_sent_depends_on_the_hidden_orders(world):
    when = timezone.now() + timedelta(minutes=1)
    rounds = []
    for seed in (1, 2):
        with transaction.atomic():  # each round starts from the same database but for the orders
            for name in WITH_BOARDS:
                reshuffle_hidden_orders(getattr(world, name), seed=seed)
            rounds.append((rendered(world, when), emails(world, when), secrets_of(world)))
            transaction.set_rollback(True)
    (pages_1, sent_1, secrets_1), (pages_2, sent_2, secrets_2) = rounds
    assert secrets_1.pouch_runs != secrets_2.pouch_runs, "the two rounds had other orders"
    assert len(pages_1) > 200 and len(sent_1) == 5
    # What is compared is what each role may see, not a row of error pages.
    assert pages_1[("active page", "alice")].startswith("200")
    assert 'class="hex' in pages_1[("select a token", "alice")]
    assert pages_1[("a legal move, htmx", "alice")].startswith("200")
    assert pages_1[("active page", "mallory")].startswith("403")
    assert pages_1[("active page", "anon")].startswith("302")
    assert pages_1[("finished sheet", "mallory")].startswith("200")
    assert pages_1[("a watcher's page", "anon")].startswith("200")
    assert pages_1[("the plan pad", "alice")].startswith("200")
    assert pages_1[("replay 40", "carol")].startswith("200")
    assert Game.objects.get(pk=world.active.pk).version == world.active.version, "moves undone"
    for pages, sent in ((pages_1, sent_1), (pages_2, sent_2)):
        for secrets in (secrets_1, secrets_2):
            assert not leaks(pages, secrets), "a page shows hidden information"
            assert not leaks(sent, secrets), "an email shows hidden information"
    different = [key for key in pages_1 if pages_1[key] != pages_2[key]]
    assert not different, f"these answers depend on the hidden orders: {different}"
    assert sent_1 == sent_2


def test_the_leak_finder_finds_an_order_written_out(world):
    secrets = secrets_of(world)
    pouch, deck = pouch_and_deck(world.active)
    finished = world.fresh(world.finished)
    for text in (
        json.dumps({"pouch": pouch}),
        "<li>" + "</li><li>".join(pouch[10:30]) + "</li>",
        f"next: {', '.join(pouch[-9:])}.",
        " ".join(deck[3:8]),
        f'data-seed="{finished.seed}"',
    ):
        assert secrets.found_in(text), text
    central = [t for space in world.fresh(world.active).engine_state().central for t in space]
    assert not secrets.found_in(" ".join(central[:8]) + " ".join(pouch[:7]))
