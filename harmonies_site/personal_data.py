"""Everything the site keeps about one person, as one JSON document ("Download my data").

The right of access and the right to data portability (GDPR articles 15 and 20) ask for all of
it, in a form a person and another program can read. The sections, and why each is there:

- `account`, `email_settings`, `away`: every column of their user row that says something about
  them (`ACCOUNT_FIELDS` and friends), their address and whether it is confirmed included.
  The site has one language and stores none per person, so there is no language to give.
- `log_ins`: the successful log-ins django-axes logged for their username since they joined
  (time, address, browser), and the failed ones counted against it, without the address or
  browser: those may be a stranger's guessing, and a stranger's address is the stranger's data.
- `games`: every game they sat at, made or were invited to, its settings and its seats by
  public name; of their own seat, its columns (`SEAT_FIELDS`), their result and rating after it
  (records.SeatResult) and the review they asked for. Of a game they sat at, the move list as
  records.export gives it: for a finished game the whole export (seed, boards and scores are no
  secret once it is over), for one in progress the actions and site events alone (each seat
  saw them as they were played; the seed would tell the pouch and deck order). Their own
  private plan of each game (`your_plan`: notes and pencil marks), never another seat's.
  Hints are not stored (an hour in the cache); a game in which one was taken says so in
  `uncounted`.
- `talk`: the messages they wrote, deleted and hidden ones too, since the rows are kept.
- `friends`: the players they added or removed (what others noted about them is others' data).
- `blocked`: the players they blocked; never who blocked them (that, too, is others' data).
- `reports`: the reports they filed (what, the reason, their words, when, whether staff have
  dealt with it); never the reports about them, whose reporters are others, nor the words of
  a reported message (another player's) or which staff member acted.
- `invitations`: those they sent (to a player by public name, to an address masked, see below),
  those they received, and the dates of the invitations by address they sent (kept for the
  daily cap after the invitations themselves are gone).
- `push_devices`: each device's label, push service host, dates and the notifications sent to
  it; never the endpoint's path or the keys, which are secrets that let anyone push to it.
- `chat_channels`: each webhook's kind, host, table (or all their tables), dates and last
  outcome; never the address's path, which lets anyone post to that channel.
- `calendar_feed`: whether they have one, never its secret address.
- `ratings` and `standings`: their rows of the leaderboards.

Nothing of anyone else's that is private: of other people, only their public names (and the
usernames of the friends they added, which they typed); never an address, a note, a board seen,
talk or a review of theirs; no password hash, token or secret. An address the
person typed to invite someone is that someone's personal data, and the file is made to be
handed on: it is masked ("b…@e….org"), enough to recognise the invitation by, not to write to.

Reads only, in a number of queries that does not grow with the number of games (about 20).
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import date, datetime
from typing import Any
from urllib.parse import urlsplit

from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.db.models import Model, Q
from django.utils import timezone

from accounts.identity import canonical_username
from accounts.models import Block, Friendship, User
from games.models import (
    AddressInvitationSent,
    Game,
    Invitation,
    Message,
    Move,
    Plan,
    Report,
    Review,
    Seat,
)
from push.models import PushSubscription
from records import export
from records.models import Rating, SeatResult, Standing
from webhooks.models import Webhook

FORMAT = "harmonies-personal-data/1"

# The user row, column by column, in the sections of the file.
ACCOUNT_FIELDS = (
    "id", "username", "display_name", "first_name", "last_name", "email", "email_confirmed_at",
    "date_joined", "last_login", "time_zone", "language", "is_active", "is_staff", "is_superuser",
    "suspended_at",
)  # fmt: skip
EMAIL_SETTINGS_FIELDS = (
    "email_turn", "email_reminder", "remind_every_hours", "email_digest", "email_game_over",
    "email_invitation", "quiet_start", "quiet_end", "last_digest_on",
)  # fmt: skip
AWAY_FIELDS = ("away_until", "away_since", "away_days")
# Columns of the user row left out, and why (tests/site/test_personal_data.py checks that every
# column is in one list or the other, so a new column is a decision, not an accident).
ACCOUNT_FIELDS_LEFT_OUT = {
    "password": "a hash of the password: a secret, and useless to anyone but an attacker",
    "calendar_token": "the secret of the calendar address (calendar_feed says whether one exists)",
    "username_key": "the username in the form log-in compares, derived from the username",
    "username_skeleton": "what the username looks like, derived from it",
    "email_version": "a counter that retires old confirmation links",
    "unsubscribe_version": "a counter that retires old unsubscribe links",
    "bot_level": "always empty for a person: only computer opponents have one",
    "deleted_at": "set when the account is deleted, after which it downloads nothing",
}

# The player's own seat, column by column.
SEAT_FIELDS = (
    "position", "joined_at", "final_score", "rank", "resigned_at", "dropped_at", "timed_out_at",
    "turns_missed", "own_turns", "seen_move", "talk_seen", "talk_muted", "remind_at",
    "notified_turn", "timeout_notified_turn", "game_over_notified_at", "cancel_emailed_at",
    "rematch_emailed_at", "bank",
)  # fmt: skip
SEAT_FIELDS_LEFT_OUT = {
    "id": "the row's number",
    "game": "the game the seat is listed under",
    "user": "the person themselves",
    "seen_boards": "a copy of the other players' boards as last seen, which the game shows",
    "turn_email_claimed_at": "held only while one email is being sent",
}

RESULT_FIELDS_LEFT_OUT = ("id", "game", "user")

# The player's private plan of a game (games.models.plans), column by column.
PLAN_FIELDS = ("notes", "marks", "updated_at")
PLAN_FIELDS_LEFT_OUT = {
    "id": "the row's number",
    "seat": "the seat the plan is listed under (the game's `your_seat`)",
}


def file_name(user: User, today: date) -> str:
    """harmonies-data-alice-2026-12-03.json (a username never holds a quote or a slash, but the
    name is built from safe characters all the same)."""
    username = re.sub(r"[^\w.@+-]", "-", user.username)
    return f"harmonies-data-{username}-{today.isoformat()}.json"


def personal_data(user: User, now: datetime | None = None) -> dict[str, Any]:
    """The whole file for `user` (the module's docstring says what is in it and why)."""
    now = now or timezone.now()
    return {
        "format": FORMAT,
        "site": settings.SITE_URL,
        "made_at": now,
        "account": _columns(user, ACCOUNT_FIELDS)
        | {"email_confirmed": user.email_confirmed_at is not None},
        "email_settings": _columns(user, EMAIL_SETTINGS_FIELDS),
        "away": _columns(user, AWAY_FIELDS),
        "log_ins": _log_ins(user),
        "games": _games(user),
        "talk": _talk(user),
        "friends": _friends(user),
        "blocked": _blocked(user),
        "reports": _reports(user),
        "invitations": _invitations(user),
        "push_devices": _push_devices(user),
        "chat_channels": _chat_channels(user),
        "calendar_feed": {"exists": bool(user.calendar_token)},
        "ratings": [
            _columns(rating, _field_names(Rating, RESULT_FIELDS_LEFT_OUT))
            | {"shown": rating.shown, "provisional": rating.provisional}
            for rating in Rating.objects.filter(user=user).order_by("pool", "scope")
        ],
        "standings": [
            _columns(standing, _field_names(Standing, RESULT_FIELDS_LEFT_OUT))
            for standing in Standing.objects.filter(user=user).order_by(
                "pool", "side", "players", "spirits"
            )
        ],
    }


def masked_address(address: str) -> str:
    """ "bob.smith@example.org" is "b…@e….org": recognisable to whoever typed it, useless to
    whoever else reads the file."""
    local, _, domain = address.partition("@")
    host, dot, top = domain.rpartition(".")
    return f"{local[:1]}…@{host[:1]}…{dot}{top}" if host else f"{local[:1]}…@…"


# --- Sections ---------------------------------------------------------------------------------


def _log_ins(user: User) -> dict[str, list[dict[str, Any]]]:
    """Axes keys its rows by the username as typed, made canonical: rows from before the account
    (a name once held by someone else) are left out by date."""
    name = canonical_username(user.username)
    since = Q(username=name, attempt_time__gte=user.date_joined)
    return {
        "successful": [
            {
                "at": log.attempt_time,
                "logged_out_at": log.logout_time,
                "address": log.ip_address,
                "browser": log.user_agent,
            }
            for log in AccessLog.objects.filter(since).order_by("attempt_time")
        ],
        # One row per address the failures came from; the address itself is left out.
        "failed": [
            {"last_at": attempt.attempt_time, "failures": attempt.failures_since_start}
            for attempt in AccessAttempt.objects.filter(since).order_by("attempt_time")
        ],
    }


def _games(user: User) -> list[dict[str, Any]]:
    """Every game they sat at, made or were invited to, in eight queries however many."""
    own_seats = {seat.game_id: seat for seat in Seat.objects.filter(user=user)}
    invited_to = Invitation.objects.filter(user=user).values_list("game_id", flat=True)
    games = list(
        Game.objects.filter(Q(pk__in={*own_seats, *invited_to}) | Q(created_by=user))
        .select_related("created_by")
        .defer("recent_moves")
        .order_by("created_at", "pk")
    )
    game_ids = [game.pk for game in games]
    seats_by_game: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(game_id__in=game_ids).select_related("user"):
        seats_by_game[seat.game_id].append(seat)
    moves_by_game: dict[int, list[Move]] = defaultdict(list)
    moves = Move.objects.filter(game_id__in=list(own_seats)).order_by("game_id", "seq")
    for move in moves.only("game_id", "seq", "seat", "action"):
        moves_by_game[move.game_id].append(move)
    results = {result.game_id: result for result in SeatResult.objects.filter(user=user)}
    own_plans = {plan.seat_id: plan for plan in Plan.objects.filter(seat__user=user)}
    reviews = {
        review.game_id: review
        for review in Review.objects.filter(game_id__in=list(own_seats))
        if review.position == own_seats[review.game_id].position
    }
    return [
        _game(
            game,
            user,
            seats_by_game[game.pk],
            own_seats.get(game.pk),
            moves_by_game[game.pk],
            results.get(game.pk),
            reviews.get(game.pk),
            own_plans.get(own_seats[game.pk].pk) if game.pk in own_seats else None,
        )
        for game in games
    ]


def _game(
    game: Game,
    user: User,
    seats: list[Seat],
    own: Seat | None,
    moves: list[Move],
    result: SeatResult | None,
    review: Review | None,
    plan: Plan | None = None,
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": game.pk,
        "title": game.title,
        "status": game.status,
        "created_by": game.created_by.public_name,
        "created_by_you": game.created_by_id == user.pk,
        "settings": {
            "players": game.players,
            "side": game.side,
            "spirits": game.spirits,
            "public": game.public,
            "turn_limit_days": game.turn_limit_days,
            "clock": game.clock,
            "bank_days": game.bank_days,
            "increment_hours": game.increment_hours,
            "pause_weekends": game.pause_weekends,
            "on_timeout": game.on_timeout,
        },
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "end_reason": game.end_reason,
        "uncounted": game.uncounted,
        "rematch_of": game.rematch_of_id,
        "seats": [
            {"seat": seat.position, "name": seat.user.public_name, "you": seat.user_id == user.pk}
            for seat in sorted(seats, key=lambda s: (s.position is None, s.position or 0))
        ],
        "your_seat": _columns(own, SEAT_FIELDS) if own else None,
        "your_result": (
            _columns(result, _field_names(SeatResult, RESULT_FIELDS_LEFT_OUT)) if result else None
        ),
        "your_review": (
            {
                "status": review.status,
                "asked_at": review.created_at,
                "finished_at": review.finished_at,
                "turns": review.turns,
            }
            if review
            else None
        ),
        # Their own private plan: the notes they wrote and the tokens they pencilled.
        "your_plan": _columns(plan, PLAN_FIELDS) if plan else None,
    }
    if own is not None and game.status == Game.Status.FINISHED:
        entry["export"] = export.game_record(game, seats, moves)
    elif own is not None and moves:
        entry["moves"] = export.move_list(moves)
    return entry


def _talk(user: User) -> list[dict[str, Any]]:
    messages = Message.objects.filter(author=user).select_related("game").order_by("pk")
    return [
        {
            "game": message.game_id,
            "game_title": message.game.title,
            "at": message.created_at,
            "text": message.text,
            "deleted_at": message.deleted_at,
            "hidden_by_staff": message.hidden_by_staff,
        }
        for message in messages.only(
            "game", "game__name", "created_at", "text", "deleted_at", "hidden_by_staff"
        )
    ]


def _friends(user: User) -> list[dict[str, Any]]:
    friendships = Friendship.objects.filter(user=user).select_related("friend").order_by("pk")
    return [
        {
            "username": friendship.friend.username,
            "name": friendship.friend.public_name,
            "added_at": friendship.created_at,
            "removed_at": friendship.removed_at,
        }
        for friendship in friendships
    ]


def _blocked(user: User) -> list[dict[str, Any]]:
    """Whom the player blocked; never who blocked them (that is the other person's)."""
    rows = Block.objects.filter(blocker=user).select_related("blocked").order_by("pk")
    return [
        {"username": row.blocked.username, "name": row.blocked.public_name, "at": row.created_at}
        for row in rows
    ]


def _reports(user: User) -> list[dict[str, Any]]:
    """The reports the player filed, as they filed them (see the module's docstring)."""
    rows = Report.objects.filter(reporter=user).order_by("pk")
    return [
        {
            "kind": row.kind,
            "reason": row.reason,
            "words": row.words,
            "at": row.created_at,
            "about": row.reported_name,
            "game": row.game_id,
            "dealt_with": row.dealt_at is not None,
        }
        for row in rows
    ]


def _invitations(user: User) -> dict[str, list[Any]]:
    sent = Invitation.objects.filter(invited_by=user).select_related("game", "user")
    received = Invitation.objects.filter(user=user).select_related("game", "invited_by")
    return {
        "sent": [
            {
                **_invitation(invitation),
                # As the table names them: the address typed (masked), never the account behind
                # it, or the player's public name for an invitation by username.
                "to": masked_address(invitation.email)
                if invitation.email
                else invitation.user.public_name,
            }
            for invitation in sent.order_by("pk")
        ],
        "received": [
            {
                **_invitation(invitation),
                "from": invitation.invited_by.public_name,
                "to_your_address": _own_address(user, invitation.email),
            }
            for invitation in received.order_by("pk")
        ],
        "sent_by_address_at": list(
            AddressInvitationSent.objects.filter(invited_by=user)
            .order_by("created_at")
            .values_list("created_at", flat=True)
        ),
    }


def _invitation(invitation: Invitation) -> dict[str, Any]:
    return {
        "game": invitation.game_id,
        "game_title": invitation.game.title,
        "at": invitation.created_at,
        "declined_at": invitation.declined_at,
    }


def _own_address(user: User, typed: str) -> str | None:
    """The address an invitation received was sent to: theirs, unless they have changed it
    since (masked then, in case the old one is someone else's now); None for one by username."""
    if not typed:
        return None
    return typed if typed.lower() == user.email.lower() else masked_address(typed)


def _push_devices(user: User) -> list[dict[str, Any]]:
    devices = PushSubscription.objects.filter(user=user).prefetch_related("deliveries")
    return [
        {
            "device": device.user_agent,
            "push_service": urlsplit(device.endpoint).hostname,
            "added_at": device.created_at,
            "last_delivered_at": device.last_ok_at,
            "notifications": [
                {
                    "kind": delivery.kind,
                    "about": delivery.key,
                    "at": delivery.claimed_at,
                    "outcome": delivery.outcome,
                }
                for delivery in sorted(device.deliveries.all(), key=lambda d: d.claimed_at)
            ],
        }
        for device in devices
    ]


def _chat_channels(user: User) -> list[dict[str, Any]]:
    return [
        {
            "kind": hook.kind,
            "host": urlsplit(hook.url).hostname,
            "game": hook.game_id,  # None: every table of theirs
            "added_at": hook.created_at,
            "last_delivered_at": hook.last_ok_at,
            "last_error": hook.last_error,
            "last_error_at": hook.last_error_at,
        }
        for hook in Webhook.objects.filter(owner=user).order_by("created_at", "pk")
    ]


# --- Columns ----------------------------------------------------------------------------------


def _field_names(model: type[Model], left_out: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f.name for f in model._meta.concrete_fields if f.name not in left_out)


def _columns(row: Model, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(row, name) for name in names}
