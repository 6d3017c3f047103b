"""What the results pages show, computed once per request.

Leaderboards, histories and profiles read only the derived tables (a fixed number of queries
however many games are listed). The score sheet and the replay of one game read that game: its
stored final state, and for the replay its move log run through the engine.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Avg, Count, Max, Q, Sum
from django.db.models.functions import Round
from django.utils import timezone

from accounts.models import User
from games import engine
from games.friends import friends_of
from games.models import Game, Move, Seat
from games.narration import describe, end_words
from games.presenters import CATEGORIES, score_rows
from games.replaying import replay_log
from games.services import MIN_OWN_TURNS, SITE_EVENTS
from games.svg import board_svg
from records import ratings as ratings_scale
from records.forms import BOARDS
from records.models import PROVISIONAL_GAMES, Pool, Rating, SeatResult
from records.services import counts_for_ratings, pool_of, results_for

TOP = 50
SOLO_TOP = 10
HISTORY_PAGE = 25
# An average over one or two games says little: the average board asks for a few.
AVERAGE_MIN_GAMES = 3
FAVOURITE_ANIMALS = 3


# --- Leaderboards ---------------------------------------------------------------------------------


def friends_and_me(user: User):
    """Ids of `user`'s friends (games.friends: added or played with) and `user` (a subquery)."""
    return User.objects.filter(Q(pk__in=friends_of(user).values("pk")) | Q(pk=user.pk)).values("pk")


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
    ratings = Rating.objects.filter(pool=filters["pool"], scope=filters["side"] or Rating.ALL)
    if since is not None:
        ratings = ratings.filter(last_played_at__gte=since)
    if friends is not None:
        ratings = ratings.filter(user_id__in=friends)
    ratings = ratings.select_related("user").order_by("-ordinal", "-games", "user__username")

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

    rows = _with_places([row_of(r) for r in ratings[:TOP]], lambda row: round(row["rating"], 1))
    mine = None
    if not any(row["user_id"] == viewer.pk for row in rows):
        own = ratings.filter(user_id=viewer.pk).first()
        if own is not None:
            mine = row_of(own)
            mine["place"] = _place_below_top(ratings, "ordinal", own.ordinal)
    return rows, mine


ORDERING = {
    "wins": (("-wins", "games", "user__username"), "wins"),
    "average": (("-average", "-games", "user__username"), "average"),
    "best": (("-best", "games", "user__username"), "best"),
}


def _score_rows(board, filters, since, friends, viewer) -> tuple[list[dict[str, Any]], dict | None]:
    results = _filtered(
        SeatResult.objects.filter(pool=filters["pool"], counts=True), filters, since, friends
    )
    if filters["players"]:
        results = results.filter(players=int(filters["players"]))
    per_player = results.values(
        "user_id", "user__username", "user__display_name", "user__bot_level"
    ).annotate(
        games=Count("pk"),
        wins=Count("pk", filter=Q(place=1)),
        average=Avg("total"),
        best=Max("total"),
    )
    if board == "average":
        per_player = per_player.filter(games__gte=AVERAGE_MIN_GAMES)
    ordering, key = ORDERING[board]

    def row_of(row: dict[str, Any]) -> dict[str, Any]:
        return {
            "user_id": row["user_id"],
            "username": row["user__username"],
            "name": row["user__display_name"] or row["user__username"],
            "is_bot": bool(row["user__bot_level"]),
            "games": row["games"],
            "wins": row["wins"],
            "average": row["average"],
            "best": row["best"],
        }

    top = per_player.order_by(*ordering)[:TOP]
    rows = _with_places([row_of(row) for row in top], lambda row: round(row[key], 1))
    mine = None
    if not any(row["user_id"] == viewer.pk for row in rows):
        own = next(iter(per_player.filter(user_id=viewer.pk)), None)
        if own is not None:
            mine = row_of(own)
            mine["place"] = _place_below_top(per_player, key, own[key])
    return rows, mine


def _place_below_top(queryset, field: str, value: float) -> int:
    """The viewer's competition place when they are not among the rows shown: one more than
    the number of players whose value, rounded as the board shows it, is higher."""
    ahead = queryset.annotate(shown=Round(field, 1)).filter(shown__gt=round(value, 1))
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


# --- History and profile --------------------------------------------------------------------------


def history(user: User, page_number: object) -> Any:
    """A page of the user's finished games, newest first, each with everyone's result."""
    mine = SeatResult.objects.filter(user=user).order_by("-finished_at", "-game_id")
    page = Paginator(mine, HISTORY_PAGE).get_page(page_number)
    tables: dict[int, list[SeatResult]] = defaultdict(list)
    everyone = SeatResult.objects.filter(game_id__in=[r.game_id for r in page.object_list])
    for result in everyone.select_related("user").order_by("place", "position"):
        tables[result.game_id].append(result)
    page.rows = [
        {"mine": r, "others": [o for o in tables[r.game_id] if o.user_id != user.pk]}
        for r in page.object_list
    ]
    return page


def player_stats(user: User) -> dict[str, Any]:
    """Games, wins, averages by category, ratings and favourite animals, from the results."""
    # Games that count only (not abandoned, every person played 3 turns): no wins, records
    # or suns from the others.
    multi, solo = ~Q(pool=Pool.SOLO) & Q(counts=True), Q(pool=Pool.SOLO) & Q(counts=True)
    averages = {}
    for key, _ in [*CATEGORIES, ("total", "Total")]:
        # The spirit column averages only the games played with Nature's Spirits.
        only = Q(spirits=True) if key == "spirit" else Q()
        averages[f"multi_{key}"] = Avg(key, filter=multi & only)
        averages[f"solo_{key}"] = Avg(key, filter=solo & only)
    totals = SeatResult.objects.filter(user=user).aggregate(
        games=Count("pk", filter=multi),
        wins=Count("pk", filter=multi & Q(place=1)),
        best=Max("total", filter=multi),
        solo_games=Count("pk", filter=solo),
        solo_best=Max("total", filter=solo),
        solo_suns=Max("suns", filter=solo),
        **averages,
    )
    category_rows = [
        {
            "label": label,
            "multi": totals[f"multi_{key}"],
            "solo": totals[f"solo_{key}"],
            "total": key == "total",
        }
        for key, label in [*CATEGORIES, ("total", "Total")]
    ]
    cards = Counter(
        card_id
        for taken in SeatResult.objects.filter(user=user).values_list("cards", flat=True)
        for card_id in taken
    )
    # The players' pool before the bots' one; both sides before each side.
    ratings = sorted(
        Rating.objects.filter(user=user),
        key=lambda r: (r.pool != Pool.PLAYERS, r.scope != Rating.ALL, r.scope),
    )
    return {
        "totals": totals,
        "win_rate": round(100 * totals["wins"] / totals["games"]) if totals["games"] else None,
        "category_rows": category_rows,
        "favourite_animals": cards.most_common(FAVOURITE_ANIMALS),
        "ratings": ratings,
        "reliability": reliability(user),
    }


def reliability(user: User) -> dict[str, Any]:
    """How dependable a player is: the share of their turns (in games with a time limit or not)
    played within the limit, and the games they left (resigned or dropped)."""
    played = (
        Move.objects.filter(user=user)
        .exclude(action__type__in=sorted(SITE_EVENTS))
        .order_by()  # no default ordering columns in the DISTINCT
        .values_list("game_id", "turn")
        .distinct()
        .count()
    )
    seats = Seat.objects.filter(user=user)
    missed = seats.aggregate(missed=Sum("turns_missed"))["missed"] or 0
    turns = played + missed
    return {
        "turns": turns,
        "missed": missed,
        "share": round(100 * played / turns) if turns else None,
        "left": seats.filter(Q(resigned_at__isnull=False) | Q(dropped_at__isnull=False)).count(),
    }


# --- One finished game: score sheet and replay ----------------------------------------------------


def _names(seats: list[Seat]) -> dict[int, str]:
    return {seat.position: seat.user.public_name for seat in seats}


def score_sheet(game: Game, seats: list[Seat]) -> dict[str, Any]:
    """The final sheet: the stored results once recorded, else the engine's (provisional)."""
    columns = list(SeatResult.objects.filter(game=game).order_by("position"))
    provisional = not columns
    if provisional:
        columns = results_for(game, seats, pool_of(game, seats))
    by_position = {seat.position: seat for seat in seats}
    state = game.engine_state()
    view = engine.view_for(state, None)
    sheets = engine.score_sheets(state)
    cell_names = engine.geometry(game.side).names
    players = []
    for column in columns:
        seat = by_position[column.position]
        pview = view["players"][column.position]
        name = seat.user.public_name
        players.append(
            {
                "result": column,
                "seat": seat,
                "name": name,
                "view": pview,
                "board": board_svg(
                    game.side,
                    pview["stacks"],
                    pview["cube_hexes"],
                    emphasis=[cell_names[i] for i in sheets[column.position].river_path],
                    title=f"{name}'s board",
                    sprite=True,
                ),
            }
        )
    rows = score_rows(columns, [c.animal_cubes for c in columns])
    return {
        "game": game,
        "players": players,
        "player_names": [p["name"] for p in players],
        "ranking": sorted(players, key=lambda p: (p["result"].place, p["result"].position)),
        "score_rows": rows,
        "provisional": provisional,
        "suns": columns[0].suns if game.solo else None,
        "end_words": end_words(game, seats),
        "counts": counts_for_ratings(game, seats),
    }


def replay(game: Game, seats: list[Seat], moves: list[Move], upto: int) -> dict[str, Any]:
    """The table after the first `upto` moves of the log (clamped to the log), as a spectator
    sees it: every board, the central board, the display, the scores so far."""
    total = len(moves)
    upto = max(0, min(upto, total))
    names = _names(seats)
    state = replay_log(game, [m.action for m in moves[:upto]])
    view = engine.view_for(state, None)
    sheets = engine.score_sheets(state)
    last = moves[upto - 1] if upto else None
    # The end of the log is the end of the game, even one ended early (a resignation, a stalled
    # game ended by the others) where the engine's state never reached its own end.
    at_end = upto == total
    players = []
    for position, pview in enumerate(view["players"]):
        name = names.get(position, f"Seat {position + 1}")
        players.append(
            {
                "name": name,
                "view": pview,
                "sheet": sheets[position],
                "moved": last is not None and last.seat == position,
                "to_play": position == state.current_seat and not at_end,
                "board": board_svg(
                    game.side,
                    pview["stacks"],
                    pview["cube_hexes"],
                    title=f"{name}'s board",
                    sprite=True,
                    compact=len(view["players"]) > 2,
                ),
            }
        )
    return {
        "game": game,
        "state": state,
        "state_view": view,
        "players": players,
        "upto": upto,
        "total": total,
        "at_end": at_end,
        "previous": max(upto - 1, 0),
        "next": min(upto + 1, total),
        "said": _said(last, names),
        "turns": _turn_starts(moves, names, upto),
        "categories": CATEGORIES,
    }


def _said(move: Move | None, names: dict[int, str]) -> str:
    if move is None:
        return "The game is set up: step forward to see the first move."
    return describe(move.action, move.detail, names.get(move.seat, f"Seat {move.seat + 1}"))


def _turn_starts(moves: list[Move], names: dict[int, str], upto: int) -> list[dict[str, Any]]:
    """Where each turn starts in the log (the number of moves before its first one); the turn
    being shown is `current`, unless the replay is at the very end."""
    starts, by_turn = [], {}
    for index, move in enumerate(moves):
        if move.turn not in by_turn:
            by_turn[move.turn] = {"turn": move.turn, "move": index, "name": ""}
            starts.append(by_turn[move.turn])
        # Named by the seat that moved: a resignation logged during another's turn is not it.
        start = by_turn[move.turn]
        if not start["name"] and move.action.get("type") not in SITE_EVENTS:
            start["name"] = names.get(move.seat, "")
    for start in starts:
        if not start["name"]:  # a turn with nothing but a site event
            first = moves[start["move"]]
            start["name"] = names.get(first.seat, "")
    shown = [s for s in starts if s["move"] <= upto]
    if shown and upto < len(moves):
        shown[-1]["current"] = True
    return starts
