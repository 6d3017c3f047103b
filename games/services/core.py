"""The mechanics every change shares: the row lock, the version, the turn clock, saving a state."""

import logging
from datetime import timedelta

from django.core.cache import cache
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from accounts.models import User
from games import engine, recent_moves, reminders, table_query
from games.models import Game, Move, Seat
from games.queue import enqueue
from games.services import boards
from games.services.errors import NotAllowed, NotFound, RuleViolation, StaleVersion

logger = logging.getLogger(__name__)


# Short, so that if publishing a new version failed (a Redis blip), pollers see it within a minute.
VERSION_CACHE_SECONDS = 60


def version_cache_key(game_id: int) -> str:
    return f"game-version:{game_id}"


def cached_version(game_id: int) -> int | None:
    """The game's version as last published, or None (unknown, or the cache is down)."""
    try:
        return cache.get(version_cache_key(game_id))
    except Exception:  # the cache is an optimisation: Redis down must not stop the site
        logger.warning("cache unavailable reading the version of game %s", game_id)
        return None


def remember_version(game_id: int, version: int) -> None:
    try:
        cache.set(version_cache_key(game_id), version, timeout=VERSION_CACHE_SECONDS)
    except Exception:
        # Pollers fall back to the database once the short-lived entry expires.
        logger.warning("cache unavailable publishing version %s of game %s", version, game_id)


def _publish_version(game: Game) -> None:
    """After commit, tell pollers the new version without them touching the database."""
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: remember_version(game_id, version))


def _locked(game_id: int) -> Game:
    """The game, its row locked until the transaction ends: every change starts here.

    Written in SQL: Django spends 0.4 ms compiling `select_for_update().get(pk=...)`, 40% of
    this query's CPU, on each move (the raw query reads the same columns into the same model)."""
    try:
        pk = int(game_id)
    except (ValueError, TypeError):
        pk = 0
    if not 0 < pk < 2**63:  # (no row has such an id; SQLite would overflow on it)
        raise NotFound("There is no such game.")
    lock = ""
    if connection.features.has_select_for_update:
        if connection.get_autocommit():  # as select_for_update says: the lock would not hold
            raise TransactionManagementError("a game is locked inside a transaction only")
        lock = " FOR UPDATE"
    table, key = (connection.ops.quote_name(n) for n in (Game._meta.db_table, Game._meta.pk.column))
    rows = list(Game.objects.raw(f"SELECT * FROM {table} WHERE {key} = %s{lock}", [pk]))
    if not rows:
        raise NotFound("There is no such game.")
    return rows[0]


def _lock_player(user: User) -> None:
    """The player's row locked until the transaction ends, so per-player caps hold under races."""
    User.objects.select_for_update().filter(pk=user.pk).first()


def _next_seq(game: Game) -> int:
    """The number of the move about to be logged; the caller saves the locked game."""
    game.move_count += 1
    return game.move_count


def _log_moves(game: Game, moves: list[Move]) -> None:
    """Write moves numbered by _next_seq; the game row, which the caller saves, keeps the newest
    for the game page (games.recent_moves)."""
    Move.objects.bulk_create(moves)
    recent_moves.remember(game, moves)


def _bump(game: Game) -> None:
    game.version += 1
    _publish_version(game)


def _save_state(
    game: Game,
    before: engine.GameState,
    after: engine.GameState,
    seats: list[Seat] | None = None,
) -> None:
    """Store `after` in the locked game (the caller logged the move). `seats`, when the caller
    already loaded them with their users under the lock, spare the turn clock a query."""
    from games import tasks  # tasks import services; import here to keep the graph acyclic

    game.set_engine_state(after)
    boards.record_turn_end(game, before, after)
    _bump(game)
    if (
        after.current_seat != before.current_seat or after.turn != before.turn
    ) and not after.finished:
        _start_turn_clock(game, after, seats)
        if after.current_seat != before.current_seat:  # one "your turn" email per turn
            enqueue(tasks.notify_turn, game.pk, after.turn)
    if after.finished:
        _finish(game, after, reason=Game.EndReason.NATURAL)
    table_query.save_game(game)


# A game counts (wins, ratings, records, suns) only if every person at the table played at least
# this many turns of their own; a game ended early before that is abandoned (README, rules).
MIN_OWN_TURNS = 3


def played_enough(seats: list[Seat]) -> bool:
    """Whether every person (bots aside) played MIN_OWN_TURNS turns of their own: the one rule
    behind abandoned games and behind which games move ratings, wins and leaderboards."""
    return all(
        seat.own_turns is not None and seat.own_turns >= MIN_OWN_TURNS
        for seat in seats
        if not seat.user.is_bot
    )


def own_turns(game: Game) -> dict[int, int]:
    """Turns in which each seat's player made a move themselves (not a bot, not a stand-in)."""
    rows = (
        Move.objects.filter(game=game, user__isnull=False)
        .exclude(action__type__in=sorted(SITE_EVENTS))
        .order_by()  # no default ordering columns in the DISTINCT
        .values_list("seat", "turn")
        .distinct()
    )
    counts: dict[int, int] = {}
    for position, _turn in rows:
        counts[position] = counts.get(position, 0) + 1
    return counts


def placing(state: engine.GameState, seats: list[Seat]) -> dict[int, int]:
    """Each position's final place. Players who finished the game rank by score, then animal
    cubes (the rules' tie-break, equal is shared); after them those who timed out, were dropped
    or resigned, the latest to leave first, whatever their stand-in scored."""
    left_at = {seat.position: seat.left_at for seat in seats}
    key = {}
    for p in engine.ranking(state):
        left = left_at.get(p.seat)
        stayed = (1, 0.0) if left is None else (0, left.timestamp())
        key[p.seat] = (*stayed, p.total, p.animal_cubes)
    return {seat: 1 + sum(1 for k in key.values() if k > mine) for seat, mine in key.items()}


def _finish(
    game: Game, state: engine.GameState, *, reason: str, ended_by: Seat | None = None
) -> None:
    """The game is over: status, reason and every seat's score, own turns and place, stored in
    the transaction that ends it, so every page reads one result; the caller saves the game."""
    from games import tasks

    seats = list(game.seats.select_related("user"))
    sheets = engine.score_sheets(state)
    turns = own_turns(game)
    places = placing(state, seats)
    for seat in seats:
        seat.final_score = sheets[seat.position].total
        seat.own_turns = turns.get(seat.position, 0)
        seat.rank = places[seat.position]
    Seat.objects.bulk_update(seats, ["final_score", "own_turns", "rank"])
    if reason != Game.EndReason.NATURAL and not played_enough(seats):
        reason = Game.EndReason.ABANDONED
    game.status = Game.Status.FINISHED
    game.end_reason = reason
    game.ended_by = ended_by
    game.ended_on_turn = state.turn + 1 if ended_by is not None else None
    game.finished_at = timezone.now()
    game.current_seat = None
    game.turn_deadline = None
    enqueue(tasks.finalize_game, game.pk)


def _start_turn_clock(game: Game, state: engine.GameState, seats: list[Seat] | None = None) -> None:
    """A new turn: who is to move, since when, and by when if the game has a time limit.
    `seats`: the table with users, if loaded under the game's lock (else they are read)."""
    now = timezone.now()
    game.current_seat = seat = state.current_seat
    game.turn_started_at = now
    mover = next((s for s in seats or () if s.position == seat), None)
    if mover is None:
        mover = game.seats.select_related("user").get(position=seat)
    # A turn that starts while the player is away counts its limit from their return.
    clock = mover.user.back_at if mover.user.is_away_at(now) else now
    game.turn_deadline = (
        clock + timedelta(days=game.turn_limit_days) if game.turn_limit_days else None
    )
    reminders.plan_turn(game, mover)
    if is_automatic(mover):
        from games import tasks

        # A moment later, as a person would; the task checks the turn is still due.
        enqueue(tasks.play_automatic_turn, game.pk, state.turn, countdown=1)


def _parse_action(action: object) -> engine.Action:
    try:
        return engine.action_from_json(action)
    except engine.IllegalAction as exc:
        raise RuleViolation(_sentence(str(exc))) from None


def _check_version(game: Game, expected: object) -> None:
    """The page the action came from must show the game's current version."""
    try:
        current = int(str(expected)) == game.version
    except ValueError:
        current = False
    if not current:
        raise StaleVersion("The board changed since your page was drawn; here it is now.")


def _seating(game: Game, user: User) -> tuple[list[Seat], Seat]:
    """Everyone at the table (with their users, one query) and the user's own seat."""
    seats = _table_of(game)
    seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("You are not playing in this game.")
    return seats, seat


def _table_of(game: Game) -> list[Seat]:
    """The game's seats with their users, in Seat's order (position, then arrival). Read by
    games.table_query, whose SQL is built once per process (Django compiled this query in 0.3
    ms on every move), and sorted here: at most four rows."""
    return in_seat_order(table_query.seats_of(game))


def in_seat_order(seats: list[Seat]) -> list[Seat]:
    """Seats as Meta.ordering sorts them (position, then arrival), sorted in Python: cheaper than
    the ORDER BY Django compiles for at most four rows. As PostgreSQL sorts, seats without a
    position (a table not started) come after the others."""
    seats.sort(key=lambda s: (s.position is None, s.position or 0, s.joined_at))
    return seats


def _seat_of(game: Game, user: User) -> Seat:
    return _seating(game, user)[1]


def _sentence(reason: str) -> str:
    reason = reason.strip()
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith((".", "!", "?")) else ".")


# Logged beside engine actions, never replayed.
SITE_EVENTS = frozenset({"resign", "end_game", "drop"})


STAND_IN_POLICY = "easy"


def is_automatic(seat: Seat) -> bool:
    """Bots and players who resigned or were dropped have their turns played for them."""
    return seat.user.is_bot or seat.left
