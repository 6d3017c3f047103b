"""Fit the solo evaluation to the choices it makes: plans of one turn played out, compared.

Run: .venv/bin/python tools/fit_choices.py [--side A] [--games 200] [--plans 6] [--rollouts 4]
     [--jobs 2] [--max-seconds 3600] [--ridge 0.1] [--eval-games 400] [--write]

`fit_bots.py` regresses the points a game still adds on the potentials at the end of each turn,
which mixes how good the game is with how good the choice was. This script looks only at
differences within one decision. The medium bot plays seeded solo deals (seeds from 5,002,000:
tuning deals, apart from fit_bots.py's); at `--turns` random turn starts of each game the medium
search's `--plans` best distinct plans are each played to the end `--rollouts` times by medium,
every plan on the same sampled draws. A ridge regression per stage (8 or more turns left, 4-7,
0-3) of each plan's mean final points, less its points now and its value under the shipped
weights, on its potentials gives a correction to every weight of that stage.

The turn starts are appended to var/choices-<key>.jsonl as they come (a run resumes: deals
already there are skipped, and `--max-seconds` stops dealing). The corrected table is saved as
var/fit-choices-<key>.json, then it and the shipped one play `--eval-games` evaluation deals
(seeds from 9,000,000, never fitted on) and the paired difference is printed with its 95%
interval; `--write` replaces the shipped table only if that interval lies above zero. Within a
decision the plans' played-out means differ by little next to the draws' noise, so a fit worth
evaluating needs thousands of turn starts (about 10 a minute on 2 cores): an overnight run.
Prints figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import fields
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import GameConfig, score_sheets  # noqa: E402
from games.engine.bots import MediumBot, tuned  # noqa: E402
from games.engine.bots.evaluate import Weights  # noqa: E402
from games.engine.bots.planner import plan_turn, turns_left  # noqa: E402
from games.engine.bots.sampling import sample_state, unseen_cards  # noqa: E402
from games.engine.rules import apply  # noqa: E402
from games.engine.setup_game import new_game  # noqa: E402
from games.engine.view import view_for  # noqa: E402
from tools.fit_bots import board_parts, evaluate, use_table  # noqa: E402

CHOICE_SEEDS = 5_002_000
# Every weight the evaluation multiplies by a potential; hexes_per_turn is a rate, not a weight.
CORRECTED = tuple(f.name for f in fields(Weights) if f.name != "hexes_per_turn")
STAGES = {"early": range(8, 14), "mid": range(4, 8), "late": range(0, 4)}
# A stage with fewer turn starts than this keeps the shipped weights.
MIN_STARTS = 20


def played_out(state, seed: int) -> int:
    """The final points of medium playing the rest of the game from `state`."""
    bot, rng = MediumBot(), random.Random(seed)
    while not state.finished:
        state = apply(state, bot(state, rng))
    return score_sheets(state)[0].total


def record_game(job: tuple) -> list[dict]:
    """One seeded solo game of medium, with its sampled turn starts and their plans played out."""
    side, seed, table, plans_wanted, rollouts, turns = job
    use_table(table)
    config = GameConfig(players=1, side=side)
    ease = tuned.card_ease(config)
    state = new_game(config, seed)
    bot, rng = MediumBot(), random.Random(seed)
    picked = set(rng.sample(range(1, 13), turns))
    starts = []
    while not state.finished:
        if state.taken_space is None and state.turn in picked:
            view = view_for(state, 0)
            left = turns_left(state)
            search = random.Random(seed * 7 + state.turn)
            plans = plan_turn(state, bot.settings, search, unseen_cards(view), top=plans_wanted)
            if len(plans) >= 2:
                rows = []
                for plan in plans:
                    base, pots = board_parts(plan.state, left, CORRECTED, ease)
                    rows.append({"base": base, "pots": pots, "finals": []})
                for r in range(rollouts):
                    draw = seed * 1000 + state.turn * 10 + r
                    world = sample_state(view, random.Random(draw))  # the same draws for all
                    for plan, row in zip(plans, rows, strict=True):
                        after = world
                        for action in plan.actions:
                            after = apply(after, action)
                        row["finals"].append(played_out(after, draw + 1))
                starts.append({"seed": seed, "turn": state.turn, "left": left, "plans": rows})
        state = apply(state, bot(state, rng))
    return starts or [{"seed": seed, "turn": None, "left": None, "plans": []}]


def centred(starts: list[dict], config: GameConfig) -> tuple[np.ndarray, np.ndarray]:
    """Potentials and what the shipped weights miss of the played-out points, within each start."""
    xs, ys = [], []
    for start in starts:
        w = tuned.tuned_weights(config, start["left"])
        shipped = np.array([getattr(w, name) for name in CORRECTED])
        x = np.array([p["pots"] for p in start["plans"]], dtype=float)
        y = np.array([statistics.fmean(p["finals"]) - p["base"] for p in start["plans"]])
        missed = y - x @ shipped
        xs.append(x - x.mean(axis=0))
        ys.append(missed - missed.mean())
    return np.vstack(xs), np.concatenate(ys)


def fit(starts: list[dict], config: GameConfig, ridge: float) -> dict[str, dict[str, float]]:
    """Per stage, the correction to each weight (ridge toward none), with held-out figures."""
    seeds = sorted({s["seed"] for s in starts})
    held = set(seeds[::4])  # a quarter of the games, to see whether a fit predicts choices
    corrections = {}
    for stage, lefts in STAGES.items():
        fitting = [s for s in starts if s["left"] in lefts and s["seed"] not in held]
        if len(fitting) < MIN_STARTS:
            print(f"  {stage}: {len(fitting)} turn starts, too few to fit; shipped weights kept")
            continue
        x, y = centred(fitting, config)
        scale = np.diag(np.maximum(x.std(axis=0), 1e-3) ** 2)
        d = np.linalg.solve(x.T @ x + ridge * len(y) * scale, x.T @ y)
        corrections[stage] = {n: float(v) for n, v in zip(CORRECTED, d, strict=True)}
        testing = [s for s in starts if s["left"] in lefts and s["seed"] in held]
        if testing:
            xt, yt = centred(testing, config)
            before, after = float((yt**2).mean()), float(((yt - xt @ d) ** 2).mean())
            print(
                f"  {stage}: {len(fitting)} turn starts fitted; on {len(testing)} held out, "
                f"squared error of the choices {before:.2f} -> {after:.2f}"
            )
    return corrections


def corrected_table(table: dict, config: GameConfig, corrections: dict) -> dict:
    """The shipped table with each stage's weights moved by its correction."""
    key = tuned.mode_key(config)
    entry = dict(table.get(key, {}))
    stages = {k: dict(v) for k, v in entry.get("stages", {}).items()}
    for stage, lefts in STAGES.items():
        for left in lefts if stage in corrections else ():
            w = tuned.tuned_weights(config, left)
            # A weight the fit did not move (no data, e.g. spirit_gain in games without spirits)
            # stays the set's own, so that a later flat tuning still reaches it.
            moved = {
                n: round(getattr(w, n) + corrections[stage][n], 3)
                for n in CORRECTED
                if round(corrections[stage][n], 3)
            }
            stages[str(left)] = {**stages.get(str(left), {}), **moved}
    entry["stages"] = stages
    return {**table, key: entry}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", choices=("A", "B"), default="A")
    parser.add_argument("--games", type=int, default=200, help="tuning deals to play")
    parser.add_argument("--plans", type=int, default=6, help="plans compared per turn start")
    parser.add_argument("--rollouts", type=int, default=4, help="draws each plan is played on")
    parser.add_argument("--turns", type=int, default=3, help="turn starts sampled per game")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=None)
    parser.add_argument("--ridge", type=float, default=0.1)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--write", action="store_true", help="save a table that beats the old")
    args = parser.parse_args()

    config = GameConfig(players=1, side=args.side)
    key = tuned.mode_key(config)
    shipped = str(tuned.TUNED_FILE)
    data = ROOT / "var" / f"choices-{key}.jsonl"
    data.parent.mkdir(exist_ok=True)
    starts = [json.loads(line) for line in data.open()] if data.exists() else []
    done = {s["seed"] for s in starts}
    todo = [CHOICE_SEEDS + k for k in range(args.games) if CHOICE_SEEDS + k not in done]
    stop = None if args.max_seconds is None else time.monotonic() + args.max_seconds
    jobs = [(args.side, s, shipped, args.plans, args.rollouts, args.turns) for s in todo]
    # Leaving the block stops the workers, so --max-seconds does not wait for games under way.
    with Pool(args.jobs) as pool, data.open("a") as out:
        for found in pool.imap_unordered(record_game, jobs):
            for start in found:
                out.write(json.dumps(start) + "\n")
                starts.append(start)
            out.flush()
            if stop is not None and time.monotonic() > stop:
                break
    starts = [s for s in starts if s["plans"]]
    games = len({s["seed"] for s in starts})
    print(f"{len(starts)} turn starts from {games} games in {data.relative_to(ROOT)}")
    corrections = fit(starts, config, args.ridge)
    if not corrections:
        return
    table = json.loads(tuned.TUNED_FILE.read_text()) if tuned.TUNED_FILE.exists() else {}
    saved = ROOT / "var" / f"fit-choices-{key}.json"
    saved.write_text(json.dumps(corrected_table(table, config, corrections), indent=2) + "\n")
    print(f"corrected table saved as {saved.relative_to(ROOT)}")
    if not args.eval_games:
        return
    with Pool(args.jobs) as pool:
        evaluate(pool, args.side, saved, args.eval_games, write=args.write)


if __name__ == "__main__":
    main()
