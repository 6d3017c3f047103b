"""The daily digest: one email listing every game waiting for the player's move.

It goes to players who chose it, once a local day, outside quiet hours and never while away;
claimed by storing the day it was sent for (`games.mail.claims`).
"""

from __future__ import annotations

from datetime import date, datetime

from django.db.models import Exists, F, OuterRef, Q, QuerySet

from accounts.language import speaking
from accounts.models import User
from games.mail import send as emails
from games.mail.claims import game_context, give_back_on_failure, to_move, unread_talk
from games.models import Game, Seat
from games.presenters.clocks import deadline_words

# The daily digest goes out from 8:00 local time (after quiet hours), until 20:00 at the latest.
DIGEST_FROM_HOUR, DIGEST_UNTIL_HOUR = 8, 20


def waiting_games(user: User) -> QuerySet[Game]:
    """The games waiting for this player's move, most urgent first: the nearest time limit, then
    the longest wait."""
    return (
        Game.objects.filter(Exists(Seat.objects.filter(to_move(), game=OuterRef("pk"), user=user)))
        .prefetch_related("seats__user")
        .order_by(F("turn_deadline").asc(nulls_last=True), "turn_started_at", "pk")
    )


def due_digests(now: datetime) -> list[tuple[int, date]]:
    """(user id, their local date) of players whose digest for today is due and not yet sent."""
    waiting = Seat.objects.filter(to_move(), user=OuterRef("pk"))
    users = (
        User.objects.filter(Exists(waiting), email_digest=True, is_active=True, bot_level="")
        .exclude(email="")
        .only(
            "pk", "time_zone", "quiet_start", "quiet_end", "last_digest_on", "away_until",
            "away_since",
        )
    )  # fmt: skip
    due = []
    for user in users:
        local = now.astimezone(user.tzinfo)
        if not DIGEST_FROM_HOUR <= local.hour < DIGEST_UNTIL_HOUR or user.is_quiet_at(now):
            continue
        if user.is_away_at(now):
            continue  # no digest while away
        if user.last_digest_on is None or user.last_digest_on < local.date():
            due.append((user.pk, local.date()))
    return due


def send_digest(user_id: int, day: date) -> bool:
    """Today's digest for one player: claimed by storing the day it was sent for."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return False
    claimed = User.objects.filter(
        Q(last_digest_on__isnull=True) | Q(last_digest_on__lt=day), pk=user_id
    ).update(last_digest_on=day)
    if not claimed or not user.wants_email("digest"):
        return False
    with speaking(user):
        games = [
            {
                **game_context(g, list(g.seats.all()), user),
                "deadline": g.turn_deadline,
                "deadline_words": deadline_words(g),
                **unread_talk(next(s for s in g.seats.all() if s.user_id == user.pk)),
            }
            for g in waiting_games(user)
        ]
    if not games:
        return False
    with give_back_on_failure(
        User.objects.filter(pk=user_id, last_digest_on=day), last_digest_on=user.last_digest_on
    ):
        emails.digest(user, {"games": games, "day": day})
    return True
