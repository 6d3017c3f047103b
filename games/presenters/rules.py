"""The rules page (/rules/): the worked examples (games.presenters.rules_examples), the tables
and the numbers the page prints, each read from where the site applies it.

The tables (tree, mountain and river points, solo suns, legal stacks) are read off the engine's
scoring and stacking functions, and the site's own rules off the Game model, games.results and
records, so the page says what the code does. Nothing here reads the database; the page's values
are computed once per process and language (they are words: `rules_page` in the active one).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from games import clocks, results
from games.engine import ANIMAL_CARD_IDS, SPIRIT_CARD_IDS, card, geometry, solo_suns
from games.engine.names import card_name, spirit_title
from games.engine.river import river, river_points
from games.engine.scoring import (
    BUILDING_POINTS,
    FIELD_GROUP_POINTS,
    ISLAND_POINTS,
    MOUNTAIN_POINTS,
    TREE_POINTS,
)
from games.engine.state import (
    CARD_LIMIT,
    MULTI_DISPLAY,
    MULTI_SPACES,
    SOLO_DISPLAY,
    SOLO_SPACES,
    SPIRITS_DEALT,
    TOKENS_PER_SPACE,
)
from games.engine.tokens import COLOUR_NAMES, COLOURS, LEGAL_STACKS, TOKEN_SUPPLY, can_place
from games.models import Game
from games.pictures.boards import describe_stack
from games.pictures.cards import describe_pattern
from games.presenters.rules_examples import HABITAT_CARD, SPIRIT_CARD, examples
from games.services.core import STAND_IN_POLICY
from records.models import PROVISIONAL_GAMES
from records.ratings import NEW_ACCOUNT_AGE

# The rulebook's solo example: 130 points on side A, with the Lion's Spirit kept.
SOLO_EXAMPLE = (130, "A", SPIRIT_CARD)


def stack_rows() -> list[dict[str, Any]]:
    """Every legal stack (rules §4.1), bottom to top, what it is and what may go on it."""
    # By base colour, buildings after the stacks they stand on.
    order = sorted(LEGAL_STACKS, key=lambda s: (COLOURS.index(s[0]), "red" in s[1:], len(s), s))
    rows = [{"stack": (), "words": _("an empty hex"), "takes": list(COLOURS)}]
    rows += [
        {
            "stack": stack,
            "words": describe_stack(stack),
            "takes": [colour for colour in COLOURS if can_place(stack, colour)],
        }
        for stack in order
    ]
    return rows


def ring_length() -> int:
    """How long the engine counts a ring of 6 water tokens (around column 3, 3rd hex, side A):
    the rulebook is silent on loops, and the site counts the shortest way (rules §0 D1)."""
    geo = geometry("A")
    ring = sum(1 << n for n in geo.neighbours[geo.index["2,2"]])
    return len(river("A", ring))


def _spirit_of(family: str) -> str:
    return next(s for s in SPIRIT_CARD_IDS if card(s).scoring_family == family)


def sun_bands(top: int = 300) -> list[dict[str, Any]]:
    """The solo score bands and their suns, read off `solo_suns` on side B with a "count"
    spirit, which add nothing (the bonuses are told apart, `sun_bonuses`)."""
    plain = _spirit_of("count")
    bands: list[dict[str, Any]] = []
    for score in range(top + 1):
        suns = solo_suns(score, "B", plain)
        if bands and bands[-1]["suns"] == suns:
            bands[-1]["high"] = score
        else:
            bands.append({"low": score, "high": score, "suns": suns})
    bands[-1]["high"] = None  # the last band has no top
    return bands


def sun_bonuses() -> dict[str, int]:
    """The suns a solo game adds to its score's, by the engine: from the board side (measured
    with a "count" spirit) and from the spirit kept, or none (measured on side B)."""
    count, groups = _spirit_of("count"), _spirit_of("groups")
    score_only = solo_suns(0, "B", count) - card(count).solo_sun_bonus
    return {
        "side_a": solo_suns(0, "A", count) - solo_suns(0, "B", count),
        "no_spirit": solo_suns(0, "B", None) - score_only,
        "groups_spirit": solo_suns(0, "B", groups) - score_only,
        "count_spirit": solo_suns(0, "B", count) - score_only,
    }


def rules_page() -> dict[str, Any]:
    """Everything the rules page shows that the engine decides, in the active language."""
    return _rules_page(translation.get_language() or "")


def _spirit_words(card_id: str) -> dict[str, Any]:
    """A Nature's Spirit card as the page names it (the Card's own name is English)."""
    c = card(card_id)
    return {"id": c.id, "name": card_name(c.id), "title": spirit_title(c.id)}


def _scoring(text: str) -> str:
    """A spirit's scoring sentence after "The scoring:": lower case but in German."""
    if (translation.get_language() or "").startswith("de"):
        return text
    return text.lower()


@cache
def _rules_page(language: str) -> dict[str, Any]:
    """rules_page, computed once per process and language (`language` keys the cache)."""
    spirits = [card(s) for s in SPIRIT_CARD_IDS]
    spirit_words = {c.id: _spirit_words(c.id) for c in spirits}
    total, side, spirit = SOLO_EXAMPLE
    return {
        "examples": examples(),
        "supply": [(colour, TOKEN_SUPPLY[colour], _(COLOUR_NAMES[colour])) for colour in COLOURS],
        "token_count": sum(TOKEN_SUPPLY.values()),
        "animal_cards": len(ANIMAL_CARD_IDS),
        "spirit_cards": len(SPIRIT_CARD_IDS),
        "spaces": MULTI_SPACES,
        "solo_spaces": SOLO_SPACES,
        "display": MULTI_DISPLAY,
        "solo_display": SOLO_DISPLAY,
        "solo_leftover": (SOLO_SPACES - 1) * TOKENS_PER_SPACE,
        "per_space": TOKENS_PER_SPACE,
        "card_limit": CARD_LIMIT,
        "spirits_dealt": SPIRITS_DEALT,
        "stack_rows": stack_rows(),
        "tree_points": list(enumerate(TREE_POINTS, start=1)),
        "mountain_points": list(enumerate(MOUNTAIN_POINTS, start=1)),
        "river_points": [(length, river_points(length)) for length in range(1, 9)],
        "river_more": river_points(9) - river_points(8),
        "ring_length": ring_length(),
        "field_points": FIELD_GROUP_POINTS,
        "building_points": BUILDING_POINTS,
        "island_points": ISLAND_POINTS,
        "habitat_card": {"id": HABITAT_CARD, "name": card_name(HABITAT_CARD)},
        "spirit_card": {
            **spirit_words[SPIRIT_CARD],
            "scoring": _scoring(_(card(SPIRIT_CARD).scoring_text)),
        },
        "spirit_habitat": describe_pattern(SPIRIT_CARD),
        "spirit_groups": [spirit_words[c.id] for c in spirits if c.scoring_family == "groups"],
        "spirit_counts": [spirit_words[c.id] for c in spirits if c.scoring_family == "count"],
        "spirits": [spirit_words[c.id] for c in spirits],
        "sun_bands": sun_bands(),
        "sun_bonuses": sun_bonuses(),
        "site": site_rules(),
        "solo_example": {
            "total": total,
            "side": side,
            "spirit": spirit_title(spirit),
            "suns": solo_suns(total, side, spirit),
        },
    }


def stand_in_increment() -> int:
    """The fewest hours a move may add to a time bank when late turns go to the stand-in, as the
    writer's check decides (with none, a player whose bank ran out could never play again)."""
    low, high = clocks.INCREMENT_HOURS
    for hours in range(low, high + 1):
        try:
            clocks.check_clock(clocks.BANK, bank_days=clocks.BANK_DAYS[0], increment_hours=hours)
        except clocks.ClockError:
            continue
        return hours
    raise ValueError("no time added per move suits a stand-in")


def site_rules() -> dict[str, Any]:
    """The site's own rules (docs/rules.md §15), each number read where the site applies it: the
    clocks from games.clocks (which the writer's checks use), what a timeout does from the Game
    model, what counts from games.results, ratings from records."""
    return {
        "clock_kinds": [str(label) for _value, label in Game.Clock.choices],
        "time_limits": list(clocks.TURN_LIMIT_DAYS),
        "bank_days": clocks.BANK_DAYS,
        "increment_hours": clocks.INCREMENT_HOURS,
        "stand_in_increment": stand_in_increment(),
        "on_timeout": [str(label) for _value, label in Game.OnTimeout.choices],
        "stand_in": _bot_level(STAND_IN_POLICY),
        "min_own_turns": results.MIN_OWN_TURNS,
        "ranking_rule": str(results.RANKING_RULE),
        "uncounted": [str(label) for value, label in Game.Uncounted.choices if value],
        "new_account_days": NEW_ACCOUNT_AGE.days,
        "provisional_games": PROVISIONAL_GAMES,
    }


def _bot_level(level: str) -> str:
    """A computer opponent's level as the page says it ("the easy computer opponent")."""
    return {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}.get(level, level)
