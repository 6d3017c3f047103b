"""How far hard's search could go in solo if it knew the draws: an upper bound, not a bot.

Run: .venv/bin/python tools/bound_bots.py [--games 100] [--start 2000] [--side A] [--depth 2]
     [--sampled 0] [--jobs 2] [--save FILE] [--against FILE]

The hard bot's futures are sampled orders of the hidden pouch and deck. Here they are the true
state instead (one future per decision, no clock), so a decision sees exactly what will come:
`--depth 2` is hard's usual horizon (the plan, one greedy turn, the next turn valued), and
`--depth 20` plays every plan to the end by greedy turns and values it by final points. With
`--sampled K` the same search uses K ordinary sampled futures instead, which is what a real bot
could do with no clock. `--against FILE` takes a `bench_bots.py --save` file of the same deals
and prints the paired difference. docs/bots.md ("Where hard falls short") gives the figures of
2 December: told the draws, 126.1 at depth 2 and 131.5 at depth 20; 6 sampled futures at depth
20, -1.75 points against the shipped bot. A future evaluation can be measured against these.
Prints figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from statistics import fmean

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stats import interval  # noqa: E402
from games.engine import GameConfig, GameState, score_sheets  # noqa: E402
from games.engine.bots import players  # noqa: E402
from games.engine.bots.planner import Plan  # noqa: E402
from games.engine.simulate import play  # noqa: E402

CATEGORIES = ("trees", "mountains", "fields", "buildings", "water", "animals")


class ToldBot(players.HardBot):
    """The hard bot whose every sampled future is the true state of the game."""

    def __call__(self, state: GameState, rng: random.Random):
        self._truth = state
        return super().__call__(state, rng)

    def choose(self, view: dict, world: GameState, rng: random.Random) -> Plan:
        sample = players.sample_state
        players.sample_state = lambda _view, _rng: self._truth
        try:
            return super().choose(view, world, rng)
        finally:
            players.sample_state = sample


def one_game(job: tuple[int, str, int, int]) -> dict:
    seed, side, depth, sampled = job
    if sampled:
        bot = players.HardBot(budget=1e6, solo_samples=sampled, solo_depth=depth)
    else:
        bot = ToldBot(budget=1e6, solo_samples=1, solo_depth=depth)
    start = time.perf_counter()
    state, _ = play(GameConfig(players=1, side=side), seed, (bot,), random.Random(seed))
    sheet = score_sheets(state)[0]
    return {
        "seed": seed,
        "total": sheet.total,
        "turns": state.turn,
        "sheet": sheet.as_dict(),
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start", type=int, default=2000, help="first deal seed")
    parser.add_argument("--side", choices=("A", "B"), default="A")
    parser.add_argument(
        "--depth", type=int, default=2, help="own turns per future (20: to the end)"
    )
    parser.add_argument("--sampled", type=int, default=0, help="K sampled futures, not the truth")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", help="write every game's result to this JSON file")
    parser.add_argument("--against", help="a bench_bots.py --save file of the same solo deals")
    args = parser.parse_args()
    jobs = [
        (s, args.side, args.depth, args.sampled) for s in range(args.start, args.start + args.games)
    ]
    with Pool(args.jobs) as pool:
        results = sorted(pool.imap_unordered(one_game, jobs), key=lambda r: r["seed"])
    if args.save:
        Path(args.save).write_text(json.dumps(results))
    mean, low, high = interval([r["total"] for r in results])
    kind = f"{args.sampled} sampled futures" if args.sampled else "told the draws"
    print(
        f"hard {kind}, depth {args.depth}, solo side {args.side}: {len(results)} games "
        f"(seeds {jobs[0][0]}-{jobs[-1][0]}), mean {mean:.1f} [95% {low:.1f}-{high:.1f}], "
        f"{fmean(r['turns'] for r in results):.2f} turns, "
        f"{sum(r['seconds'] for r in results) / sum(r['turns'] for r in results):.2f} s a turn"
    )
    print(
        "  by category: "
        + ", ".join(f"{k} {fmean(r['sheet'][k] for r in results):.1f}" for k in CATEGORIES)
    )
    if args.against:
        saved = {r["seed"]: r["totals"][0] for r in json.loads(Path(args.against).read_text())}
        diffs = [r["total"] - saved[r["seed"]] for r in results if r["seed"] in saved]
        if diffs:
            mean, low, high = interval(diffs)
            print(
                f"  paired against {args.against}: {mean:+.2f} "
                f"[95% {low:+.2f} to {high:+.2f}] over {len(diffs)} games"
            )


if __name__ == "__main__":
    main()
