"""Each player's private calendar feed: the time limits of the turns waiting for them.

Calendar apps subscribe to `/calendar/<token>.ics` and fetch it without a login, so the address
is the key: a 256-bit token in a unique (indexed) column, renewed from the profile. The feed
lists only the turns a player can act on: one event per game where it is their turn and the
turn has a time limit, ending at the limit (other players' limits would only be noise). Each
event's UID names the game and the engine turn, so an app updates the event when the limit
moves (the player went away) and drops it once the turn is played.

A fetch costs two queries (the player, then their games) and its answer is cached for a few
minutes; a token that fetches far more often than any calendar app does is refused for a while.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.db.models import OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_safe
from django_ratelimit import ALL
from django_ratelimit.core import is_ratelimited
from icalendar import Calendar, Event

from accounts.models import User
from games.mail.digest import waiting_games
from games.models import Game, Move

TOKEN_LENGTH = 43  # secrets.token_urlsafe(32)
EVENT_LENGTH = timedelta(minutes=30)  # the event ends at the time limit
CACHE_SECONDS = 5 * 60
FETCH_RATE = "60/h"  # apps refresh every 5 minutes at the most often


def deadline_games(user: User) -> QuerySet[Game]:
    """The games waiting for this player's move that have a time limit, with the engine turn
    (turns ended so far) as `current_turn`: one query."""
    last_end = (
        Move.objects.filter(game=OuterRef("pk"), action__type="end_turn")
        .order_by("-seq")
        .values("turn")[:1]
    )
    return (
        waiting_games(user)
        .prefetch_related(None)  # the seats are not shown
        .filter(turn_deadline__isnull=False)
        .annotate(current_turn=Coalesce(Subquery(last_end) + 1, 0))
        .only("pk", "name", "players", "side", "spirits", "turn_deadline", "clock")
    )


def feed(user: User, now: datetime) -> bytes:
    """The iCalendar text of the player's turn deadlines."""
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    calendar = Calendar()
    calendar.add("prodid", f"-//{settings.SITE_NAME}//turn deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", f"{settings.SITE_NAME}: your turns")
    calendar.add("refresh-interval", timedelta(hours=1), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", timedelta(hours=1))
    for game in deadline_games(user):
        url = settings.SITE_URL + game.get_absolute_url()
        deadline = game.turn_deadline
        local = timezone.localtime(deadline, user.tzinfo)
        event = Event()
        event.add("uid", f"game-{game.pk}-turn-{game.current_turn}@{domain}")
        event.add("dtstamp", now)
        event.add("dtstart", deadline - EVENT_LENGTH)
        event.add("dtend", deadline)
        event.add("summary", f"Your turn in {game.title}")
        event.add(
            "description",
            f"{game.title} ({game.description}) is waiting for your move. "
            # The true deadline: a time bank's end, weekends paused and days away included.
            f"{'Your time bank runs out' if game.clock == Game.Clock.BANK else 'Play by'} "
            f"{local:%A %-d %B, %H:%M} ({user.time_zone}).\n{url}",
        )
        event.add("url", url)
        event.add("transp", "TRANSPARENT")  # a reminder, not a busy slot in the player's day
        calendar.add_component(event)
    return calendar.to_ical()


def _by_token(group: str, request: HttpRequest) -> str:
    return request.resolver_match.kwargs["token"]


@require_safe
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The feed behind a calendar address; 404 for an unknown or renewed one."""
    if len(token) != TOKEN_LENGTH:
        raise Http404("No such calendar.")
    user = (
        User.objects.filter(calendar_token=token, is_active=True)
        .only("pk", "time_zone", "calendar_token")
        .first()
    )
    if user is None:
        raise Http404("No such calendar.")
    key = f"ical:{user.pk}:{token}"
    body = cache.get(key)
    if body is None:
        limited = is_ratelimited(
            request, group="calendar", key=_by_token, rate=FETCH_RATE, method=ALL, increment=True
        )
        if limited:
            response = HttpResponse(
                "This calendar was fetched too often. Try again in an hour.",
                status=429,
                content_type="text/plain; charset=utf-8",
            )
            response["Retry-After"] = "3600"
            return response
        body = feed(user, timezone.now())
        cache.set(key, body, CACHE_SECONDS)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="harmonies-turns.ics"'
    response["Cache-Control"] = f"private, max-age={CACHE_SECONDS}"
    response["X-Robots-Tag"] = "noindex"
    return response
