"""Build what every game page needs before the first player asks: the engine's tables, the cards'
faces and the Jinja2 templates of the game page, about 0.25 s of CPU in all.

Why: each web worker used to pay it during its first players' pages (the first 25 pages of a new
process cost 23-26 ms each against 10 ms once warm). Called from the WSGI module, so gunicorn's
--preload builds it once in the parent and every forked worker starts warm and shares it. Nothing
here touches the database or the cache: a connection opened before the fork would be shared by
every worker.
"""

from __future__ import annotations

from django.template import engines

from games import engine
from games.pictures.cards import card_svg
from games.pictures.sprite import sprite_url
from games.pictures.tokens import token_svg

HOT_TEMPLATES = ("games/game.html", "games/_talk.html", "games/talk.html")


def warm() -> None:
    engine.warm_caches()
    for card_id in engine.ANIMAL_CARD_IDS + engine.SPIRIT_CARD_IDS:
        card_svg(card_id, sprite=sprite_url())
    for colour in engine.COLOURS:
        token_svg(colour, sprite=sprite_url())
    jinja = engines["jinja2"].env
    for name in HOT_TEMPLATES:
        jinja.get_template(name)
