"""SVG pictures of animal and Nature's Spirit cards (rules §7.1, §10), built on
games.pictures.boards."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import npgettext_lazy, pgettext, pgettext_lazy

from games.engine import card
from games.engine.tokens import Landscape
from games.pictures.boards import LANDSCAPE_WORDS, SQRT3, hex_points
from games.pictures.palette import FILLS, INK_DARK, PAPER, PAPER_EDGE, ink_for
from games.pictures.tokens import cube, glyph, num, stack_picture

__all__ = ["card_face", "card_svg", "describe_pattern"]

WIDTH, HEIGHT = 120, 170

# The stack a pattern hex asks for (rules §7.2: exact heights). A building's base may be red,
# brown or gray, so it is drawn separately with a neutral base.
_PATTERN_STACKS = {
    Landscape.WATER: ("blue",),
    Landscape.FIELD: ("yellow",),
    Landscape.TREE1: ("green",),
    Landscape.TREE2: ("brown", "green"),
    Landscape.TREE3: ("brown", "brown", "green"),
    Landscape.MOUNTAIN1: ("gray",),
    Landscape.MOUNTAIN2: ("gray", "gray"),
    Landscape.MOUNTAIN3: ("gray", "gray", "gray"),
}
_ANY_BASE = "#b9ad98"

# The animal on each card, from Twemoji (CC-BY 4.0; static/vendor/twemoji/LICENSE.txt), by the
# emoji's code points. Colour is never the only cue: the name stays on every card.
FIGURES_DIR = Path(__file__).resolve().parents[2] / "static" / "vendor" / "twemoji"
FIGURES = {
    "Crocodile": "1f40a", "Ray": "1f420", "Fish": "1f41f", "Otter": "1f9a6", "Frog": "1f438",
    "Duck": "1f986", "Flamingo": "1f9a9", "Gecko": "1f98e", "Shrew": "1f401", "Peacock": "1f99a",
    "Squirrel": "1f43f", "Hedgehog": "1f994", "Bee": "1f41d", "Bear": "1f43b", "Rabbit": "1f407",
    "Parrot": "1f99c", "Boar": "1f417", "Koala": "1f428", "Wolf": "1f43a", "Kingfisher": "1f426",
    "Penguin": "1f427", "Bat": "1f987", "Fennec Fox": "1f98a", "Macaque": "1f412",
    "Eagle": "1f985", "Meerkat": "1f9a1", "Raven": "1f426-200d-2b1b", "Llama": "1f999",
    "Arctic Fox": "1f98a", "Raccoon": "1f99d", "Ladybug": "1f41e", "Panther": "1f406",
    "Lion": "1f981", "Butterfly": "1f98b", "Deer": "1f98c", "Owl": "1f989", "Cat": "1f408",
    "Stork": "1fabf", "Ram": "1f40f", "Marmot": "1f9ab", "Dragonfly": "1fab0", "Tortoise": "1f422",
}  # fmt: skip
_SVG_OPEN = re.compile(r"^<svg[^>]*>")


@lru_cache(maxsize=64)
def figure(name: str, x: float, y: float, size: float) -> str:
    """The animal's picture in a `size` square at x,y (nothing for an animal without one)."""
    code = FIGURES.get(name)
    if code is None:
        return ""
    text = (FIGURES_DIR / f"{code}.svg").read_text().strip()
    inner = _SVG_OPEN.sub("", text).removesuffix("</svg>")
    return (
        f'<svg class="card-figure" x="{num(x)}" y="{num(y)}" width="{num(size)}"'
        f' height="{num(size)}" viewBox="0 0 36 36" aria-hidden="true">{inner}</svg>'
    )


EN_DASH = "\u2013"
_HEIGHTS = {3: "1", 4: "2", 5: "3", 6: "1", 7: "2", 8: "3"}


# A landscape counted in a habitat, after "next to" or "with": the number is a word (_COUNTS).
_COUNTED = {
    Landscape.WATER: npgettext_lazy("habitat", "water", "%(count)s water hexes", "n"),
    Landscape.FIELD: npgettext_lazy("habitat", "a field", "%(count)s fields", "n"),
    Landscape.TREE1: npgettext_lazy(
        "habitat", "a tree of height 1", "%(count)s trees of height 1", "n"
    ),
    Landscape.TREE2: npgettext_lazy(
        "habitat", "a tree of height 2", "%(count)s trees of height 2", "n"
    ),
    Landscape.TREE3: npgettext_lazy(
        "habitat", "a tree of height 3", "%(count)s trees of height 3", "n"
    ),
    Landscape.MOUNTAIN1: npgettext_lazy(
        "habitat", "a mountain of height 1", "%(count)s mountains of height 1", "n"
    ),
    Landscape.MOUNTAIN2: npgettext_lazy(
        "habitat", "a mountain of height 2", "%(count)s mountains of height 2", "n"
    ),
    Landscape.MOUNTAIN3: npgettext_lazy(
        "habitat", "a mountain of height 3", "%(count)s mountains of height 3", "n"
    ),
    Landscape.BUILDING: npgettext_lazy("habitat", "a building", "%(count)s buildings", "n"),
}
_COUNTS = {2: pgettext_lazy("habitat count", "two"), 3: pgettext_lazy("habitat count", "three")}
_SHAPES = {
    "bent": pgettext_lazy("habitat shape", "bent"),
    "line": pgettext_lazy("habitat shape", "line"),
    "pair": pgettext_lazy("habitat shape", "pair"),
    "rhombus": pgettext_lazy("habitat shape", "rhombus"),
    "triangle": pgettext_lazy("habitat shape", "triangle"),
}
_SPIRIT_WORDS = {
    "building": pgettext_lazy("spirit card", "Building"),
    "field": pgettext_lazy("spirit card", "Field"),
    "mountain": pgettext_lazy("spirit card", "Mountain"),
    "tree": pgettext_lazy("spirit card", "Tree"),
    "water": pgettext_lazy("spirit card", "Water"),
}


def _counted(kind: Landscape, count: int) -> str:
    """ "a field", "water", "two trees of height 1", "three water hexes"."""
    return _COUNTED[kind] % {"n": count, "count": str(_COUNTS.get(count, count))}


def describe_pattern(card_id: str) -> str:
    """The habitat in words, cube hex first: "water next to a tree of height 1"."""
    c = card(card_id)
    first, *others = c.pattern
    # Nearest first, so a line reads in order from the cube hex outwards.
    others.sort(key=lambda p: (abs(p.q) + abs(p.r) + abs(p.q + p.r), p.q, p.r))
    counts = Counter(o.landscape for o in others)
    names = [_counted(kind, n) for kind, n in counts.items()]
    head = _(LANDSCAPE_WORDS[first.landscape])
    if len(others) == 1:
        return _("%(landscape)s next to %(other)s") % {"landscape": head, "other": names[0]}
    listed = names[0]
    if len(names) > 1:
        listed = _("%(first)s and %(second)s") % {
            "first": ", ".join(names[:-1]),
            "second": names[-1],
        }
    return _("%(landscape)s with %(others)s (%(shape)s)") % {
        "landscape": head,
        "others": listed,
        "shape": str(_SHAPES.get(c.shape, c.shape)),
    }


def _spirit_lines(card_id: str) -> list[str]:
    """The scoring of a spirit card in one or two short lines for the card face."""
    rule = card(card_id).spirit_rule
    word = str(_SPIRIT_WORDS.get(rule.landscape, rule.landscape.capitalize()))
    lines = []
    if rule.kind == "per_stack":
        by_points: dict[int, list[str]] = {}
        for kind, points in rule.points_by_landscape:
            if points:
                by_points.setdefault(points, []).append(_HEIGHTS.get(kind, ""))
        for points, heights in by_points.items():
            span = (
                ""
                if heights == [""]
                else " " + EN_DASH.join(dict.fromkeys((heights[0], heights[-1])))
            )
            lines.append(
                _("%(landscape)s%(heights)s: %(points)s each")
                % {"landscape": word, "heights": span, "points": points}
            )
    else:
        for low, high, points in rule.tiers:
            if (low, high) == (1, None):
                line = _("%(landscape)s group: %(points)s")
            elif high is None:
                line = _("%(landscape)s group of %(low)s+: %(points)s")
            else:
                line = _("%(landscape)s group of %(low)s–%(high)s: %(points)s")  # noqa: RUF001
            lines.append(line % {"landscape": word, "low": low, "high": high, "points": points})
    return lines


def _pattern_picture(card_id: str, left: float, top: float, width: float, height: float) -> str:
    """The habitat pattern as small flat-top hexes, fitted and centred in the given box."""
    c = card(card_id)
    xs = [1.5 * p.q for p in c.pattern]
    ys = [SQRT3 * (p.r + p.q / 2) for p in c.pattern]
    span_x, span_y = max(xs) - min(xs) + 2, max(ys) - min(ys) + SQRT3
    s = min(width / span_x, height / span_y, 22)
    x0 = left + (width - (span_x - 2) * s) / 2 - min(xs) * s
    y0 = top + (height - (span_y - SQRT3) * s) / 2 - min(ys) * s
    parts = []
    for p, x, y in zip(c.pattern, xs, ys, strict=True):
        cx, cy = x0 + x * s, y0 + y * s
        parts.append(
            f'<polygon points="{hex_points(cx, cy, s - 0.8)}" fill="{PAPER}"'
            f' stroke="{PAPER_EDGE}"/>'
        )
        if p.landscape is Landscape.BUILDING:
            r, step = s * 0.86, s * 0.86 * 0.19
            parts.append(
                f'<circle cx="{num(cx)}" cy="{num(cy + step / 2)}" r="{num(r * 0.8)}"'
                f' fill="{_ANY_BASE}" stroke="#7d735f" stroke-width="{num(r * 0.06)}"'
                ' stroke-dasharray="2 1.5"/>'
            )
            stack, cy = ("red",), cy - step / 2
        else:
            stack, r = _PATTERN_STACKS[p.landscape], s * 0.86
        cube_kind = "animal" if p.is_cube else None
        parts.append(
            stack_picture(
                stack,
                cx,
                cy,
                r,
                cube_kind=cube_kind,
                badge_scale=0.36,
                building=p.landscape is Landscape.BUILDING,
            )
        )
    return f'<g class="card-pattern">{"".join(parts)}</g>'


def _track(points: tuple[int, ...], covered: int, top: float, cube_href: str = "") -> str:
    """The point slots, top to bottom; the top `covered` slots still carry a cube (cubes leave
    from the bottom), and the highest uncovered slot is what the card is worth now."""
    slot_h, gap, x, w = 21, 3, 82, 33
    parts = []
    for i, value in enumerate(points):
        y = top + i * (slot_h + gap)
        is_covered = i < covered
        current = i == covered
        fill = "#e4dccb" if is_covered else ("#fff4c2" if current else "#fffdf7")
        stroke, sw = ("#b07d00", 2) if current else (PAPER_EDGE, 1)
        state = "covered" if is_covered else ("current" if current else "open")
        parts.append(
            f'<g class="track-slot track-slot-{state}"><rect x="{x}" y="{num(y)}" width="{w}"'
            f' height="{slot_h}" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="{sw}"/>'
        )
        parts.append(
            f'<text x="{x + w - 4}" y="{num(y + 15)}" text-anchor="end" font-size="11.5"'
            f' font-weight="700" fill="{INK_DARK}">{value}</text>'
        )
        if is_covered and cube_href:  # the sprite's cube, 10 units across
            parts.append(
                f'<use href="{cube_href}" x="{x + 3}" y="{num(y + slot_h / 2 - 5.8)}"'
                ' width="10" height="11.6"/>'
            )
        elif is_covered:
            parts.append(cube(x + 8, y + slot_h / 2, 10))
        parts.append("</g>")
    return f'<g class="card-track">{"".join(parts)}</g>'


def _check(cx: float, cy: float) -> str:
    """A tick in a white disc: the card's cubes are all on the board."""
    return (
        f'<g class="card-done"><circle cx="{cx}" cy="{cy}" r="8" fill="#fff" stroke="{INK_DARK}"'
        f' stroke-width="1.2"/><path d="M{cx - 4} {cy}l3 3l5-6" fill="none" stroke="#2f6b3b"'
        f' stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></g>'
    )


def card_face(card_id: str) -> str:
    """What every copy of a card shares, whatever its cubes: the frame, the name, the habitat and
    (for a spirit) its scoring. Drawn once, as a symbol of the page's sprite
    (games/pictures/sprite.py)."""
    return _card_face(card_id, translation.get_language())


# A spirit's scoring line fits the card at 9.5 px up to this many characters; a longer one
# ("Building group of 2+: 6") is set smaller, or it would run past both edges of the card.
SCORING_CHARS = 20


def _scoring_size(line: str) -> float:
    return round(9.5 * min(1, SCORING_CHARS / len(line)), 2)


@lru_cache(maxsize=256)
def _card_face(card_id: str, language: str | None) -> str:
    c = card(card_id)
    stripe = FILLS[c.stripe]
    ink = ink_for(c.stripe)
    parts = [
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="8" fill="#fffdf7"'
        f' stroke="{PAPER_EDGE}" stroke-width="1.5"/>'
        f'<path d="M1 24V9a8 8 0 0 1 8-8h{WIDTH - 18}a8 8 0 0 1 8 8v15Z" fill="{stripe}"/>'
        f"{glyph(c.stripe, 13, 12.5, 13)}"
        f'<text x="{WIDTH / 2 + 6}" y="17" text-anchor="middle" font-size="12" font-weight="700"'
        f' fill="{ink}">{escape(_(c.name))}</text>'
    ]
    spirit_word = pgettext("card face", "SPIRIT")
    if c.kind == "animal":
        parts.append(figure(c.name, 20, 28, 34))
        parts.append(_pattern_picture(card_id, 5, 64, 74, 100))
    else:
        parts.append(
            figure(c.name, 6, 27, 22)
            + f'<text x="{WIDTH / 2}" y="36" text-anchor="middle" font-size="8.5" font-weight="700"'
            f' letter-spacing="1.2" fill="#5b4a8b">{escape(spirit_word)}</text>'
            + _pattern_picture(card_id, 8, 50, 104, 82)
            + f'<line x1="14" x2="{WIDTH - 14}" y1="135" y2="135" stroke="{PAPER_EDGE}"/>'
        )
        parts.extend(
            f'<text x="{WIDTH / 2}" y="{148 + 12 * i}" text-anchor="middle"'
            f' font-size="{_scoring_size(line)}" font-weight="600" fill="{INK_DARK}">'
            f"{escape(line)}</text>"
            for i, line in enumerate(_spirit_lines(card_id))
        )
    return "".join(parts)


# A page shows up to twenty-odd cards that differ only in their cubes: the face is one <use> of
# the cached sprite, and only the track and the cubes are written out. Each picture is drawn once
# per process (a few hundred in all).
def card_svg(
    card_id: str,
    *,
    cubes_on_card: int | None = None,
    completed: bool = False,
    sprite: str | None = None,
) -> SafeString:
    """An animal or spirit card. `cubes_on_card` None means every slot is covered (a card in the
    display); a completed card shows its full value and no cubes. `sprite`, the page sprite's
    address, draws the face as a `<use>` of it; None draws it in full, for pictures that leave
    the site (emails, exports). Drawn once per language: its words are the reader's."""
    return _card_svg(card_id, cubes_on_card, completed, sprite, translation.get_language())


@lru_cache(maxsize=2048)
def _card_svg(
    card_id: str,
    cubes_on_card: int | None,
    completed: bool,
    sprite: str | None,
    language: str | None,
) -> SafeString:

    c = card(card_id)
    total = c.cube_count
    if completed:
        cubes_on_card = 0
    on_card = total if cubes_on_card is None else max(0, min(total, cubes_on_card))
    placed = total - on_card
    if sprite is None:
        face = f'<g class="card-face">{card_face(card_id)}</g>'
    else:
        face = f'<use href="{sprite}#card-{escape(c.id)}" width="{WIDTH}" height="{HEIGHT}"/>'
    habitat = describe_pattern(card_id)
    if c.kind == "animal":
        worth = c.score_by_cubes_placed[placed]
        if cubes_on_card is None:
            state = _("points %(points)s") % {"points": "/".join(map(str, c.points_top_to_bottom))}
        elif placed == total:
            state = _("completed; worth %(points)s") % {"points": worth}
        else:
            state = _("%(placed)s of %(total)s cubes placed; worth %(points)s") % {
                "placed": placed,
                "total": total,
                "points": worth,
            }
        summary = _("%(card)s: %(habitat)s; %(state)s") % {
            "card": _(c.name),
            "habitat": habitat,
            "state": state,
        }
        slots = len(c.points_top_to_bottom)
        track_top = 28 + (HEIGHT - 34 - slots * 24) / 2
        cube_href = "" if sprite is None else f"{sprite}#cube"
        body = _track(c.points_top_to_bottom, on_card, track_top, cube_href)
    else:
        cube_state = _("cube placed") if placed else _("cube on the card")
        summary = _("%(card)s (Nature's Spirit): %(habitat)s; %(state)s. %(scoring)s") % {
            "card": _(c.name),
            "habitat": habitat,
            "state": cube_state,
            "scoring": _(c.scoring_text),
        }
        body = _check(WIDTH - 14, 36) if placed else cube(WIDTH - 14, 37, 12, spirit=True)
    if c.kind == "animal" and placed == total:
        body += _check(14, HEIGHT - 14)
    classes = f"game-card game-card-{c.kind}" + (" game-card-completed" if placed == total else "")
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{classes}" role="img"'
        f' aria-label="{escape(summary)}" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}"'
        f' height="{HEIGHT}" font-family="system-ui, sans-serif" data-card="{escape(c.id)}">'
        f"<title>{escape(summary)}</title>{face}{body}</svg>"
    )
