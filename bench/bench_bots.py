"""Strength and speed of the bots: win rates, solo scores and decision times.

Run: .venv/bin/python bench/bench_bots.py [--pairs 200] [--hard-pairs 200] [--solo 200]
     [--hard-solo 200] [--budget 3.0] [--solo-samples 6] [--rival-samples 5] [--jobs 2]
     [--max-seconds 1800] [--start 0] [--only medium-easy,hard-medium,solo] [--save FILE]
     [--against FILE] [--load FILE] [--side A] [--spirits]
Targets (issue 15): medium beats easy in >= 90% of 2-player games and hard beats medium in
>= 70% (seeded games on both board sides, the bots alternating seats); solo side A without
spirits: medium averages >= 110 points and hard >= 130; per-turn decision time easy <= 0.2 s,
medium <= 1 s, hard <= 3 s. Games run in `--jobs` processes, the tasks interleaved; with
`--max-seconds` no new game starts after that many seconds and the figures cover the games that
ran (they say how many, with 95% intervals). `--solo-samples` sets the hard bot's sampled futures
per decision in solo and `--rival-samples` against one rival (its strength, independent of the
machine's speed); `--budget` only caps its time. `--spirits` plays every game with the Nature's
Spirit module (each seat keeps one of two dealt spirits); the targets are for games without it.
Prints figures only; nothing here asserts.

Paired comparisons: `--save FILE` writes every game's result (JSON); `--against FILE` compares
this run with a saved one game by game on the deals both played (same task, seed and seats),
printing the mean difference of the points (solo) or of the strong bot's points less the weak
bot's (two-player), with its 95% interval. Save a run of the code before a change, then run the
changed code with `--against`: the deals are the same, so the difference is the change's.
`--load FILE` reports a saved run instead of playing (with `--against`, compares two saved runs).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path
from statistics import fmean

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import interval
from games.engine import GameConfig, score_sheets, winners
from games.engine.bots import HardBot
from games.engine.bots.players import HARD_BUDGET, RIVAL_SAMPLES, SOLO_SAMPLES
from games.engine.policies import seat_policies
from games.engine.simulate import play

TARGETS = {
    "win medium-easy": 0.90,
    "win hard-medium": 0.70,
    "solo medium": 110,
    "solo hard": 130,
    "time easy": 0.2,
    "time medium": 1.0,
    "time hard": 3.0,
}


def one_game(job: tuple, hard: tuple[float, int, int], spirits: bool) -> dict:
    """Play one seeded game; the names are per seat. Returns scores, winners and turn times.

    `hard` is the hard bot's (budget, solo_samples, rival_samples) and `spirits` whether the
    Nature's Spirit module is in play, the same for every game of a run.
    """
    task, side, seed, names = job
    budget, solo_samples, rival_samples = hard
    config = GameConfig(players=len(names), side=side, spirits=spirits)
    policies = tuple(
        HardBot(budget=budget, solo_samples=solo_samples, rival_samples=rival_samples)
        if isinstance(p, HardBot)
        else p
        for p in seat_policies(",".join(names), len(names), budget)
    )
    times: list[list[float]] = [[] for _ in names]
    state, _ = play(config, seed, policies, random.Random(seed), times)
    won = winners(state)
    sheets = score_sheets(state)
    return {
        "task": task,
        "side": side,
        "spirits": spirits,
        "seed": seed,
        "names": names,
        "totals": [s.total for s in sheets],
        "sheets": [s.as_dict() for s in sheets],
        "turns": state.turn,
        "wins": [(1 / len(won) if seat in won else 0.0) for seat in range(len(names))],
        "times": times,
        # Per seat, for a hard bot: its decisions and how many its budget's half cut short.
        "cuts": [dict(getattr(p, "cuts", {})) for p in policies],
    }


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (shared wins count as halves)."""
    if not n:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def interleave(queues: list[list[tuple]]) -> list[tuple]:
    """One job from each task in turn, so a run stopped early has covered every task."""
    out = []
    for i in range(max(map(len, queues), default=0)):
        out.extend(q[i] for q in queues if i < len(q))
    return out


def jobs_for(args: argparse.Namespace) -> list[tuple]:
    queues = []
    only = set(args.only.split(","))
    for task, strong, weak, games in (
        ("medium-easy", "medium", "easy", args.pairs),
        ("hard-medium", "hard", "medium", args.hard_pairs),
    ):
        if task not in only:
            continue
        jobs = []
        queues.append(jobs)
        for i in range(args.start, games):
            side = "AB"[i % 2]
            # Games i and i + 2 share a deal, with the bots in swapped seats.
            seed = 1000 + i // 4 * 2 + i % 2
            names = (strong, weak) if (i // 2) % 2 == 0 else (weak, strong)
            jobs.append((task, side, seed, names))
    if "solo" in only:
        for name in ("medium", "hard"):
            jobs = []
            queues.append(jobs)
            for i in range(args.start, args.solo if name == "medium" else args.hard_solo):
                jobs.append((f"solo-{name}", args.side, 2000 + i, (name,)))
    return interleave(queues)


def report(results: list[dict], seconds: float, args: argparse.Namespace) -> None:
    print(
        f"{len(results)} games in {seconds:.0f} s with {args.jobs} process(es), "
        f"hard budget {args.budget} s (futures per decision: {args.solo_samples} solo, "
        f"{args.rival_samples} in two-player games)"
    )
    # The targets are for games without spirits; games with them are reported beside.
    spirits = any(r.get("spirits") for r in results)
    module = "with spirits" if spirits else "no spirits"
    for task, strong in (("medium-easy", "medium"), ("hard-medium", "hard")):
        games = [r for r in results if r["task"] == task]
        if not games:
            continue
        print(
            f"\n{task}: {len(games)} two-player games (sides A and B, seats alternating, {module})"
        )
        for side in "AB":
            part = [r for r in games if r["side"] == side]
            if not part:
                continue
            wins = sum(r["wins"][r["names"].index(strong)] for r in part)
            means = defaultdict(float)
            for r in part:
                for name, total in zip(r["names"], r["totals"], strict=True):
                    means[name] += total / len(part)
            scores = ", ".join(f"{n} {v:.1f}" for n, v in sorted(means.items()))
            low, high = wilson(wins, len(part))
            print(
                f"  side {side}: {strong} wins {100 * wins / len(part):5.1f}% "
                f"of {len(part)} [95% {100 * low:.1f}-{100 * high:.1f}] (mean points: {scores})"
            )
        wins = sum(r["wins"][r["names"].index(strong)] for r in games)
        target = "no target" if spirits else f"target >= {100 * TARGETS[f'win {task}']:.0f}%"
        low, high = wilson(wins, len(games))
        seeds = sorted({r["seed"] for r in games})
        print(
            f"  overall: {strong} wins {wins:g} of {len(games)} = {100 * wins / len(games):.1f}% "
            f"[95% {100 * low:.1f}-{100 * high:.1f}] ({target}); "
            f"deal seeds {seeds[0]}-{seeds[-1]}"
        )
    for name in ("medium", "hard"):
        games = [r for r in results if r["task"] == f"solo-{name}"]
        if not games:
            continue
        totals = sorted(r["totals"][0] for r in games)
        mean, low, high = interval(totals)
        seeds = sorted(r["seed"] for r in games)
        side = games[0]["side"]
        # The targets are side A's without spirits; the rest is reported beside them.
        target = "no target" if side == "B" or spirits else f"target >= {TARGETS[f'solo {name}']}"
        print(
            f"\nsolo side {side}, {module}, {name}: {len(games)} games (seeds {seeds[0]}-"
            f"{seeds[-1]}), mean {mean:.1f} [95% {low:.1f}-{high:.1f}] "
            f"({target}), median {totals[len(totals) // 2]}, min {totals[0]}, max {totals[-1]}"
        )
    print("\nper-turn decision time (all games above)")
    by_bot: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for name, times in zip(r["names"], r["times"], strict=True):
            by_bot[name].extend(times)
    for name in ("easy", "medium", "hard"):
        times = by_bot.get(name)
        if times:
            print(
                f"  {name:<7} mean {sum(times) / len(times):.3f} s, max {max(times):.3f} s "
                f"over {len(times)} turns (target <= {TARGETS[f'time {name}']} s)"
            )
    # Saved runs from before the count have no "cuts".
    searches = sum(c.get("searches", 0) for r in results for c in r.get("cuts", ()))
    if searches:
        cut = sum(c.get("cut", 0) for r in results for c in r.get("cuts", ()))
        print(
            f"  hard's wide search cut short at half its budget (fewer boards get the card "
            f"stage): {cut} of {searches} decisions ({100 * cut / searches:.1f}%)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=200, help="medium vs easy games")
    parser.add_argument("--hard-pairs", type=int, default=200, help="hard vs medium games")
    parser.add_argument("--solo", type=int, default=200, help="solo games for medium")
    parser.add_argument("--hard-solo", type=int, default=200, help="solo games for hard")
    parser.add_argument(
        "--budget", type=float, default=HARD_BUDGET, help="hard's seconds per decision"
    )
    parser.add_argument(
        "--solo-samples", type=int, default=SOLO_SAMPLES, help="hard's futures per solo decision"
    )
    parser.add_argument(
        "--rival-samples",
        type=int,
        default=RIVAL_SAMPLES,
        help="hard's futures per decision against one rival",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--start", type=int, default=0, help="first game index of each task (resume a run)"
    )
    parser.add_argument(
        "--max-seconds", type=float, default=None, help="start no new game after this long"
    )
    parser.add_argument("--only", default="medium-easy,hard-medium,solo")
    parser.add_argument(
        "--side", choices=("A", "B"), default="A", help="the solo games' board side"
    )
    parser.add_argument(
        "--spirits", action="store_true", help="play with the Nature's Spirit module"
    )
    parser.add_argument("--save", help="write every game's result to this JSON file")
    parser.add_argument("--against", help="a file saved by --save: print paired differences")
    parser.add_argument("--load", help="report a file saved by --save instead of playing")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.load:  # a saved run instead of playing, e.g. to compare two saved runs
        results = json.loads(Path(args.load).read_text())
    else:
        jobs = jobs_for(args)
        stop = None if args.max_seconds is None else start + args.max_seconds
        hard = (args.budget, args.solo_samples, args.rival_samples)
        results = run(jobs, hard, args.spirits, args.jobs, stop)
        if len(results) < len(jobs):
            print(f"stopped by --max-seconds {args.max_seconds:g}: {len(results)} of {len(jobs)}")
    report(results, time.perf_counter() - start, args)
    if args.save:
        Path(args.save).parent.mkdir(parents=True, exist_ok=True)
        Path(args.save).write_text(json.dumps(results))
    if args.against:
        compare(results, json.loads(Path(args.against).read_text()), args.against)


def margin(result: dict) -> float:
    """Solo: the points; two-player: the strong bot's points less the weak bot's."""
    if len(result["names"]) == 1:
        return float(result["totals"][0])
    strong = result["names"].index(result["task"].split("-")[0])
    return float(result["totals"][strong] - result["totals"][1 - strong])


def compare(results: list[dict], saved: list[dict], name: str) -> None:
    """Paired differences, this run less the saved one, on the games both played."""
    before = {(r["task"], r["seed"], tuple(r["names"])): r for r in saved}
    print(f"\npaired against {name} (this run less that one, same deals)")
    for task in dict.fromkeys(r["task"] for r in results):
        pairs = [
            (r, before[key])
            for r in results
            if r["task"] == task and (key := (task, r["seed"], tuple(r["names"]))) in before
        ]
        if not pairs:
            continue
        mean, low, high = interval([margin(a) - margin(b) for a, b in pairs])
        seeds = sorted({a["seed"] for a, _ in pairs})
        print(
            f"  {task}: {mean:+.2f} points [95% {low:+.2f} to {high:+.2f}] over {len(pairs)} "
            f"games (seeds {seeds[0]}-{seeds[-1]}); mean {fmean(margin(a) for a, _ in pairs):.2f} "
            f"against {fmean(margin(b) for _, b in pairs):.2f}"
        )
        if len(pairs[0][0]["names"]) == 1 and "sheets" in pairs[0][0] and "sheets" in pairs[0][1]:
            parts = ", ".join(
                f"{k} {fmean(a['sheets'][0][k] - b['sheets'][0][k] for a, b in pairs):+.1f}"
                for k in ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit")
            )
            turns = fmean(a["turns"] - b["turns"] for a, b in pairs)
            print(f"    by category: {parts}; turns {turns:+.2f}")


def run(
    jobs: list[tuple],
    hard: tuple[float, int, int],
    spirits: bool,
    processes: int,
    stop: float | None,
) -> list[dict]:
    """Play the jobs in `processes` workers, keeping each busy; none starts after `stop`."""
    results: list[dict] = []
    todo = list(reversed(jobs))
    with Pool(processes) as pool:
        running = []
        while todo or running:
            late = stop is not None and time.perf_counter() >= stop
            while todo and not late and len(running) < processes:
                running.append(pool.apply_async(one_game, (todo.pop(), hard, spirits)))
            if late:
                todo.clear()
            done = [r for r in running if r.ready()]
            for r in done:
                results.append(r.get())
                running.remove(r)
            if not done:
                time.sleep(0.05)
    return results


if __name__ == "__main__":
    main()
