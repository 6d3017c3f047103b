"""The deal of the week: one seeded solo deal a week that every player may play once.

A week is the ISO week in UTC, Monday 00:00 to the next Monday 00:00, the same for everyone
wherever they live, so that one board of scores compares one deal. The row is made lazily (the
first visit of the week, or the weekly sweep) by games.services.weekly, which derives its seed,
side and spirits from the week; every player's game of the week starts from that seed.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models.game import Game, long_date


def week_of(moment: datetime) -> date:
    """The Monday (UTC) of the week `moment` falls in."""
    day = moment.astimezone(UTC).date()
    return day - timedelta(days=day.weekday())


class WeeklyDeal(models.Model):
    """One week's deal. Its seed is the secret of the deal: with it anyone could know the pouch
    and the deck, so it is shown nowhere and only the week's finished games reveal it."""

    # The week's Monday (UTC).
    week = models.DateField(unique=True)
    seed = models.BigIntegerField()
    side = models.CharField(max_length=1, choices=Game.Side.choices)
    spirits = models.BooleanField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-week"]

    def __str__(self) -> str:
        return _("Deal of the week of %(week)s") % {"week": long_date(self.week)}

    @property
    def opens_at(self) -> datetime:
        return datetime.combine(self.week, time(0), tzinfo=UTC)

    @property
    def closes_at(self) -> datetime:
        return self.opens_at + timedelta(days=7)

    def is_open(self, now: datetime | None = None) -> bool:
        """Whether a game of this deal may still be started: until the next Monday 00:00 UTC."""
        now = now or timezone.now()
        return self.opens_at <= now < self.closes_at

    def revealed_to(self, user, now: datetime | None = None) -> bool:
        """Whether `user` may see the boards and replays of this deal's games (which show the
        pouch order): once they have finished their own game of it, or once the week has closed
        and they are not in the middle of one. Names and scores are no secret."""
        if not user.is_authenticated:
            return False
        mine = (
            Game.objects.filter(weekly_deal=self, created_by=user)
            .values_list("status", flat=True)
            .first()
        )
        if mine == Game.Status.FINISHED:
            return True
        return not self.is_open(now) and mine != Game.Status.ACTIVE


def unrevealed(viewer, prefix: str = "", now: datetime | None = None) -> models.Q:
    """The games (a filter on Game, its fields after `prefix`: "game__" from a seat or a result)
    of the deals whose boards are not revealed to `viewer` (WeeklyDeal.revealed_to), in one
    query's terms: a deal still open that the viewer has not finished, and one the viewer is
    still in the middle of."""
    deal = f"{prefix}weekly_deal"
    if not viewer.is_authenticated:
        return models.Q(**{f"{deal}__isnull": False})
    monday = week_of(now or timezone.now())
    theirs = Game.objects.filter(created_by_id=viewer.pk, weekly_deal__isnull=False)
    finished = theirs.filter(status=Game.Status.FINISHED).values("weekly_deal")
    playing = theirs.filter(status=Game.Status.ACTIVE).values("weekly_deal")
    still_open = models.Q(**{f"{deal}__week__gte": monday}) & ~models.Q(**{f"{deal}__in": finished})
    return still_open | models.Q(**{f"{deal}__in": playing})
