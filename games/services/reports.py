"""Reports, the writes: a player reports a line of table talk, a player or a display name; staff
act on reports in the admin (hide the message, give a neutral name, suspend, lift, close).

A report names its target by kind and id. Refused in words, with nothing stored: a kind or a
reason not in the lists, an id that is not of that kind, a message the reporter cannot read (or
no longer shown), oneself and one's own messages, a computer opponent, and a second open report
of the same thing by the same player. The view counts reports against RATE per player.

Every staff measure is recorded on the report (who, when, what) and closes it, together with the
other open reports of the same thing, so that nobody deals with it twice. The measures on the
account itself are accounts.moderation's; hiding is games.services.talk.hide, which redraws the
talk on the game's open pages.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import moderation
from accounts.models import User
from games.models import Game, Message, Report, ReportAction
from games.models.versions import remember_talk_version
from games.services import talk
from games.services.errors import Conflict, GameError, NotAllowed, NotFound
from games.talk import may_read

__all__ = [
    "ALREADY",
    "RATE",
    "THANKS",
    "WORDS_MAX",
    "ReportRefused",
    "Target",
    "already_reported",
    "close",
    "file_report",
    "give_neutral_names",
    "hide_messages",
    "lift_suspensions",
    "suspend",
    "target_of",
]

RATE = "10/h"  # reports per player
WORDS_MAX = 1000
THANKS = gettext_lazy("Thank you: staff will look at it.")
ALREADY = gettext_lazy("You have already reported this.")
Kind, Reason, Action = Report.Kind, Report.Reason, ReportAction.Action
# The reasons offered for each kind; any other is refused (a forged form).
REASONS = {
    Kind.MESSAGE: [Reason.SPAM, Reason.ABUSE, Reason.OTHER],
    Kind.PLAYER: [Reason.ABUSE, Reason.CHEATING, Reason.SPAM, Reason.OTHER],
    Kind.NAME: [Reason.OFFENSIVE_NAME, Reason.OTHER],
}
_ALLOWED_CONTROLS = {"\n", "\t"}


class ReportRefused(GameError):
    """A report that cannot be made as sent (400): nothing is stored."""


@dataclass(frozen=True)
class Target:
    """What a report is about, found and checked: the person, and the message if it is one."""

    kind: str
    id: int
    person: User
    message: Message | None = None

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"

    @property
    def reasons(self) -> list[tuple[str, str]]:
        return [(reason.value, reason.label) for reason in REASONS[self.kind]]

    @property
    def what(self) -> str:
        """ "Alice's message", "the player Alice", "the name “Alice”": for the form's title."""
        name = {"name": self.person.public_name}
        if self.kind == Kind.MESSAGE:
            return _("%(name)s's message") % name
        if self.kind == Kind.PLAYER:
            return _("the player %(name)s") % name
        return _("the name “%(name)s”") % name

    @property
    def title(self) -> str:
        """ "Report Alice's message": the form's title, one sentence (word order differs)."""
        name = {"name": self.person.public_name}
        if self.kind == Kind.MESSAGE:
            return _("Report %(name)s's message") % name
        if self.kind == Kind.PLAYER:
            return _("Report the player %(name)s") % name
        return _("Report the name “%(name)s”") % name

    @property
    def back(self) -> str:
        """The page the report was made from."""
        if self.message is not None:
            return f"{self.message.game.get_absolute_url()}#talk"
        return reverse("records:player", args=[self.person.username])


def target_of(*, reporter: User, kind: object, target_id: object) -> Target:
    """The target named by `kind` and `target_id`, if `reporter` may report it; otherwise a
    GameError whose message says why."""
    if kind not in REASONS:
        raise NotFound(_("There is nothing of that kind to report."))
    try:
        target_id = int(target_id)
    except (TypeError, ValueError):
        target_id = 0
    if not 0 < target_id < 2**63:  # beyond what a database column holds: no such thing
        target_id = 0
    if kind == Kind.MESSAGE:
        return _message_target(reporter, target_id)
    person = User.objects.filter(pk=target_id, is_active=True).first() if target_id else None
    if person is None:
        raise NotFound(_("There is no such player to report."))
    _check_person(reporter, person, _("You cannot report yourself."))
    return Target(kind=kind, id=person.pk, person=person)


def file_report(
    *, reporter: User, kind: object, target_id: object, reason: object, words: object
) -> Report:
    """Stores a report, with what it is about as it is now; refusals as in `target_of`, plus
    a reason not offered for this kind, words too long, and a second open report of the same
    thing (Conflict, ALREADY)."""
    target = target_of(reporter=reporter, kind=kind, target_id=target_id)
    if reason not in {r.value for r in REASONS[target.kind]}:
        raise ReportRefused(_("Choose one of the reasons in the list."))
    words = clean_words(words)
    message = target.message
    try:
        with transaction.atomic():
            if already_reported(reporter, target):
                raise Conflict(ALREADY)
            return Report.objects.create(
                reporter=reporter,
                kind=target.kind,
                target=target.key,
                reason=reason,
                words=words,
                reported=target.person,
                reported_name=target.person.public_name,
                reported_username=target.person.username,
                message=message,
                game=message.game if message else None,
                message_text=message.text if message else "",
                message_written_at=message.created_at if message else None,
            )
    except IntegrityError:  # the same report sent twice at once: the constraint kept one
        raise Conflict(ALREADY) from None


def clean_words(raw: object) -> str:
    """The reporter's words as stored (optional), or ReportRefused with the reason."""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise ReportRefused(_("Write your words as plain text."))
    words = raw.replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(words) > WORDS_MAX:
        raise ReportRefused(
            _("Your words can be at most %(limit)s characters; these have %(length)s.")
            % {
                "limit": number_format(WORDS_MAX, force_grouping=True),
                "length": number_format(len(words), force_grouping=True),
            }
        )
    if any(unicodedata.category(c) == "Cc" and c not in _ALLOWED_CONTROLS for c in words):
        raise ReportRefused(_("Your words cannot contain control characters: write plain text."))
    return words


# --- What staff do (the admin's actions) -------------------------------------------------------


def hide_messages(reports: QuerySet[Report], *, staff: User) -> tuple[int, int]:
    """Hide the reported messages (the reports of other kinds are left alone). How many were
    hidden now, and how many had been already (or deleted by their authors)."""
    chosen = list(reports.filter(kind=Kind.MESSAGE).exclude(message=None))
    message_ids = {report.message_id for report in chosen}
    with transaction.atomic():
        shown = Message.objects.filter(
            pk__in=message_ids, hidden_by_staff=False, deleted_at__isnull=True
        )
        newly = set(shown.values_list("pk", flat=True))
        talk.hide(Message.objects.filter(pk__in=newly))
        for message_id in message_ids:
            detail = f"message {message_id}" + ("" if message_id in newly else " (hidden already)")
            _record(
                [r for r in chosen if r.message_id == message_id],
                staff,
                Action.HIDE,
                detail,
                same_target=f"{Kind.MESSAGE}:{message_id}",
            )
    return len(newly), len(message_ids) - len(newly)


def give_neutral_names(reports: QuerySet[Report], *, staff: User) -> tuple[int, int]:
    """Give each reported player a neutral display name ("Player 1234"), told to them by
    email; their talk is drawn again with it. How many were renamed, how many had it already."""
    renamed = unchanged = 0
    for person_id, chosen in _by_person(reports).items():
        with transaction.atomic():
            names = moderation.give_neutral_name(person_id)
            if names:
                renamed += 1
                _redraw_talk_of(person_id)
                detail = f"“{names[0]}” renamed “{names[1]}”"
            else:
                unchanged += 1
                detail = "had the neutral name already"
            _record(chosen, staff, Action.RENAME, detail, same_target=f"{Kind.NAME}:{person_id}")
    return renamed, unchanged


def suspend(reports: QuerySet[Report], *, staff: User) -> tuple[int, int]:
    """Suspend each reported account (accounts.moderation says what that stops; its games go
    on by their time limits). How many were suspended now, how many were already."""
    done = already = 0
    now = timezone.now()
    for person_id, chosen in _by_person(reports).items():
        with transaction.atomic():
            if moderation.suspend(person_id, now):
                done += 1
                detail = "suspended"
            else:
                already += 1
                detail = "was suspended already"
            _record(chosen, staff, Action.SUSPEND, detail, same_target=f"{Kind.PLAYER}:{person_id}")
    return done, already


def lift_suspensions(reports: QuerySet[Report], *, staff: User) -> tuple[int, int]:
    """Lift the suspension of each reported account. How many were lifted, how many were not
    suspended. The reports stay as they are (open or dealt with)."""
    done = not_suspended = 0
    for person_id, chosen in _by_person(reports).items():
        with transaction.atomic():
            if moderation.lift_suspension(person_id):
                done += 1
                detail = "suspension lifted"
            else:
                not_suspended += 1
                detail = "was not suspended"
            _record(chosen, staff, Action.LIFT, detail, closes=False)
    return done, not_suspended


def close(reports: QuerySet[Report], *, staff: User) -> int:
    """Close open reports with nothing done (nothing wrong, or dealt with elsewhere)."""
    chosen = list(reports.filter(dealt_at__isnull=True))
    with transaction.atomic():
        _record(chosen, staff, Action.CLOSE, "")
    return len(chosen)


# --- Helpers -----------------------------------------------------------------------------------


def _message_target(reporter: User, message_id: int) -> Target:
    message = (
        Message.objects.select_related("game", "author").filter(pk=message_id).first()
        if message_id
        else None
    )
    if message is None:
        raise NotFound(_("There is no such message to report."))
    seat = message.game.seats.filter(user_id=reporter.pk).first()
    if not may_read(message.game, reporter, seat):
        raise NotAllowed(
            _(
                "You can report only messages you can read, and this one is in a game you are "
                "not playing."
            )
        )
    if message.deleted_at is not None or message.hidden_by_staff:
        raise NotFound(_("This message is no longer shown, so there is nothing to report."))
    _check_person(reporter, message.author, _("You cannot report your own message."))
    return Target(kind=Kind.MESSAGE, id=message.pk, person=message.author, message=message)


def _check_person(reporter: User, person: User, oneself: str) -> None:
    if person.pk == reporter.pk:
        raise ReportRefused(oneself)
    if person.is_bot:
        raise ReportRefused(
            _("Computer opponents cannot be reported: the site runs them, and they never talk.")
        )


def already_reported(reporter: User, target: Target) -> bool:
    """Whether `reporter` has an open report of `target` (the form then says so at once)."""
    return Report.objects.filter(reporter=reporter, target=target.key, dealt_at=None).exists()


def _by_person(reports: QuerySet[Report]) -> dict[int, list[Report]]:
    """The chosen reports by the person they are about, in id order (as rows are locked)."""
    people: dict[int, list[Report]] = {}
    for report in reports.exclude(reported=None).order_by("reported_id", "pk"):
        people.setdefault(report.reported_id, []).append(report)
    return people


def _record(
    chosen: list[Report],
    staff: User,
    action: str,
    detail: str,
    *,
    same_target: str = "",
    closes: bool = True,
    now: datetime | None = None,
) -> None:
    """Write down what `staff` did on each chosen report and, for a measure that deals with
    the thing, on the other open reports of it too; close those that were open."""
    now = now or timezone.now()
    ids = {report.pk for report in chosen}
    if same_target and closes:
        ids |= set(
            Report.objects.filter(target=same_target, dealt_at=None).values_list("pk", flat=True)
        )
    ReportAction.objects.bulk_create(
        ReportAction(report_id=pk, staff=staff, action=action, detail=detail, at=now)
        for pk in sorted(ids)
    )
    if closes:
        Report.objects.filter(pk__in=ids, dealt_at=None).update(dealt_at=now, dealt_by=staff)


def _redraw_talk_of(person_id: int) -> None:
    """Raise the talk version of every game the person wrote in, so that open pages draw
    their messages again under the new name (the shown messages are kept per talk version)."""
    game_ids = Message.objects.filter(author_id=person_id).values("game_id")
    for game in Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk"):
        game.talk_version += 1
        game.save(update_fields=["talk_version"])
        game_id, version = game.pk, game.talk_version
        transaction.on_commit(lambda g=game_id, v=version: remember_talk_version(g, v))
