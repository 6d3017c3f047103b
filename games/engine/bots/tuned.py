"""Evaluation weights fitted by self-play (tools/tune_bots.py), one set per kind of game.

`tuned.json` maps a key ("solo-A", "solo-B", "2p", "34p") to the weights that replace the
hand-set defaults of `evaluate.Weights` for the medium and hard bots in that kind of game; a
key that is absent keeps the defaults. The tuning script writes a key only when the new weights
beat the defaults on deals it never tuned on. A set may also hold "stages" (weights for a number
of turns left, over the set's own) and "cards" (each card's ease), fitted by tools/fit_bots.py.
"""

from __future__ import annotations

import json
from dataclasses import fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..state import GameConfig
from .evaluate import Weights

TUNED_FILE = Path(__file__).with_name("tuned.json")
NAMES = tuple(f.name for f in fields(Weights))


def mode_key(config: GameConfig) -> str:
    """Which weight set a game uses: solo games by board side, then 2, then 3-4 players."""
    if config.players == 1:
        return f"solo-{config.side}"
    return "2p" if config.players == 2 else "34p"


@lru_cache(maxsize=1)
def _table() -> dict[str, dict[str, Any]]:
    if not TUNED_FILE.exists():
        return {}
    return json.loads(TUNED_FILE.read_text())


def tuned_weights(config: GameConfig, turns_left: int | None = None) -> Weights:
    """The fitted weights for this kind of game at this stage, or the defaults.

    A set may hold "stages": weights fitted for a number of turns left, over the set's own.
    """
    found = _table().get(mode_key(config))
    if not found:
        return Weights()
    stage = found.get("stages", {}).get(str(turns_left), {})
    merged = {**found, **stage}
    return Weights(**{name: float(merged[name]) for name in NAMES if name in merged})


def card_ease(config: GameConfig) -> dict[str, float]:
    """Per card, the share of its expected points the bot turned into points ("cards")."""
    return _table().get(mode_key(config), {}).get("cards", {})
