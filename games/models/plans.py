"""A player's private plan for one game: their notes and the tokens they pencilled on a copy of
their board. Seen by its author only; never part of the game's state, version, log or export."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext as _

from games import engine
from games.engine.tokens import placement_error

# Long enough for a plan in words; a paste of a book is refused with this number in the words.
NOTES_LIMIT = 5000
# The pencil's bound: a board holds at most 69 tokens, and a plan is for the next few turns.
MARKS_LIMIT = 60


class Plan(models.Model):
    """One per seat, made at its first edit. `marks` is the pencil, in the order drawn:
    [{"cell": "2,3", "colour": "green"}, ...]; several on one hex stack up, bottom first."""

    seat = models.OneToOneField("Seat", on_delete=models.CASCADE, related_name="plan")
    notes = models.TextField(blank=True, default="")
    marks = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Plan of seat {self.seat_id}"

    @property
    def is_empty(self) -> bool:
        return not self.notes and not self.marks


@dataclass(frozen=True)
class MarkCheck:
    """One pencil mark judged on a board: `error` says why it no longer fits (None: it does)."""

    cell: str
    colour: str
    error: str | None


def check_marks(state: engine.GameState, position: int, marks: list[dict]) -> list[MarkCheck]:
    """Each mark in order, on the seat's board as it is in `state` with the marks before it
    that still fit stacked on top: what the pad draws and the turn's list reads."""
    geo = engine.geometry(state.config.side)
    player = state.players[position]
    stacks = {geo.names[i]: tuple(s) for i, s in enumerate(player.stacks)}
    cubes = {geo.names[i] for i in range(geo.size) if player.cube_mask >> i & 1}
    checked = []
    for mark in marks:
        cell, colour = mark["cell"], mark["colour"]
        if cell not in stacks:
            error = _("there is no hex %(cell)s on your board") % {"cell": cell}
        elif cell in cubes:
            error = _("a cube sits on this hex: it takes no more tokens")
        else:
            error = placement_error(stacks[cell], colour)
        if error is None:
            stacks[cell] = (*stacks[cell], colour)
        checked.append(MarkCheck(cell, colour, error))
    return checked
