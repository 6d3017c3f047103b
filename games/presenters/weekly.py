"""What the deal of the week's pages show: the deal, the viewer's game of it, the board of scores
(everyone's and the viewer's friends'), and after a player has finished it, or once the week has
closed, the comparison of its finished games side by side.

While a deal is open, nothing of another player's game that shows the pouch order (boards,
replays) is offered to a viewer who has not finished their own: names and scores only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat, WeeklyDeal
from games.models.weekly import week_of
from games.presenters.game import score_rows
from records import sheets

# The board shows the best this many, plus the viewer's own line when it is further down: one
# index read of one week's games however long the history grows.
BOARD_LENGTH = 100
# Games compared side by side at most (four boards still read at a desktop's width).
MOST_COMPARED = 4
PAST_WEEKS_SHOWN = 12
# The best games of the deal offered as choices on the comparison page (the board links any).
CHOICES_SHOWN = 20

# Why a finished game of the deal is on the board but not ranked (Game.uncounted), in words.
UNRANKED_WORDS = {
    Game.Uncounted.HINTED: "took a hint from the hard bot",
    Game.Uncounted.SOLO_RESIGNED: "resigned",
    Game.Uncounted.ABANDONED: "resigned",
    Game.Uncounted.UNCONFIRMED: "email address not confirmed",
    Game.Uncounted.SAME_ADDRESS: "shares an email address",
    Game.Uncounted.FEW_TURNS: "played fewer than 3 turns",
}


@dataclass
class Line:
    """One finished game on the board: its place (None when unranked) and its player."""

    place: int | None
    name: str
    username: str
    score: int
    game_id: int
    mine: bool
    why_unranked: str = ""
    compare_url: str = ""


def deal_words(deal: WeeklyDeal) -> str:
    spirits = "with Nature's Spirits" if deal.spirits else "without Nature's Spirits"
    return f"Solo, side {deal.side} ({'river' if deal.side == 'A' else 'islands'}), {spirits}"


def _finished_seats(deal: WeeklyDeal):
    """The seats of the deal's finished games, with their players: read by the unique index on
    (weekly deal, player), one week's games only."""
    return Seat.objects.filter(
        game__weekly_deal=deal, game__status=Game.Status.FINISHED, final_score__isnull=False
    ).select_related("user")


def _ranked(seats) -> Any:
    return seats.filter(game__uncounted=Game.Uncounted.COUNTS).order_by(
        "-final_score", "game__finished_at", "game_id"
    )


def _lines(seats: Iterable[Seat], viewer: User, *, ranked: bool) -> list[Line]:
    """Board lines; equal scores share a place (the solo game has no tie-break between players
    of different games that the board could honestly call fair)."""
    lines, place, previous = [], 0, None
    for index, seat in enumerate(seats, start=1):
        if seat.final_score != previous:
            place, previous = index, seat.final_score
        lines.append(
            Line(
                place=place if ranked else None,
                name=seat.user.public_name,
                username=seat.user.username,
                score=seat.final_score,
                game_id=seat.game_id,
                mine=seat.user_id == viewer.pk,
                why_unranked="" if ranked else UNRANKED_WORDS.get(seat.game.uncounted, ""),
            )
        )
    return lines


def _with_own_line(lines: list[Line], mine: Seat | None, deal: WeeklyDeal, viewer: User) -> None:
    """The viewer's own ranked line at the end of a capped board, with its true place."""
    if mine is None or any(line.mine for line in lines):
        return
    if mine.game.uncounted != Game.Uncounted.COUNTS or mine.final_score is None:
        return
    better = _ranked(_finished_seats(deal)).filter(final_score__gt=mine.final_score).count()
    lines.append(
        Line(
            place=better + 1,
            name=viewer.public_name,
            username=viewer.username,
            score=mine.final_score,
            game_id=mine.game_id,
            mine=True,
        )
    )


def board(deal: WeeklyDeal, viewer: User, friend_ids: Iterable[int] = ()) -> dict[str, Any]:
    """The deal's board of finished scores for everyone, and for the viewer and their friends,
    each capped at BOARD_LENGTH; and the finished games that are not ranked, with the reason."""
    mine = (
        Seat.objects.filter(game__weekly_deal=deal, user=viewer)
        .select_related("game")
        .defer(*(f"game__{f}" for f in Game.PLAY_FIELDS))
        .first()
    )
    finished_mine = mine if mine is not None and mine.game.status == Game.Status.FINISHED else None
    everyone = _lines(_ranked(_finished_seats(deal))[:BOARD_LENGTH], viewer, ranked=True)
    _with_own_line(everyone, finished_mine, deal, viewer)
    circle = {*friend_ids, viewer.pk}
    friends = _lines(
        _ranked(_finished_seats(deal).filter(user_id__in=sorted(circle)))[:BOARD_LENGTH],
        viewer,
        ranked=True,
    )
    unranked = _lines(
        _finished_seats(deal)
        .exclude(game__uncounted=Game.Uncounted.COUNTS)
        .select_related("game")
        .defer(*(f"game__{f}" for f in Game.PLAY_FIELDS))
        .order_by("-final_score", "game_id")[:BOARD_LENGTH],
        viewer,
        ranked=False,
    )
    revealed = deal.revealed_to(viewer)
    if revealed:
        for line in (*everyone, *friends, *unranked):
            line.compare_url = compare_query(line.game_id, finished_mine)
    playing = Game.objects.filter(weekly_deal=deal, status=Game.Status.ACTIVE).count()
    return {
        "everyone": everyone,
        "friends": friends,
        "has_friends": bool(friend_ids),
        "unranked": unranked,
        "revealed": revealed,
        "my_game": mine.game if mine is not None else None,
        "my_score": finished_mine.final_score if finished_mine else None,
        "playing": playing,
        "finished_count": _finished_seats(deal).count(),
    }


def compare_query(game_id: int, mine: Seat | None) -> str:
    """The comparison's query: this game beside the viewer's own finished game, if any."""
    ids = [game_id] if mine is None or mine.game_id == game_id else [mine.game_id, game_id]
    return "?" + "&".join(f"game={pk}" for pk in ids)


def week_page(
    deal: WeeklyDeal | None,
    week: date,
    viewer: User,
    friend_ids: Iterable[int] = (),
    now: datetime | None = None,
) -> dict[str, Any]:
    """The page of one week: this week's (open) or a past one (closed; `deal` is None when
    nobody opened that week's deal, which is then simply not there)."""
    now = now or timezone.now()
    current = week_of(now)
    context: dict[str, Any] = {
        "week": week,
        "deal": deal,
        "is_current": week == current,
        "past_weeks": past_weeks(current),
    }
    if deal is not None:
        context.update(
            deal_words=deal_words(deal),
            is_open=deal.is_open(now),
            closes_at=deal.closes_at,
            **board(deal, viewer, friend_ids),
        )
    return context


def past_weeks(current: date) -> list[WeeklyDeal]:
    """The latest closed weeks whose deal was opened, newest first."""
    return list(WeeklyDeal.objects.filter(week__lt=current).order_by("-week")[:PAST_WEEKS_SHOWN])


class NotComparable(Exception):
    """The comparison asked for is not one the viewer may see (the message says why)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def parse_game_ids(values: list[str]) -> list[int]:
    """The games asked for, in order and once each; a refusal for anything but 1 to 4 ids."""
    ids: list[int] = []
    for value in values:
        try:
            pk = int(value)
        except ValueError:
            raise NotComparable("Choose games by their numbers.", 400) from None
        if not 0 < pk < 2**63:
            raise NotComparable("There is no such game.", 404)
        if pk not in ids:
            ids.append(pk)
    if not ids:
        raise NotComparable("Choose the games to compare from the week's board.", 400)
    if len(ids) > MOST_COMPARED:
        raise NotComparable(f"At most {MOST_COMPARED} games can be compared at once.", 400)
    return ids


def comparison(deal: WeeklyDeal, viewer: User, game_ids: list[int]) -> dict[str, Any]:
    """Final boards and score sheets of some finished games of one deal, side by side, each with
    its replay: for a viewer to whom the deal is revealed (WeeklyDeal.revealed_to)."""
    if not deal.revealed_to(viewer):
        raise NotComparable(
            "The boards of this week's deal open to you once you have finished your own game "
            "of it, or when the week closes.",
            403,
        )
    games = {
        game.pk: game
        for game in Game.objects.filter(
            pk__in=game_ids, weekly_deal=deal, status=Game.Status.FINISHED
        )
    }
    if len(games) != len(game_ids):
        raise NotComparable("Those are not finished games of this week's deal.", 404)
    seats = Seat.objects.filter(game_id__in=game_ids).select_related("user")
    by_game = {seat.game_id: seat for seat in seats}
    columns = []
    for pk in game_ids:
        sheet = sheets.score_sheet(games[pk], [by_game[pk]])
        player = sheet["players"][0]
        player["game"] = games[pk]
        player["suns"] = sheet["suns"]
        player["counting"] = sheet["counting"]
        columns.append(player)
    results = [column["result"] for column in columns]
    choices = [
        {"game_id": seat.game_id, "name": seat.user.public_name, "score": seat.final_score}
        for seat in _ranked(_finished_seats(deal))[:CHOICES_SHOWN]
    ]
    return {
        "deal": deal,
        "deal_words": deal_words(deal),
        "columns": columns,
        "choices": choices,
        "chosen": game_ids,
        "most_compared": MOST_COMPARED,
        "player_names": [column["name"] for column in columns],
        "score_rows": score_rows(results, [r.animal_cubes for r in results]),
    }
