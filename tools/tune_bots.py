"""Fit the bots' evaluation weights by self-play with CMA-ES (the `cma` package).

Run: .venv/bin/python tools/tune_bots.py --mode solo --side A [--jobs 2] [--max-seconds 3600]
     [--games 8] [--popsize 10] [--sigma 0.8] [--eval-games 40] [--write]

Each candidate is a full set of `evaluate.Weights`; it plays the medium bot's search (a fraction
of the hard bot's time, the same evaluation) on `--games` seeded deals per generation, the same
deals for every candidate of a generation (common random numbers) and new deals every
generation. The score to maximise: the mean solo score (`--mode solo`), or the win share against
the default weights in 2-player (`2p`) or 3-player (`34p`) games, the tuned bot changing seat.

Tuning deals (seeds from 5,000,000) never meet the evaluation deals (seeds from 9,000,000, and
bench/bench_bots.py's own from 1000): at the end the best weights and the defaults play
`--eval-games` evaluation deals each, and the paired difference is printed with its 95%
interval. With `--write` the weights go to games/engine/bots/tuned.json under their mode's key,
only if that interval lies above zero. The search state is saved after every generation in
var/tune-<key>.pickle, so a run stopped by `--max-seconds` (or Ctrl-C) resumes where it was.
Prints figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
import sys
import time
import warnings
from dataclasses import fields
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

with warnings.catch_warnings():  # cma mentions its optional plots once; nothing is plotted
    warnings.simplefilter("ignore")
    import cma

from bench.stats import interval  # noqa: E402
from games.engine import GameConfig, score_sheets, winners  # noqa: E402
from games.engine.bots import MediumBot  # noqa: E402
from games.engine.bots.evaluate import Weights  # noqa: E402
from games.engine.bots.planner import Settings  # noqa: E402
from games.engine.bots.players import Bot  # noqa: E402
from games.engine.bots.tuned import TUNED_FILE, mode_key  # noqa: E402
from games.engine.simulate import play  # noqa: E402

NAMES = tuple(f.name for f in fields(Weights))
DEFAULTS = [getattr(Weights(), name) for name in NAMES]
TUNE_SEEDS, EVAL_SEEDS = 5_000_000, 9_000_000
LOW, HIGH = 0.0, 30.0  # every weight is points of a potential: never negative, never huge


def bot_with(vector: list[float] | None) -> Bot:
    """The medium bot's search with these weights (None: the defaults, as the bots ship)."""
    bot = MediumBot()
    weights = Weights() if vector is None else Weights(**dict(zip(NAMES, vector, strict=True)))
    bot.settings = Settings(beam=12, keep=6, focus=12, weights=weights)
    return bot


def config_for(mode: str, side: str) -> GameConfig:
    return GameConfig(players={"solo": 1, "2p": 2, "34p": 3}[mode], side=side)


def one_game(job: tuple) -> float:
    """One seeded game of one candidate; the higher the better."""
    mode, side, seed, vector = job
    config = config_for(mode, side)
    if mode == "solo":
        state, _ = play(config, seed, (bot_with(vector),), random.Random(seed))
        return float(score_sheets(state)[0].total)
    seat = seed % config.players  # the tuned bot moves round the table from deal to deal
    bots = tuple(bot_with(vector if s == seat else None) for s in range(config.players))
    state, _ = play(config, seed, bots, random.Random(seed))
    won = winners(state)
    return (1.0 / len(won) if seat in won else 0.0) * config.players  # 1.0: a fair share


def run_jobs(pool: Pool | None, jobs: list[tuple]) -> list[float]:
    return list(pool.map(one_game, jobs) if pool else map(one_game, jobs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("solo", "2p", "34p"), default="solo")
    parser.add_argument("--side", choices=("A", "B"), default="A")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=3600)
    parser.add_argument("--games", type=int, default=8, help="deals per candidate per generation")
    parser.add_argument("--popsize", type=int, default=10)
    parser.add_argument("--sigma", type=float, default=0.8)
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--write", action="store_true", help="save weights that beat the defaults")
    args = parser.parse_args()

    key = mode_key(config_for(args.mode, args.side))
    state_file = ROOT / "var" / f"tune-{key}.pickle"
    state_file.parent.mkdir(exist_ok=True)
    if state_file.exists():
        saved = pickle.loads(state_file.read_bytes())
        es, generation, best = saved["es"], saved["generation"], saved["best"]
        print(f"resuming {key} at generation {generation}")
    else:
        options = {"popsize": args.popsize, "bounds": [LOW, HIGH], "seed": 1, "verbose": -9}
        es, generation, best = cma.CMAEvolutionStrategy(DEFAULTS, args.sigma, options), 0, None

    started = time.monotonic()
    pool = Pool(args.jobs) if args.jobs > 1 else None
    try:
        while time.monotonic() - started < args.max_seconds and not es.stop():
            seeds = [TUNE_SEEDS + generation * 1000 + k for k in range(args.games)]
            candidates = es.ask()
            jobs = [(args.mode, args.side, s, list(c)) for c in candidates for s in seeds]
            results = run_jobs(pool, jobs)
            means = [
                statistics.fmean(results[i * len(seeds) : (i + 1) * len(seeds)])
                for i in range(len(candidates))
            ]
            es.tell(candidates, [-m for m in means])
            top = max(range(len(means)), key=means.__getitem__)
            # The best of a generation on its deals is a noisy pick; the mean is what CMA-ES
            # moves, so it is the candidate kept.
            best = list(es.result.xfavorite)
            generation += 1
            print(
                f"generation {generation}: mean {statistics.fmean(means):.2f}, "
                f"best {means[top]:.2f}, step {es.sigma:.3f}, "
                f"{time.monotonic() - started:.0f} s",
                flush=True,
            )
            payload = {"es": es, "generation": generation, "best": best}
            state_file.write_bytes(pickle.dumps(payload))
        if best is None:
            print("no generation ran")
            return
        print("\nweights:", json.dumps(dict(zip(NAMES, (round(w, 3) for w in best), strict=True))))
        seeds = [EVAL_SEEDS + k for k in range(args.eval_games)]
        tuned = run_jobs(pool, [(args.mode, args.side, s, best) for s in seeds])
        plain = run_jobs(pool, [(args.mode, args.side, s, None) for s in seeds])
    finally:
        if pool:
            pool.terminate()
    mean, low, high = interval([a - b for a, b in zip(tuned, plain, strict=True)])
    unit = "points" if args.mode == "solo" else "fair shares of wins"
    print(
        f"evaluation on {len(seeds)} deals never tuned on: tuned {statistics.fmean(tuned):.2f}, "
        f"defaults {statistics.fmean(plain):.2f}, difference {mean:+.2f} {unit} "
        f"[95% {low:+.2f} to {high:+.2f}]"
    )
    if args.write and low > 0:
        table = json.loads(TUNED_FILE.read_text()) if TUNED_FILE.exists() else {}
        # Stages and card ease (tools/fit_bots.py) are kept; refit them after new weights.
        extras = {k: v for k, v in table.get(key, {}).items() if k in ("stages", "cards")}
        table[key] = {name: round(w, 3) for name, w in zip(NAMES, best, strict=True)} | extras
        TUNED_FILE.write_text(json.dumps(table, indent=2, sort_keys=True) + "\n")
        print(f"written to {TUNED_FILE.relative_to(ROOT)} under {key!r}")
    elif args.write:
        print("not written: the interval does not lie above zero")


if __name__ == "__main__":
    main()
