"""Playing many complete games with policies: a speed benchmark and a sanity check of the rules."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .policies import Policy, seat_policies
from .queries import score_sheets, suns
from .rules import apply
from .setup_game import new_game
from .state import GameConfig, GameState

CATEGORIES = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit", "total")
# No real game needs this many actions; a policy that never ends its turn would loop forever.
MAX_ACTIONS = 20_000


def play(
    config: GameConfig, seed: int, policies: tuple[Policy, ...], rng: random.Random
) -> tuple[GameState, int]:
    """Play a whole game from `new_game(config, seed)`; return the final state and action count."""
    state = new_game(config, seed)
    actions = 0
    while not state.finished:
        state = apply(state, policies[state.current_seat](state, rng))
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"game with seed {seed} did not end after {MAX_ACTIONS} actions")
    return state, actions


@dataclass
class SimulationReport:
    """Totals over the simulated games; `lines()` formats them for the command line."""

    config: GameConfig
    policy: str
    games: int = 0
    seconds: float = 0.0
    actions: int = 0
    turns: int = 0
    sums: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    maxima: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    suns: int = 0

    def add(self, state: GameState, actions: int) -> None:
        self.games += 1
        self.actions += actions
        self.turns += state.turn
        for sheet in score_sheets(state):
            for key, value in sheet.as_dict().items():
                self.sums[key] += value
                self.maxima[key] = max(self.maxima[key], value)
        if state.config.solo:
            self.suns += suns(state) or 0

    def lines(self) -> list[str]:
        c = self.config
        games = max(self.games, 1)
        boards = games * c.players
        rate = self.games / self.seconds if self.seconds else float("inf")
        out = [
            f"{self.games} games, {c.players} player(s), side {c.side}, "
            f"spirits {'on' if c.spirits else 'off'}, policy {self.policy}",
            f"{self.seconds:.2f} s, {rate:.1f} games/s, "
            f"{self.actions / self.seconds if self.seconds else 0:.0f} actions/s",
            f"mean turns per game {self.turns / games:.1f}, "
            f"mean actions per game {self.actions / games:.1f}",
            f"{'category':<10} {'mean':>7} {'max':>5}",
        ]
        out += [f"{k:<10} {self.sums[k] / boards:>7.2f} {self.maxima[k]:>5}" for k in CATEGORIES]
        if c.solo:
            out.append(f"mean suns {self.suns / games:.2f}")
        return out


def simulate(config: GameConfig, games: int, seed: int, policy: str = "random") -> SimulationReport:
    """Play `games` games with seeds seed, seed+1, ...; the policies share one seeded generator."""
    policies = seat_policies(policy, config.players)
    rng = random.Random(seed)
    report = SimulationReport(config=config, policy=policy)
    start = time.perf_counter()
    for i in range(games):
        state, actions = play(config, seed + i, policies, rng)
        report.add(state, actions)
    report.seconds = time.perf_counter() - start
    return report
