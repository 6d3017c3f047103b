"""A player's results: the page of their finished games, and their profile's statistics.

They read only the derived tables (a fixed number of queries however many games are listed),
plus the seats (and the move log of the games still going) for how reliably the player takes
their turns.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Avg, Count, F, Max, Q, Sum

from accounts.models import User
from games.models import Game, Move, Seat
from games.presenters.game import CATEGORIES
from games.results import SITE_EVENTS
from records.models import Pool, Rating, SeatResult

HISTORY_PAGE = 25
FAVOURITE_ANIMALS = 3


def history(user: User, page_number: object) -> Any:
    """A page of the user's finished games, newest first, each with everyone's result."""
    mine = (
        SeatResult.objects.filter(user=user)
        .annotate(uncounted=F("game__uncounted"))  # why it counts for nothing, as stored
        .order_by("-finished_at", "-game_id")
    )
    page = Paginator(mine, HISTORY_PAGE).get_page(page_number)
    tables: dict[int, list[SeatResult]] = defaultdict(list)
    everyone = SeatResult.objects.filter(game_id__in=[r.game_id for r in page.object_list])
    for result in everyone.select_related("user").order_by("place", "position"):
        tables[result.game_id].append(result)
    page.rows = [
        {
            "mine": r,
            "others": [o for o in tables[r.game_id] if o.user_id != user.pk],
            "uncounted": Game.Uncounted(r.uncounted).label if r.uncounted else "",
        }
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
        finished=Count("pk", filter=~Q(pool=Pool.SOLO)),
        solo_finished=Count("pk", filter=Q(pool=Pool.SOLO)),
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
    # A guided first game is a lesson: its turns say nothing of how dependable a player is.
    seats = Seat.objects.filter(user=user, game__guided=False)
    # An ended game stores each seat's own turns; only the games still going are counted from
    # their move log, so the cost follows the player's games in play, not their whole history.
    stored = seats.aggregate(played=Sum("own_turns"), missed=Sum("turns_missed"))
    going = seats.filter(own_turns__isnull=True).values("game_id")
    played = (stored["played"] or 0) + (
        Move.objects.filter(game_id__in=going, user=user)
        .exclude(action__type__in=sorted(SITE_EVENTS))
        .order_by()  # no default ordering columns in the DISTINCT
        .values_list("game_id", "turn")
        .distinct()
        .count()
    )
    missed = stored["missed"] or 0
    turns = played + missed
    return {
        "turns": turns,
        "missed": missed,
        "share": round(100 * played / turns) if turns else None,
        "left": seats.filter(Q(resigned_at__isnull=False) | Q(dropped_at__isnull=False)).count(),
    }
