"""A game and its seats: the table, its settings, its stored engine state and who sits where."""

from __future__ import annotations

import re
import secrets
from datetime import datetime
from functools import lru_cache

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games import engine


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def english_names(names: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cat": how a game is named after its players, as the
    name is stored (in English; `Game.title` shows it in the reader's language)."""
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def names_in_words(names: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cat", in the reader's language."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


# Names the site makes up, stored in English and shown translated by `Game.title`.
GUIDED_NAME = "Guided first game"
WEEKLY_NAME = "Deal of the week of {week.day} {week:%B %Y}"
_WEEKLY_PREFIX = "Deal of the week of "


def long_date(day) -> str:
    """ "7 December 2026", in the reader's language."""
    return date_format(day, pgettext("long date format", "j F Y"))


@lru_cache(maxsize=512)
def _parse_state(text: str) -> engine.GameState:
    """A stored state parsed, kept per process by its text: the same text is the same state, and
    states never change once made, so every request for an unchanged game shares one (parsing a
    4-player state takes about 0.2 ms; 512 of them, about 21 KB each with their text, are 11 MB)."""
    return engine.state_from_json(text)


class Card(models.Model):
    """The card catalogue, loaded from the engine's card data (a test keeps them in agreement)."""

    ANIMAL, SPIRIT = "animal", "spirit"
    id = models.CharField(primary_key=True, max_length=32)
    kind = models.CharField(
        max_length=8,
        choices=[(ANIMAL, gettext_lazy("Animal")), (SPIRIT, gettext_lazy("Nature's Spirit"))],
    )
    number = models.PositiveSmallIntegerField(unique=True)
    name = models.CharField(max_length=40)
    stripe = models.CharField(max_length=8)
    cube_count = models.PositiveSmallIntegerField()
    points = models.JSONField(help_text="Points printed on the card, top to bottom.")

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return self.name


class GameQuerySet(models.QuerySet):
    def finalized(self) -> GameQuerySet:
        """Finished games whose ranks `finalize` has stored: what results and final news read."""
        return self.filter(status=Game.Status.FINISHED, finalized_at__isnull=False)


class Game(models.Model):
    # The game's large texts, which no list of games reads: lists defer them.
    PLAY_FIELDS = ("state", "recent_moves")

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Waiting for players")
        ACTIVE = "active", gettext_lazy("In progress")
        FINISHED = "finished", gettext_lazy("Finished")
        CANCELLED = "cancelled", gettext_lazy("Cancelled")

    class Side(models.TextChoices):
        A = "A", gettext_lazy("Side A (river)")
        B = "B", gettext_lazy("Side B (islands)")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    # Shown in lists, page titles and email subjects; filled from the players when the game starts
    # if the creator left it blank (see `title` for the table before that).
    name = models.CharField(max_length=80, blank=True, default="")
    players = models.PositiveSmallIntegerField()
    side = models.CharField(max_length=1, choices=Side.choices, default=Side.A)
    spirits = models.BooleanField(default=False)
    public = models.BooleanField(
        default=False, help_text=gettext_lazy("Listed in the lobby for anyone to join.")
    )
    # Watching a game in progress (games.services.watching): the secret of its read-only link,
    # made when a player first shares one and dropped when a player revokes it; and whether
    # anyone at all may watch, without a link.
    watch_token = models.CharField(max_length=32, unique=True, null=True, blank=True)
    open_to_watchers = models.BooleanField(default=False)
    # Which seats have a private plan (games.models.plans), one bit per position: the game page
    # reads this row anyway, so a player without a plan costs it no query for one.
    planned_seats = models.PositiveSmallIntegerField(default=0)
    turn_limit_days = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        choices=[
            (1, gettext_lazy("1 day")),
            (3, gettext_lazy("3 days")),
            (7, gettext_lazy("7 days")),
            (14, gettext_lazy("14 days")),
        ],
    )

    class OnTimeout(models.TextChoices):
        STAND_IN = "stand_in", gettext_lazy("A stand-in plays that turn")
        DROP = "drop", gettext_lazy("The late player is dropped and placed last")

    # What the timeout sweep does when a turn's limit passes (chosen by the creator).
    on_timeout = models.CharField(
        max_length=8, choices=OnTimeout.choices, default=OnTimeout.STAND_IN
    )

    class Clock(models.TextChoices):
        PER_TURN = "turn", gettext_lazy("A limit per turn")
        BANK = "bank", gettext_lazy("A time bank")

    # The clock (games/clocks.py): a limit per turn (`turn_limit_days`, none for an untimed game)
    # or a time bank of `bank_days` per seat gaining `increment_hours` a move; either may skip
    # weekends in the mover's time zone. Checked by games.clocks.check_clock at creation.
    clock = models.CharField(max_length=4, choices=Clock.choices, default=Clock.PER_TURN)
    bank_days = models.PositiveSmallIntegerField(null=True, blank=True)
    increment_hours = models.PositiveSmallIntegerField(default=0)
    pause_weekends = models.BooleanField(default=False)
    # Turns still to play, estimated by games.clocks.turns_left whenever the state is saved:
    # My games forecasts each game's end from it without reading the state.
    turns_left = models.PositiveSmallIntegerField(null=True, blank=True)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # Secret until the game is over: with the seed and the moves anyone could know the pouch.
    seed = models.BigIntegerField(null=True, blank=True)
    state = models.TextField(blank=True, help_text="Engine state, canonical JSON.")
    version = models.PositiveIntegerField(default=0, help_text="Bumped on every change.")
    # Bumped when the table talk changes (a message posted, deleted or hidden): open pages poll
    # it beside `version`, so a message never makes a move's page stale.
    talk_version = models.PositiveIntegerField(default=0)
    # Moves logged so far: the next one is number move_count + 1, known without counting the
    # log while the row is locked.
    move_count = models.PositiveIntegerField(default=0)
    # The newest moves of the log, kept by the writer with every move
    # (games/models/recent_moves.py).
    recent_moves = models.TextField(blank=True, default="")
    current_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # Set with turn_started_at when the game has a turn time limit.
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)

    class EndReason(models.TextChoices):
        NATURAL = "", gettext_lazy("Played to the end")
        RESIGNED = "resigned", gettext_lazy("A player resigned")
        TIMED_OUT = "timed_out", gettext_lazy("A player ran out of time and was dropped")
        ENDED = "ended", gettext_lazy("Ended after a turn ran out of time")
        ABANDONED = "abandoned", gettext_lazy("Abandoned")

    # Stored by the writer in the transaction that finishes the game, with every seat's rank.
    end_reason = models.CharField(max_length=10, blank=True, default="", choices=EndReason.choices)
    # Whose leaving ended the game (the resigner, the dropped or timed-out player), and on which
    # turn: the words "Bob resigned in round 4" come from these.
    ended_by = models.ForeignKey(
        "Seat", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    ended_on_turn = models.PositiveIntegerField(null=True, blank=True)

    class Uncounted(models.TextChoices):
        COUNTS = "", gettext_lazy("Counts")
        ABANDONED = "abandoned", gettext_lazy("Abandoned before everyone played 3 turns")
        SOLO_RESIGNED = "solo_resigned", gettext_lazy("A resigned solo game")
        UNCONFIRMED = "unconfirmed", gettext_lazy("An email address at the table was not confirmed")
        SAME_ADDRESS = (
            "same_address",
            gettext_lazy("Two players at the table shared an email address"),
        )
        HINTED = "hinted", gettext_lazy("A hint from the hard bot was taken")
        FEW_TURNS = "few_turns", gettext_lazy("A player played fewer than 3 turns of their own")
        GUIDED = "guided", gettext_lazy("A guided first game")

    # Why the game counts for no wins, ratings or records ("" when it counts), decided by
    # games.results and stored: the players' addresses when it starts (UNCONFIRMED, SAME_ADDRESS),
    # a hint taken during play (HINTED), the rest when it ends. A reason stored before the end
    # stays: every page and email reads this one.
    uncounted = models.CharField(max_length=13, blank=True, default="", choices=Uncounted.choices)
    # The guided first game (games.services.guide): a fixed solo deal played with the guide
    # beside the board. It counts for nothing (uncounted GUIDED), is never recorded, emailed or
    # listed anywhere but its player's My games.
    guided = models.BooleanField(default=False)

    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Set by the finalize task once final scores and ranks are stored; claimed with an UPDATE.
    finalized_at = models.DateTimeField(null=True, blank=True)
    # Claimed before the creator is told that every seat is taken and the game has started.
    start_emailed_at = models.DateTimeField(null=True, blank=True)
    # "Play again": the finished game this table replays. One rematch per game, whoever clicks.
    rematch_of = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch"
    )
    # The deal of the week this solo game plays (games.models.weekly), seeded by it. One game
    # per player and deal: the unique constraint below, whose index (deal first) is also how the
    # week's board reads one deal's games, so the key needs no index of its own.
    weekly_deal = models.ForeignKey(
        "WeeklyDeal",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games",
        db_index=False,
    )
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["status", "public", "-created_at"]),
            # The sweeps look at recent endings only: these keep them off the site's history.
            models.Index(fields=["finalized_at"], name="game_finalized_at"),
            models.Index(
                fields=["finished_at"],
                condition=models.Q(status="finished", finalized_at__isnull=True),
                name="game_awaiting_finalize",
            ),
        ]
        constraints = [
            # A solo game has its creator as its one seat: one game per player and weekly deal.
            models.UniqueConstraint(
                fields=["weekly_deal", "created_by"], name="game_one_per_weekly_deal"
            ),
            # A guided first game plays its own fixed deal: never a deal of the week.
            models.CheckConstraint(
                condition=models.Q(weekly_deal__isnull=True) | models.Q(guided=False),
                name="game_weekly_never_guided",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:detail", args=[self.pk])

    @property
    def title(self) -> str:
        """The game's name, or "Game 12" for a table not yet named; a name the site made up
        (stored in English) in the reader's language."""
        if not self.name:
            return _("Game %(number)s") % {"number": self.pk}
        if translation.get_language() in (None, settings.LANGUAGE_CODE, "en"):
            return self.name
        return self._made_up_name() or self.name

    def _made_up_name(self) -> str | None:
        """A name the site gave the game, in the reader's language; None for the creator's."""
        if self.guided and self.name == GUIDED_NAME:
            return _("Guided first game")
        if self.weekly_deal_id and self.name.startswith(_WEEKLY_PREFIX):
            try:
                week = datetime.strptime(self.name.removeprefix(_WEEKLY_PREFIX), "%d %B %Y")
            except ValueError:
                return None
            return _("Deal of the week of %(week)s") % {"week": long_date(week.date())}
        if " and " not in self.name or self.status == self.Status.OPEN:
            return None
        prefetched = getattr(self, "_prefetched_objects_cache", {}).get("seats")
        seats = list(prefetched) if prefetched is not None else None
        if seats is None:
            seats = list(self.seats.select_related("user"))
        known = {seat.user.public_name for seat in seats}
        parts = re.split(r", | and ", self.name)
        if len(parts) != len(seats) or not all(part in known for part in parts):
            return None
        return names_in_words(parts)[:80]

    @property
    def config(self) -> engine.GameConfig:
        return engine.GameConfig(players=self.players, side=self.side, spirits=self.spirits)

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def engine_state(self) -> engine.GameState:
        """The stored state, parsed once per loaded text (a page asks for it several times)."""
        cached = self.__dict__.get("_parsed_state")
        if cached is not None and cached[0] is self.state:
            return cached[1]
        state = _parse_state(self.state)
        self.__dict__["_parsed_state"] = (self.state, state)
        return state

    def score_sheets(self) -> tuple[engine.ScoreSheet, ...]:
        """Every player's sheet for the stored state, computed once per parsed state: the page,
        its recap and the boards it marks seen all ask."""
        state = self.engine_state()
        cached = self.__dict__.get("_score_sheets")
        if cached is not None and cached[0] is state:
            return cached[1]
        sheets = engine.score_sheets(state)
        self.__dict__["_score_sheets"] = (state, sheets)
        return sheets

    def set_engine_state(self, state: engine.GameState) -> None:
        """Store a new state (saved by the caller). The page drawn after a move reads the state
        it was given back, instead of parsing the text just written."""
        self.state = engine.state_to_json(state)
        self.__dict__["_parsed_state"] = (self.state, state)

    @property
    def description(self) -> str:
        words = {"players": self.players, "side": self.side}
        if self.solo and self.spirits:
            return _("Solo, side %(side)s, Nature's Spirits") % words
        if self.solo:
            return _("Solo, side %(side)s") % words
        if self.spirits:
            return (
                ngettext(
                    "%(players)s player, side %(side)s, Nature's Spirits",
                    "%(players)s players, side %(side)s, Nature's Spirits",
                    self.players,
                )
                % words
            )
        return (
            ngettext(
                "%(players)s player, side %(side)s",
                "%(players)s players, side %(side)s",
                self.players,
            )
            % words
        )


class Seat(models.Model):
    """A player's place at the table; `position` is the engine's seat index once the game starts."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(default=timezone.now)
    final_score = models.PositiveIntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    resigned_at = models.DateTimeField(null=True, blank=True)
    # Dropped when a turn's time limit passed in a game whose creator chose "drop".
    dropped_at = models.DateTimeField(null=True, blank=True)
    # The first time a stand-in played this seat's turn because its time ran out.
    timed_out_at = models.DateTimeField(null=True, blank=True)
    # Turns whose time limit passed before the player played (reliability on profiles).
    turns_missed = models.PositiveIntegerField(default=0)
    # Turns the player played themselves, counted when the game ends (the 3-turn rule).
    own_turns = models.PositiveIntegerField(null=True, blank=True)
    # The timeout email of this turn was claimed for this player (sent once).
    timeout_notified_turn = models.IntegerField(null=True, blank=True)
    # Notification bookkeeping: the reminder sweep sends when remind_at has passed; the turn email
    # claims a turn by raising notified_turn with a conditional UPDATE, so it is sent once.
    remind_at = models.DateTimeField(null=True, blank=True, db_index=True)
    notified_turn = models.IntegerField(null=True, blank=True)
    # Set while the turn email of notified_turn is being sent; cleared once it is done.
    turn_email_claimed_at = models.DateTimeField(null=True, blank=True)
    # Claimed (set) before the game-over email is sent, so each player gets it once.
    game_over_notified_at = models.DateTimeField(null=True, blank=True)
    # The game's move_count when this player last had the game page in front of them: what came
    # after is shown as "since your last visit", whatever the device or the link they come from.
    seen_move = models.PositiveIntegerField(default=0)
    # The other players' boards as this player saw them then (games/presenters/recap.py): JSON
    # text, read only by this player's next look, so the game page's seats query parses none of it.
    seen_boards = models.TextField(blank=True, default="")
    # Claimed before the "table cancelled" email is sent to this player.
    cancel_emailed_at = models.DateTimeField(null=True, blank=True)
    # Of a finished game: claimed before this player is emailed an invitation to its rematch, so
    # that offering it again and again (after each cancel) emails them once per game.
    rematch_emailed_at = models.DateTimeField(null=True, blank=True)
    # Table talk: the newest message id this player has had in front of them (what is newer is
    # unread, and goes in their emails), and whether they muted the game's messages.
    talk_seen = models.PositiveIntegerField(default=0)
    talk_muted = models.BooleanField(default=False)
    # A time bank game: what is left of this seat's bank, spent and refilled as its turns end
    # (games/clocks.py); None in a game with a limit per turn.
    bank = models.DurationField(null=True, blank=True)

    class Meta:
        ordering = ["position", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_player"),
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}"

    @property
    def left(self) -> bool:
        """Resigned or dropped: the seat can do nothing more in this game."""
        return self.resigned_at is not None or self.dropped_at is not None
