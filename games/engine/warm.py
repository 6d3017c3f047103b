"""Fill the engine's per-process tables before the first game asks for them.

Why: the tables (hex geometry, each card's habitat placements per board side, the river's bit
tables) are built on first use, about 0.3 s in all, and a web worker used to pay that during
its first players' pages. A server that forks its workers from a warmed parent (gunicorn
--preload) builds them once, and every worker shares them.
"""

from __future__ import annotations

from .cards import ANIMAL_CARD_IDS
from .habitats import _by_cube_cell, placements
from .hexgrid import SIDES, geometry, spread_tables
from .river import _bit_tables
from .rules import _cube_actions, _place_actions
from .scoring import _context


def warm_caches() -> None:
    """Build every table that depends only on the rules (idempotent and cheap once built)."""
    _bit_tables()
    for side in SIDES:
        geometry(side)
        spread_tables(side)
        _context(side)
        _place_actions(side)
        for card_id in ANIMAL_CARD_IDS:
            placements(side, card_id)
            _by_cube_cell(side, card_id)
            _cube_actions(side, card_id)
