"""A game's seats with their players (and the game), read in one query, and the game row written
back, with SQL built once per process.

Why: the game page, the most frequent page of all, starts with this query, and Django compiled
it anew on every request: 0.37 ms of its 0.83 (82 columns over three tables), about a tenth of
the page's CPU (issue 16); a move reads the seats and players under its lock, likewise. The
statement is written here from the models' own metadata, so it follows their fields, and its
values go through the converters Django's compiler would apply (on SQLite, dates arrive as
text), then through `Model.from_db` as a queryset's rows do.
`tests/games/models/test_table_query.py`
holds it equal to `select_related`, and a saved row equal to `Model.save()`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.db import connections, models

from games.models import Game, Seat


@dataclass(frozen=True)
class _Part:
    """One model's columns in the row: its slice and each column's converters."""

    model: type[models.Model]
    attnames: tuple[str, ...]
    start: int
    converters: tuple[tuple[int, tuple[Callable, ...], Any], ...]  # (index, converters, column)

    @property
    def stop(self) -> int:
        return self.start + len(self.attnames)

    def build(self, row: tuple, alias: str, connection) -> models.Model:
        values = list(row[self.start : self.stop])
        for index, converters, column in self.converters:
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        return self.model.from_db(alias, self.attnames, values)


@lru_cache(maxsize=8)
def _statement(alias: str, with_game: bool) -> tuple[str, tuple[_Part, ...]]:
    """The SQL and the row's layout (seat, game if `with_game`, user) for the database `alias`,
    built on first use."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    user_model = Seat._meta.get_field("user").related_model
    tables = (("s", Seat), *((("g", Game),) if with_game else ()), ("u", user_model))
    columns: list[str] = []
    parts = []
    for table_alias, model in tables:
        fields = model._meta.concrete_fields
        converters = []
        for index, field in enumerate(fields):
            column = field.get_col(table_alias)
            found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if found:
                converters.append((index, tuple(found), column))
        parts.append(
            _Part(model, tuple(f.attname for f in fields), len(columns), tuple(converters))
        )
        columns += [f"{table_alias}.{quote(f.column)}" for f in fields]
    seat_game = quote(Seat._meta.get_field("game").column)
    seat_user = quote(Seat._meta.get_field("user").column)
    game_join = (
        f" INNER JOIN {quote(Game._meta.db_table)} g"
        f" ON g.{quote(Game._meta.pk.column)} = s.{seat_game}"
        if with_game
        else ""
    )
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(Seat._meta.db_table)} s{game_join}"
        f" INNER JOIN {quote(user_model._meta.db_table)} u"
        f" ON u.{quote(user_model._meta.pk.column)} = s.{seat_user}"
        f" WHERE s.{seat_game} = %s"
    )
    return sql, tuple(parts)


def _rows(game_id: int, using: str, with_game: bool) -> tuple[list[tuple], tuple[_Part, ...]]:
    sql, parts = _statement(using, with_game)
    with connections[using].cursor() as cursor:
        cursor.execute(sql, [game_id])
        return cursor.fetchall(), parts


def _seats(rows: list[tuple], seat_part: _Part, user_part: _Part, game: Game, using: str):
    connection = connections[using]
    seats = []
    for row in rows:
        seat = seat_part.build(row, using, connection)
        seat.game = game
        seat.user = user_part.build(row, using, connection)
        seats.append(seat)
    return seats


def seats_with_game(game_id: int, using: str = "default") -> list[Seat]:
    """The game's seats, in no order, each with its user and the one game instance they share
    loaded; [] when nobody sits at the game (or there is no such game)."""
    rows, (seat_part, game_part, user_part) = _rows(game_id, using, with_game=True)
    if not rows:
        return []
    game = game_part.build(rows[0], using, connections[using])
    return _seats(rows, seat_part, user_part, game, using)


def seats_of(game: Game) -> list[Seat]:
    """The seats of `game` (already loaded: a move's locked row), in no order, each with its
    user loaded and `game` as its game."""
    using = game._state.db or "default"
    rows, (seat_part, user_part) = _rows(game.pk, using, with_game=False)
    return _seats(rows, seat_part, user_part, game, using)


@lru_cache(maxsize=8)
def _update(alias: str) -> tuple[str, tuple[models.Field, ...]]:
    quote = connections[alias].ops.quote_name
    fields = tuple(f for f in Game._meta.concrete_fields if not f.primary_key)
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    table, key = quote(Game._meta.db_table), quote(Game._meta.pk.column)
    return f"UPDATE {table} SET {assignments} WHERE {key} = %s", fields


def save_game(game: Game) -> None:
    """`game.save()` for a game read from the database: every column written, `auto_now` fields
    set by their `pre_save`, each value prepared by its field as Django's update compiler does
    (0.11 ms where save() took 0.27 on a move). A value that is an expression (an F() update)
    goes through save() itself."""
    using = game._state.db or "default"
    connection = connections[using]
    sql, fields = _update(using)
    values = [field.pre_save(game, False) for field in fields]
    if game._state.adding or any(hasattr(v, "resolve_expression") for v in values):
        game.save()
        return
    prepared = [f.get_db_prep_save(v, connection) for f, v in zip(fields, values, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*prepared, game.pk])
        if cursor.rowcount != 1:
            raise Game.DoesNotExist(f"game {game.pk} is not in the database")
