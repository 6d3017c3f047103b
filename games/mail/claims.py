"""What every game email shares: the exactly-once claim, the sweep windows, and the email context.

Each sender claims before it sends, with a conditional UPDATE (0 rows: another run did it), and
gives the claim back if the mail server fails, so that the task's retry sends it. The finders
feed the periodic sweeps in `games.tasks`, which catch up on anything a down worker or broker
missed. Preferences are read at sending time; a switched-off email is still claimed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Game, Seat, names_in_words
from games.talk import unread_for

# A turn email not claimed this long after the turn started was missed (broker or worker down).
MISSED_AFTER = timedelta(minutes=2)
# A turn email claimed this long ago and still not sent was lost with its worker.
STALE_CLAIM = timedelta(minutes=5)
# Sweeps look this far back; older misses are left to the reminders.
CATCH_UP_WINDOW = timedelta(days=1)
SWEEP_BATCH = 500


@contextmanager
def give_back_on_failure(claimed: QuerySet, **unclaimed: Any) -> Iterator[None]:
    """If sending fails, undo the claim (only if it is still ours) so that a retry can send."""
    try:
        yield
    except Exception:
        claimed.update(**unclaimed)
        raise


def to_move(prefix: str = "") -> Q:
    """Seats whose turn it is in a game with other players (a solo game waits for nobody)."""
    return Q(
        **{
            f"{prefix}game__status": Game.Status.ACTIVE,
            f"{prefix}game__players__gt": 1,
            f"{prefix}position": F(f"{prefix}game__current_seat"),
            f"{prefix}resigned_at__isnull": True,
            f"{prefix}dropped_at__isnull": True,
        }
    )


def _names(users: list[User]) -> str:
    return names_in_words([u.public_name for u in users])


def named_after_players(game: Game, seats: list[Seat]) -> bool:
    """Whether the game's name is its players' names, as a game left unnamed is called when it
    starts ("Alice, Bob and Carol", in any order: a rematch keeps the old game's name)."""
    if not game.name or len(seats) < 2:
        return False
    known = {name for s in seats for name in (s.user.public_name, s.user.username)}
    parts = re.split(r", | and ", game.name)
    return len(parts) == len(seats) and all(part in known for part in parts)


def naming(game: Game, seats: list[Seat], user: User | None) -> dict[str, Any]:
    """How every email names the game: by its title, as My games lists it. A title made of the
    players' names takes a plural verb ("Alice and Bob have started") and already says who
    plays, so `with_opponents` (" with Bob and Carol", for a game with a name of its own) is
    then empty. Built in the recipient's language (`accounts.language.speaking`)."""
    names_title = named_after_players(game, seats)
    opponents = _names([s.user for s in seats if user is None or s.user_id != user.pk])
    with_opponents = (
        _(" with %(names)s") % {"names": opponents} if opponents and not names_title else ""
    )
    return {
        "game": game,
        "opponents": opponents,
        "with_opponents": with_opponents,
        "names_title": names_title,
        "title_have": "have" if names_title else "has",
    }


def game_context(game: Game, seats: list[Seat], user: User) -> dict[str, Any]:
    return {**naming(game, seats, user), "game_url": settings.SITE_URL + game.get_absolute_url()}


def unread_talk(seat: Seat) -> dict[str, Any]:
    """The table talk the player has not seen yet (none from a muted game), for an email."""
    messages, more = unread_for(seat)
    return {"talk": messages, "more_talk": more}
