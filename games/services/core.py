"""The mechanics every change shares: the row lock, the version, the turn clock, saving a state."""

import logging
from datetime import timedelta

from django.db import connection
from django.db.transaction import TransactionManagementError
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import clocks, engine, reminders
from games.models import Game, Move, Seat, recent_moves, table_query
from games.models.versions import publish_version
from games.queue import enqueue
from games.results import own_turns, placing, played_enough, uncounted_reason
from games.services import boards
from games.services.errors import NotAllowed, NotFound, RuleViolation, StaleVersion

logger = logging.getLogger(__name__)


def locked(game_id: int) -> Game:
    """The game, its row locked until the transaction ends: every change starts here.

    Written in SQL: Django spends 0.4 ms compiling `select_for_update().get(pk=...)`, 40% of
    this query's CPU, on each move (the raw query reads the same columns into the same model)."""
    try:
        pk = int(game_id)
    except (ValueError, TypeError):
        pk = 0
    if not 0 < pk < 2**63:  # (no row has such an id; SQLite would overflow on it)
        raise NotFound(_("There is no such game."))
    lock = ""
    if connection.features.has_select_for_update:
        if connection.get_autocommit():  # as select_for_update says: the lock would not hold
            raise TransactionManagementError(_("a game is locked inside a transaction only"))
        lock = " FOR UPDATE"
    table, key = (connection.ops.quote_name(n) for n in (Game._meta.db_table, Game._meta.pk.column))
    rows = list(Game.objects.raw(f"SELECT * FROM {table} WHERE {key} = %s{lock}", [pk]))
    if not rows:
        raise NotFound(_("There is no such game."))
    return rows[0]


def lock_player(user: User) -> None:
    """The player's row locked until the transaction ends, so per-player caps hold under races."""
    User.objects.select_for_update().filter(pk=user.pk).first()


def next_seq(game: Game) -> int:
    """The number of the move about to be logged; the caller saves the locked game."""
    game.move_count += 1
    return game.move_count


def log_moves(game: Game, moves: list[Move]) -> None:
    """Write moves numbered by next_seq; the game row, which the caller saves, keeps the newest
    for the game page (games.models.recent_moves)."""
    Move.objects.bulk_create(moves)
    recent_moves.remember(game, moves)


def bump(game: Game) -> None:
    game.version += 1
    publish_version(game)


def save_state(
    game: Game,
    before: engine.GameState,
    after: engine.GameState,
    seats: list[Seat] | None = None,
) -> None:
    """Store `after` in the locked game (the caller logged the move). `seats`, when the caller
    already loaded them with their users under the lock, spare the turn clock a query."""
    game.set_engine_state(after)
    boards.record_turn_end(game, before, after)
    bump(game)
    if (
        after.current_seat != before.current_seat or after.turn != before.turn
    ) and not after.finished:
        charge_bank(game, before.current_seat, seats)
        start_turn_clock(game, after, seats)
        if after.current_seat != before.current_seat:  # one "your turn" email per turn
            enqueue("games.notify_turn", game.pk, after.turn)
    if after.finished:
        finish(game, after, reason=Game.EndReason.NATURAL, seats=seats)
    table_query.save_game(game)


def finish(
    game: Game,
    state: engine.GameState,
    *,
    reason: str,
    ended_by: Seat | None = None,
    seats: list[Seat] | None = None,
) -> None:
    """The game is over: status, reason and every seat's score, own turns and place, stored in
    the transaction that ends it, so every page reads one result; the caller saves the game.
    `seats`, loaded under the lock by the caller, are the very objects its answer will draw:
    they get the result too (the page of the player who ends the game shows the ranking)."""
    if seats is None:
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
    game.uncounted = uncounted_reason(game, seats)
    game.ended_by = ended_by
    game.ended_on_turn = state.turn + 1 if ended_by is not None else None
    game.finished_at = timezone.now()
    game.current_seat = None
    game.turn_deadline = None
    enqueue("games.finalize_game", game.pk)


def start_turn_clock(game: Game, state: engine.GameState, seats: list[Seat] | None = None) -> None:
    """A new turn: who is to move, since when, and by when if the game has a time limit.
    `seats`: the table with users, if loaded under the game's lock (else they are read)."""
    now = timezone.now()
    game.current_seat = seat = state.current_seat
    game.turn_started_at = now
    game.turns_left = clocks.turns_left(state)
    mover = _seat_at(game, seat, seats)
    clock = clocks.Clock.of(game)
    if clock.kind == clocks.BANK:
        allowance = mover.bank if mover.bank is not None else clock.bank
    else:
        allowance = timedelta(days=game.turn_limit_days) if game.turn_limit_days else None
    # A turn that starts while the player is away counts its limit from their return; a paused
    # weekend, in the mover's time zone, is not counted either (games/clocks.py).
    start, zone = clocks.counting_from(mover.user, now), clocks.zone_for(game, mover.user)
    game.turn_deadline = clocks.deadline(start, allowance, zone) if allowance is not None else None
    reminders.plan_turn(game, mover)
    if is_automatic(mover):
        # A moment later, as a person would; the task checks the turn is still due.
        enqueue("games.play_automatic_turn", game.pk, state.turn, countdown=1)


def charge_bank(game: Game, position: int | None, seats: list[Seat] | None = None) -> None:
    """The turn of the seat at `position` ends: in a time bank game its bank keeps what the
    clock did not count (nothing while the player was away, nor a paused weekend) plus the
    increment. A turn played by the stand-in after the bank ran out leaves it at the increment."""
    if game.clock != Game.Clock.BANK or game.turn_deadline is None or position is None:
        return
    mover = _seat_at(game, position, seats)
    now = timezone.now()
    zone = clocks.zone_for(game, mover.user)
    left = clocks.counted(clocks.counting_from(mover.user, now), game.turn_deadline, zone)
    mover.bank = clocks.bank_after_turn(left, clocks.Clock.of(game))
    Seat.objects.filter(pk=mover.pk).update(bank=mover.bank)


def _seat_at(game: Game, position: int, seats: list[Seat] | None) -> Seat:
    """The seat at `position`, from the table loaded under the lock if given (else read)."""
    seat = next((s for s in seats or () if s.position == position), None)
    return seat if seat is not None else game.seats.select_related("user").get(position=position)


def parse_action(action: object) -> engine.Action:
    try:
        return engine.action_from_json(action)
    except engine.IllegalAction as exc:
        raise RuleViolation(sentence(str(exc))) from None


def check_version(game: Game, expected: object) -> None:
    """The page the action came from must show the game's current version."""
    try:
        current = int(str(expected)) == game.version
    except ValueError:
        current = False
    if not current:
        raise StaleVersion(_("The board changed since your page was drawn; here it is now."))


def table_and_seat(game: Game, user: User) -> tuple[list[Seat], Seat]:
    """Everyone at the table (with their users, one query) and the user's own seat."""
    seats = table_of(game)
    seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed(_("You are not playing in this game."))
    return seats, seat


def table_of(game: Game) -> list[Seat]:
    """The game's seats with their users, in Seat's order (position, then arrival). Read by
    games.models.table_query, whose SQL is built once per process (Django compiled this query in 0.3
    ms on every move), and sorted here: at most four rows."""
    return in_seat_order(table_query.seats_of(game))


def in_seat_order(seats: list[Seat]) -> list[Seat]:
    """Seats as Meta.ordering sorts them (position, then arrival), sorted in Python: cheaper than
    the ORDER BY Django compiles for at most four rows. As PostgreSQL sorts, seats without a
    position (a table not started) come after the others."""
    seats.sort(key=lambda s: (s.position is None, s.position or 0, s.joined_at))
    return seats


def seat_of(game: Game, user: User) -> Seat:
    return table_and_seat(game, user)[1]


def sentence(reason: str) -> str:
    reason = reason.strip()
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith((".", "!", "?")) else ".")


STAND_IN_POLICY = "easy"


def is_automatic(seat: Seat) -> bool:
    """Bots and players who resigned or were dropped have their turns played for them."""
    return seat.user.is_bot or seat.left
