"""Fit the solo evaluation to what the bot's own games turned into points (regression, no search).

Run: .venv/bin/python tools/fit_bots.py [--side A] [--games 800] [--eval-games 100] [--jobs 2]
     [--ridge 0.1] [--write]

The medium bot plays `--games` seeded solo deals (seeds from 5,001,000: tuning deals) with the
shipped weights. Two things are recorded:

- at the end of every turn, the board potentials of `evaluate.board_value` one by one (trunks,
  mountains, fields, buildings, river ends, empty hexes) and the points the game still added
  after it. A ridge regression per number of turns left, pulled toward the set's flat weights,
  gives each stage its own weights ("stages"): an empty hex is worth more with many turns to
  fill, a trunk less once nothing will top it. The card weights are left as they are.
- for every card taken, the points the evaluation expected of it (its habitats' distances, at
  one point per point) and the points it made by the end. Their ratio per card, shrunk toward
  the mean, is the card's "ease": the bot rarely completes a card whose habitats compete with
  its landscape (tree-of-height-1 cards), and should value it less.

Both go under the mode's key of a copy of games/engine/bots/tuned.json, saved as
var/fit-<key>.json. The new table and the shipped one then play `--eval-games` evaluation deals
each (seeds from 9,000,000, never fitted on) and the paired difference is printed with its 95%
interval; `--write` replaces the shipped table only if that interval lies above zero (a slower
bot than medium, such as hard, can be compared with bench/bench_bots.py after copying the file
by hand). Prints figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import defaultdict
from dataclasses import fields, replace
from multiprocessing import Pool
from multiprocessing.pool import Pool as ProcessPool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stats import interval  # noqa: E402  (the paired 95% interval, as tuning prints it)
from games.engine import GameConfig, score_sheets  # noqa: E402
from games.engine.actions import EndTurn, TakeCard  # noqa: E402
from games.engine.bots import MediumBot, tuned  # noqa: E402
from games.engine.bots.evaluate import (  # noqa: E402
    Context,
    Weights,
    board_value,
    card_placements,
    card_potential,
    codes_of,
    distances,
)
from games.engine.bots.planner import turns_left  # noqa: E402
from games.engine.cards import card  # noqa: E402
from games.engine.queries import score_sheet  # noqa: E402
from games.engine.rules import apply  # noqa: E402
from games.engine.setup_game import new_game  # noqa: E402
from games.engine.simulate import play  # noqa: E402

FIT_SEEDS, EVAL_SEEDS = 5_001_000, 9_000_000
# The board potentials fitted per stage; the card weights keep their flat values.
FITTED = (
    "trunk1",
    "trunk2",
    "gray1",
    "gray2",
    "lone_mountain",
    "lone_field",
    "lone_red",
    "building_open",
    "river_end",
    "empty_scarce",
    "empty_plenty",
)
# Fitted too, so that the board potentials do not absorb what the cards promise; not saved.
CONTROLS = ("card_next", "card_rest", "slot")
REGRESSORS = FITTED + CONTROLS
# Every weight at 0; hexes_per_turn is a rate, not a weight, and keeps its default.
ZERO = Weights(**{f.name: 0.0 for f in fields(Weights) if f.name != "hexes_per_turn"})
# A stage with fewer turn ends than this (few games last that long) keeps the flat weights.
MIN_ROWS = 150
# Expected points of prior weight when a card's ease is shrunk toward the mean.
EASE_PRIOR = 40.0


def use_table(path: str) -> None:
    """Make this process's bots read their fitted weights from `path`."""
    tuned.TUNED_FILE = Path(path)
    tuned._table.cache_clear()


def board_parts(
    state, left: int, names: tuple[str, ...], ease: dict[str, float] | None = None
) -> tuple[float, list[float]]:
    """The mover's board value with every weight at 0, and each named weight's potential on top
    (faded), as board_value adds them; `ease` as the bots' context holds it."""
    p = state.mover
    side = state.config.side

    def value(weights: Weights) -> float:
        ctx = Context(side, left, weights, ease=ease or {})
        return board_value(
            ctx, p.stacks, p.cube_mask, p.cards, p.completed, p.spirit, p.spirit_placed
        )

    base = value(ZERO)
    return base, [value(replace(ZERO, **{name: 1.0})) - base for name in names]


def potentials(state, left: int) -> list[float]:
    """Each regressor potential of the mover's board, as board_value adds it (faded)."""
    return board_parts(state, left, REGRESSORS)[1]


def expected_points(state, card_id: str, left: int) -> float:
    """What the evaluation expects a card just taken to make, at one point per point."""
    p = state.mover
    side = state.config.side
    ds = distances(
        codes_of(p.stacks, p.cube_mask), card_placements(side, card_id), card(card_id).cube_count
    )
    return card_potential(card_id, 0, ds, Context(side, left, Weights(card_next=1, card_rest=1)))


def record_game(job: tuple) -> dict:
    """One seeded solo game of the medium bot: turn-end rows and card takes."""
    side, seed, table = job
    use_table(table)
    bot = MediumBot()
    state = new_game(GameConfig(players=1, side=side), seed)
    rng = random.Random(seed)
    turns, takes = [], {}
    while not state.finished:
        action = bot(state, rng)
        left = turns_left(state)
        if type(action) is TakeCard:
            takes[action.card_id] = expected_points(state, action.card_id, left)
        elif type(action) is EndTurn:
            turns.append((left, score_sheet(state, 0).total, potentials(state, left)))
        state = apply(state, action)
    player = state.players[0]
    placed = dict(player.cards) | {c: card(c).cube_count for c in player.completed}
    made = {c: card(c).score_by_cubes_placed[placed[c]] for c in takes}
    return {"final": score_sheets(state)[0].total, "turns": turns, "takes": takes, "made": made}


def fit_stages(games: list[dict], flat: Weights, ridge: float) -> dict[str, dict[str, float]]:
    """Per turns left: ridge regression of the points still to come on the potentials.

    The regression runs on the bot's own games, so a weight is what that potential was worth
    to this bot's play, not a law of the game; the ridge keeps thin stages near the flat set.
    """
    prior = np.array([getattr(flat, name) for name in REGRESSORS])
    rows: dict[int, list] = defaultdict(list)
    for game in games:
        for left, points, pots in game["turns"]:
            if any(pots):  # a board that ends the game has no potentials to weigh
                rows[left].append((game["final"] - points, pots))
    stages = {}
    for left, found in sorted(rows.items()):
        if len(found) < MIN_ROWS:
            continue
        y = np.array([r[0] for r in found], dtype=float)
        x = np.array([r[1] for r in found], dtype=float)
        n = len(y)
        # Standardised ridge toward the flat weights, with a free intercept.
        scale = np.diag(np.maximum(x.std(axis=0), 0.5) ** 2)
        xc, yc = x - x.mean(axis=0), y - y.mean()
        w = np.linalg.solve(xc.T @ xc + ridge * n * scale, xc.T @ yc + ridge * n * scale @ prior)
        fitted = zip(REGRESSORS, w[: len(FITTED)], strict=False)
        stages[str(left)] = {name: round(float(v), 3) for name, v in fitted}
    return stages


def fit_ease(games: list[dict]) -> dict[str, float]:
    """Per card: points made over points expected, relative to all cards, shrunk to 1."""
    expected: dict[str, float] = defaultdict(float)
    made: dict[str, float] = defaultdict(float)
    for game in games:
        for c, points in game["takes"].items():
            expected[c] += points
            made[c] += game["made"][c]
    overall = sum(made.values()) / sum(expected.values())
    return {
        c: round((made[c] / overall + EASE_PRIOR) / (expected[c] + EASE_PRIOR), 3)
        for c in sorted(expected)
    }


def solo_score(job: tuple) -> int:
    side, seed, table = job
    use_table(table)
    state, _ = play(GameConfig(players=1, side=side), seed, (MediumBot(),), random.Random(seed))
    return score_sheets(state)[0].total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", choices=("A", "B"), default="A")
    parser.add_argument("--games", type=int, default=800, help="fitting deals")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ridge", type=float, default=0.1)
    parser.add_argument("--write", action="store_true", help="save a table that beats the old")
    args = parser.parse_args()

    config = GameConfig(players=1, side=args.side)
    key = tuned.mode_key(config)
    shipped = str(tuned.TUNED_FILE)
    table = json.loads(tuned.TUNED_FILE.read_text()) if tuned.TUNED_FILE.exists() else {}
    with Pool(args.jobs) as pool:
        jobs = [(args.side, FIT_SEEDS + k, shipped) for k in range(args.games)]
        games = pool.map(record_game, jobs, chunksize=4)
        print(f"{len(games)} fitting games, mean {statistics.fmean(g['final'] for g in games):.2f}")
        entry = dict(table.get(key, {}))
        flat = tuned.tuned_weights(config)
        entry["stages"] = fit_stages(games, flat, args.ridge)
        # A card no fitting game took keeps its ease (absent, it would count 1: taken freely).
        entry["cards"] = {**entry.get("cards", {}), **fit_ease(games)}
        new_table = {**table, key: entry}
        saved = ROOT / "var" / f"fit-{key}.json"
        saved.parent.mkdir(exist_ok=True)
        saved.write_text(json.dumps(new_table, indent=2, sort_keys=True) + "\n")
        print(f"fitted table saved as {saved.relative_to(ROOT)}")
        if args.eval_games:
            evaluate(pool, args.side, saved, args.eval_games, write=args.write)


def evaluate(pool: ProcessPool, side: str, saved: Path, games: int, *, write: bool) -> None:
    """Medium with the table `saved` against the shipped one on `games` evaluation deals; with
    `write`, the saved table replaces the shipped one if the paired interval lies above zero."""
    shipped = str(tuned.TUNED_FILE)
    seeds = [EVAL_SEEDS + k for k in range(games)]
    new = pool.map(solo_score, [(side, s, str(saved)) for s in seeds], chunksize=2)
    old = pool.map(solo_score, [(side, s, shipped) for s in seeds], chunksize=2)
    mean, low, high = interval([a - b for a, b in zip(new, old, strict=True)])
    print(
        f"evaluation on {len(seeds)} deals never fitted on: new {statistics.fmean(new):.2f}, "
        f"old {statistics.fmean(old):.2f}, difference {mean:+.2f} points "
        f"[95% {low:+.2f} to {high:+.2f}]"
    )
    if write and low > 0:
        tuned.TUNED_FILE.write_text(saved.read_text())
        print(f"written to {tuned.TUNED_FILE.relative_to(ROOT)}")
    elif write:
        print("not written: the interval does not lie above zero")


if __name__ == "__main__":
    main()
