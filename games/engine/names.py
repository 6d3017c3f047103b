"""The names a player reads that the engine keeps in English: the cards, the landscapes, the
score categories. Marked here (gettext_noop) so the catalogs hold them, in the published editions'
words; translate one where it is shown with `words._(name)` (or `card_name`, `spirit_title`).
The msgid is the English name exactly as data/cards.json and tokens.py spell it.
"""

from __future__ import annotations

from .words import _, gettext_noop

# The 32 animal cards, by their cards.json name.
ANIMAL_NAMES = (
    gettext_noop("Crocodile"),
    gettext_noop("Ray"),
    gettext_noop("Fish"),
    gettext_noop("Otter"),
    gettext_noop("Frog"),
    gettext_noop("Duck"),
    gettext_noop("Flamingo"),
    gettext_noop("Gecko"),
    gettext_noop("Shrew"),
    gettext_noop("Peacock"),
    gettext_noop("Squirrel"),
    gettext_noop("Hedgehog"),
    gettext_noop("Bee"),
    gettext_noop("Bear"),
    gettext_noop("Rabbit"),
    gettext_noop("Parrot"),
    gettext_noop("Boar"),
    gettext_noop("Koala"),
    gettext_noop("Wolf"),
    gettext_noop("Kingfisher"),
    gettext_noop("Penguin"),
    gettext_noop("Bat"),
    gettext_noop("Fennec Fox"),
    gettext_noop("Macaque"),
    gettext_noop("Eagle"),
    gettext_noop("Meerkat"),
    gettext_noop("Raven"),
    gettext_noop("Llama"),
    gettext_noop("Arctic Fox"),
    gettext_noop("Raccoon"),
    gettext_noop("Ladybug"),
    gettext_noop("Panther"),
)
# The 10 Nature's Spirit cards, by their cards.json name (the animal the spirit is of).
SPIRIT_NAMES = (
    gettext_noop("Lion"),
    gettext_noop("Butterfly"),
    gettext_noop("Deer"),
    gettext_noop("Owl"),
    gettext_noop("Cat"),
    gettext_noop("Stork"),
    gettext_noop("Ram"),
    gettext_noop("Marmot"),
    gettext_noop("Dragonfly"),
    gettext_noop("Tortoise"),
)
# A Nature's Spirit card as a player calls it ("Lion's Spirit"), by card id.
SPIRIT_TITLES = {
    "spirit_lion": gettext_noop("Lion's Spirit"),
    "spirit_butterfly": gettext_noop("Butterfly's Spirit"),
    "spirit_deer": gettext_noop("Deer's Spirit"),
    "spirit_owl": gettext_noop("Owl's Spirit"),
    "spirit_cat": gettext_noop("Cat's Spirit"),
    "spirit_stork": gettext_noop("Stork's Spirit"),
    "spirit_ram": gettext_noop("Ram's Spirit"),
    "spirit_marmot": gettext_noop("Marmot's Spirit"),
    "spirit_dragonfly": gettext_noop("Dragonfly's Spirit"),
    "spirit_tortoise": gettext_noop("Tortoise's Spirit"),
}
# What each Nature's Spirit card scores, as cards.json words it (Card.scoring_text).
SPIRIT_SCORING = (
    gettext_noop(
        "Each connected group of yellow field tokens scores 2 if it has 1 or 2 tokens, 10 if it has 3 or more (single tokens count as groups of size 1)."  # noqa: E501
    ),
    gettext_noop(
        "Each connected group of yellow field tokens (any size, including a lone token) scores 5."
    ),
    gettext_noop("Each Tree of height 2 or 3 scores 4 (height-1 trees score nothing)."),
    gettext_noop("Each Tree of height 1 or 2 scores 3; each Tree of height 3 scores 1."),
    gettext_noop(
        "Each connected group of Buildings (any size, including a lone Building) scores 4. Only 2-token buildings (red on red/brown/gray) count; a lone red token is neither a building nor a connector."  # noqa: E501
    ),
    gettext_noop(
        "Each connected group of 2 or more Buildings scores 6 (larger groups still score 6 once)."
    ),
    gettext_noop(
        "Each Mountain of height 2 or 3 scores 4, isolated Mountains included (the normal Mountain adjacency condition does not apply)."  # noqa: E501
    ),
    gettext_noop(
        "Each Mountain of height 1 or 2 scores 3; each Mountain of height 3 scores 1; isolated Mountains included."  # noqa: E501
    ),
    gettext_noop("Each connected group of 2 or more blue water tokens scores 7."),
    gettext_noop("Each blue water token on the board scores 2."),
)
# The landscape word of each token colour (tokens.COLOUR_NAMES) and the colours themselves.
LANDSCAPE_NAMES = (
    gettext_noop("water"),
    gettext_noop("mountain"),
    gettext_noop("trunk"),
    gettext_noop("foliage"),
    gettext_noop("field"),
    gettext_noop("building"),
)
COLOUR_WORDS = (
    gettext_noop("blue"),
    gettext_noop("gray"),
    gettext_noop("brown"),
    gettext_noop("green"),
    gettext_noop("yellow"),
    gettext_noop("red"),
)
# The score sheet's categories (explain.ScoreLine.label).
CATEGORY_NAMES = (
    gettext_noop("Trees"),
    gettext_noop("Mountains"),
    gettext_noop("Fields"),
    gettext_noop("Buildings"),
    gettext_noop("River"),
    gettext_noop("Islands"),
    gettext_noop("Animal cards"),
    gettext_noop("Nature's Spirit"),
)


def card_name(card_id: str) -> str:
    """A card's name in the reader's language."""
    from .cards import card

    return _(card(card_id).name)


def spirit_title(card_id: str) -> str:
    """ "Lion's Spirit", in the reader's language."""
    return _(SPIRIT_TITLES[card_id])
