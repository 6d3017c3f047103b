"""SVG pictures of the game: personal boards and token chips (cards are in svg_cards).

Pure functions from plain values to SafeString, so one picture has one source whether a view
renders the whole page or swaps in a fragment. Everything from outside (cell names, attribute
values, titles) goes through escape(); colours and cells are checked against the engine's own
tables, so a bad value fails loudly instead of reaching the page.

Colour is never the only cue: every token also carries a glyph (wave, peak, trunk, leaf, wheat,
house) and stacks carry their height as a number, for colour-blind players and small screens.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.engine import geometry
from games.engine.tokens import COLOUR_NAMES, COLOURS, LANDSCAPES, Landscape
from games.narration import cell_words

__all__ = [
    "COLOUR_WORDS",
    "FILLS",
    "LANDSCAPE_WORDS",
    "board_svg",
    "describe_stack",
    "token_face",
    "token_svg",
]

SQRT3 = math.sqrt(3)

# The site's palette (static/css/site.css). Presentation attributes, not CSS, carry the token
# colours so a board still reads correctly where game.css is not loaded (emails, exports).
FILLS = {
    "blue": "#3b82c4",
    "gray": "#8a8f98",
    "brown": "#8a5a3b",
    "green": "#3f8a4b",
    "yellow": "#e7c34a",
    "red": "#c8513d",
}
INK_DARK = "#1f2a1f"
INK_LIGHT = "#fffaf0"
PAPER = "#efe7d4"
PAPER_EDGE = "#cfc3a6"

COLOUR_WORDS = COLOUR_NAMES  # the engine names the colours; the pictures use its words

LANDSCAPE_WORDS = {
    Landscape.EMPTY: "empty",
    Landscape.WATER: "water",
    Landscape.FIELD: "field",
    Landscape.TREE1: "tree of height 1",
    Landscape.TREE2: "tree of height 2",
    Landscape.TREE3: "tree of height 3",
    Landscape.MOUNTAIN1: "mountain of height 1",
    Landscape.MOUNTAIN2: "mountain of height 2",
    Landscape.MOUNTAIN3: "mountain of height 3",
    Landscape.BUILDING: "building",
    Landscape.TRUNK: "trunk",
    Landscape.LONE_RED: "lone red token",
}

# Glyphs drawn in a 20x20 box centred on 0,0, in the ink colour ("{bg}" = the token colour,
# used to cut details such as the door or the leaf's vein back out of a filled shape).
_GLYPHS = {
    "blue": '<path d="M-9 -3q2.25-3 4.5 0t4.5 0t4.5 0t4.5 0M-9 4q2.25-3 4.5 0t4.5 0t4.5 0t4.5 0"'
    ' fill="none" stroke="{ink}" stroke-width="2.2" stroke-linecap="round"/>',
    "gray": '<path d="M-10 7L-3-6L1 0L4-3L10 7Z" fill="{ink}"/>'
    '<path d="M-5.2-2L-3-6L-0.8-2.2L-2.5-3.2Z" fill="{bg}"/>',
    "brown": '<path d="M-2.6-9h5.2v12l3.6 5h-12.4l3.6-5Z" fill="{ink}"/>',
    "green": '<path d="M0-9C8-5 8 4 0 9C-8 4-8-5 0-9Z" fill="{ink}"/>'
    '<path d="M0-5V7" stroke="{bg}" stroke-width="1.6" stroke-linecap="round"/>',
    "yellow": '<path d="M0 9V-9M-4.5-7L0-4L4.5-7M-4.5-2L0 1L4.5-2M-4.5 3L0 6L4.5 3" fill="none"'
    ' stroke="{ink}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
    "red": '<path d="M-9 0L0-9L9 0H6.5V8H-6.5V0Z" fill="{ink}"/>'
    '<rect x="-2" y="2" width="4" height="6" fill="{bg}"/>',
    # A lone red token is no building yet (rules 4.2): bricks waiting for a base, no roof.
    "red-lone": '<path d="M-8-5h7v4h-7ZM1-5h7v4h-7ZM-4 1h8v4h-8Z" fill="none" stroke="{ink}"'
    ' stroke-width="1.8" stroke-linejoin="round"/>',
}

_ATTR_NAME = re.compile(r"[a-z][a-z-]*")
_RESERVED_ATTRS = frozenset({"role", "tabindex", "data-cell"})

BOARD_R = 40  # circumradius of a board hex, in viewBox units
BOARD_PAD = 4
BOARD_STACK_SCALE = 0.82  # a stack's picture fills this much of its hex
# Every legal stack, bare or under a cube: the board pictures the page sprite holds.
SPRITE_STACKS = frozenset(
    (stack, cube_kind) for stack in LANDSCAPES if stack for cube_kind in (None, "animal", "spirit")
)


def num(x: float) -> str:
    """A coordinate without noise: 12, 12.5, 12.12."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@lru_cache(maxsize=32)
def ink_for(colour: str) -> str:
    """Dark or light ink, whichever stands out more on a token of this colour."""
    fill = FILLS[colour]
    return INK_DARK if _contrast(fill, INK_DARK) >= _contrast(fill, INK_LIGHT) else INK_LIGHT


def _shade(hex_colour: str, factor: float = 0.68) -> str:
    """A darker version of a colour, for token edges."""
    rgb = (round(int(hex_colour[i : i + 2], 16) * factor) for i in (1, 3, 5))
    return "#" + "".join(f"{c:02x}" for c in rgb)


def check_colour(colour: str) -> str:
    if colour not in FILLS:
        raise ValueError(f"{colour!r} is not a token colour (expected one of {', '.join(COLOURS)})")
    return colour


@lru_cache(maxsize=4096)
def hex_points(cx: float, cy: float, r: float) -> str:
    """The corners of a flat-top hexagon."""
    h = r * SQRT3 / 2
    corners = ((r, 0), (r / 2, h), (-r / 2, h), (-r, 0), (-r / 2, -h), (r / 2, -h))
    return " ".join(f"{num(cx + dx)},{num(cy + dy)}" for dx, dy in corners)


def glyph(colour: str, cx: float, cy: float, size: float) -> str:
    """The glyph of a token colour ("red-lone" for a red token that is no building), `size`
    units across, in the ink that contrasts best."""
    tint = colour.split("-")[0]
    body = _GLYPHS[colour].format(ink=ink_for(tint), bg=FILLS[tint])
    scale = num(size / 20)
    return f'<g class="glyph" transform="translate({num(cx)} {num(cy)}) scale({scale})">{body}</g>'


def height_badge(height: int, cx: float, cy: float, r: float) -> str:
    """A white disc with the stack height, readable on every colour."""
    return (
        f'<g class="height-badge"><circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}"'
        f' fill="#fff" stroke="{INK_DARK}" stroke-width="1.2"/>'
        f'<text x="{num(cx)}" y="{num(cy + r * 0.45)}" text-anchor="middle"'
        f' font-size="{num(r * 1.35)}" font-weight="700" fill="{INK_DARK}">{height}</text></g>'
    )


def cube(cx: float, cy: float, size: float, *, spirit: bool = False) -> str:
    """A small isometric cube centred on cx,cy: dark for animals, white for the spirit."""
    s = size / 2
    h = s * 0.58
    top = f"M{num(cx)} {num(cy - 2 * h)}l{num(s)} {num(h)}l{num(-s)} {num(h)}"
    top += f"l{num(-s)} {num(-h)}Z"
    left = f"M{num(cx - s)} {num(cy - h)}l{num(s)} {num(h)}v{num(2 * h)}l{num(-s)} {num(-h)}Z"
    right = f"M{num(cx + s)} {num(cy - h)}l{num(-s)} {num(h)}v{num(2 * h)}l{num(s)} {num(-h)}Z"
    if spirit:
        faces, edge, dash, kind = (
            ("#ffffff", "#eef1f6", "#d5dce7"),
            INK_DARK,
            ' stroke-dasharray="2.5 1.5"',
            "spirit",
        )
    else:
        faces, edge, dash, kind = ("#6b7280", "#3d4451", "#252a33"), "#ffffff", "", "animal"
    paths = "".join(
        f'<path d="{d}" fill="{f}"/>' for d, f in zip((top, left, right), faces, strict=True)
    )
    outline = (
        f'<path d="{top}{left}{right}" fill="none" stroke="{edge}"'
        f' stroke-width="{num(size / (8 if spirit else 11))}"'
        f' stroke-linejoin="round"{dash}/>'
    )
    return f'<g class="cube cube-{kind}">{paths}{outline}</g>'


def stack_picture(
    stack: Sequence[str],
    cx: float,
    cy: float,
    r: float,
    *,
    cube_kind: str | None = None,
    badge_scale: float = 0.3,
    building: bool = False,
) -> str:
    """Tokens drawn as round discs piled up, bottom one lowest, so the lower colours show as
    edges underneath (tree trunks under foliage, grey peaks, red roofs); the top token carries
    its glyph, a badge gives the height of a stack of two or three, and `cube_kind` ("animal" or
    "spirit") puts a cube on top. A lone red token is not a building (rules 4.2) and looks
    different, unless `building` says it stands for one (a card's pattern, on any base)."""
    return _stack_picture(tuple(stack), cx, cy, r, cube_kind, badge_scale, building)


# Every page view draws every board, and the same stack in the same cell always gives the same
# picture: each is drawn once per process (a few thousand at most: cells x stacks x cubes).
@lru_cache(maxsize=8192)
def _stack_picture(
    stack: tuple[str, ...],
    cx: float,
    cy: float,
    r: float,
    cube_kind: str | None,
    badge_scale: float,
    building: bool = False,
) -> str:
    radius = r * 0.8  # a disc inside the hex, as the real tokens sit in their spaces
    step = r * 0.2  # how much higher each token of a stack sits
    thickness = r * 0.16
    parts = []
    top_cy = cy
    for level, colour in enumerate(stack):
        fill = FILLS[check_colour(colour)]
        edge = _shade(fill)
        top_cy = cy + ((len(stack) - 1) / 2 - level) * step
        parts.append(
            f'<g class="token token-{colour}">'
            f'<circle cx="{num(cx)}" cy="{num(top_cy + thickness)}" r="{num(radius)}"'
            f' fill="{_shade(fill, 0.5)}"/>'
            f'<circle cx="{num(cx)}" cy="{num(top_cy)}" r="{num(radius)}" fill="{fill}"'
            f' stroke="{edge}" stroke-width="{num(r * 0.07)}"/></g>'
        )
    if stack:
        # With a cube in the bottom-right corner the glyph moves up and left to stay clear.
        shift = r * 0.14 if cube_kind else 0
        size = r * (0.6 if cube_kind else 0.7)
        lone_red = stack == ("red",) and not building
        parts.append(glyph("red-lone" if lone_red else stack[-1], cx - shift, top_cy - shift, size))
    if len(stack) > 1:
        b = r * badge_scale
        parts.append(height_badge(len(stack), cx + r * 0.77 - b, top_cy - r * 0.77 + b, b))
    if cube_kind:
        at = (cx + r * 0.42, top_cy + r * 0.4) if stack else (cx, cy)
        parts.append(cube(*at, r * 0.6, spirit=cube_kind == "spirit"))
    return "".join(parts)


def describe_stack(stack: Sequence[str]) -> str:
    """What a stack is, in a player's words: "tree of height 2", "trunk of 2", "empty"."""
    stack = tuple(stack)
    kind = LANDSCAPES.get(stack)
    if kind is None:
        return "stack of " + ", ".join(stack) + " (not a legal stack)"
    if kind is Landscape.TRUNK:
        return f"trunk of {len(stack)}"
    return LANDSCAPE_WORDS[kind]


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
    title: str = "",
    compact: bool = False,
    sprite: bool = False,
) -> SafeString:
    """A personal board, flat-top hexes in odd-q columns, scaling to its container's width.

    `targets` maps a cell to the HTML attributes of its clickable group (hx-post, hx-vals,
    aria-label...); `habitat` and `emphasis` outline cells for score explanations, and `fresh`
    those that changed since the viewer last looked. With `sprite` (the site's pages), each
    stack is a `<use>` of the page sprite's picture of it, a tenth of its drawing's bytes;
    without, the board stands alone (emails, exports).
    """
    geo = geometry(side)
    targets = targets or {}
    _cell_names(side, stacks, "stacks")
    cubes = _cell_names(side, cube_hexes, "cube_hexes")
    _cell_names(side, targets, "targets")
    habitat = _cell_names(side, habitat, "habitat")
    emphasis = _cell_names(side, emphasis, "emphasis")
    fresh = _cell_names(side, fresh, "fresh")
    if spirit_hex is not None:
        cubes |= _cell_names(side, {spirit_hex}, "spirit_hex")

    r = BOARD_R
    col_count = max(c for c, _ in geo.cells) + 1
    width = 2 * BOARD_PAD + r * (1.5 * (col_count - 1) + 2)
    height = 2 * BOARD_PAD + max(r * SQRT3 * (row + 1 + (col % 2) / 2) for col, row in geo.cells)

    hexes = []
    for (col, row), name in zip(geo.cells, geo.names, strict=True):
        cube_kind = "spirit" if name == spirit_hex else "animal" if name in cubes else None
        target = targets.get(name)
        # A clickable hex carries its game's URL and action: drawn afresh, not cached.
        draw = _hex_group if target is None else _hex_group.__wrapped__
        hexes.append(
            draw(
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
            )
        )

    board_class = f"board board-{side}" + (" board-compact" if compact else "")
    label = title or f"Personal board, side {side}"
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
    col: int,
    row: int,
    name: str,
    stack: tuple[str, ...],
    cube_kind: str | None,
    in_habitat: bool,
    in_emphasis: bool,
    target: tuple[tuple[str, str], ...] | None,
    is_fresh: bool = False,
    sprite: bool = False,
) -> str:
    """One board hex as an SVG group. Cached (a few MB at most): a page draws two to four boards
    of 19 to 23 hexes, and most hexes look the same from one request to the next."""
    r = BOARD_R
    cx = BOARD_PAD + r + 1.5 * r * col
    cy = BOARD_PAD + r * SQRT3 * (row + 0.5 + (col % 2) / 2)
    words = f"{cell_words(name)}: {describe_stack(stack)}"
    if cube_kind == "spirit":
        words += ", spirit cube"
    elif cube_kind == "animal":
        words += ", animal cube"
    classes = ["hex", "hex-empty" if not stack else "hex-filled"]
    parts = [
        f'<polygon class="hex-cell" points="{hex_points(cx, cy, r - 1.5)}"'
        f' fill="{PAPER}" stroke="{PAPER_EDGE}" stroke-width="1.5"/>',
        _stack_use(stack, cube_kind, cx, cy)
        if sprite and (stack, cube_kind) in SPRITE_STACKS
        else stack_picture(stack, cx, cy, r * BOARD_STACK_SCALE, cube_kind=cube_kind),
    ]
    # Outlines sit inside the hex so neighbours drawn later never cover them.
    if in_habitat:
        classes.append("hex-habitat")
        words += ", part of the habitat"
        parts.append(_ring("hex-ring-habitat", cx, cy, r - 4, "#d9480f", 4, ""))
    if in_emphasis:
        classes.append("hex-emphasis")
        words += ", counted"
        inset = 9 if in_habitat else 4
        parts.append(_ring("hex-ring-emphasis", cx, cy, r - inset, INK_DARK, 2.5, "1 4"))
    if is_fresh:
        classes.append("hex-fresh")
        words += ", new since your last visit"
        parts.append(_ring("hex-ring-fresh", cx, cy, r - 2, "#e8a500", 5, ""))
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


def _stack_use(stack: tuple[str, ...], cube_kind: str | None, cx: float, cy: float) -> str:
    from games.sprite import sprite_url  # the sprite is made of these pictures

    href = f"{sprite_url()}#{stack_symbol_id(stack, cube_kind)}"
    return f'<use href="{href}" x="{num(cx)}" y="{num(cy)}"/>'


def _ring(cls: str, cx: float, cy: float, r: float, stroke: str, width: float, dash: str) -> str:
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<polygon class="hex-ring {cls}" points="{hex_points(cx, cy, r)}" fill="none"'
        f' stroke="{stroke}" stroke-width="{num(width)}" stroke-linejoin="round"'
        f' stroke-linecap="round"{dash_attr} pointer-events="none"/>'
    )


def token_face(colour: str) -> str:
    """A token seen from above, in a -17 -15.5 34 31 box: a disc with its edge and its glyph."""
    fill = FILLS[check_colour(colour)]
    return (
        f'<circle cx="0" cy="1.2" r="14" fill="{_shade(fill, 0.5)}"/>'
        f'<circle cx="0" cy="0" r="14" fill="{fill}" stroke="{_shade(fill)}" stroke-width="1.4"/>'
        f"{glyph(colour, 0, 0, 15)}"
    )


@lru_cache(maxsize=256)
def token_svg(
    colour: str, *, size: int = 28, label: str | None = None, inline: bool = False
) -> SafeString:
    """One token as a chip, for the central board and the tokens in hand (drawn once each); the
    disc is a symbol of the page's sprite unless `inline` (pictures that leave the site)."""
    from games.sprite import sprite_url  # the sprite is made of these faces

    check_colour(colour)
    text = label if label is not None else f"{COLOUR_WORDS[colour]} ({colour})"
    face = (
        token_face(colour)
        if inline
        else f'<use href="{sprite_url()}#token-{colour}" x="-17" y="-15.5" width="34" height="31"/>'
    )
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="token-chip token-chip-{colour}"'
        f' role="img" aria-label="{escape(text)}" viewBox="-17 -15.5 34 31"'
        f' width="{int(size)}" height="{round(size * 31 / 34)}">'
        f"<title>{escape(text)}</title>{face}</svg>"
    )
