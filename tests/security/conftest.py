"""One small world of players and games, built once per test module and rolled back after it.

Building games costs far more than asking the site about them, and the security tests ask a lot
(thousands of forged requests, a few hundred access checks). So each module shares one world,
made inside a transaction that is rolled back when the module is done; every test still runs in
its own savepoint (pytest-django's `db`), so whatever a test changes is undone after it.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.utils import timezone

from accounts.models import EMAIL_KINDS, User
from games import engine, services
from games.models import Game, Invitation, Message, Move, Plan, Seat
from records.models import GameRecord, Rating, SeatResult
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move
from tests.records.helpers import quick_game

# A seed as large as the site draws (62 bits), so that looking for it in a page means something.
FINISHED_SEED = 4_611_686_018_427_380_001


@dataclass
class World:
    alice: User  # created every table; seated in the active, timed-out and finished games
    bob: User  # alice's opponent
    carol: User  # invited to alice's open table, seated nowhere
    mallory: User  # a stranger to every game
    staff: User  # the site's administrator
    active: Game  # alice (to move, holding three tokens) and bob, with spirits
    timed_out: Game  # alice (to move) and bob, with a 1-day turn limit that has run out
    open: Game  # alice's private 3-player table, carol invited
    other_open: Game  # bob's private table: its invitation link is not the open table's
    finished: Game  # alice and bob, played to the end, finalized and recorded
    cancelled: Game  # alice's table, cancelled
    mover: User  # whose turn it is in the active and timed-out games: alice
    waiting: User  # the other seat of those games: bob

    @property
    def games(self) -> list[Game]:
        return [
            self.active,
            self.timed_out,
            self.open,
            self.other_open,
            self.finished,
            self.cancelled,
        ]

    def fresh(self, game: Game) -> Game:
        return Game.objects.get(pk=game.pk)


def build_world() -> World:
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    carol = UserFactory(username="carol", display_name="Carol")
    mallory = UserFactory(username="mallory", display_name="Mallory")
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    # Nobody has quiet hours, so reminders and digests go out whatever the clock says.
    User.objects.update(quiet_start=0, quiet_end=0)

    # Seat order is drawn at random: whole turns are played until alice is to move, so that the
    # roles are the same on every run (alice to move, bob waiting).
    active = play_turns(start_game(alice, bob, spirits=True), turns=2, seed=3)
    if user_to_move(active) != alice:
        active = play_turns(active, turns=1, seed=4)
    state = active.engine_state()
    take = next(a for a in engine.legal_actions(state) if isinstance(a, engine.TakeTokens))
    services.play(
        game_id=active.pk, user=alice, action=take.to_json(), expected_version=active.version
    )
    active.refresh_from_db()
    assert active.engine_state().hand, "the player to move holds tokens"

    timed_out = services.create_game(
        creator=alice, players=2, side="B", spirits=False, invitees=[bob], turn_limit_days=1
    )
    timed_out = services.join_game(game_id=timed_out.pk, user=bob)
    if user_to_move(timed_out) != alice:
        timed_out = play_turns(timed_out, turns=1, seed=5)
    Game.objects.filter(pk=timed_out.pk).update(
        turn_deadline=timezone.now() - timezone.timedelta(hours=1)
    )

    table = services.create_game(
        creator=alice, players=3, side="A", spirits=False, invitees=[carol]
    )
    other_table = services.create_game(creator=bob, players=2, side="A", spirits=False)
    finished = quick_game(alice, bob, spirits=True, seed=FINISHED_SEED)
    cancelled = services.create_game(creator=alice, players=2, side="A", spirits=False)
    services.cancel_game(game_id=cancelled.pk, user=alice)

    world = World(
        alice=alice,
        bob=bob,
        carol=carol,
        mallory=mallory,
        staff=staff,
        active=active,
        timed_out=timed_out,
        open=table,
        other_open=other_table,
        finished=finished,
        cancelled=cancelled,
        mover=alice,
        waiting=bob,
    )
    for game in world.games:
        game.refresh_from_db()
    for user in (alice, bob, carol, mallory, staff):
        user.refresh_from_db()
    return world


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def client_for(user: User | None, *, csrf: bool = False) -> Client:
    """A browser: logged in as `user` (None: a visitor); with `csrf`, CSRF is enforced."""
    client = Client(enforce_csrf_checks=csrf)
    if user is not None:
        client.force_login(user)
    return client


def snapshot() -> dict[str, list]:
    """Everything a request could change that matters: compared before and after forged ones."""
    user_fields = [f.name for f in User._meta.concrete_fields if f.name != "last_login"]
    # What a player last saw (for "since your last visit") is bookkeeping of a look, as
    # last_login is of a log-in: a page view may move it.
    looked = {"seen_move", "seen_boards"}
    seat_fields = [f.name for f in Seat._meta.concrete_fields if f.name not in looked]
    return {
        "games": list(Game.objects.order_by("pk").values()),
        "moves": list(Move.objects.order_by("pk").values_list("pk", "game_id", "seq")),
        "seats": list(Seat.objects.order_by("pk").values(*seat_fields)),
        "invitations": list(Invitation.objects.order_by("pk").values()),
        "users": list(User.objects.order_by("pk").values(*user_fields)),
        "records": [
            GameRecord.objects.count(),
            list(SeatResult.objects.order_by("pk").values_list("pk", "total", "place")),
            list(Rating.objects.order_by("pk").values_list("pk", "mu", "sigma", "games")),
        ],
    }


def fingerprint() -> tuple:
    """A lighter snapshot, for one request at a time: every change to a game bumps its version;
    what does not (an invitation declined, an email switched off) shows in the other rows."""
    return (
        list(Game.objects.order_by("pk").values_list("pk", "version", "status")),
        # What changes without a version: the watch link and open table, the private plans.
        list(Game.objects.order_by("pk").values_list("watch_token", "open_to_watchers")),
        list(Plan.objects.order_by("pk").values_list("pk", "notes", "marks")),
        Move.objects.count(),
        list(Seat.objects.order_by("pk").values_list("pk", "user_id", "resigned_at", "talk_muted")),
        list(Message.objects.order_by("pk").values_list("pk", "deleted_at", "hidden_by_staff")),
        list(Invitation.objects.order_by("pk").values_list("pk", flat=True)),
        list(User.objects.order_by("pk").values_list("pk", "password", *EMAIL_KINDS.values())),
    )


def reshuffle_hidden_orders(game: Game, seed: int) -> None:
    """The same game with another pouch order and draw pile: nothing a player may see changes."""
    state = json.loads(Game.objects.get(pk=game.pk).state)
    rng = random.Random(seed)
    for key in ("pouch", "deck"):
        before = list(state[key])
        while len(set(before)) > 1 and state[key] == before:
            rng.shuffle(state[key])
    Game.objects.filter(pk=game.pk).update(state=json.dumps(state))


def pouch_and_deck(game: Game) -> tuple[list[str], list[str]]:
    state = json.loads(Game.objects.get(pk=game.pk).state)
    return state["pouch"], state["deck"]


@pytest.fixture(scope="module")
def sessions(world, django_db_blocker) -> dict[int, str]:
    """A logged-in session per player, made once (in the module's transaction)."""
    keys = {}
    with django_db_blocker.unblock():
        for user in (world.alice, world.bob, world.carol, world.mallory, world.staff):
            client = Client()
            client.force_login(user)
            keys[user.pk] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return keys
