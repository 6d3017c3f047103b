"""Help on the game page: each card in words, how each score figure adds up, and the reminder of
a turn's actions for players who have finished few games.

The words come from games.engine.explain, so emails and the rules page can say the same; this
module only puts them in HTML. Everything opens with <details>, so it works by tap, keyboard or
click without JavaScript (the game page's policy allows no inline script).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext as _
from markupsafe import Markup, escape

from games import engine
from games.models import Game, Seat
from harmonies_site.addresses import url

logger = logging.getLogger(__name__)

# The turn reminder stays open until a player has played this many games to the end; then it is
# folded away (still one tap from their turn).
REMINDER_GAMES = 3
# Finished games never become unfinished: a player once past the mark stays past it.
VETERAN_SECONDS = 30 * 24 * 3600


def rules_link(anchor: str) -> str:
    """The rules page's address for one of its sections (#turn #cards #trees ... #spirits)."""
    return f"{url('rules')}#{anchor}"


def card_help_html(
    card_id: str, cubes_placed: int | None = None, completed: bool = False
) -> Markup:
    """A card's explanation as a disclosure to put under its picture: `cubes_placed` for a card
    someone holds, `completed` for one whose cubes are all on the board, neither for a card on
    offer. The same for every viewer in one language (42 cards, a few cube counts): built once
    per process and language."""
    return _card_help_html(card_id, cubes_placed, completed, translation.get_language())


@lru_cache(maxsize=1536)
def _card_help_html(
    card_id: str, cubes_placed: int | None, completed: bool, language: str | None
) -> Markup:
    if completed:
        cubes_placed = engine.card(card_id).cube_count
    words = engine.card_help(card_id, cubes_placed)
    lines = "".join(f"<p>{escape(line)}</p>" for line in (words.habitat, words.cube, words.points))
    if words.progress:
        lines += f'<p class="card-help-progress">{escape(words.progress)}</p>'
    topic = (
        _("Rules: Nature's Spirit cards") if words.kind == "spirit" else _("Rules: animal cards")
    )
    name = _(words.name)
    about, hidden = _("About"), _(" the %(card)s card") % {"card": name}
    return Markup(
        # One open at a time (details sharing a name); the text is laid over the page beside
        # the card row (static/css/help.css), so the row does not jump.
        '<details class="card-help" name="card-help">'
        f'<summary>{escape(about)}<span class="visually-hidden">{escape(hidden)}</span>'
        "</summary>"
        f'<div class="card-help-text"><p class="card-help-name">{escape(name)}</p>{lines}'
        f'<p><a href="{rules_link(words.rules_anchor)}">{escape(topic)}</a></p></div></details>'
    )


def score_explanations(
    side: str,
    players: Sequence[dict[str, Any]],
    sheets: Sequence[engine.ScoreSheet] | None = None,
) -> list[dict[str, engine.ScoreLine]]:
    """For each column of the score table (a player's engine view and, when the caller has them,
    their sheets in the same order), each category's explanation by its ScoreSheet name."""
    kept = list(sheets) if sheets is not None else [None] * len(players)
    return [
        {line.category: line for line in engine.explain_view(side, player, sheet)}
        for player, sheet in zip(players, kept, strict=True)
    ]


def _veteran_key(user: AbstractUser) -> str:
    """The player's id and the time they joined: ids come back after a database is recreated."""
    return f"help-veteran:{user.pk}.{user.date_joined.timestamp():.6f}"


def reminder_open(user: AbstractUser) -> bool:
    """Whether the turn reminder starts open for `user`: fewer than REMINDER_GAMES games played to
    the end. At most one query (a COUNT over at most REMINDER_GAMES of their seats); once past the
    mark the answer is kept in the cache and costs none."""
    key = _veteran_key(user)
    try:
        if cache.get(key):
            return False
    except Exception:  # the cache is an optimisation: Redis down costs the query
        logger.warning("cache unavailable reading the help of player %s", user.pk)
    finished = (
        Seat.objects.filter(
            user_id=user.pk,
            game__status=Game.Status.FINISHED,
            resigned_at__isnull=True,  # a game left early was not played to its end
            dropped_at__isnull=True,
        )
        .values("pk")[:REMINDER_GAMES]
        .count()
    )
    if finished < REMINDER_GAMES:
        return True
    try:
        cache.set(key, True, VETERAN_SECONDS)
    except Exception:
        logger.warning("cache unavailable keeping the help of player %s", user.pk)
    return False
