"""Players: a custom user from the first migration, so it can grow without a data migration."""

import functools
import secrets
import zoneinfo
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_noop, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from .identity import canonical_username, username_skeleton


def language_choices() -> list[tuple[str, str]]:
    """The site's languages, each named in itself. A callable, so adding one needs no migration."""
    return list(settings.LANGUAGES)


@functools.cache
def time_zone_choices() -> list[tuple[str, str]]:
    """The host's time zones. A callable, so a migration names it instead of freezing the list of
    whichever machine made the migration (another tzdata would see a change to the model)."""
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


REMIND_EVERY_CHOICES = [
    (0, _("Never")),
    (12, _("After 12 hours, then every 12 hours")),
    (24, _("After 24 hours, then every day")),
    (48, _("After 48 hours, then every 2 days")),
]
HOUR_CHOICES = [(hour, f"{hour:02d}:00") for hour in range(24)]
# Away (on vacation): at most this many days at a time, and this many in a calendar year.
AWAY_MAX_DAYS = 30
AWAY_DAYS_PER_YEAR = 60
# What a deleted account is called wherever its games are still shown (accounts.closing).
DELETED_NAME = gettext_noop("a deleted player")  # stored in English, shown translated
# The kinds of email a player can switch off (in the profile or by the link in each email).
EMAIL_KINDS = {
    "turn": "email_turn",
    "reminder": "email_reminder",
    "digest": "email_digest",
    "game_over": "email_game_over",
    "invitation": "email_invitation",
}


class PlayerManager(UserManager):
    def get_by_natural_key(self, username: str):
        """The player with this canonical username ("Alice", "ALICE", a dotless-i "alice": one).

        The exact spelling is tried first: an account from before canonical names that shares its
        canonical form with an older one keeps a key of its own (migration 0005) and logs in by it.
        """
        try:
            return self.get(username=username)
        except self.model.DoesNotExist:
            return self.get(username_key=canonical_username(username))

    def bots(self, level: str) -> models.QuerySet:
        """The bots of one level, oldest first: found by the indexed field, never by name."""
        return self.filter(bot_level=level).order_by("pk")


class User(AbstractUser):
    """A player. `display_name` is what others see; `username` is how friends invite them."""

    email = models.EmailField(_("email address"))
    display_name = models.CharField(max_length=40, blank=True)
    time_zone = models.CharField(max_length=64, choices=time_zone_choices, default="UTC")
    # The language the site and its emails speak to this player (accounts.language); empty: the
    # browser's on the site, English in emails. Sign-up stores the language the page was read in.
    language = models.CharField(
        _("language"), max_length=8, choices=language_choices, blank=True, default=""
    )
    # Computer opponents are users too, so seats, histories and ratings treat them alike. Created
    # by a data migration and found by this field, never by their names; they cannot log in.
    bot_level = models.CharField(max_length=8, blank=True, default="", db_index=True)
    # The username as sign-up, log-in and the lockout compare it (accounts.identity), and what it
    # looks like, so that a look-alike of an existing name can be refused with one indexed query.
    username_key = models.CharField(max_length=150, unique=True, editable=False)
    username_skeleton = models.CharField(max_length=150, db_index=True, editable=False)
    # Set by the link emailed at sign-up and after each change of address; rated play needs it.
    email_confirmed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Raised at every change of address: a confirmation link names the version it was sent for,
    # so a link for an address once held proves nothing when the account takes it again.
    email_version = models.PositiveIntegerField(default=0, editable=False)
    # Raised when the player saves their email choices and when an unsubscribe link is used: a
    # link names the version it was sent with, so it works once and cannot undo a later choice.
    unsubscribe_version = models.PositiveIntegerField(default=0, editable=False)

    # Email preferences; every kind can also be switched off by the link at the foot of its emails.
    email_turn = models.BooleanField(
        _("“Your turn” emails"),
        default=True,
        help_text=_("When another player has ended their turn."),
    )
    email_reminder = models.BooleanField(
        _("Reminders"),
        default=True,
        help_text=_("While a game waits for you, and before a turn time limit runs out."),
    )
    remind_every_hours = models.PositiveSmallIntegerField(
        _("Remind me"),
        choices=REMIND_EVERY_CHOICES,
        default=24,
        help_text=_("A game with a turn time limit also warns you 12 hours before it runs out."),
    )
    email_digest = models.BooleanField(
        _("Daily digest"),
        default=False,
        help_text=_("Each morning, the games waiting for your move."),
    )
    email_game_over = models.BooleanField(
        _("Game over"), default=True, help_text=_("The final scores when a game of yours ends.")
    )
    email_invitation = models.BooleanField(
        _("Invitations and tables"),
        default=True,
        help_text=_(
            "When a friend invites you, and when a table of yours starts, is cancelled, "
            "or an invitation you sent is declined."
        ),
    )
    quiet_start = models.PositiveSmallIntegerField(
        _("Quiet hours from"), choices=HOUR_CHOICES, default=22
    )
    quiet_end = models.PositiveSmallIntegerField(
        pgettext_lazy("quiet hours", "until"),
        choices=HOUR_CHOICES,
        default=7,
        help_text=_(
            "No reminder or digest in between, in your time zone. The same hour twice: none."
        ),
    )
    last_digest_on = models.DateField(null=True, blank=True, editable=False)

    # Away: the last day away (the player is back at midnight after it, in their time zone). While
    # away, their turn clocks pause and turn emails, reminders and digests wait. Changed only
    # through `games.services.set_away`, which also moves the time limits of the games waiting
    # for them.
    away_until = models.DateField(_("Away until"), null=True, blank=True)
    away_since = models.DateTimeField(null=True, blank=True, editable=False)
    # Days away counted per calendar year ({"2026": 12}), for the yearly allowance.
    away_days = models.JSONField(default=dict, blank=True, editable=False)

    # The secret in the address of the player's calendar feed of turn deadlines (read without a
    # login, so the address is the key); None until asked for. Renewing it retires the old one.
    calendar_token = models.CharField(
        max_length=43, unique=True, null=True, blank=True, editable=False
    )

    # Set when the player deleted their account (accounts.closing): the row stays for the seats of
    # their games, under DELETED_NAME, with nothing left of the person.
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Set by staff from a report (accounts.moderation): the account cannot log in, its sessions
    # stop working and every change it asks for is refused, until staff lift it. Its games go on
    # under their time limits, as for any player who does not play.
    suspended_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = PlayerManager()

    REQUIRED_FIELDS = ["email"]

    class Meta:
        constraints = [
            # Only a confirmed address is one person's: sign-up accepts an address already in use
            # (and tells its owner) rather than tell a stranger that it is registered.
            models.UniqueConstraint(
                Lower("email"),
                condition=Q(email_confirmed_at__isnull=False),
                name="user_confirmed_email_unique_ci",
                violation_error_message=_("Another account already uses this email."),
            ),
            models.UniqueConstraint(
                Lower("username"),
                name="user_username_unique_ci",
                violation_error_message=_("That username is taken. Please choose another."),
            ),
        ]

    def renew_calendar_token(self) -> str:
        """A new calendar address; the old one stops working at once."""
        self.calendar_token = secrets.token_urlsafe(32)  # 43 characters, 256 bits
        self.save(update_fields=["calendar_token"])
        return self.calendar_token

    def __str__(self) -> str:
        return self.public_name

    def clean(self) -> None:
        """A new name (at sign-up, or a rename in the admin) may not be a recently deleted
        account's, nor look like one: nobody may pose as a player who has just left."""
        super().clean()
        key = canonical_username(self.username or "")
        unchanged = self.username_key == key or (self.username_key or "").startswith(key + ":")
        refusal = None if unchanged else RetiredUsername.refusal(self.username or "")
        if refusal:
            raise ValidationError({"username": refusal})

    def save(self, *args, **kwargs) -> None:
        # Keep a legacy key ("<canonical>:<id>", see migration 0005) while the name is unchanged.
        canonical = canonical_username(self.username)
        if not (self.username_key or "").startswith(canonical + ":"):
            self.username_key = canonical
        self.username_skeleton = username_skeleton(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key", "username_skeleton"}
        super().save(*args, **kwargs)

    @property
    def public_name(self) -> str:
        if self.display_name == DELETED_NAME:  # only a deleted account has it (forms refuse it)
            return gettext(DELETED_NAME)  # in the reader's language
        if self.display_name == f"Player {self.pk}":  # accounts.moderation.neutral_name
            return gettext("Player %(number)s") % {"number": self.pk}
        return self.display_name or self.username

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_suspended(self) -> bool:
        return self.suspended_at is not None

    @property
    def can_play_rated(self) -> bool:
        """Whether this player's games may move ratings: a confirmed email, active, not a bot."""
        return bool(self.email_confirmed_at and self.is_active and not self.is_bot)

    @property
    def tzinfo(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    @property
    def reachable(self) -> bool:
        """Whether the site tells this player about their games at all (emails, Web Push): not a
        bot, an account still open, not suspended (it cannot act on a turn or an invitation)."""
        return self.is_active and not self.is_bot and not self.is_suspended

    def wants_email(self, kind: str) -> bool:
        """Whether to send this player an email of this kind."""
        return bool(self.email) and self.reachable and getattr(self, EMAIL_KINDS[kind])

    def is_quiet_at(self, moment: datetime) -> bool:
        if self.quiet_start == self.quiet_end:
            return False
        hour = moment.astimezone(self.tzinfo).hour
        if self.quiet_start < self.quiet_end:
            return self.quiet_start <= hour < self.quiet_end
        return hour >= self.quiet_start or hour < self.quiet_end  # across midnight

    def after_quiet_hours(self, moment: datetime) -> datetime:
        """`moment`, or the end of the quiet hours it falls in."""
        if not self.is_quiet_at(moment):
            return moment
        local = moment.astimezone(self.tzinfo)
        end = local.replace(hour=self.quiet_end, minute=0, second=0, microsecond=0)
        if end <= local:
            end += timedelta(days=1)  # wall-clock arithmetic: still quiet_end o'clock after DST
        return end.astimezone(UTC)

    # --- Away --------------------------------------------------------------------------------

    @property
    def back_at(self) -> datetime | None:
        """The moment the player is back: midnight after `away_until`, in their time zone."""
        if self.away_until is None:
            return None
        midnight = datetime.combine(self.away_until + timedelta(days=1), time(), self.tzinfo)
        return midnight.astimezone(UTC)

    def is_away_at(self, moment: datetime) -> bool:
        back = self.back_at
        return (
            back is not None
            and moment < back
            and (self.away_since is None or self.away_since <= moment)
        )

    @property
    def away_label(self) -> str:
        """ "away until 12 December" while away now, for other players to see; else ""."""
        from django.utils import timezone

        if not self.is_away_at(timezone.now()):
            return ""
        day = date_format(self.away_until, pgettext("date format: day and month", "j F"))
        return gettext("away until %(day)s") % {"day": day}

    def plan_absence(self, until: date | None, now: datetime) -> dict:
        """The away fields after setting (or clearing, with None) the return date at `now`.

        Raises ValueError with the reason when the date is in the past or beyond the limits. The
        current absence goes on when the date is changed while away; cleared, it counts up to
        yesterday. Days are counted per calendar year of each day away."""
        today = now.astimezone(self.tzinfo).date()
        away_now = self.is_away_at(now)
        start = self.away_since.astimezone(self.tzinfo).date() if away_now else today
        days = {int(year): n for year, n in (self.away_days or {}).items()}
        if away_now:  # the current absence is counted again below, as it now stands
            _count_days(days, start, self.away_until, -1)
        if until is None:
            if away_now:
                _count_days(days, start, today - timedelta(days=1), +1)
            return {"away_until": None, "away_since": None, "away_days": _as_json(days)}
        if until < today:
            raise ValueError(gettext("That date is in the past: choose today or a later day."))
        if (until - start).days + 1 > AWAY_MAX_DAYS:
            latest = start + timedelta(days=AWAY_MAX_DAYS - 1)
            day = date_format(latest, pgettext("date format: day, month and year", "j F Y"))
            raise ValueError(
                gettext(
                    "You can be away at most %(days)d days at a time: until %(day)s at the latest."
                )
                % {"days": AWAY_MAX_DAYS, "day": day}
            )
        _count_days(days, start, until, +1)
        over = sorted(year for year, n in days.items() if n > AWAY_DAYS_PER_YEAR)
        if over:
            used = days[over[0]] - _days_in(over[0], start, until)
            left = max(0, AWAY_DAYS_PER_YEAR - used)
            raise ValueError(
                gettext(
                    "You can be away at most %(days)d days in a year; "
                    "days left for %(year)s: %(left)d."
                )
                % {"days": AWAY_DAYS_PER_YEAR, "year": over[0], "left": left}
            )
        return {
            "away_until": until,
            "away_since": self.away_since if away_now else now,
            "away_days": _as_json(days),
        }


class RetiredUsername(models.Model):
    """The name of a deleted account, kept RETIRED_USERNAME_DAYS so that nobody else takes it (or
    a look-alike of it) while the other players still remember who had it. Only its canonical
    form and skeleton (accounts.identity), not linked to the account: the name is all it keeps."""

    username_key = models.CharField(max_length=150, unique=True)
    username_skeleton = models.CharField(max_length=150, db_index=True)
    retired_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.username_key} (retired {self.retired_at:%Y-%m-%d})"

    @classmethod
    def retire(cls, username: str, now: datetime) -> None:
        """Keep `username` out of reach from `now`; names retired long enough ago are let go."""
        cls.objects.filter(retired_at__lte=now - cls.kept_for()).delete()
        cls.objects.update_or_create(
            username_key=canonical_username(username),
            defaults={"username_skeleton": username_skeleton(username), "retired_at": now},
        )

    @classmethod
    def refusal(cls, username: str) -> str | None:
        """Why a new account cannot take `username` yet, or None: the words sign-up uses for a
        live player's name, so that they tell nothing more about the account that had it."""
        recent = cls.objects.filter(retired_at__gt=datetime.now(UTC) - cls.kept_for())
        if recent.filter(username_key=canonical_username(username)).exists():
            return gettext("That username is taken. Please choose another.")
        if recent.filter(username_skeleton=username_skeleton(username)).exists():
            return gettext(
                "That username looks too much like another player's. Please choose another."
            )
        return None

    @staticmethod
    def kept_for() -> timedelta:
        return timedelta(days=settings.RETIRED_USERNAME_DAYS)


class Friendship(models.Model):
    """One player's word about another, in one direction: added as a friend, or removed.

    Friends are the players added here plus everyone played with (worked out from the games,
    outside this app); a row with `removed_at` set hides someone played with, and adding them
    again clears it. Nothing here is shown to the friend.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="friendships")
    friend = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "friend"], name="friendship_once"),
            models.CheckConstraint(
                condition=~Q(user=models.F("friend")), name="friendship_not_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} about {self.friend}"


class Block(models.Model):
    """One player keeps another away: no invitations, no seats at the same new table, no friend
    request, and none of their table talk shown. Read through accounts.blocks; written only by
    games.services.blocks, which also ends what the block forbids. Never shown to `blocked`:
    to them, the blocker is someone who "cannot be invited"."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~Q(blocker=models.F("blocked")), name="block_not_oneself"
            ),
        ]
        # "Who blocked this player?" is asked at every invitation and seat: by `blocked` first.
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_by_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


def set_away(user: User, until: date | None, now: datetime | None = None) -> User:
    """Set (or clear, with None) the player's return date, in one transaction with whatever
    follows it elsewhere (`away_changed`: games move their turn time limits). Raises ValueError
    with the reason for a date in the past or beyond the limits; then nothing changes."""
    from django.db import transaction
    from django.utils import timezone

    from accounts.signals import away_changed

    now = now or timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        was_back = user.back_at if user.is_away_at(now) else now
        fields = user.plan_absence(until, now)
        for name, value in fields.items():
            setattr(user, name, value)
        user.save(update_fields=list(fields))
        away_changed.send(sender=User, user=user, was_back=was_back, now=now)
    return user


def _days_in(year: int, first: date, last: date) -> int:
    """How many days from `first` to `last` (inclusive) fall in `year`."""
    first, last = max(first, date(year, 1, 1)), min(last, date(year, 12, 31))
    return max(0, (last - first).days + 1)


def _count_days(days: dict[int, int], first: date, last: date, sign: int) -> None:
    for year in range(first.year, last.year + 1):
        days[year] = days.get(year, 0) + sign * _days_in(year, first, last)


def _as_json(days: dict[int, int]) -> dict[str, int]:
    return {str(year): n for year, n in sorted(days.items()) if n > 0}
