"""What the charts of the profile and the score sheet show, from stored rows (never writes).

Each chart comes out as a figure for templates/records/_charts_figure.html: the SVG drawn by
records.charts, a heading, and the same numbers as a table (the text alternative). Their costs
stay flat as the site grows (docs/performance.md, "Growth"):

- the rating history reads the player's own rated results, the newest RATING_POINTS of a pool;
- the averages of all players are the running sums of records.category_sums (a few rows);
- the best boards are the player's own top results, a few stored final states drawn small;
- the points by turn replay one finished game's move log once, then come from the cache
  (a finished game never changes).

Which games: the rating chart, the averages and the best boards take the games that count
(`SeatResult.counts`: abandoned games, resigned solo games and those the writer marked
uncounted feed no chart, as they feed no rating or record; a guided first game is never
recorded at all). The score sheet's points by turn are drawn for every finished game, since they
describe that game alone.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.safestring import SafeString, mark_safe

from accounts.models import User
from games import engine
from games.models import Game
from games.models.replaying import turn_end_boards
from games.models.weekly import unrevealed
from games.pictures.boards import board_svg
from games.pictures.sprite import sprite_url
from games.presenters.game import CATEGORIES
from records import category_sums, charts
from records.charts import Bar, Point, Series
from records.models import Pool, Rating, SeatResult
from records.ratings import ordinal, shown

logger = logging.getLogger(__name__)

RATING_POINTS = 200  # the newest rated games a rating chart draws: a fixed cost per profile
BEST_BOARDS = 3  # of multiplayer games, and of solo games
# Bump when the series of a finished game would come out differently (a scoring fix): the old
# entries are then never read again and expire.
SERIES_VERSION = 1
SERIES_SECONDS = 30 * 24 * 3600
NOTHING = "\u2013"  # the en dash the tables show for no figure
# What the best boards read of a result and its game (the stored final state is the board).
BEST_FIELDS = (
    "game_id", "position", "total", "finished_at", "players", "side", "spirits", "place",
    "game__state", "game__side",
)  # fmt: skip
POOL_WORDS = {Pool.PLAYERS: "against players", Pool.BOTS: "in games with bots"}


def _day(when: datetime) -> str:
    return format_date(timezone.localtime(when), "j M Y")


def _figure(
    chart_id: str, heading: str, svg: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> dict[str, Any]:
    """One chart as the figure partial draws it: the picture and its numbers as a table."""
    return {
        "id": chart_id,
        "heading": heading,
        "svg": mark_safe(svg),  # records.charts escapes every word it draws
        "columns": list(columns),
        "rows": [list(row) for row in rows],
        "note": "",
    }


# --- The profile ---------------------------------------------------------------------------------


def player_charts(
    user: User, totals: dict[str, Any], ratings: Sequence[Rating], viewer: User | None = None
) -> dict[str, Any]:
    """The profile's pictures: rating history, averages against everyone's, the best boards.
    `totals` and `ratings` are records.presenters.player_stats's, already read for the page;
    `viewer` is who looks (the best boards keep the deal of the week's secret from them)."""
    return {
        "ratings": rating_charts(user, ratings),
        "categories": category_charts(user, totals, category_sums.averages()),
        "best": best_boards(user, viewer),
    }


def rating_charts(user: User, ratings: Sequence[Rating]) -> list[dict[str, Any]]:
    """A line per rated pool (players', bots'), over both board sides: the rating after each of
    the newest RATING_POINTS rated games, as the results stored it. One query per pool the
    player is rated in, whatever their history."""
    figures = []
    for rating in ratings:
        if rating.scope != Rating.ALL:
            continue
        rows = list(
            SeatResult.objects.filter(
                user=user, pool=rating.pool, counts=True, mu_all__isnull=False
            )
            .order_by("-finished_at", "-game_id")
            .values_list("finished_at", "mu_all", "sigma_all")[: RATING_POINTS + 1]
        )
        capped = len(rows) > RATING_POINTS
        rows = rows[:RATING_POINTS][::-1]
        if not rows:
            continue
        values = [(when, shown(ordinal(mu, sigma))) for when, mu, sigma in rows]
        points = [Point(value, f"{_day(when)}: rating {value:,}") for when, value in values]
        chart_id = f"chart-rating-{rating.pool}"
        words = POOL_WORDS.get(rating.pool, rating.get_pool_display())
        first, last = values[0], values[-1]
        numbers = [value for _, value in values]
        description = (
            f"{len(values)} rated game{'s' if len(values) != 1 else ''}"
            f"{' (the last ' + str(RATING_POINTS) + ')' if capped else ''}: from {first[1]:,}"
            f" on {_day(first[0])} to {last[1]:,} on {_day(last[0])};"
            f" highest {max(numbers):,}, lowest {min(numbers):,}."
        )
        svg = charts.line_chart(
            [Series(user.public_name, points)],
            chart_id=chart_id,
            title=f"{user.public_name}'s rating after each game {words}",
            description=description,
            x_labels=(_day(first[0]), _day(last[0])),
        )
        figure = _figure(
            chart_id,
            f"Rating {words}",
            svg,
            ["Game", "Date", "Rating"],
            [(n, _day(when), f"{value:,}") for n, (when, value) in enumerate(values, start=1)],
        )
        if capped:
            figure["note"] = f"The last {RATING_POINTS} rated games."
        figures.append(figure)
    return figures


def category_charts(
    user: User, totals: dict[str, Any], everyone: dict[str, dict[str, float | None]]
) -> list[dict[str, Any]]:
    """Bars per scoring category: the player's average against all players' (people's, in
    games that count), for multiplayer games and for solo games, each where the player has a
    counted game. The totals are in the words and the table, not the bars: a hundred points
    beside ten would flatten every category."""
    figures = []
    name = user.public_name
    for kind, games, words in (
        ("multi", totals.get("games") or 0, "multiplayer"),
        ("solo", totals.get("solo_games") or 0, "solo"),
    ):
        if not games:
            continue
        rows, groups, mine, theirs = [], [], [], []
        for key, label in CATEGORIES:
            own, all_ = totals.get(f"{kind}_{key}"), everyone[kind][key]
            if own is None and all_ is None:
                continue  # the spirit column before any game with the spirits
            groups.append(Bar(label, [_average_words(name, own), _average_words("All", all_)]))
            mine.append(own)
            theirs.append(all_)
            rows.append((label, _one_decimal(own), _one_decimal(everyone[kind][key])))
        own_total, all_total = totals.get(f"{kind}_total"), everyone[kind]["total"]
        rows.append(("Total", _one_decimal(own_total), _one_decimal(all_total)))
        chart_id = f"chart-categories-{kind}"
        description = (
            f"Over {games} counted {words} game{'s' if games != 1 else ''}, {name} scores"
            f" {_one_decimal(own_total)} points on average, all players"
            f" {_one_decimal(all_total)}. By category, {name} then all players: "
            + "; ".join(f"{label} {a} and {b}" for label, a, b in rows[:-1])
            + "."
        )
        svg = charts.bar_chart(
            groups,
            [Series(name, values=mine), Series("All players", values=theirs)],
            chart_id=chart_id,
            title=f"{name}'s average points per category in {words} games, against all players",
            description=description,
        )
        figures.append(
            _figure(
                chart_id,
                f"Points per category, {words}",
                svg,
                ["Category", name, "All players"],
                rows,
            )
        )
    return figures


def _average_words(who: str, value: float | None) -> str:
    return f"{who}: {_one_decimal(value)} on average"


def _one_decimal(value: float | None) -> str:
    return NOTHING if value is None else f"{value:.1f}"


def best_boards(user: User, viewer: User | None = None) -> list[dict[str, Any]]:
    """The player's best BEST_BOARDS counted multiplayer games and solo games by score (ties:
    the newer first), each with its final board drawn small. Two queries, of a few rows. A game
    of a deal of the week is left out while its board would give the deal away to `viewer`
    (the score sheet's rule, games.models.weekly.unrevealed; the player's own view without one)."""
    found = []
    secret = unrevealed(viewer or user, "game__")
    for kind, only in (("multi", ~Q(pool=Pool.SOLO)), ("solo", Q(pool=Pool.SOLO))):
        best = (
            SeatResult.objects.filter(only, user=user, counts=True)
            .exclude(secret)
            .select_related("game")
            .only(*BEST_FIELDS)
            .order_by("-total", "-finished_at", "-game_id")[:BEST_BOARDS]
        )
        for result in best:
            words = (
                f"{user.public_name}'s final board, {result.total} points:"
                f" {result.description}, {_day(result.finished_at)}"
            )
            board = _final_board(result, words)
            if board is not None:
                found.append({"kind": kind, "result": result, "board": board, "words": words})
    return found


def _final_board(result: SeatResult, words: str) -> SafeString | None:
    try:
        state = engine.state_from_json(result.game.state)
        view = engine.view_for(state, None)["players"][result.position]
    except (ValueError, KeyError, IndexError):  # a stored state this code cannot read
        logger.warning("game %s: no final board for the best boards", result.game_id)
        return None
    return board_svg(
        result.side,
        view["stacks"],
        view["cube_hexes"],
        title=words,
        sprite=sprite_url(),
        compact=True,
    )


# --- The score sheet -----------------------------------------------------------------------------


def points_by_turn(game: Game) -> list[list[int]]:
    """Each seat's total after each of its turns, by seat position, replayed from the move log;
    from the cache after the first time (a finished game's log never changes). Empty when the
    log cannot be replayed. The cache is an optimisation: with it down, the replay runs."""
    key = f"records:points-by-turn:{SERIES_VERSION}:{game.pk}"
    try:
        series = cache.get(key)
    except Exception:
        logger.warning("cache unavailable: replaying game %s", game.pk, exc_info=True)
        return _replayed_series(game)
    if series is None:
        series = _replayed_series(game)
        try:
            cache.set(key, series, SERIES_SECONDS)
        except Exception:
            logger.warning("cache unavailable: %s not kept", key, exc_info=True)
    return series


def _replayed_series(game: Game) -> list[list[int]]:
    if game.seed is None:
        return []
    try:
        ends = turn_end_boards(game)
    except engine.IllegalAction:
        logger.warning("game %s: the move log does not replay", game.pk, exc_info=True)
        return []
    series: list[list[int]] = [[] for _ in range(game.players)]
    for turn in sorted(ends):
        seat, _seq, _player, score = ends[turn]
        series[seat].append(score["total"])
    return series


def points_chart(game: Game, names: dict[int, str]) -> dict[str, Any] | None:
    """The score sheet's lines: each player's total after each of their turns (`names` by seat
    position), or None when the game has no turns to draw."""
    series = points_by_turn(game)
    if not any(series):
        return None
    positions = sorted(names)
    lines = [
        Series(
            names[p],
            [
                Point(total, f"{names[p]}, turn {turn}: {total} point{'s' if total != 1 else ''}")
                for turn, total in enumerate(series[p], start=1)
            ],
        )
        for p in positions
        if p < len(series)
    ]
    turns = max(len(line.points) for line in lines)
    ends = "; ".join(
        f"{line.name} {line.points[-1].value} after {len(line.points)}"
        f" turn{'s' if len(line.points) != 1 else ''}"
        for line in lines
        if line.points
    )
    chart_id = "chart-points-by-turn"
    title = "Points after each turn" if game.solo else "Each player's points after each turn"
    svg = charts.line_chart(
        lines,
        chart_id=chart_id,
        title=title,
        description=f"The total score after each of a player's turns. At the end: {ends}.",
        x_labels=("Turn 1", f"Turn {turns}"),
    )
    rows = [
        [
            turn,
            *(
                line.points[turn - 1].value if turn <= len(line.points) else NOTHING
                for line in lines
            ),
        ]
        for turn in range(1, turns + 1)
    ]
    return _figure(chart_id, "Points by turn", svg, ["Turn", *(line.name for line in lines)], rows)
