"""Speed of board scoring and cube-placement options (prints figures, asserts nothing).

Run: .venv/bin/python bench/bench_scoring.py [--boards N]

Targets (pure CPython): score_board on a typical finished board <= 20 µs, worst case (23 or 25
water tokens, any shape) <= 1 ms; cube_targets for 4 held cards on a full board <= 0.5 ms total.
"Cold" means the memoised flood fills / rivers were cleared (before every board for "cold per
board", once per pass over distinct boards for "cold pass"); "warm" means the same boards again.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.cards import ANIMAL_CARD_IDS, SPIRIT_CARD_IDS, card
from games.engine.habitats import cube_targets, placements
from games.engine.hexgrid import geometry
from games.engine.river import clear_caches
from games.engine.scoring import score_board
from games.engine.tokens import LANDSCAPES, TOKEN_SUPPLY, can_place


def random_board(rng: random.Random, side: str) -> tuple[list, int, list]:
    """A realistic finished board: random legal tokens until <= 2 empty hexes, plus cards."""
    geo = geometry(side)
    pouch = [c for c, n in TOKEN_SUPPLY.items() for _ in range(n)]
    rng.shuffle(pouch)
    stacks: list[tuple[str, ...]] = [()] * geo.size
    while sum(1 for s in stacks if not s) > 2 and pouch:
        colour = pouch.pop()
        options = [i for i, s in enumerate(stacks) if can_place(s, colour)]
        if options:
            i = rng.choice(options)
            stacks[i] = (*stacks[i], colour)
    cards = [(cid, rng.randint(0, card(cid).cube_count)) for cid in rng.sample(ANIMAL_CARD_IDS, 5)]
    cards = cards[: rng.randint(3, 5)]
    if rng.random() < 0.5:
        cards.append((rng.choice(SPIRIT_CARD_IDS), rng.randint(0, 1)))
    occupied = [i for i, s in enumerate(stacks) if s]
    placed = min(len(occupied), sum(n for _, n in cards))
    cube_mask = sum(1 << i for i in rng.sample(occupied, placed))
    return stacks, cube_mask, cards


def worst_boards(rng: random.Random, side: str) -> list[tuple[str, list]]:
    """All water, all water but one hex, and random water shapes of 60-95% water."""
    geo = geometry(side)
    blue, gray = ("blue",), ("gray", "gray", "gray")
    boards = [("all water", [blue] * geo.size)]
    for hole in range(geo.size):
        stacks = [blue] * geo.size
        stacks[hole] = gray
        boards.append((f"all water but {geo.names[hole]}", stacks))
    for n in range(200):
        share = 0.6 + 0.35 * (n % 8) / 7
        boards.append(("random water", [blue if rng.random() < share else gray for _ in stacks]))
    return boards


def per_call(fn, items, repeats: int = 5) -> float:
    """Best-of-`repeats` mean seconds per item of fn(item) over the whole list."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, (time.perf_counter() - start) / len(items))
    return best


def cold_each(fn, items) -> tuple[float, float, float]:
    """Mean, 99th percentile and max seconds of fn(item), caches cleared before every call."""
    times = []
    for item in items:
        clear_caches()
        start = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - start)
    times.sort()
    return sum(times) / len(times), times[int(len(times) * 0.99)], times[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    args = parser.parse_args()
    rng = random.Random(20240601)
    us = 1e6

    for side in ("A", "B"):
        boards = [random_board(rng, side) for _ in range(args.boards)]
        calls = [(side, s, m, c) for s, m, c in boards]
        score_board(*calls[0])  # build the per-side tables outside the measurements

        def run(call):
            return score_board(*call)

        def cold_pass(items):
            clear_caches()
            for item in items:
                score_board(*item)

        mean, p99, worst = cold_each(run, calls)
        print(f"score_board typical side {side}: {mean * us:.1f} µs/board (cold cache per board)")
        print(
            f"score_board typical side {side}: {p99 * us:.1f} µs p99, {worst * us:.1f} µs max"
            " (cold cache per board)"
        )
        cold = per_call(lambda items: cold_pass(items), [calls]) / len(calls)
        print(
            f"score_board typical side {side}: {cold * us:.1f} µs/board (cold pass, {len(calls)}"
            " distinct boards)"
        )
        warm = per_call(run, calls)
        print(f"score_board typical side {side}: {warm * us:.1f} µs/board (warm cache)")

        worst_calls = [(side, s, 0, ()) for _, s in worst_boards(rng, side)]
        _, _, worst = cold_each(run, worst_calls)
        all_water = cold_each(run, worst_calls[:1])[2]
        print(
            f"score_board worst side {side}: all water {all_water * us:.1f} µs, "
            f"max {worst * us:.1f} µs over {len(worst_calls)} water-heavy shapes (cold cache)"
        )

        for cid in ANIMAL_CARD_IDS:
            placements(side, cid)
        hands = []
        for stacks, cube_mask, _ in boards:
            lands = [LANDSCAPES[s] for s in stacks]
            hands.append((lands, cube_mask, rng.sample(ANIMAL_CARD_IDS, 4)))

        def targets(hand, side=side):
            lands, cube_mask, ids = hand
            for cid in ids:
                cube_targets(side, lands, cube_mask, cid)

        t = per_call(targets, hands)
        print(f"cube_targets side {side}: {t * us:.1f} µs for 4 held cards on a full board")


if __name__ == "__main__":
    main()
