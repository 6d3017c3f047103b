"""Seed the bench database: players, games in progress, and what the load clients need.

Run by bench/load/run.py with the bench environment (DATABASE_URL, REDIS_URL, SECRET_KEY, ...):
    python bench/load/seed.py --games 300 --out var/bench/plan.json

Games are created and started through `services` like any table. Their moves are then played by
the engine in memory and written in bulk (the same Move rows, details and state that
`services.play` would write, a few hundred times faster), so `verify_games` passes on the result.
Each game stops somewhere between a third of the way and near its end; the rest of its random
game is written to the plan, as the legal actions the move clients will post, in order.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")

import django

django.setup()

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402
from django.utils.crypto import get_random_string  # noqa: E402

from accounts.identity import canonical_username, username_skeleton  # noqa: E402
from accounts.models import User  # noqa: E402
from games import engine, presence, services  # noqa: E402
from games.models import Board, Game, Move, Seat, recent_moves  # noqa: E402
from games.models.versions import remember_talk_version, remember_version  # noqa: E402
from games.narration import move_detail  # noqa: E402
from games.presenters import recap  # noqa: E402

MODEL_BACKEND = "accounts.backends.PlayerBackend"  # the site's one log-in backend (settings)


def make_users(count: int) -> list[User]:
    users = []
    for i in range(count):
        name = f"bench{i:04d}"
        # bulk_create skips User.save(), which fills the canonical name and its look-alike form.
        user = User(
            username=name,
            username_key=canonical_username(name),
            username_skeleton=username_skeleton(name),
            email=f"{name}@example.com",
            email_confirmed_at=timezone.now(),
        )
        user.display_name = f"Bench {i}"
        user.set_unusable_password()  # sessions are made directly: no password hashing to wait on
        users.append(user)
    User.objects.bulk_create(users)
    return list(User.objects.filter(username__startswith="bench").order_by("pk"))


def login_cookie(user: User) -> dict[str, str]:
    """A logged-in session and a CSRF secret, as a browser would hold after logging in."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = MODEL_BACKEND
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    csrf = get_random_string(32)  # Django accepts the unmasked 32-character secret as the token
    return {"cookie": f"sessionid={session.session_key}; csrftoken={csrf}", "csrf": csrf}


def random_game(config: engine.GameConfig, seed: int, rng: random.Random) -> list[engine.Action]:
    """A whole random game (no turn resets), played from the seed the site stored."""
    state, actions = engine.new_game(config, seed), []
    while not state.finished:
        action = engine.random_policy(state, rng)
        actions.append(action)
        state = engine.apply(state, action)
    return actions


def fast_forward(game: Game, users_by_seat: dict, actions: list[engine.Action]) -> None:
    """Write `actions` as services.play would have, one Move per action, in one transaction."""
    state = game.engine_state()
    moves, boards, turn_started = [], [], timezone.now()
    # Each player saw the game when they last played (as the page they played on shows it), so
    # a first look recaps the others' turns since, not the whole game from an empty board.
    last_seen: dict[int, int] = {}
    seen_states: dict[int, engine.GameState] = {}
    start = timezone.now() - timedelta(minutes=5 * len(actions))
    for i, action in enumerate(actions):
        after = engine.apply(state, action)
        last_seen[state.current_seat] = i + 1
        if after.turn != state.turn:  # the turn-end board, as services.boards records it
            position = state.current_seat
            boards.append(
                Board(
                    game=game,
                    position=position,
                    turn=state.turn,
                    move_seq=i + 1,
                    player=after.players[position].to_json(),
                    score=engine.score_sheet(after, position).as_dict(),
                )
            )
        moves.append(
            Move(
                game=game,
                seq=i + 1,
                seat=state.current_seat,
                user=users_by_seat[state.current_seat],
                turn=state.turn,
                action=action.to_json(),
                detail=move_detail(state, action, after),
                created_at=start + timedelta(minutes=5 * i),
            )
        )
        if after.current_seat != state.current_seat:
            turn_started = moves[-1].created_at
        seen_states[state.current_seat] = after  # the boards that page showed
        state = after
    with transaction.atomic():
        Move.objects.bulk_create(moves, batch_size=1000)
        Board.objects.bulk_create(boards, batch_size=1000)
        seats = list(game.seats.all())
        for seat in seats:
            seat.seen_move = last_seen.get(seat.position, 0)
            if seat.position in seen_states:  # as games.presenters.recap.mark_seen keeps them
                seat.seen_boards = recap.seen_boards(seen_states[seat.position], seat.position)
        Seat.objects.bulk_update(seats, ["seen_move", "seen_boards"])
        recent_moves.remember(game, moves[-recent_moves.KEPT :])
        game.state = engine.state_to_json(state)
        game.version += len(actions)
        game.move_count = len(actions)
        game.current_seat = state.current_seat
        game.turn_started_at = turn_started
        game.save()
    remember_version(game.pk, game.version)
    remember_talk_version(game.pk, game.talk_version)  # the poll compares both


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--base-url", default="http://127.0.0.1:8765")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    started = time.perf_counter()
    rng = random.Random(args.seed)
    users = make_users(args.users)
    logins = {u.pk: login_cookie(u) for u in users}
    plan_games = []
    for n in range(args.games):
        players = (2, 3, 4)[n % 3]
        table = rng.sample(users, players)
        game = services.create_game(
            creator=table[0],
            players=players,
            side=rng.choice("AB"),
            spirits=rng.random() < 0.5,
            invitees=table[1:],
        )
        for user in table[1:]:
            services.join_game(game_id=game.pk, user=user)
        game.refresh_from_db()
        by_seat = {s.position: s.user for s in game.seats.select_related("user")}
        actions = random_game(game.config, game.seed, rng)
        # Mid-game to late-game boards; the last action (the one that ends the game) is never
        # played by the clients, so every game stays in progress for the whole run.
        stop = int(len(actions) * rng.uniform(0.35, 0.9))
        fast_forward(game, by_seat, actions[:stop])
        state = game.engine_state()
        rest, seat = [], state.current_seat
        for action in actions[stop:-1]:
            rest.append([seat, action.to_json()])
            state = engine.apply(state, action)
            seat = state.current_seat
        plan_games.append(
            {
                "id": game.pk,
                "players": players,
                "moves": stop,
                "version": game.version,
                "seats": [
                    {
                        **logins[by_seat[p].pk],
                        "presence": presence.token_for(game.pk, by_seat[p].pk),
                    }
                    for p in range(players)
                ],
                "plan": rest,
            }
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"base_url": args.base_url, "games": plan_games}))
    moves = Move.objects.count()
    print(
        f"seeded {args.games} games ({moves} moves, {len(users)} players) "
        f"in {time.perf_counter() - started:.1f} s"
    )


if __name__ == "__main__":
    main()
