"""The writer of a player's private plan: their notes and the tokens they pencil on a copy of
their own board (games.models.plans).

A plan is not a move: it never locks the game row, never bumps the game's version (the other
pages' polls must not redraw for it) and never enters the move log. Its one guard is the seat:
only that seat's player, still at the table, of a game in progress. The pencil follows the
stacking rules (games.engine.tokens) on the board as it stands plus the earlier pencil marks.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games import engine
from games.models import NOTES_LIMIT, Game, Plan, Seat
from games.models.plans import MARKS_LIMIT, check_marks
from games.services.errors import Conflict, NotAllowed, NotFound, RuleViolation

NOT_YOURS = gettext_lazy(
    "You are not playing in this game: a plan belongs to a player of the game."
)


def save_notes(*, game_id: int, user: User, notes: str) -> Plan:
    """Keep the player's notes as typed (line ends made one kind); empty notes are kept empty."""
    text = str(notes).replace("\r\n", "\n").replace("\r", "\n")
    # Who asks is checked first: a stranger learns nothing of the rules of a plan. A refusal
    # inside the transaction undoes the plan row made for it.
    with transaction.atomic():
        plan = _own_plan(game_id, user)
        if len(text) > NOTES_LIMIT:
            raise RuleViolation(
                _(
                    "Your notes are %(length)s characters long; the limit is %(limit)s. "
                    "Nothing was saved."
                )
                % {
                    "length": number_format(len(text), force_grouping=True),
                    "limit": number_format(NOTES_LIMIT, force_grouping=True),
                }
            )
        if "\x00" in text:
            raise RuleViolation(_("Notes cannot hold a NUL character. Nothing was saved."))
        plan.notes = text
        plan.save()
    return plan


def pencil(*, game_id: int, user: User, cell: str, colour: str) -> Plan:
    """Pencil a token of `colour` on top of `cell`, if the stacking rules allow it there now."""
    cell, colour = str(cell), str(colour)
    with transaction.atomic():
        plan = _own_plan(game_id, user)
        if colour not in engine.COLOURS:
            raise RuleViolation(
                _("%(colour)s is not a token colour (one of %(colours)s).")
                % {"colour": repr(colour[:20]), "colours": ", ".join(engine.COLOURS)}
            )
        seat = plan.seat
        state = seat.game.engine_state()
        if cell not in engine.geometry(state.config.side).index:
            raise RuleViolation(
                _("There is no hex %(cell)s on your board.") % {"cell": repr(cell[:20])}
            )
        if len(plan.marks) >= MARKS_LIMIT:
            raise RuleViolation(
                _("A plan holds at most %(limit)s pencil marks: erase some.")
                % {"limit": MARKS_LIMIT}
            )
        mark = {"cell": cell, "colour": colour}
        error = check_marks(state, seat.position, [*plan.marks, mark])[-1].error
        if error is not None:
            raise RuleViolation(_cannot_pencil(colour) % {"reason": error})
        plan.marks = [*plan.marks, mark]
        plan.save()
    return plan


def _cannot_pencil(colour: str) -> str:
    """The refusal of a pencil mark, one sentence per colour (the token's name agrees with it)."""
    return {
        "blue": _("A water token cannot be pencilled there: %(reason)s."),
        "gray": _("A mountain token cannot be pencilled there: %(reason)s."),
        "brown": _("A trunk token cannot be pencilled there: %(reason)s."),
        "green": _("A foliage token cannot be pencilled there: %(reason)s."),
        "yellow": _("A field token cannot be pencilled there: %(reason)s."),
        "red": _("A building token cannot be pencilled there: %(reason)s."),
    }[colour]


def erase(*, game_id: int, user: User, cell: str) -> Plan:
    """Rub out the top pencil mark of `cell` (the marks below it stay as they were)."""
    with transaction.atomic():
        plan = _own_plan(game_id, user)
        on_cell = [i for i, mark in enumerate(plan.marks) if mark["cell"] == cell]
        if not on_cell:
            raise RuleViolation(_("Nothing is pencilled on that hex."))
        last = on_cell[-1]
        plan.marks = plan.marks[:last] + plan.marks[last + 1 :]
        plan.save()
    return plan


def clear_marks(*, game_id: int, user: User) -> Plan:
    """Rub out the whole pencil (the notes stay)."""
    with transaction.atomic():
        plan = _own_plan(game_id, user)
        plan.marks = []
        plan.save()
    return plan


def _own_plan(game_id: int, user: User) -> Plan:
    """The player's plan for the game, made if need be, its row locked (two devices saving at
    once write one after the other). Refused unless the game is in progress and the player
    sits at it and has not left."""
    if not user.is_authenticated:
        raise NotAllowed(NOT_YOURS)
    seat = Seat.objects.select_related("game").filter(game_id=game_id, user_id=user.pk).first()
    if seat is None:
        if Game.objects.filter(pk=game_id).exists():
            raise NotAllowed(NOT_YOURS)
        raise NotFound(_("There is no such game."))
    if seat.game.status != Game.Status.ACTIVE:
        raise Conflict(_("A plan can be changed only while the game is being played."))
    if seat.left:
        raise NotAllowed(_("You have left this game: a stand-in plays your turns, without a plan."))
    plan = Plan.objects.select_for_update().filter(seat=seat).first()
    if plan is None:
        plan, _created = Plan.objects.get_or_create(seat=seat)
        # The game row's mark that this seat has a plan; an UPDATE waits for a move's lock and
        # applies to the row as the move left it, so neither write undoes the other.
        bit = 1 << seat.position
        Game.objects.filter(pk=seat.game_id).update(planned_seats=F("planned_seats").bitor(bit))
    plan.seat = seat
    return plan
