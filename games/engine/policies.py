"""Move-choosing policies for simulations and bots.

A policy is a callable `(state, rng) -> Action` that returns one of `legal_actions(state)`.
Policies are registered by name so the command line can pick one per seat
(`--policy medium,easy`): "random", and the bots "easy", "medium" and "hard" (games.engine.bots),
which decide from the mover's view only.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .actions import Action, ResetTurn
from .bots import EasyBot, HardBot, MediumBot
from .rules import legal_actions
from .state import GameState

Policy = Callable[[GameState, random.Random], Action]


def random_policy(state: GameState, rng: random.Random) -> Action:
    """A uniformly random legal action, never a turn reset (it would only waste moves)."""
    actions = legal_actions(state)
    n = len(actions)
    if type(actions[-1]) is ResetTurn:
        n -= 1  # ResetTurn, when offered, is always listed last
    return actions[int(rng.random() * n)]


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "easy": EasyBot(),
    "medium": MediumBot(),
    "hard": HardBot(),
}


def get_policy(name: str) -> Policy:
    """The registered policy called `name`; ValueError lists the known names."""
    try:
        return POLICIES[name]
    except KeyError:
        known = ", ".join(sorted(POLICIES))
        raise ValueError(f"unknown policy {name!r} (known: {known})") from None


def seat_names(spec: str, players: int) -> list[str]:
    """Policy names per seat from "name" (every seat) or "name,name,..." (one per seat)."""
    names = [n.strip() for n in spec.split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(f"{len(names)} policies given for {players} players")
    return names


def seat_policies(spec: str, players: int, budget: float | None = None) -> tuple[Policy, ...]:
    """Policies per seat; `budget` (seconds per decision) goes to bots that take one (hard)."""
    out = []
    for name in seat_names(spec, players):
        policy = get_policy(name)
        with_budget = getattr(policy, "with_budget", None)
        if budget is not None and with_budget is not None:
            policy = with_budget(budget)
        out.append(policy)
    return tuple(out)
