"""Head-to-head records between a player and their friends, for the profile pages.

Read from the results tables: every finished game two players shared counts as a game together,
and wins, losses and draws compare their places in the games that count (`SeatResult.counts`,
stored from `records.services.counts_for_ratings`): a better place is a win, an equal (shared)
place a draw. One query, however many friends.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Exists, OuterRef, Subquery

from accounts.models import User
from games.results import MIN_OWN_TURNS
from games.services.friends import friends_of, is_friend
from records.models import SeatResult

# A profile lists at most this many friends, most games together first, chosen among the first
# FRIENDS_READ by name (a bound on the page's work, far above any real circle of friends).
FRIENDS_SHOWN = 100
FRIENDS_READ = 1000


def head_to_head(user: User, others: list[User]) -> dict[int, dict[str, int]]:
    """For each of `others` (by id): games together, and wins, losses, draws of `user`."""
    records: dict[int, dict[str, int]] = defaultdict(
        lambda: {"games": 0, "counted": 0, "wins": 0, "losses": 0, "draws": 0}
    )
    ids = [o.pk for o in others]
    if not ids:
        return records
    # From the others' results, each looked up against `user`'s row of the same game (the
    # game's own index): the cost follows the games the others played, never every game of
    # a `user` who has played thousands.
    own = SeatResult.objects.filter(game_id=OuterRef("game_id"), user=user)
    theirs = (
        SeatResult.objects.filter(user_id__in=ids)
        .filter(Exists(own))
        .annotate(
            own_place=Subquery(own.values("place")[:1]),
            own_counts=Subquery(own.values("counts")[:1]),
        )
        .values("user_id", "place", "counts", "own_place", "own_counts")
    )
    for row in theirs:
        record = records[row["user_id"]]
        record["games"] += 1
        if not (row["own_counts"] and row["counts"]):
            continue
        record["counted"] += 1
        if row["own_place"] < row["place"]:
            record["wins"] += 1
        elif row["own_place"] > row["place"]:
            record["losses"] += 1
        else:
            record["draws"] += 1
    return records


def friends_context(viewer: User, shown: User) -> dict[str, Any]:
    """On one's own profile, every friend with the record against them; on someone else's,
    whether they are the viewer's friend and the viewer's record against them. Nobody sees
    another player's list of friends."""
    if viewer.pk == shown.pk:
        friends = list(friends_of(viewer).order_by("username")[:FRIENDS_READ])
        records = head_to_head(viewer, friends)
        rows = [{"friend": f, **records[f.pk]} for f in friends]
        rows.sort(key=lambda row: (-row["games"], row["friend"].username.casefold()))
        return {
            "own_profile": True,
            "friend_rows": rows[:FRIENDS_SHOWN],
            "min_turns": MIN_OWN_TURNS,
        }
    if shown.is_bot or not shown.is_active:
        return {}
    return {
        "is_friend": is_friend(viewer, shown),
        "versus": head_to_head(viewer, [shown])[shown.pk],
    }
