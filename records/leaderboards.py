"""The leaderboards: the top players of a pool by rating, wins, average or best score, and the
best solo games of each configuration.

Kept apart from the history and profile pages because only they filter (period, friends, side,
spirits, player count) and rank (competition places, the viewer's own place below the top). They
read the derived tables (the friends filter is the list of friends, read first): a fixed number
of queries however many games are counted.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Avg, Count, Max, Q
from django.db.models.functions import Round
from django.utils import timezone

from accounts.models import User
from games.results import MIN_OWN_TURNS
from games.services.friends import friends_of
from records import ratings as ratings_scale
from records.forms import BOARDS
from records.models import PROVISIONAL_GAMES, Pool, Rating, SeatResult
from records.places import AVERAGE_MIN_GAMES, place, rating_cell, tenths
from records.standings import board_cell, standings

TOP = 50
SOLO_TOP = 10


def friends_and_me(user: User) -> list[int]:
    """Ids of `user`'s friends (games.services.friends: added or played with) and `user`, read
    once: the boards then look up these players' rows by their index, so the cost follows the
    circle of friends, not the site (an OR of subqueries made PostgreSQL scan every account)."""
    return [*friends_of(user).values_list("pk", flat=True), user.pk]


def leaderboard(filters: dict[str, Any], viewer: User) -> dict[str, Any]:
    board = filters["board"]
    since = None
    if filters["period"] != "all":
        since = timezone.now() - timedelta(days=int(filters["period"]))
    friends = friends_and_me(viewer) if filters["friends"] else None
    context: dict[str, Any] = {
        "filters": filters,
        "board": board,
        "board_label": dict(BOARDS)[board],
        "boards": BOARDS,
        "provisional_games": PROVISIONAL_GAMES,
        "average_min_games": AVERAGE_MIN_GAMES,
        "top": TOP,
        "min_turns": MIN_OWN_TURNS,
    }
    if board == "solo":
        context["solo_tables"] = _solo_tables(filters, since, friends)
        return context
    if board == "rating":
        rows, mine = _rating_rows(filters, since, friends, viewer)
    else:
        rows, mine = _score_rows(board, filters, since, friends, viewer)
    for row in rows:
        row["is_me"] = row["user_id"] == viewer.pk
    if mine is not None:
        mine["is_me"] = True  # below the top rows, after a gap
    context["rows"] = rows
    context["my_row"] = mine
    return context


def _rating_rows(filters, since, friends, viewer) -> tuple[list[dict[str, Any]], dict | None]:
    """Ratings cover every rated game of the pool (on one side, or both): player count and
    spirits do not split them; the period keeps players who played a rated game in it."""
    scope = filters["side"] or Rating.ALL
    ratings = Rating.objects.filter(pool=filters["pool"], scope=scope)
    if since is not None:
        ratings = ratings.filter(last_played_at__gte=since)
    if friends is not None:
        ratings = ratings.filter(user_id__in=friends)
    # Equal ratings: the player with more games, then the older account, first (the order of
    # the index, so the top rows are its first rows however many players tie).
    ratings = ratings.select_related("user").order_by("-ordinal", "-games", "user_id")

    def row_of(r: Rating) -> dict[str, Any]:
        return {
            "user_id": r.user_id,
            "username": r.user.username,
            "name": r.user.public_name,
            "is_bot": r.user.is_bot,
            "rating": ratings_scale.shown(r.ordinal),
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "wins": r.wins,
            "provisional": r.provisional,
        }

    rows = _with_places([row_of(r) for r in ratings[:TOP]], lambda row: row["rating"])
    mine = None
    if not any(row["user_id"] == viewer.pk for row in rows):
        own = ratings.filter(user_id=viewer.pk).first()
        if own is not None:
            mine = row_of(own)
            if since is None and friends is None:
                mine["place"] = place("rating", rating_cell(filters["pool"], scope), mine["rating"])
            else:
                # Shown ratings are whole numbers: a higher one is an estimate at least half a
                # point (on the shown scale) above the viewer's.
                floor = (
                    mine["rating"] + 0.5 - ratings_scale.SHOWN_START
                ) / ratings_scale.SHOWN_SCALE
                mine["place"] = 1 + ratings.filter(ordinal__gte=floor).count()
    return rows, mine


ORDERING = {
    "wins": (("-wins", "games", "user_id"), "wins"),
    "average": (("-average", "-games", "user_id"), "average"),
    "best": (("-best", "games", "user_id"), "best"),
}


def _score_rows(board, filters, since, friends, viewer) -> tuple[list[dict[str, Any]], dict | None]:
    """Over all time, the players' running totals (records.standings): the top rows of one
    index. Over the last days, the results of that window grouped by player."""
    cell = board_cell(filters["pool"], filters["side"], filters["players"], filters["spirits"])
    if since is None:
        per_player = standings(*cell)
        if friends is not None:
            per_player = per_player.filter(user_id__in=friends)
        per_player = per_player.values("user_id", "games", "wins", "average", "best")
    else:
        per_player = _window_totals(filters, since, friends)
    if board == "average":
        per_player = per_player.filter(games__gte=AVERAGE_MIN_GAMES)
    ordering, key = ORDERING[board]

    def row_of(row: dict[str, Any]) -> dict[str, Any]:
        return {
            "user_id": row["user_id"],
            "games": row["games"],
            "wins": row["wins"],
            "average": row["average"],
            "best": row["best"],
        }

    top = per_player.order_by(*ordering)[:TOP]
    rows = _with_places([row_of(row) for row in top], lambda row: tenths(row[key]))
    mine = None
    if not any(row["user_id"] == viewer.pk for row in rows):
        own = next(iter(per_player.filter(user_id=viewer.pk)), None)
        if own is not None:
            mine = row_of(own)
            if since is None and friends is None:
                mine["place"] = place(board, cell, own[key])
            else:
                mine["place"] = _place_below_top(per_player, key, own[key])
    _name_players([*rows, *([mine] if mine else [])])
    return rows, mine


def _name_players(rows: list[dict[str, Any]]) -> None:
    """The players' names on the rows shown, read for those rows only: grouping the totals
    with the names joined every account on the site into the grouping."""
    people = User.objects.filter(pk__in=[row["user_id"] for row in rows])
    named = {p.pk: p for p in people.only("username", "display_name", "bot_level")}
    for row in rows:
        person = named[row["user_id"]]
        row["username"] = person.username
        row["name"] = person.public_name
        row["is_bot"] = person.is_bot


def _window_totals(filters, since, friends):
    results = _filtered(
        SeatResult.objects.filter(pool=filters["pool"], counts=True), filters, since, friends
    )
    if filters["players"]:
        results = results.filter(players=int(filters["players"]))
    return results.values("user_id").annotate(
        games=Count("pk"),
        wins=Count("pk", filter=Q(place=1)),
        average=Avg("total"),
        best=Max("total"),
    )


def _place_below_top(queryset, field: str, value: float) -> int:
    """The viewer's competition place when they are not among the rows shown: one more than
    the number of players whose value, rounded as the board shows it, is higher."""
    shown = tenths(value) / 10
    # The plain comparison first (an index range), then the rounding on what is left: round()
    # over the whole pool cannot use the index and read every player's row.
    near = queryset.filter(**{f"{field}__gt": shown})
    ahead = near.annotate(shown=Round(field, 1)).filter(shown__gt=shown)
    return 1 + ahead.count()


def _filtered(results, filters, since, friends):
    if filters["side"]:
        results = results.filter(side=filters["side"])
    if filters["spirits"]:
        results = results.filter(spirits=filters["spirits"] == "on")
    if since is not None:
        results = results.filter(finished_at__gte=since)
    if friends is not None:
        results = results.filter(user_id__in=friends)
    return results


def _with_places(rows: list[dict[str, Any]], key) -> list[dict[str, Any]]:
    """Competition places: equal values share a place, and the next place skips (1, 1, 3)."""
    previous = object()
    for index, row in enumerate(rows, start=1):
        value = key(row)
        if value != previous:
            place, previous = index, value
        row["place"] = place
    return rows


def _solo_tables(filters, since, friends) -> list[dict[str, Any]]:
    """The best solo games of each configuration (side x spirits), with their suns."""
    tables = []
    for side in [filters["side"]] if filters["side"] else ["A", "B"]:
        for spirits in [filters["spirits"] == "on"] if filters["spirits"] else [False, True]:
            results = _filtered(
                SeatResult.objects.filter(
                    pool=Pool.SOLO, is_bot=False, side=side, spirits=spirits, counts=True
                ),
                {**filters, "side": "", "spirits": ""},
                since,
                friends,
            )
            best = list(
                results.select_related("user").order_by("-total", "-suns", "finished_at")[:SOLO_TOP]
            )
            tables.append(
                {
                    "side": side,
                    "spirits": spirits,
                    "label": f"Side {side}, " + ("with" if spirits else "without") + " spirits",
                    "results": _with_places(
                        [{"result": r} for r in best], lambda row: row["result"].total
                    ),
                }
            )
    return tables
