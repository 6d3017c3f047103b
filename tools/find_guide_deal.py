"""Search for the guided first game's deal: a solo side-A seed whose first turn allows every step.

Run: .venv/bin/python tools/find_guide_deal.py [--start 1] [--count 5000]

The guide (games/presenters/guide.py) teaches in this order: take a space, place a token, stack
one on it, take an animal card, complete its habitat and place a cube, end the turn. A seed
qualifies when some space of the first central board holds two tokens that stack (green on
brown, gray on gray, red on brown, gray or red, brown on brown), and some card of the first
display has its habitat made by that stack and the space's third token, so every step is
reachable in the first turn.
Prints the qualifying seeds with the line of actions that plays the steps; the chosen seed is
frozen as `games.services.guide.GUIDE_SEED`, with that line in tests/games/services/test_guide.py.
"""

from __future__ import annotations

import argparse
import sys
from itertools import permutations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import engine  # noqa: E402

CONFIG = engine.GameConfig(players=1, side="A", spirits=False)
# The first token goes near the middle of the board, so the habitat has room around it.
FIRST_CELL = "2,2"


def line_for(seed: int) -> list[engine.Action] | None:
    """The first turn that plays every step of the guide, or None when this deal has none."""
    start = engine.new_game(CONFIG, seed)
    cells = engine.geometry("A").names
    for space, tokens in enumerate(start.central):
        for base, top, last in set(permutations(tokens)):
            state = engine.apply(start, engine.TakeTokens(space))
            try:
                state = engine.apply(state, engine.PlaceToken(base, FIRST_CELL))
                state = engine.apply(state, engine.PlaceToken(top, FIRST_CELL))
            except engine.IllegalAction:
                continue
            for card_id in state.display:
                holding = engine.apply(state, engine.TakeCard(card_id))
                for cell in cells:
                    try:
                        placed = engine.apply(holding, engine.PlaceToken(last, cell))
                    except engine.IllegalAction:
                        continue
                    options = engine.cube_options(placed, 0).get(card_id)
                    if options:
                        cube = sorted(options)[0]
                        return [
                            engine.TakeTokens(space),
                            engine.PlaceToken(base, FIRST_CELL),
                            engine.PlaceToken(top, FIRST_CELL),
                            engine.TakeCard(card_id),
                            engine.PlaceToken(last, cell),
                            engine.PlaceCube(card_id, cube),
                            engine.EndTurn(),
                        ]
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--show", type=int, default=5, help="stop after this many seeds")
    args = parser.parse_args()
    found = 0
    for seed in range(args.start, args.start + args.count):
        line = line_for(seed)
        if line is None:
            continue
        state = engine.new_game(CONFIG, seed)
        for action in line:
            state = engine.apply(state, action)
        print(seed, [a.to_json() for a in line])
        found += 1
        if found >= args.show:
            break


if __name__ == "__main__":
    main()
