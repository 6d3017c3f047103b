"""Who gets which push about their games, once per device.

A push is its own channel beside the email: its own claim (a PushDelivery row per device,
inserted before sending), its own on/off (having a subscription), sent whatever the email
preferences say. No push to a player looking at the game, nor to one away; during their quiet
hours it arrives silently. A device whose push service failed gets its claim back, and the task
raises PushFailed so that its retry sends to that device only.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.blocks import blockers_among
from accounts.models import User
from games import presence
from games.mail.since import headline, turns_since_last
from games.models import Game, Seat
from push.models import PushDelivery, PushSubscription
from push.sender import PushFailed, deliver

Kind = PushDelivery.Kind
# A claim unfinished this long belonged to a worker that died mid-send: it may be taken again.
STALE_CLAIM = timedelta(minutes=5)
# Claims are kept while a task or a sweep could still run again for them.
KEEP_CLAIMS = timedelta(days=2)
# How long the push service keeps a push for a device that is offline.
TTL = {Kind.TURN: 12 * 3600, Kind.GAME_OVER: 24 * 3600, Kind.MESSAGE: 3600}
MESSAGE_CHARS = 140


def _claim(subscription: PushSubscription, kind: str, key: str, now: datetime) -> bool:
    try:
        with transaction.atomic():
            PushDelivery.objects.create(
                subscription=subscription, kind=kind, key=key, claimed_at=now
            )
        return True
    except IntegrityError:
        return bool(
            PushDelivery.objects.filter(
                subscription=subscription,
                kind=kind,
                key=key,
                done_at__isnull=True,
                claimed_at__lt=now - STALE_CLAIM,
            ).update(claimed_at=now)
        )


def push_to(user: User, kind: str, key: str, payload: dict, skip: str = "") -> int:
    """Send `payload` to each of the user's devices not yet claimed for (kind, key); with a
    `skip` reason, claim them as done without sending. Returns how many devices took it."""
    now = timezone.now()
    sent, failed = 0, None
    for subscription in list(user.push_subscriptions.all()):
        if not _claim(subscription, kind, key, now):
            continue  # sent already, or being sent by another run
        ours = PushDelivery.objects.filter(
            subscription=subscription, kind=kind, key=key, claimed_at=now, done_at__isnull=True
        )
        if skip:
            ours.update(done_at=now, outcome=skip)
            continue
        try:
            outcome = deliver(subscription, payload, TTL[kind])
        except PushFailed as exc:
            ours.delete()  # given back: the retry sends to this device
            failed = exc
            continue
        except Exception:
            ours.delete()
            raise
        ours.update(done_at=timezone.now(), outcome=outcome)  # "gone": the row went with it
        sent += outcome == "sent"
    if failed is not None:
        raise failed
    return sent


def _reason_not_to_push(user: User, game_id: int, now: datetime) -> str:
    if user.is_away_at(now):
        return "away"
    if presence.is_looking(game_id, user.pk):
        return "watching"
    return ""


def _payload(user: User, game: Game, title: str, body: str, now: datetime, tag: str) -> dict:
    return {
        "title": title,
        "body": body,
        "url": game.get_absolute_url(),
        "tag": tag,
        "silent": user.is_quiet_at(now),
    }


# --- Your turn ------------------------------------------------------------------------------------


def send_turn(game_id: int, turn: int) -> int:
    """The "your turn" push for the engine's turn `turn` to the player to move."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is None or game.solo or game.engine_state().turn != turn:
        return 0  # over, solo, or already played: the push would be stale
    seats = list(game.seats.select_related("user"))
    seat = next(s for s in seats if s.position == game.current_seat)
    user = seat.user
    if seat.left or not user.reachable:
        return 0
    if not user.push_subscriptions.exists():
        return 0
    now = timezone.now()
    skip = _reason_not_to_push(user, game.pk, now)
    if not skip and turn == 0 and _taken_to_the_page(game, seats, seat, now):
        skip = "watching"
    payload = _payload(
        user, game, f"Your turn in {game.title}", _turn_words(game, seats, seat, turn), now,
        tag=f"game-{game.pk}",
    )  # fmt: skip
    return push_to(user, Kind.TURN, f"{game.pk}:{turn}", payload, skip)


def _taken_to_the_page(game: Game, seats: list[Seat], seat: Seat, now: datetime) -> bool:
    """The player whose join started the game is on its page before it has polled once."""
    people = [s for s in seats if not s.user.is_bot]
    starter = max(people, key=lambda s: (s.joined_at, s.pk))
    return (
        starter.pk == seat.pk
        and game.started_at is not None
        and now < game.started_at + timedelta(seconds=presence.PRESENT_SECONDS)
    )


def _turn_words(game: Game, seats: list[Seat], seat: Seat, turn: int) -> str:
    """What happened since the player's own last turn, in the words of the turn email's subject
    (games.mail.since): each other player's turn, a stand-in's, a timeout."""
    told = turns_since_last(game, seats, seat, turn)
    if not told:
        return "The game has started: you play first."
    return headline(told) + "."


# --- Game over ------------------------------------------------------------------------------------


def send_game_over(game_id: int) -> int:
    """The final place and score to every player of a finalized game, once per device (none
    for a guided first game, which ends on its own page)."""
    game = Game.objects.finalized().filter(pk=game_id, guided=False).first()
    if game is None:
        return 0
    now, sent, failed = timezone.now(), 0, None
    with_devices = game.seats.filter(user__push_subscriptions__isnull=False).distinct()
    for seat in with_devices.select_related("user").order_by("position"):
        user = seat.user
        if not user.reachable:
            continue
        payload = _payload(
            user, game, f"Game over: {game.title}", _result_words(game, seat), now,
            tag=f"game-{game.pk}",
        )  # fmt: skip
        try:
            skip = _reason_not_to_push(user, game.pk, now)
            sent += push_to(user, Kind.GAME_OVER, str(game.pk), payload, skip)
        except PushFailed as exc:
            failed = exc  # the others are sent; the retry finds their claims
    if failed is not None:
        raise failed
    return sent


def _result_words(game: Game, seat: Seat) -> str:
    points = f"{seat.final_score} point{'' if seat.final_score == 1 else 's'}"
    if game.end_reason == Game.EndReason.ABANDONED:
        return "The game was abandoned: it counts for nothing."
    if game.solo:
        return f"Your solo game is over: {points}."
    n = seat.rank or 0
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"You placed {n}{suffix} with {points}."


# --- Table talk -----------------------------------------------------------------------------------


def send_message(game_id: int, message_id: int, author_id: int, text: str) -> int:
    """A new message at the table to every other seated person, once per message and device;
    never to one who has blocked the author (they do not see the message at all)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    seats = list(game.seats.select_related("user"))
    author = next((s.user for s in seats if s.user_id == author_id), None)
    if author is None:
        return 0  # only seated players talk at the table
    words = " ".join(text.split())
    if len(words) > MESSAGE_CHARS:
        words = words[: MESSAGE_CHARS - 1].rstrip() + "…"
    now, sent, failed = timezone.now(), 0, None
    blocking = blockers_among(author, [seat.user for seat in seats])
    for seat in seats:
        user = seat.user
        if user.pk == author_id or not user.reachable or seat.talk_muted:
            continue
        if user.pk in blocking:
            continue
        payload = _payload(
            user, game, f"{author.public_name} in {game.title}", words, now,
            tag=f"game-{game.pk}-talk",
        )  # fmt: skip
        try:
            skip = _reason_not_to_push(user, game.pk, now)
            sent += push_to(user, Kind.MESSAGE, str(message_id), payload, skip)
        except PushFailed as exc:
            failed = exc
    if failed is not None:
        raise failed
    return sent


def prune(now: datetime) -> int:
    """Forget finished claims old enough that no task or sweep will ask about them again."""
    deleted, _ = PushDelivery.objects.filter(claimed_at__lt=now - KEEP_CLAIMS).delete()
    return deleted
