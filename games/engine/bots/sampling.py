"""What a bot may know: a playable state rebuilt from one seat's view, hidden parts sampled.

A bot never reads `state.pouch` or `state.deck`. It rebuilds a state from `view_for(state, seat)`
and fills the hidden parts with a plausible order drawn from the public counts: the pouch holds
`pouch_count` tokens drawn from everything not visible (120 tokens minus boards, central board and
hand; the colours of solo discards are not in the view, so they stay among the unseen tokens),
and the draw pile is every animal card not visible anywhere, shuffled.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..cards import ANIMAL_CARD_IDS, SPIRIT_CARD_IDS
from ..hexgrid import geometry
from ..state import GameConfig, GameState, PlayerState, TurnStart, evolve
from ..tokens import COLOURS, TOKEN_SUPPLY


def _player(view: dict[str, Any], config: GameConfig, dealt: tuple[str, ...]) -> PlayerState:
    geo = geometry(config.side)
    stacks = [()] * geo.size
    for name, stack in view["stacks"].items():
        stacks[geo.index[name]] = tuple(stack)
    return PlayerState(
        stacks=tuple(stacks),
        cube_mask=sum(1 << geo.index[name] for name in view["cube_hexes"]),
        cards=tuple((c["card_id"], c["cubes_placed"]) for c in view["cards"]),
        completed=tuple(view["completed"]),
        # Another seat's dealt spirits are face down: `dealt` is a guess among the unseen ones.
        spirit_options=tuple(view["spirit_options"]) or dealt,
        spirit=view["spirit"],
        spirit_placed=view["spirit_placed"],
        turns=view["turns"],
    )


def unseen_tokens(view: dict[str, Any]) -> list[str]:
    """Token colours not visible in the view (pouch and solo discards), in a fixed order."""
    seen: Counter[str] = Counter()
    for player in view["players"]:
        for stack in player["stacks"].values():
            seen.update(stack)
    for space in view["central"]:
        seen.update(space)
    seen.update(view["hand"])
    return [c for c in COLOURS for _ in range(max(0, TOKEN_SUPPLY[c] - seen[c]))]


def unseen_cards(view: dict[str, Any]) -> list[str]:
    """Animal cards visible nowhere (the draw pile), in id order."""
    seen = set(view["display"]) | set(view["discarded_cards"])
    for player in view["players"]:
        seen.update(c["card_id"] for c in player["cards"])
        seen.update(player["completed"])
    return [c for c in ANIMAL_CARD_IDS if c not in seen]


def sample_state(view: dict[str, Any], rng: random.Random) -> GameState:
    """A state consistent with `view`; the pouch and deck orders are drawn with `rng`."""
    config = GameConfig.from_json(view["config"])
    tokens = unseen_tokens(view)
    pouch = rng.sample(tokens, min(view["pouch_count"], len(tokens)))
    cards = unseen_cards(view)
    rng.shuffle(cards)
    shown = {p["spirit"] for p in view["players"]}
    shown.update(c for p in view["players"] for c in p["spirit_options"])
    spirits = [c for c in SPIRIT_CARD_IDS if c not in shown]
    rng.shuffle(spirits)
    players = []
    for p in view["players"]:
        dealt: tuple[str, ...] = ()
        if p["choosing_spirit"] and not p["spirit_options"]:
            dealt, spirits = tuple(spirits[:2]), spirits[2:]
        players.append(_player(p, config, dealt))
    state = GameState(
        config=config,
        players=tuple(players),
        central=tuple(tuple(s) for s in view["central"]),
        pouch=tuple(pouch),
        display=tuple(view["display"]),
        deck=tuple(cards[: view["deck_count"]]),
        first_seat=view["first_seat"],
        current_seat=view["current_seat"],
        turn=view["turn"],
        hand=tuple(view["hand"]),
        taken_space=view["taken_space"],
        took_card=view["took_card"],
        turn_start=None,
        discarded_tokens=view["discarded_tokens"],
        discarded_cards=tuple(view["discarded_cards"]),
        ending=view["ending"],
        finished=view["finished"],
    )
    if view["can_reset"]:
        # The turn has started; its start is not in the view, and a bot never resets anyway.
        mover = state.players[state.current_seat]
        state = evolve(state, turn_start=TurnStart(mover, state.central, state.display))
    return state
