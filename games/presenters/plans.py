"""What a player's private plan shows: the notes box, the pencilled hexes on their turn (does
the hex still take the token, does the central board offer it), and the plan pad, a private
copy of their board with the pencil drawn on it. Built for the plan's author only: every other
viewer's context has no plan in it at all, so no page, fragment or poll can carry one."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from markupsafe import Markup

from games import engine
from games.models import NOTES_LIMIT, Game, Plan, Seat
from games.models.plans import MarkCheck, check_marks
from games.narration import COLOUR_WORDS, cell_words, token_kind
from games.pictures.boards import board_svg
from games.pictures.sprite import sprite_url
from harmonies_site.addresses import url

PENCIL_CLASS = "hex-pencilled"


@dataclass(frozen=True)
class PencilRow:
    """One pencilled token as the plan lists it."""

    cell: str
    where: str  # the hex in words
    colour: str
    name: str  # "a water token (blue)"
    error: str | None  # why the hex no longer takes it; None: it still does
    spaces: tuple[int, ...] = ()  # central spaces (from 1) holding that colour now
    in_hand: bool | None = None  # once the tokens are taken: whether one is in the hand

    @property
    def fits(self) -> bool:
        return self.error is None

    @property
    def possible(self) -> bool:
        """The hex takes it and this turn can still bring the token."""
        return self.fits and (bool(self.spaces) if self.in_hand is None else self.in_hand)


@dataclass
class PlanPanel:
    """The plan panel of the game page, and the notes box of the pad; `rows` are listed on the
    player's turn (at other times the panel counts them)."""

    notes: str
    rows: list[PencilRow]
    my_turn: bool
    urls: dict[str, str] = field(default_factory=dict)
    notes_limit: int = NOTES_LIMIT

    @property
    def pencilled_cells(self) -> set[str]:
        return {row.cell for row in self.rows if row.fits}


def plan_of(seat: Seat) -> Plan | None:
    """The seat's plan; no query when the game row says the seat has none."""
    if not seat.game.planned_seats >> seat.position & 1:
        return None
    return Plan.objects.filter(seat=seat).first()


def for_page(
    game: Game, seat: Seat | None, state: engine.GameState, view: dict[str, Any], *, my_turn: bool
) -> PlanPanel | None:
    """The plan panel of the game page, for the seat's own player while the game is played;
    None for everyone else (watchers, other seats, a player who left, a game over), and in a
    guided first game, whose guide already says what to do next."""
    if seat is None or seat.left or game.status != Game.Status.ACTIVE or game.guided:
        return None
    plan = plan_of(seat)
    marks = plan.marks if plan else []
    took = view["taken_space"] is not None
    rows = []
    for check in check_marks(state, seat.position, marks):
        spaces = tuple(i + 1 for i, space in enumerate(view["central"]) if check.colour in space)
        rows.append(
            _row(check, spaces=spaces, in_hand=check.colour in view["hand"] if took else None)
        )
    return PlanPanel(notes=plan.notes if plan else "", rows=rows, my_turn=my_turn, urls=_urls(game))


def pad(game: Game, seat: Seat, colour: str | None) -> dict[str, Any]:
    """The plan pad page: the seat's board with the pencil drawn on, the colour chosen (if any)
    and the hexes where a token of it may be pencilled now (clickable, and listed for a form)."""
    state = game.engine_state()
    plan = plan_of(seat)
    marks = plan.marks if plan else []
    checks = check_marks(state, seat.position, marks)
    player = engine.view_for(state, seat.position)["players"][seat.position]
    stacks = {cell: list(stack) for cell, stack in player["stacks"].items()}
    for check in checks:
        if check.error is None:
            stacks.setdefault(check.cell, []).append(check.colour)
    if colour not in engine.COLOURS:
        colour = None
    urls = _urls(game)
    targets: dict[str, dict[str, str]] = {}
    if colour is not None:
        for cell in engine.geometry(game.side).names:
            trial = check_marks(state, seat.position, [*marks, {"cell": cell, "colour": colour}])
            if trial[-1].error is None:
                targets[cell] = {
                    "hx-post": urls["pencil"],
                    "hx-vals": json.dumps({"cell": cell, "colour": colour}),
                    "hx-target": "#pad",
                    "hx-swap": "outerHTML",
                    "aria-label": _("Pencil %(token)s on %(hex)s")
                    % {"token": COLOUR_WORDS[colour], "hex": cell_words(cell)},
                }
    pencilled = {check.cell for check in checks if check.error is None}
    board = board_svg(
        game.side,
        stacks,
        player["cube_hexes"],
        targets=targets,
        title=_("Your plan pad: a private copy of your board with your pencil marks"),
        sprite=sprite_url(),
    )
    return {
        "game": game,
        "pad_board": outline_pencilled(board, pencilled),
        "colours": [(c, token_kind(c), COLOUR_WORDS[c]) for c in engine.COLOURS],
        "pad_colour": colour,
        "pad_colour_words": COLOUR_WORDS[colour] if colour else "",
        "pad_targets": sorted(targets),
        "pad_rows": [_row(check) for check in checks],
        "pad_cells": sorted({check.cell for check in checks}),  # each may be rubbed out
        "plan": PlanPanel(notes=plan.notes if plan else "", rows=[], my_turn=False, urls=urls),
    }


def outline_pencilled(svg: str, cells: Collection[str]) -> Markup:
    """The board drawn with `cells` outlined as pencilled (static/css/plan.css draws the ring)
    and said so in each hex's text. The board's own drawing is shared and kept per version
    (games.presenters.shared_parts), so the pencil is added to a copy of its text, the player's
    alone, never to the kept one."""
    if not cells:
        return Markup(svg)
    names = "|".join(re.escape(cell) for cell in sorted(cells))
    pencilled = str(Markup.escape(_(", pencilled in your plan")))
    pattern = re.compile(rf'<g class="([^"]*)" data-cell="({names})"([^>]*)><title>([^<]*)</title>')
    return Markup(
        pattern.sub(
            lambda m: (
                f'<g class="{m[1]} {PENCIL_CLASS}" data-cell="{m[2]}"{m[3]}>'
                f"<title>{m[4]}{pencilled}</title>"
            ),
            str(svg),
        )
    )


def outlined(draw: Callable[[], str], cells: Collection[str]) -> Callable[[], str]:
    """A board's drawing function whose picture comes out with `cells` outlined."""
    return lambda: outline_pencilled(draw(), cells)


def _row(check: MarkCheck, **extra: Any) -> PencilRow:
    return PencilRow(
        cell=check.cell,
        where=cell_words(check.cell),
        colour=check.colour,
        name=COLOUR_WORDS.get(check.colour, check.colour),
        error=check.error,
        **extra,
    )


def _urls(game: Game) -> dict[str, str]:
    return {
        name: url(f"games:plan-{name}" if name != "pad" else "games:plan", game.pk)
        for name in ("pad", "notes", "pencil", "erase", "clear")
    }
