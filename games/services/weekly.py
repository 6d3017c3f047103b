"""The deal of the week: making each week's deal, and starting a player's one game of it.

The week is UTC's (Monday 00:00 to the next Monday 00:00), one week for everyone. Its seed is an
HMAC of the week's date under SECRET_KEY: the same on every machine and every run, and not
guessable before the Monday by anyone without the key. The side and the Nature's Spirits follow
the week's number, so that four weeks go through all four settings: side A, side B, side A with
spirits, side B with spirits.

A game of the deal is an ordinary solo game (games.services.tables.create_game) whose seed is
the deal's: every player's game of the week starts from the same pouch, display and spirits.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.models import Game, WeeklyDeal
from games.models.game import WEEKLY_NAME, long_date
from games.models.weekly import week_of
from games.services.core import lock_player
from games.services.errors import Conflict, NotAllowed, NotFound
from games.services.tables import create_game

# The Monday weeks are counted from for the side and spirits (5 January 1970, week 0). Counting
# days, not ISO week numbers, keeps the alternation going across years of 53 weeks.
FIRST_MONDAY = date(1970, 1, 5)
ALREADY_PLAYED = gettext_lazy(
    "You have already played this week's deal: each player plays it once."
)


def deal_settings(week: date) -> tuple[int, str, bool]:
    """The seed, side and spirits of the week starting on Monday `week`."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(), f"harmonies-weekly-deal:{week.isoformat()}".encode(),
        hashlib.sha256,
    ).digest()  # fmt: skip
    seed = int.from_bytes(digest[:8], "big") >> 2  # 62 bits, as the seed of any game
    number = (week - FIRST_MONDAY).days // 7
    return seed, "AB"[number % 2], (number // 2) % 2 == 1


def deal_of(week: date) -> WeeklyDeal:
    """The deal of the week starting on Monday `week`, made if nobody asked for it yet. Two
    first visits at once make one row (the week is unique, and both derive the same values)."""
    seed, side, spirits = deal_settings(week)
    deal, _created = WeeklyDeal.objects.get_or_create(
        week=week, defaults={"seed": seed, "side": side, "spirits": spirits}
    )
    return deal


def this_weeks_deal(now: datetime | None = None) -> WeeklyDeal:
    """The deal open now (made on the week's first visit, or by the weekly sweep)."""
    return deal_of(week_of(now or timezone.now()))


def make_this_weeks_deal(now: datetime | None = None) -> int:
    """The sweep's part: 1 if it made this week's deal, 0 if the deal was there already."""
    week = week_of(now or timezone.now())
    if WeeklyDeal.objects.filter(week=week).exists():
        return 0
    deal_of(week)
    return 1


def parse_week(text: object) -> date:
    """A week's Monday from its "yyyy-mm-dd" text, or NotFound in words."""
    try:
        week = date.fromisoformat(str(text))
    except ValueError:
        raise NotFound(_("There is no such week: give its Monday as yyyy-mm-dd.")) from None
    if week.weekday() != 0:
        raise NotFound(_("A week of deals starts on a Monday: give that Monday's date."))
    return week


def has_started(deal: WeeklyDeal, user: User) -> bool:
    """Whether `user` has a game of `deal` already, in play or over."""
    return Game.objects.filter(weekly_deal=deal, created_by=user).exists()


def play_weekly(*, user: User, week: object, now: datetime | None = None) -> Game:
    """Start `user`'s game of the deal of `week` (a Monday, as the page posted it): only the
    deal open now, once per player, never by a computer opponent. A refusal stores nothing."""
    now = now or timezone.now()
    week = parse_week(week)
    current = week_of(now)
    if week > current:
        raise NotFound(
            _("The deal of the week of %(week)s is not dealt yet: it opens that Monday.")
            % {"week": long_date(week)}
        )
    if week < current:
        closed_on = week + timedelta(days=7)
        raise Conflict(
            _(
                "The deal of the week of %(week)s closed on %(closed_on)s: "
                "play this week's deal instead."
            )
            % {"week": long_date(week), "closed_on": long_date(closed_on)}
        )
    if user.is_bot:
        raise NotAllowed(_("Computer opponents do not play the deal of the week."))
    deal = deal_of(week)
    try:
        with transaction.atomic():
            lock_player(user)  # one start at a time per player: the check below then holds
            if has_started(deal, user):
                raise Conflict(ALREADY_PLAYED)
            return create_game(
                creator=user,
                players=1,
                side=deal.side,
                spirits=deal.spirits,
                # Stored in English, shown in the reader's language (Game.title).
                name=WEEKLY_NAME.format(week=week),
                weekly_deal=deal,
            )
    except IntegrityError:  # two starts at once where rows are not locked (SQLite)
        raise Conflict(ALREADY_PLAYED) from None
