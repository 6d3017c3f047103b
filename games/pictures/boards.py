"""SVG pictures of the game's personal boards (token pictures are in games.pictures.tokens, cards
in games.pictures.cards, colours in games.pictures.palette).

Pure functions from plain values to SafeString, so one picture has one source whether a view
renders the whole page or swaps in a fragment. Everything from outside (cell names, attribute
values, titles) goes through escape(); colours and cells are checked against the engine's own
tables, so a bad value fails loudly instead of reaching the page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache

from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine import geometry
from games.engine.tokens import LANDSCAPES, Landscape
from games.narration import cell_words
from games.pictures.palette import INK_DARK, PAPER, PAPER_EDGE
from games.pictures.tokens import num, stack_picture

__all__ = [
    "LANDSCAPE_WORDS",
    "board_svg",
    "describe_stack",
]

SQRT3 = math.sqrt(3)

# In English, translated where shown (`_(LANDSCAPE_WORDS[kind])`).
LANDSCAPE_WORDS = {
    Landscape.EMPTY: gettext_noop("empty"),
    Landscape.WATER: gettext_noop("water"),
    Landscape.FIELD: gettext_noop("field"),
    Landscape.TREE1: gettext_noop("tree of height 1"),
    Landscape.TREE2: gettext_noop("tree of height 2"),
    Landscape.TREE3: gettext_noop("tree of height 3"),
    Landscape.MOUNTAIN1: gettext_noop("mountain of height 1"),
    Landscape.MOUNTAIN2: gettext_noop("mountain of height 2"),
    Landscape.MOUNTAIN3: gettext_noop("mountain of height 3"),
    Landscape.BUILDING: gettext_noop("building"),
    Landscape.TRUNK: gettext_noop("trunk"),
    Landscape.LONE_RED: gettext_noop("lone red token"),
}

_ATTR_NAME = re.compile(r"[a-z][a-z-]*")
_RESERVED_ATTRS = frozenset({"role", "tabindex", "data-cell"})

HINT_RING = "#7b2cbf"  # the hard bot's hint: a violet no landscape token uses
BOARD_R = 40  # circumradius of a board hex, in viewBox units
BOARD_PAD = 4
BOARD_STACK_SCALE = 0.82  # a stack's picture fills this much of its hex
# Every legal stack, bare or under a cube: the board pictures the page sprite holds.
SPRITE_STACKS = frozenset(
    (stack, cube_kind) for stack in LANDSCAPES if stack for cube_kind in (None, "animal", "spirit")
)


@lru_cache(maxsize=4096)
def hex_points(cx: float, cy: float, r: float) -> str:
    """The corners of a flat-top hexagon."""
    h = r * SQRT3 / 2
    corners = ((r, 0), (r / 2, h), (-r / 2, h), (-r, 0), (-r / 2, -h), (r / 2, -h))
    return " ".join(f"{num(cx + dx)},{num(cy + dy)}" for dx, dy in corners)


def describe_stack(stack: Sequence[str]) -> str:
    """What a stack is, in a player's words: "tree of height 2", "trunk of 2", "empty"."""
    stack = tuple(stack)
    kind = LANDSCAPES.get(stack)
    if kind is None:
        return _("stack of %(tokens)s (not a legal stack)") % {"tokens": ", ".join(stack)}
    if kind is Landscape.TRUNK:
        return _("trunk of %(height)s") % {"height": len(stack)}
    return _(LANDSCAPE_WORDS[kind])


def html_attrs(attrs: Mapping[str, str]) -> str:
    """name="value" pairs with names checked and values escaped; no event handlers."""
    out = []
    for name, value in attrs.items():
        if not _ATTR_NAME.fullmatch(name) or name.startswith("on") or name in _RESERVED_ATTRS:
            raise ValueError(f"attribute name {name!r} is not allowed on a board hex")
        out.append(f' {name}="{escape(value)}"')
    return "".join(out)


def _cell_names(side: str, cells: Collection[str], what: str) -> set[str]:
    known = geometry(side).index
    unknown = sorted(set(cells) - set(known))
    if unknown:
        raise ValueError(f"{what}: no cell {', '.join(unknown)} on side {side}")
    return set(cells)


def board_svg(
    side: str,
    stacks: Mapping[str, Sequence[str]],
    cube_hexes: Collection[str],
    *,
    spirit_hex: str | None = None,
    targets: Mapping[str, Mapping[str, str]] | None = None,
    habitat: Collection[str] = (),
    emphasis: Collection[str] = (),
    fresh: Collection[str] = (),
    suggested: Collection[str] = (),
    title: str = "",
    compact: bool = False,
    sprite: str | None = None,
) -> SafeString:
    """A personal board, flat-top hexes in odd-q columns, scaling to its container's width.

    `targets` maps a cell to the HTML attributes of its clickable group (hx-post, hx-vals,
    aria-label...); `habitat` and `emphasis` outline cells for score explanations, and `fresh`
    those that changed since the viewer last looked, `suggested` those the hard bot's hint
    would fill. `sprite` is the address of the page sprite (the site's pages pass
    games.pictures.sprite.sprite_url()): each stack is then a `<use>` of its picture there, a
    tenth of its drawing's bytes; with None the board stands alone (emails, exports).
    """
    geo = geometry(side)
    targets = targets or {}
    _cell_names(side, stacks, "stacks")
    cubes = _cell_names(side, cube_hexes, "cube_hexes")
    _cell_names(side, targets, "targets")
    habitat = _cell_names(side, habitat, "habitat")
    emphasis = _cell_names(side, emphasis, "emphasis")
    fresh = _cell_names(side, fresh, "fresh")
    suggested = _cell_names(side, suggested, "suggested")
    if spirit_hex is not None:
        cubes |= _cell_names(side, {spirit_hex}, "spirit_hex")

    r = BOARD_R
    col_count = max(c for c, _ in geo.cells) + 1
    width = 2 * BOARD_PAD + r * (1.5 * (col_count - 1) + 2)
    height = 2 * BOARD_PAD + max(r * SQRT3 * (row + 1 + (col % 2) / 2) for col, row in geo.cells)

    hexes = []
    language = translation.get_language()  # the hexes' words are in the reader's language
    for (col, row), name in zip(geo.cells, geo.names, strict=True):
        cube_kind = "spirit" if name == spirit_hex else "animal" if name in cubes else None
        target = targets.get(name)
        # A clickable hex carries its game's URL and action: drawn afresh, not cached.
        draw = _hex_group if target is None else _hex_group.__wrapped__
        hexes.append(
            draw(
                language,
                col,
                row,
                name,
                tuple(stacks.get(name, ())),
                cube_kind,
                name in habitat,
                name in emphasis,
                None if target is None else tuple(target.items()),
                name in fresh,
                sprite,
                name in suggested,
            )
        )

    board_class = f"board board-{side}" + (" board-compact" if compact else "")
    label = title or _("Personal board, side %(side)s") % {"side": side}
    # role="group", not "img": an img hides its children from assistive technology, and the
    # hexes are the content here (and some of them are buttons).
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{board_class}" role="group"'
        f' aria-label="{escape(label)}" viewBox="0 0 {num(width)} {num(height)}"'
        f' width="{num(width)}" height="{num(height)}" font-family="system-ui, sans-serif">'
        f"{''.join(hexes)}</svg>"
    )


@lru_cache(maxsize=8192)
def _hex_group(
    language: str | None,
    col: int,
    row: int,
    name: str,
    stack: tuple[str, ...],
    cube_kind: str | None,
    in_habitat: bool,
    in_emphasis: bool,
    target: tuple[tuple[str, str], ...] | None,
    is_fresh: bool = False,
    sprite: str | None = None,
    is_suggested: bool = False,
) -> str:
    """One board hex as an SVG group. Cached (a few MB at most): a page draws two to four boards
    of 19 to 23 hexes, and most hexes look the same from one request to the next."""
    r = BOARD_R
    cx = BOARD_PAD + r + 1.5 * r * col
    cy = BOARD_PAD + r * SQRT3 * (row + 0.5 + (col % 2) / 2)
    words = _("%(hex)s: %(stack)s") % {"hex": cell_words(name), "stack": describe_stack(stack)}
    if cube_kind == "spirit":
        words += _(", spirit cube")
    elif cube_kind == "animal":
        words += _(", animal cube")
    classes = ["hex", "hex-empty" if not stack else "hex-filled"]
    parts = [
        f'<polygon class="hex-cell" points="{hex_points(cx, cy, r - 1.5)}"'
        f' fill="{PAPER}" stroke="{PAPER_EDGE}" stroke-width="1.5"/>',
        _stack_use(sprite, stack, cube_kind, cx, cy)
        if sprite and (stack, cube_kind) in SPRITE_STACKS
        else stack_picture(stack, cx, cy, r * BOARD_STACK_SCALE, cube_kind=cube_kind),
    ]
    # Outlines sit inside the hex so neighbours drawn later never cover them.
    if in_habitat:
        classes.append("hex-habitat")
        words += _(", part of the habitat")
        parts.append(_ring("hex-ring-habitat", cx, cy, r - 4, "#d9480f", 4, ""))
    if in_emphasis:
        classes.append("hex-emphasis")
        words += _(", counted")
        inset = 9 if in_habitat else 4
        parts.append(_ring("hex-ring-emphasis", cx, cy, r - inset, INK_DARK, 2.5, "1 4"))
    if is_fresh:
        classes.append("hex-fresh")
        words += _(", new since your last visit")
        parts.append(_ring("hex-ring-fresh", cx, cy, r - 2, "#e8a500", 5, ""))
    if is_suggested:
        # Outermost and dashed, so a target's or a habitat's ring inside it stays readable.
        classes.append("hex-suggested")
        words += _(", in the hard bot's hint")
        parts.append(_ring("hex-ring-hint", cx, cy, r - 2.5, HINT_RING, 4.5, "10 5"))
    extra = ' role="img"'
    if target is not None:
        classes.append("hex-target")
        attrs = dict(target)
        attrs.setdefault("aria-label", words)
        extra_class = attrs.pop("class", "")
        if extra_class:
            classes.append(extra_class)
        extra = ' role="button" tabindex="0"' + html_attrs(attrs)
        inset = 4 + 5 * (in_habitat + in_emphasis)
        parts.append(_ring("hex-ring-target", cx, cy, r - inset, "#1d5fd1", 3, "7 4"))
    return (
        f'<g class="{escape(" ".join(classes))}" data-cell="{escape(name)}"{extra}>'
        f"<title>{escape(words)}</title>{''.join(parts)}</g>"
    )


def stack_symbol_id(stack: tuple[str, ...], cube_kind: str | None) -> str:
    return "stack-" + "-".join(stack) + (f"-{cube_kind}" if cube_kind else "")


def board_stack_picture(stack: tuple[str, ...], cube_kind: str | None) -> str:
    """A board stack centred on 0,0, as the sprite holds it (board hexes place it by x, y)."""
    return stack_picture(stack, 0, 0, BOARD_R * BOARD_STACK_SCALE, cube_kind=cube_kind)


def _stack_use(
    sprite: str, stack: tuple[str, ...], cube_kind: str | None, cx: float, cy: float
) -> str:
    href = f"{sprite}#{stack_symbol_id(stack, cube_kind)}"
    return f'<use href="{href}" x="{num(cx)}" y="{num(cy)}"/>'


def _ring(cls: str, cx: float, cy: float, r: float, stroke: str, width: float, dash: str) -> str:
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<polygon class="hex-ring {cls}" points="{hex_points(cx, cy, r)}" fill="none"'
        f' stroke="{stroke}" stroke-width="{num(width)}" stroke-linejoin="round"'
        f' stroke-linecap="round"{dash_attr} pointer-events="none"/>'
    )
