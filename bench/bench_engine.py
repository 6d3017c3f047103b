"""Speed of the game layer: per-operation costs and whole random games.

Run: .venv/bin/python bench/bench_engine.py [--games N]
Targets (one core): random solo games with cards >= 300 games/s; 4 players with spirits >= 50.
Prints figures only; nothing here asserts, so a slow machine never fails a test run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import (
    GameConfig,
    apply,
    legal_actions,
    new_game,
    random_policy,
    score_sheets,
    state_from_json,
    state_to_json,
    view_for,
)
from games.engine.simulate import simulate


def sample_states(config: GameConfig, games: int) -> list:
    """States met along random games, to time single operations on realistic positions."""
    rng = random.Random(1)
    states = []
    for seed in range(games):
        state = new_game(config, seed)
        while not state.finished:
            states.append(state)
            state = apply(state, random_policy(state, rng))
        states.append(state)
    return states


def per_call(label: str, func, items, repeat: int = 3) -> None:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            func(item)
        best = min(best, time.perf_counter() - start)
    print(f"  {label:<28} {best / len(items) * 1e6:8.1f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()

    for config in (GameConfig(players=1, side="A"), GameConfig(players=4, spirits=True)):
        label = f"{config.players} player(s), side {config.side}, spirits {config.spirits}"
        states = sample_states(config, 50)
        live = [s for s in states if not s.finished]
        rng = random.Random(2)
        moves = [(s, random_policy(s, rng)) for s in live]
        texts = [state_to_json(s) for s in states]
        print(f"{label}: {len(states)} sampled states")
        per_call("legal_actions", legal_actions, live)
        per_call("apply (a random legal move)", lambda m: apply(*m), moves)
        per_call("new_game", lambda seed, c=config: new_game(c, seed), range(200))
        per_call("state_to_json", state_to_json, states)
        per_call("state_from_json", state_from_json, texts)
        per_call("view_for (seat 0)", lambda s: view_for(s, 0), states)
        per_call("score_sheets", score_sheets, states[:: max(1, len(states) // 200)])

    for config, target in ((GameConfig(players=1, side="A"), 300), (GameConfig(4, "A", True), 50)):
        report = simulate(config, args.games, seed=0)
        rate = report.games / report.seconds
        print(
            f"simulate {config.players}p side {config.side} spirits {config.spirits}: "
            f"{rate:.0f} games/s (target {target}), "
            f"{report.actions / report.seconds / 1000:.0f}k actions/s, "
            f"{report.seconds / report.actions * 1e6:.1f} µs per choose+apply step"
        )


if __name__ == "__main__":
    main()
