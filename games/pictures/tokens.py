"""SVG pictures of tokens: a stack of discs on a board hex or a card, and one token as a chip.

Colour is never the only cue: every token also carries a glyph (wave, peak, trunk, leaf, wheat,
house) and stacks carry their height as a number, for colour-blind players and small screens.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.narration import token_label
from games.pictures.palette import FILLS, INK_DARK, check_colour, ink_for, shade

__all__ = ["token_face", "token_svg"]

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


def num(x: float) -> str:
    """A coordinate without noise: 12, 12.5, 12.12."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


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
        edge = shade(fill)
        top_cy = cy + ((len(stack) - 1) / 2 - level) * step
        parts.append(
            f'<g class="token token-{colour}">'
            f'<circle cx="{num(cx)}" cy="{num(top_cy + thickness)}" r="{num(radius)}"'
            f' fill="{shade(fill, 0.5)}"/>'
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


def token_face(colour: str) -> str:
    """A token seen from above, in a -17 -15.5 34 31 box: a disc with its edge and its glyph."""
    fill = FILLS[check_colour(colour)]
    return (
        f'<circle cx="0" cy="1.2" r="14" fill="{shade(fill, 0.5)}"/>'
        f'<circle cx="0" cy="0" r="14" fill="{fill}" stroke="{shade(fill)}" stroke-width="1.4"/>'
        f"{glyph(colour, 0, 0, 15)}"
    )


def token_svg(
    colour: str, *, size: int = 28, label: str | None = None, sprite: str | None = None
) -> SafeString:
    """One token as a chip, for the central board and the tokens in hand (drawn once each per
    language); the disc is a `<use>` of the page sprite at `sprite`, or drawn in full when None
    (pictures that leave the site)."""
    return _token_svg(colour, size, label, sprite, translation.get_language())


@lru_cache(maxsize=768)
def _token_svg(
    colour: str, size: int, label: str | None, sprite: str | None, language: str | None
) -> SafeString:
    check_colour(colour)
    text = label if label is not None else token_label(colour)
    face = (
        token_face(colour)
        if sprite is None
        else f'<use href="{sprite}#token-{colour}" x="-17" y="-15.5" width="34" height="31"/>'
    )
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="token-chip token-chip-{colour}"'
        f' role="img" aria-label="{escape(text)}" viewBox="-17 -15.5 34 31"'
        f' width="{int(size)}" height="{round(size * 31 / 34)}">'
        f"<title>{escape(text)}</title>{face}</svg>"
    )
