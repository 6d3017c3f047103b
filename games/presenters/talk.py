"""The table talk as one viewer sees it: the messages, which are new, what they may do."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, Message, Seat
from games.presenters import shared_parts
from games.talk import (
    DELETE_WINDOW,
    MAX_LENGTH,
    SHOWN,
    TALK_FIELDS,
    may_mute,
    may_post,
    readers_words,
    refusal_to_post,
    shown_to,
    visible,
)


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

        # Kept alike for every viewer; then less the authors this viewer blocked (kept in the
        # cache too, asked only when someone else wrote), so the "new" marks skip them too.
        messages = shared_parts.talk_messages(self.game, SHOWN, read)
        if any(m.author_id != self.viewer_id for m in messages):
            messages = shown_to(messages, self.viewer_id)
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
            return _("Only the game's players write here.")
        return refusal_to_post(self.game, self.seat) or ""

    @property
    def readers(self) -> str:
        """Who else reads this talk, for its players ("" for anyone else)."""
        return readers_words(self.game) if self.seat is not None else ""

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
