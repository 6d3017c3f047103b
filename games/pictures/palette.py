"""The colours of the game's pictures, and the ink that reads on each of them.

Its own module because every picture draws with it: boards, token chips, cards, and the mail
pictures, whose PNG background is the board's paper. A token colour is checked against this
palette, so a bad colour fails loudly instead of reaching the page.
"""

from __future__ import annotations

from functools import lru_cache

from games.engine.tokens import COLOUR_NAMES, COLOURS

__all__ = [
    "COLOUR_WORDS",
    "FILLS",
    "INK_DARK",
    "INK_LIGHT",
    "PAPER",
    "PAPER_EDGE",
    "check_colour",
    "ink_for",
    "shade",
]

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


def shade(hex_colour: str, factor: float = 0.68) -> str:
    """A darker version of a colour, for token edges."""
    rgb = (round(int(hex_colour[i : i + 2], 16) * factor) for i in (1, 3, 5))
    return "#" + "".join(f"{c:02x}" for c in rgb)


def check_colour(colour: str) -> str:
    if colour not in FILLS:
        raise ValueError(f"{colour!r} is not a token colour (expected one of {', '.join(COLOURS)})")
    return colour
