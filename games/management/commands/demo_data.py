"""Demo data for a development site (DEBUG only): players to log in as and games to look at."""

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand
from django.test.utils import override_settings
from django.utils import timezone

from accounts.models import User
from games import engine, services
from games.models import Game
from games.services.bots import bots_for
from harmonies_site.celery import app

DEMO_ACCOUNT_AGE = timedelta(days=30)
DEMO_PASSWORD = "harmonies-demo"
DEMO_PLAYERS = [
    ("alice", "Alice", "Europe/Paris"),
    ("bob", "Bob", "America/New_York"),
    ("carol", "Carol", "Asia/Tokyo"),
    ("dave", "Dave", "UTC"),
]


class Command(BaseCommand):
    help = "Create demo players and games (only when DEBUG is on) and print how to log in."

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            self.stdout.write("DEBUG is off: no demo data created.")
            return
        users = {}
        for username, display_name, time_zone in DEMO_PLAYERS:
            user, created = User.objects.get_or_create(
                username=username,
                defaults={
                    "display_name": display_name,
                    "email": f"{username}@example.com",
                    "time_zone": time_zone,
                    # Demo players play rated games from the start, as if they had clicked the
                    # link, and joined long enough ago that their games move their ratings (a
                    # new account's gains against another are held back: records.ratings).
                    "email_confirmed_at": timezone.now(),
                    "date_joined": timezone.now() - DEMO_ACCOUNT_AGE,
                },
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            users[username] = user
        # The demo's own moves would otherwise fill the console with "your turn" emails, and its
        # finished games are recorded at once (ratings, leaderboards), whatever runs the tasks.
        with (
            override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"),
            tasks_in_process(),
        ):
            if not Game.objects.filter(created_by=users["alice"]).exists():
                self._demo_games(users)
            if not Game.objects.filter(status=Game.Status.FINISHED).exists():
                self.stdout.write("Playing the demo's finished games (a few seconds)...")
                self._finished_games(users)
        names = ", ".join(username for username, _, _ in DEMO_PLAYERS)
        self.stdout.write(f"Demo players: {names} (password: {DEMO_PASSWORD})")
        self.stdout.write(
            "Alice and Bob have a game in progress; Carol has an open table; four finished "
            "games fill the leaderboards, History, score sheets and replays."
        )

    def _demo_games(self, users: dict[str, User]) -> None:
        alice, bob, carol = users["alice"], users["bob"], users["carol"]
        game = services.create_game(
            creator=alice, players=2, side="A", spirits=True, invitees=[bob]
        )
        services.join_game(game_id=game.pk, user=bob)
        _play_turns(game.pk, turns=6)
        services.create_game(creator=alice, players=1, side="B", spirits=False)
        services.create_game(creator=carol, players=3, side="B", spirits=False, public=True)

    def _finished_games(self, users: dict[str, User]) -> None:
        """Whole games, each person's turns chosen by the medium bot's policy (random moves
        would score a few points and teach nothing): two and three players, solo, and one
        against a bot, so every leaderboard and pool has something to show."""
        alice, bob, carol, dave = (users[n] for n in ("alice", "bob", "carol", "dave"))
        tables = [
            dict(creator=alice, players=2, side="A", spirits=False, invitees=[bob]),
            dict(creator=carol, players=3, side="B", spirits=True, invitees=[alice, dave]),
            dict(creator=bob, players=1, side="A", spirits=False),
            dict(creator=dave, players=2, side="A", spirits=False, bots=bots_for(["medium"])),
        ]
        for table in tables:
            game = services.create_game(**table)
            for invitee in table.get("invitees", []):
                services.join_game(game_id=game.pk, user=invitee)
            _play_to_the_end(game.pk)


@contextmanager
def tasks_in_process() -> Iterator[None]:
    """Celery tasks run in this process while the block runs (then as configured again)."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


def _play_to_the_end(game_id: int) -> None:
    """The people's turns chosen by the medium policy, played through the one writer; bots play
    their own turns through their task, as on the site."""
    choose = engine.get_policy("medium")
    rng = random.Random(game_id)
    game = Game.objects.get(pk=game_id)
    while game.status == Game.Status.ACTIVE:
        state = game.engine_state()
        seat = game.seats.select_related("user").get(position=state.current_seat)
        if services.is_automatic(seat):
            services.play_automatic_turn(game.pk, state.turn)
        else:
            services.play(
                game_id=game.pk,
                user=seat.user,
                action=choose(state, rng).to_json(),
                expected_version=game.version,
            )
        game.refresh_from_db()


def _play_turns(game_id: int, turns: int) -> None:
    """A few whole turns of random legal moves, through the one writer like any player."""
    rng = random.Random(game_id)
    game = Game.objects.get(pk=game_id)
    start = game.engine_state().turn
    while game.engine_state().turn < start + turns:
        state = game.engine_state()
        choices = [a for a in engine.legal_actions(state) if not isinstance(a, engine.ResetTurn)]
        ends = [a for a in choices if isinstance(a, engine.EndTurn)]
        action = ends[0] if ends and not state.hand else rng.choice(choices)
        user = game.seats.get(position=state.current_seat).user
        services.play(
            game_id=game.pk, user=user, action=action.to_json(), expected_version=game.version
        )
        game.refresh_from_db()
