"""The growth bench's copies of template games, written in bulk inside PostgreSQL.

Apart from seed.py (which plays the templates, makes the players and subjects, and rates) because
this is the one part that writes SQL by hand: the per-copy rows go to staging tables with COPY and
the template-derived rows (about 130 moves a game) are written by INSERT ... SELECT, so the 11-odd
million moves of 100,000 games never pass through Python. Import it once Django is set up.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection, models, transaction

from accounts.models import User
from games.models import Board, Game, Move, Seat, names_in_words
from records.models import GameRecord, SeatResult

# Copies finish at a steady pace, newest first: 100k games are the last two years, 10k the last
# 73 days. A bigger seed is a longer history, not a busier site: the last 30 days hold the same
# games at every size, as they would on a real site that grows older.
GAMES_PER_DAY = 137
# How often each kind of template is copied: mostly two players and solo, as a site plays.
WEIGHTS = {1: 3, 2: 3, 3: 1, 4: 1}


@dataclass
class Template:
    id: int
    players: int
    finished_at: datetime
    move_count: int
    boards: int
    positions: list[int]  # every seat, in order
    people: list[int]  # the positions of people (the others are bots, copied as they are)
    bots: dict[int, int]  # position: bot's user id
    creator: int  # the creator's position
    pool: str
    counts: bool


def describe_templates(games: list[Game]) -> list[Template]:
    boards = dict(
        Board.objects.filter(game__in=games)
        .values("game_id")
        .annotate(n=models.Count("pk"))
        .values_list("game_id", "n")
    )
    pools = dict(GameRecord.objects.filter(game__in=games).values_list("game_id", "pool"))
    out = []
    for game in games:
        if game.ended_by_id is not None or game.rematch_of_id is not None:
            raise SystemExit(f"template game {game.pk} refers to other rows: not copied")
        seats = list(game.seats.select_related("user").order_by("position"))
        out.append(
            Template(
                id=game.pk,
                players=game.players,
                finished_at=game.finished_at,
                move_count=game.move_count,
                boards=boards.get(game.pk, 0),
                positions=[s.position for s in seats],
                people=[s.position for s in seats if not s.user.is_bot],
                bots={s.position: s.user_id for s in seats if s.user.is_bot},
                creator=next(s.position for s in seats if s.user_id == game.created_by_id),
                pool=pools[game.pk],
                counts=game.uncounted == Game.Uncounted.COUNTS,
            )
        )
    return out


# --- Copies ---------------------------------------------------------------------------------


@dataclass
class Copy:
    template: Template
    finished_at: datetime
    users: dict[int, int]  # position: user id, every seat
    finalized: bool = True
    recorded: bool = True


def _qn(name: str) -> str:
    return connection.ops.quote_name(name)


def _insert(model, source: str, overrides: dict[str, str | None], order: str = "") -> str:
    """INSERT ... SELECT of `model`'s rows for the copies: every column from the template row
    (alias t), its dates moved by the copy's shift, but for `overrides` (None: the column's
    default, the id). Built from the model, so a column added by a migration is copied too."""
    columns, values = [], []
    for field in model._meta.concrete_fields:
        column = field.column
        if column in overrides:
            if overrides[column] is None:
                continue
            value = overrides[column]
        elif isinstance(field, models.DateTimeField):
            value = f"t.{_qn(column)} + c.shift"
        else:
            value = f"t.{_qn(column)}"
        columns.append(_qn(column))
        values.append(value)
    return (
        f"INSERT INTO {_qn(model._meta.db_table)} ({', '.join(columns)})"
        f" SELECT {', '.join(values)} FROM {source}{order}"
    )


def _copy_statements() -> list[str]:
    seat_of = "LEFT JOIN growth_seat s ON s.new_game_id = c.new_id AND s.position = t.{}"
    return [
        _insert(
            Game,
            "growth_copy c JOIN tpl_game t ON t.id = c.template_id",
            {
                "id": "c.new_id",
                "created_by_id": "c.creator_id",
                "name": "c.name",
                "invite_token": "c.invite_token",
                "ended_by_id": "NULL",
                "rematch_of_id": "NULL",
                "finalized_at": "CASE WHEN c.finalized THEN t.finalized_at + c.shift END",
            },
            " ORDER BY c.new_id",
        ),
        _insert(
            Seat,
            "growth_copy c JOIN tpl_seat t ON t.game_id = c.template_id "
            + seat_of.format("position"),
            {
                "id": None,
                "game_id": "c.new_id",
                "user_id": "s.user_id",
                # Unfinalized copies have had no game-over email yet: finalize sends it.
                "game_over_notified_at": (
                    "CASE WHEN c.finalized THEN t.game_over_notified_at + c.shift END"
                ),
            },
        ),
        _insert(
            Move,
            "growth_copy c JOIN tpl_move t ON t.game_id = c.template_id " + seat_of.format("seat"),
            {
                "id": None,
                "game_id": "c.new_id",
                "user_id": "CASE WHEN t.user_id IS NOT NULL THEN s.user_id END",
            },
            " ORDER BY c.new_id, t.seq",
        ),
        _insert(
            Board,
            "growth_copy c JOIN tpl_board t ON t.game_id = c.template_id",
            {"id": None, "game_id": "c.new_id"},
            " ORDER BY c.new_id, t.move_seq",
        ),
        _insert(
            GameRecord,
            "growth_copy c JOIN tpl_record t ON t.game_id = c.template_id WHERE c.recorded",
            {"game_id": "c.new_id"},
        ),
        _insert(
            SeatResult,
            "growth_copy c JOIN tpl_result t ON t.game_id = c.template_id "
            + seat_of.format("position")
            + " WHERE c.recorded",
            {"id": None, "game_id": "c.new_id", "user_id": "s.user_id"},
        ),
    ]


_staged: list[int] | None = None  # the templates the session's tpl_* tables hold


def _stage_templates(cursor, templates: list[Template]) -> None:
    """The templates' rows in temporary tables, once per session: each batch joins a few
    thousand rows there rather than look its templates up among millions of copies."""
    global _staged
    ids = [t.id for t in templates]
    if _staged == ids:
        return
    for name, model, key in [
        ("tpl_game", Game, "id"),
        ("tpl_seat", Seat, "game_id"),
        ("tpl_move", Move, "game_id"),
        ("tpl_board", Board, "game_id"),
        ("tpl_record", GameRecord, "game_id"),
        ("tpl_result", SeatResult, "game_id"),
    ]:
        cursor.execute(f"DROP TABLE IF EXISTS {name}")
        cursor.execute(
            f"CREATE TEMP TABLE {name} AS SELECT * FROM {_qn(model._meta.db_table)}"
            f" WHERE {_qn(key)} = ANY(%s)",
            [ids],
        )
        cursor.execute(f"ANALYZE {name}")
    cursor.execute("DROP TABLE IF EXISTS growth_copy")
    cursor.execute("DROP TABLE IF EXISTS growth_seat")
    cursor.execute(
        "CREATE TEMP TABLE growth_copy (new_id bigint PRIMARY KEY, template_id bigint, shift"
        " interval, creator_id bigint, name text, invite_token text, finalized boolean,"
        " recorded boolean)"
    )
    cursor.execute(
        "CREATE TEMP TABLE growth_seat (new_game_id bigint, position smallint, user_id bigint,"
        " PRIMARY KEY (new_game_id, position))"
    )
    _staged = ids


_names: dict[int, str] = {}


def _public_names(user_ids: set[int]) -> dict[int, str]:
    missing = user_ids - _names.keys()
    if missing:
        for pk, display, username in User.objects.filter(pk__in=missing).values_list(
            "pk", "display_name", "username"
        ):
            _names[pk] = display or username
    return _names


def write_copies(copies: list[Copy], templates: list[Template]) -> list[int]:
    """Copies of templates in one transaction; their new game ids, in order."""
    global _staged
    names = _public_names({u for c in copies for u in c.users.values()})
    try:
        return _write_copies(copies, templates, names)
    except BaseException:
        _staged = None  # the temporary tables went with the transaction
        raise


def _write_copies(copies: list[Copy], templates: list[Template], names: dict) -> list[int]:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit = off")  # this bench's own data only
        _stage_templates(cursor, templates)
        cursor.execute("TRUNCATE growth_copy, growth_seat")
        sequence = f"pg_get_serial_sequence('{Game._meta.db_table}', 'id')"
        cursor.execute(f"SELECT nextval({sequence}) FROM generate_series(1, %s)", [len(copies)])
        ids = sorted(row[0] for row in cursor.fetchall())
        with cursor.copy(
            "COPY growth_copy (new_id, template_id, shift, creator_id, name, invite_token,"
            " finalized, recorded) FROM STDIN"
        ) as copy:
            for new_id, c in zip(ids, copies, strict=True):
                t = c.template
                name = names_in_words([names[c.users[p]] for p in t.positions])[:80]
                copy.write_row(
                    (
                        new_id,
                        t.id,
                        c.finished_at - t.finished_at,
                        c.users[t.creator],
                        name,
                        secrets.token_urlsafe(16),
                        c.finalized,
                        c.recorded,
                    )
                )
        with cursor.copy("COPY growth_seat (new_game_id, position, user_id) FROM STDIN") as copy:
            for new_id, c in zip(ids, copies, strict=True):
                for position, user_id in c.users.items():
                    copy.write_row((new_id, position, user_id))
        cursor.execute("ANALYZE growth_copy")
        cursor.execute("ANALYZE growth_seat")
        for statement in _copy_statements():
            cursor.execute(statement)
    return ids


def seat_users(t: Template, people: list[int]) -> dict[int, int]:
    """Every seat's user: `people` in the people's seats in order, the template's bots."""
    users = dict(t.bots)
    users.update(zip(t.people, people, strict=True))
    return users


def copy_game(
    template: Template,
    people: list[int],
    finished_at: datetime,
    *,
    finalized: bool = True,
    recorded: bool = True,
) -> int:
    """One copy (measure.py's late games, light's finished games); its game id."""
    copy = Copy(template, finished_at, seat_users(template, people), finalized, recorded)
    return write_copies([copy], [template])[0]


def plan_copies(
    count: int,
    templates: list[Template],
    pool: list[int],
    seated: dict[int, int],
    now: datetime,
    rng: random.Random,
    newer: int,
) -> list[Copy]:
    """`count` copies in finishing order, older than the `newer` copies already made; each user
    of `seated` in that many of them (spread evenly, one such user a game), the other people
    drawn from the pool."""
    chosen = rng.choices(templates, weights=[WEIGHTS[t.players] for t in templates], k=count)
    special: dict[int, int] = {}
    for turn, (user, games) in enumerate(sorted(seated.items())):
        for i in range(games):
            j = int((i + 0.5 + turn / (len(seated) + 1)) * count / games) % count
            while j in special or not chosen[j].people:  # one such user a game, and a person
                j = (j + 1) % count
            special[j] = user
    step = timedelta(days=1) / GAMES_PER_DAY
    copies = []
    for j, template in enumerate(chosen):
        people = rng.sample(pool, len(template.people))
        if j in special:
            people[rng.randrange(len(people))] = special[j]
        finished_at = now - timedelta(hours=2) - step * (newer + count - 1 - j + rng.random())
        copies.append(Copy(template, finished_at, seat_users(template, people)))
    return copies
