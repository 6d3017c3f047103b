"""Playing many complete games with policies: a speed benchmark and a sanity check of the rules."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .actions import EndTurn
from .policies import Policy, seat_names, seat_policies
from .queries import score_sheets, suns, winners
from .rules import apply
from .setup_game import new_game
from .state import GameConfig, GameState

CATEGORIES = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit", "total")
# No real game needs this many actions; a policy that never ends its turn would loop forever.
MAX_ACTIONS = 20_000


def play(
    config: GameConfig,
    seed: int,
    policies: tuple[Policy, ...],
    rng: random.Random,
    turn_seconds: list[list[float]] | None = None,
) -> tuple[GameState, int]:
    """Play a whole game from `new_game(config, seed)`; return the final state and action count.

    With `turn_seconds` (one list per seat), the time each seat spent deciding each of its
    turns is appended to its list.
    """
    state = new_game(config, seed)
    actions = 0
    clock = time.perf_counter
    spent = 0.0
    while not state.finished:
        seat = state.current_seat
        if turn_seconds is None:
            action = policies[seat](state, rng)
        else:
            start = clock()
            action = policies[seat](state, rng)
            spent += clock() - start
            if type(action) is EndTurn:
                turn_seconds[seat].append(spent)
                spent = 0.0
        state = apply(state, action)
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
    seats: list[str] = field(default_factory=list)
    seat_totals: list[int] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)
    turn_seconds: list[list[float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = seat_names(self.policy, self.config.players)
        n = self.config.players
        self.seat_totals = self.seat_totals or [0] * n
        self.seat_wins = self.seat_wins or [0.0] * n
        self.turn_seconds = self.turn_seconds or [[] for _ in range(n)]

    def add(self, state: GameState, actions: int) -> None:
        self.games += 1
        won = winners(state)
        for seat in won:
            # A shared victory is shared in the win rate too.
            self.seat_wins[seat] += 1 / len(won)
        self.actions += actions
        self.turns += state.turn
        for seat, sheet in enumerate(score_sheets(state)):
            self.seat_totals[seat] += sheet.total
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
        if c.players > 1 or self.seats != ["random"]:
            out.append(
                f"{'seat':<4} {'policy':<8} {'mean':>7} {'wins':>7} {'s/turn':>8} {'max':>7}"
            )
            for seat, name in enumerate(self.seats):
                times = self.turn_seconds[seat]
                mean_t = sum(times) / len(times) if times else 0.0
                out.append(
                    f"{seat:<4} {name:<8} {self.seat_totals[seat] / games:>7.2f} "
                    f"{100 * self.seat_wins[seat] / games:>6.1f}% {mean_t:>8.3f} "
                    f"{max(times, default=0.0):>7.3f}"
                )
        return out


def simulate(
    config: GameConfig,
    games: int,
    seed: int,
    policy: str = "random",
    budget: float | None = None,
) -> SimulationReport:
    """Play `games` games with seeds seed, seed+1, ...; the policies share one seeded generator.

    `budget` is the hard bot's thinking time per decision, in seconds. Decision times per turn
    are measured only when a bot plays (timing every random move would slow the benchmark).
    """
    policies = seat_policies(policy, config.players, budget)
    rng = random.Random(seed)
    report = SimulationReport(config=config, policy=policy)
    timed = report.seats != ["random"] * config.players
    start = time.perf_counter()
    for i in range(games):
        state, actions = play(
            config, seed + i, policies, rng, report.turn_seconds if timed else None
        )
        report.add(state, actions)
    report.seconds = time.perf_counter() - start
    return report
