"""Move-choosing policies for simulations and, later, bots.

A policy is a callable `(state, rng) -> Action` that returns one of `legal_actions(state)`.
Policies are registered by name so the command line can pick one per seat
(`--policy random,random`); stronger bots will be added to `POLICIES`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .actions import Action, ResetTurn
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


POLICIES: dict[str, Policy] = {"random": random_policy}


def get_policy(name: str) -> Policy:
    """The registered policy called `name`; ValueError lists the known names."""
    try:
        return POLICIES[name]
    except KeyError:
        known = ", ".join(sorted(POLICIES))
        raise ValueError(f"unknown policy {name!r} (known: {known})") from None


def seat_policies(spec: str, players: int) -> tuple[Policy, ...]:
    """Policies per seat from "name" (every seat) or "name,name,..." (one per seat)."""
    names = [n.strip() for n in spec.split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(f"{len(names)} policies given for {players} players")
    return tuple(get_policy(n) for n in names)
