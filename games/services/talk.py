"""Table talk, the writes: post, delete (by the author), hide (by staff), mute.

What may be read and written is games.talk; each write locks the game row and raises its
`talk_version` (never its `version`, so a message cannot make anyone's move stale).
"""

from __future__ import annotations

import re
import unicodedata

from django.db import transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games import signals as talk_signals
from games.models import Game, Message, Seat
from games.models.versions import remember_talk_version
from games.services.errors import Conflict, GameError, NotAllowed, NotFound
from games.talk import (
    DELETE_WINDOW,
    MAX_LENGTH,
    MUTE_OVER,
    NOT_PLAYING,
    RATE,
    may_mute,
    refusal_to_post,
)

__all__ = [
    "MAX_LENGTH", "RATE", "TalkRefused", "channel_changed", "clean_text", "delete", "hide", "post",
    "set_muted",
]  # fmt: skip

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
        raise TalkRefused(_("Write a message before sending."))
    text = raw.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise TalkRefused(_("Write a message before sending: this one is empty."))
    if len(text) > MAX_LENGTH:
        raise TalkRefused(
            _("A message can be at most %(limit)s characters; this one has %(length)s.")
            % {
                "limit": MAX_LENGTH,
                "length": number_format(len(text), force_grouping=True),
            }
        )
    if any(
        (unicodedata.category(c) in ("Cc", "Cs") and c not in _ALLOWED_CONTROLS)
        or c in _BIDI_CONTROLS
        for c in text
    ):
        raise TalkRefused(
            _(
                "A message cannot contain control characters (such as NUL bytes): "
                "write plain text only."
            )
        )
    if _TAG.search(text):
        raise TalkRefused(_("Messages are plain text: write them without HTML tags."))
    return text


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
            _bump_talk(game)
            # One's own message is seen: it never counts as unread, nor does what came before.
            Seat.objects.filter(pk=seat.pk).update(talk_seen=message.pk)
            transaction.on_commit(
                lambda: talk_signals.message_posted.send(sender=Message, message=message)
            )
    except (Game.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("There is no such game.")) from None
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
            raise NotFound(_("There is no such message, or it was already deleted."))
        if message.author_id != user.pk:
            raise NotAllowed(_("Only its author can delete a message."))
        if now - message.created_at > DELETE_WINDOW:
            minutes = int(DELETE_WINDOW.total_seconds() // 60)
            raise Conflict(
                ngettext(
                    "A message can be deleted only in the %(minutes)s minute after posting.",
                    "A message can be deleted only in the %(minutes)s minutes after posting.",
                    minutes,
                )
                % {"minutes": minutes}
            )
        message.deleted_at = now
        message.save(update_fields=["deleted_at"])
        _bump_talk(Game.objects.select_for_update().get(pk=game_id))
    return message


def channel_changed(game_id: int) -> None:
    """Where the table's words go changed (webhooks sets or removes the table's chat channel):
    every open page redraws its talk, and with it what the page says of the channel, so that no
    word leaves the table unannounced. Inside the caller's transaction."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is not None:
        _bump_talk(game)


def hide(messages) -> int:
    """Staff hide messages (the admin's action); each game's open pages redraw the talk."""
    with transaction.atomic():
        game_ids = set(messages.values_list("game_id", flat=True))
        hidden = messages.update(hidden_by_staff=True)
        for game in Game.objects.select_for_update().filter(pk__in=game_ids):
            _bump_talk(game)
    return hidden


def set_muted(*, game_id: int, user: User, muted: bool) -> None:
    """A player's choice for one game: no unread marks and no messages in emails when muted.
    Refused in words once the game is over (nothing left to mute)."""
    seat = Seat.objects.filter(game_id=game_id, user_id=user.pk).select_related("game").first()
    if seat is None:
        if not Game.objects.filter(pk=game_id).exists():
            raise NotFound(_("There is no such game."))
        raise NotAllowed(NOT_PLAYING)
    if not may_mute(seat.game, seat):
        raise Conflict(MUTE_OVER)
    Seat.objects.filter(pk=seat.pk).exclude(talk_muted=muted).update(talk_muted=muted)


def _check_may_post(game: Game, seat: Seat | None) -> None:
    refusal = refusal_to_post(game, seat)
    if refusal is None:
        return
    # Not a player, or one who left: not allowed; a game not (or no longer) in progress: conflict.
    raise (NotAllowed if seat is None or seat.left else Conflict)(refusal)


def _bump_talk(game: Game) -> None:
    game.talk_version += 1
    game.save(update_fields=["talk_version"])
    game_id, talk_version = game.pk, game.talk_version
    transaction.on_commit(lambda: remember_talk_version(game_id, talk_version))
