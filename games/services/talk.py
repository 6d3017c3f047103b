"""Table talk: short plain-text messages beside a game's log.

Talk never touches the game's `version`, so a message cannot make anyone's move stale; it bumps
`talk_version` instead, which open pages poll beside the version (one row, one query, or none
while both are cached). Who may read: the game's players, and once it is over anyone logged in
(as for the score sheet). Who may write: a seated player who has not resigned or been dropped,
while the game is in progress.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from functools import cached_property

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone

from accounts.models import User
from games import shared_parts, talk_signals
from games.models import Game, Message, Seat
from games.services.core import VERSION_CACHE_SECONDS, remember_version, version_cache_key
from games.services.errors import Conflict, GameError, NotAllowed, NotFound

logger = logging.getLogger(__name__)

MAX_LENGTH = 500
# The author may take a message back while the others have probably not read it yet.
DELETE_WINDOW = timedelta(minutes=5)
SHOWN = 100  # the newest messages on the page; older ones stay in the database
# What the page draws of a message and its author (Conversation.messages, kept in the cache).
TALK_FIELDS = (
    "game", "author", "position", "text", "created_at", "deleted_at", "hidden_by_staff",
    "author__username", "author__display_name",
)  # fmt: skip
EMAILED = 10  # the newest unread ones in an email, with a count of the rest
RATE = "10/m"  # per player, all games together

NOT_PLAYING = "You are not playing in this game."
MUTE_OVER = "The game is over: its table talk can no longer be muted or shown again, only read."
GAME_OVER = (Game.Status.FINISHED, Game.Status.CANCELLED)
# Tabs and line breaks are text; every other control character (NUL, escape, ...) is refused,
# not silently stripped, and so are the bidirectional overrides that make text read backwards.
# Other format characters stay: the zero-width joiner builds emoji such as families.
_ALLOWED_CONTROLS = {"\n", "\t"}
_BIDI_CONTROLS = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
# What reads as an HTML tag: "<b>", "</a>", "<img src=x>", "<!-- -->"; "a < b" and "<3" pass.
_TAG = re.compile(r"<\s*/?\s*[a-zA-Z!][^<>]*>")


class TalkRefused(GameError):
    """A message that cannot be posted as written (400): nothing is stored."""


def clean_text(raw: object) -> str:
    """The message as it will be stored, or TalkRefused with the reason in words."""
    if not isinstance(raw, str):
        raise TalkRefused("Write a message before sending.")
    text = raw.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise TalkRefused("Write a message before sending: this one is empty.")
    if len(text) > MAX_LENGTH:
        raise TalkRefused(
            f"A message can be at most {MAX_LENGTH} characters; this one has {len(text):,}."
        )
    if any(
        (unicodedata.category(c) in ("Cc", "Cs") and c not in _ALLOWED_CONTROLS)
        or c in _BIDI_CONTROLS
        for c in text
    ):
        raise TalkRefused(
            "A message cannot contain control characters (such as NUL bytes): "
            "write plain text only."
        )
    if _TAG.search(text):
        raise TalkRefused("Messages are plain text: write them without HTML tags.")
    return text


def may_read(game: Game, user: User, seat: Seat | None) -> bool:
    """The players always; anyone logged in once the game is over (nothing is secret then)."""
    return seat is not None or (user.is_authenticated and game.status == Game.Status.FINISHED)


def may_post(game: Game, seat: Seat | None) -> bool:
    return seat is not None and game.status == Game.Status.ACTIVE and not seat.left


def post(*, game_id: int, user: User, text: object) -> Message:
    """Stores a message and tells open pages (after commit) that the talk changed."""
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            seat = game.seats.filter(user_id=user.pk).first() if user.is_authenticated else None
            _check_may_post(game, seat)
            message = Message.objects.create(
                game=game, author=user, position=seat.position, text=clean_text(text)
            )
            _bump(game)
            # One's own message is seen: it never counts as unread, nor does what came before.
            Seat.objects.filter(pk=seat.pk).update(talk_seen=message.pk)
            transaction.on_commit(
                lambda: talk_signals.message_posted.send(sender=Message, message=message)
            )
    except (Game.DoesNotExist, ValueError, TypeError):
        raise NotFound("There is no such game.") from None
    return message


def delete(*, game_id: int, message_id: int, user: User, now=None) -> Message:
    """The author takes a message back, within DELETE_WINDOW of posting it."""
    now = now or timezone.now()
    with transaction.atomic():
        message = (
            Message.objects.select_for_update()
            .filter(pk=message_id, game_id=game_id, deleted_at__isnull=True)
            .select_related("game")
            .first()
        )
        if message is None or message.hidden_by_staff:
            raise NotFound("There is no such message, or it was already deleted.")
        if message.author_id != user.pk:
            raise NotAllowed("Only its author can delete a message.")
        if now - message.created_at > DELETE_WINDOW:
            minutes = int(DELETE_WINDOW.total_seconds() // 60)
            raise Conflict(f"A message can be deleted only in the {minutes} minutes after posting.")
        message.deleted_at = now
        message.save(update_fields=["deleted_at"])
        _bump(Game.objects.select_for_update().get(pk=game_id))
    return message


def hide(messages) -> int:
    """Staff hide messages (the admin's action); each game's open pages redraw the talk."""
    with transaction.atomic():
        game_ids = set(messages.values_list("game_id", flat=True))
        hidden = messages.update(hidden_by_staff=True)
        for game in Game.objects.select_for_update().filter(pk__in=game_ids):
            _bump(game)
    return hidden


def may_mute(game: Game, seat: Seat | None) -> bool:
    """Muting is for a game still going on: once it is over no unread marks or emails come of its
    talk, so there is nothing to mute, and its players read it like anyone else."""
    return seat is not None and game.status not in GAME_OVER


def set_muted(*, game_id: int, user: User, muted: bool) -> None:
    """A player's choice for one game: no unread marks and no messages in emails when muted.
    Refused in words once the game is over (nothing left to mute)."""
    seat = Seat.objects.filter(game_id=game_id, user_id=user.pk).select_related("game").first()
    if seat is None:
        if not Game.objects.filter(pk=game_id).exists():
            raise NotFound("There is no such game.")
        raise NotAllowed(NOT_PLAYING)
    if not may_mute(seat.game, seat):
        raise Conflict(MUTE_OVER)
    Seat.objects.filter(pk=seat.pk).exclude(talk_muted=muted).update(talk_muted=muted)


def _check_may_post(game: Game, seat: Seat | None) -> None:
    if seat is None:
        raise NotAllowed(NOT_PLAYING)
    if game.status == Game.Status.FINISHED:
        raise Conflict("The game is over: its table talk can be read but no longer written.")
    if game.status != Game.Status.ACTIVE:
        raise Conflict("The table talk opens when the game starts.")
    if seat.left:
        raise NotAllowed("You left this game: you can read its table talk but not write in it.")


def _bump(game: Game) -> None:
    game.talk_version += 1
    game.save(update_fields=["talk_version"])
    game_id, talk_version = game.pk, game.talk_version
    transaction.on_commit(lambda: remember_talk_version(game_id, talk_version))


# --- What the page shows ---------------------------------------------------------------------


def visible_messages():
    """Neither deleted by their author nor hidden by staff."""
    return Message.objects.filter(deleted_at__isnull=True, hidden_by_staff=False)


def visible(game_id: int):
    return visible_messages().filter(game_id=game_id)


@dataclass
class Conversation:
    """The talk as one viewer sees it, read from the database only if a template asks."""

    game: Game
    seat: Seat | None
    viewer_id: int | None = None

    @cached_property
    def messages(self) -> list[Message]:
        if self.muted or self.game.talk_version == 0:
            return []  # every message written raises the talk version: none were

        def read() -> list[Message]:
            # Kept in the shared cache: of the authors, only what the page shows (no password
            # hash or email address travels to Redis).
            newest = (
                visible(self.game.pk)
                .select_related("author")
                .only(*TALK_FIELDS)
                .order_by("-pk")[:SHOWN]
            )
            return list(reversed(newest))

        messages = shared_parts.talk_messages(self.game, SHOWN, read)
        seen, now = self.seen_before, timezone.now()
        for message in messages:
            # Only a player has a "last looked": a spectator's view marks nothing new.
            message.is_new = (
                self.seat is not None and message.pk > seen and message.author_id != self.viewer_id
            )
            message.is_mine = message.author_id == self.viewer_id
            message.deletable = (
                message.is_mine and self.can_post and now - message.created_at <= DELETE_WINDOW
            )
        return messages

    @cached_property
    def seen_before(self) -> int:
        return self.seat.talk_seen if self.seat is not None else 0

    @property
    def unread(self) -> int:
        return sum(1 for m in self.messages if m.is_new)

    @property
    def can_post(self) -> bool:
        return may_post(self.game, self.seat)

    @property
    def why_not(self) -> str:
        """Why the viewer cannot write here, in words ("" when they can)."""
        if self.can_post:
            return ""
        if self.seat is None:
            return "Only the game's players write here."
        try:
            _check_may_post(self.game, self.seat)
        except GameError as exc:
            return exc.message
        return ""

    @property
    def muted(self) -> bool:
        """Muted by the viewer while the game goes on; once it is over, shown to all who read."""
        return self.can_mute and self.seat.talk_muted

    @property
    def can_mute(self) -> bool:
        return may_mute(self.game, self.seat)

    @property
    def max_length(self) -> int:
        return MAX_LENGTH

    def mark_read(self) -> None:
        """The viewer has had the messages shown in front of them: write only if it changes,
        and only if they were drawn (a fragment without the talk reads nothing)."""
        if self.seat is None or "messages" not in self.__dict__ or not self.messages:
            return
        newest = self.messages[-1].pk
        if newest > self.seat.talk_seen:
            Seat.objects.filter(pk=self.seat.pk, talk_seen__lt=newest).update(talk_seen=newest)
            self.seat.talk_seen = newest


def unread_for(seat: Seat) -> tuple[list[Message], int]:
    """The messages an email to this player carries: newer than what they saw, not their own,
    none if they muted the game. The newest EMAILED, oldest first, and how many more there are."""
    if seat.talk_muted:
        return [], 0
    unread = (
        visible(seat.game_id)
        .filter(pk__gt=seat.talk_seen)
        .exclude(author_id=seat.user_id)
        .select_related("author")
        .order_by("-pk")
    )
    newest = list(unread[: EMAILED + 1])
    more = 0
    if len(newest) > EMAILED:
        more = unread.count() - EMAILED
        newest = newest[:EMAILED]
    return list(reversed(newest)), more


def unread_counts(user: User) -> dict[int, int]:
    """Unread messages per game in progress for My games, in one query (muted games: none)."""
    rows = (
        visible_messages()
        .filter(
            # One filter() call: the seat joined is the same one for all three conditions.
            game__status=Game.Status.ACTIVE,
            game__seats__user=user,
            game__seats__talk_muted=False,
            pk__gt=F("game__seats__talk_seen"),
        )
        .exclude(author=user)
        .values("game_id")
        .annotate(unread=Count("pk"))
    )
    return {row["game_id"]: row["unread"] for row in rows}


# --- What the poll compares ------------------------------------------------------------------


def talk_cache_key(game_id: int) -> str:
    return f"game-talk:{game_id}"


def remember_talk_version(game_id: int, talk_version: int) -> None:
    try:
        cache.set(talk_cache_key(game_id), talk_version, timeout=VERSION_CACHE_SECONDS)
    except Exception:
        logger.warning("cache unavailable publishing the talk of game %s", game_id)


def poll_versions(game_id: int) -> tuple[int, int] | None:
    """(version, talk_version) of the game: from the cache in one round trip, else one query
    (then cached). None when there is no such game."""
    version_key, talk_key = version_cache_key(game_id), talk_cache_key(game_id)
    try:
        cached = cache.get_many([version_key, talk_key])
    except Exception:  # the cache is an optimisation: Redis down must not stop the poll
        logger.warning("cache unavailable reading the versions of game %s", game_id)
        cached = {}
    if version_key in cached and talk_key in cached:
        return cached[version_key], cached[talk_key]
    row = Game.objects.filter(pk=game_id).values_list("version", "talk_version").first()
    if row is None:
        return None
    remember_version(game_id, row[0])
    remember_talk_version(game_id, row[1])
    return row
