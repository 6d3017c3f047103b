"""Template tags for the pictures of the game (the SVG itself is drawn in games/svg*.py)."""

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games import engine, narration
from games.pictures.cards import card_svg
from games.pictures.sprite import sprite_url
from games.pictures.tokens import token_svg
from games.presenters.clocks import clock_words as _clock_words
from games.presenters.help import score_explanations
from games.presenters.score_table import score_table as _score_table

register = template.Library()


@register.simple_tag
def token(colour: str, size: int = 28) -> SafeString:
    return token_svg(colour, size=size, sprite=sprite_url())


@register.simple_tag
def card_face(
    card_id: str, cubes_placed: int | str | None = None, completed: bool = False
) -> SafeString:
    """A card as its holder sees it: `cubes_placed` cubes have left it for the board."""
    if cubes_placed is None or cubes_placed == "":
        return card_svg(card_id, completed=completed, sprite=sprite_url())
    remaining = engine.card(card_id).cube_count - int(cubes_placed)
    return card_svg(card_id, cubes_on_card=remaining, completed=completed, sprite=sprite_url())


@register.simple_tag
def score_table(
    names: list[str], rows: list[dict], side: str = "", players: list | None = None
) -> SafeString:
    """The score table; with the board `side` and the sheet's `players` (each with the engine's
    `view` of their board, in the columns' order), every figure says how it adds up."""
    explanations = None
    if side and players:
        explanations = score_explanations(side, [player["view"] for player in players])
    return _score_table(names, rows, explanations)


@register.filter
def card_name(card_id: str) -> str:
    """A card's name in the reader's language (the edition's, as the engine marks it)."""
    try:
        return _(engine.card(card_id).name)
    except engine.UnknownCard:
        return card_id


@register.filter
def clock_words(game) -> str:
    """A game's pace in words ("3 days per turn"), as every page and email words it."""
    return _clock_words(game)


@register.filter
def space_label(tokens: list[str]) -> str:
    if not tokens:
        return _("empty")
    return ", ".join(narration.colour_name(colour) for colour in tokens)


@register.filter
def get_item(mapping: dict, key: str):
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def cell_words(cell: str) -> str:
    """A hex named as a player finds it ("column 2, 3rd from the top"), for the no-JS forms."""
    return narration.cell_words(cell)
