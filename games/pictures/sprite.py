"""One SVG sprite for the pictures every page repeats: card faces, token chips, board stacks.

A page refers to a symbol with `<use href="/games/pictures/sprite-<digest>.svg#card-animal_05">`,
so the twenty-odd cards of a 4-player page cost a line each instead of a few kilobytes. The
sprite depends only on the code (the engine's cards and the drawing), so it is built once per
process; its address carries a digest of its content, so browsers keep it for a year and a new
deployment that draws differently gets a new address.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from django.urls import reverse
from django.utils import translation

from games.engine import ANIMAL_CARD_IDS, SPIRIT_CARD_IDS
from games.engine.tokens import COLOURS
from games.pictures.boards import SPRITE_STACKS, board_stack_picture, stack_symbol_id
from games.pictures.cards import HEIGHT, WIDTH, card_face
from games.pictures.tokens import cube, token_face


def sprite() -> tuple[str, str]:
    """The sprite's text and the digest that names it, in the active language (the cards' names
    are words): one sprite per language."""
    return _sprite(translation.get_language())


@lru_cache(maxsize=8)
def _sprite(language: str | None) -> tuple[str, str]:
    symbols = [
        f'<symbol id="card-{card_id}" viewBox="0 0 {WIDTH} {HEIGHT}">{card_face(card_id)}</symbol>'
        for card_id in (*ANIMAL_CARD_IDS, *SPIRIT_CARD_IDS)
    ]
    symbols += [
        f'<symbol id="token-{colour}" viewBox="-17 -15.5 34 31">{token_face(colour)}</symbol>'
        for colour in COLOURS
    ]
    # Board stacks are drawn around 0,0 and placed by the <use>'s x and y: no viewBox, no clip.
    symbols += [
        f'<symbol id="{stack_symbol_id(stack, kind)}" overflow="visible">'
        f"{board_stack_picture(stack, kind)}</symbol>"
        for stack, kind in sorted(SPRITE_STACKS, key=lambda item: (item[0], item[1] or ""))
    ]
    # An animal cube 10 units across, as the cards' point tracks show them.
    symbols.append(
        f'<symbol id="cube" viewBox="-5 -5.8 10 11.6" overflow="visible">{cube(0, 0, 10)}</symbol>'
    )
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif">'
        + "".join(symbols)
        + "</svg>"
    )
    return text, hashlib.sha256(text.encode()).hexdigest()[:12]


def sprite_url() -> str:
    return _sprite_url(translation.get_language())


@lru_cache(maxsize=8)
def _sprite_url(language: str | None) -> str:
    return reverse("games:sprite", args=[sprite()[1]])
