"""Setting up a game (rules §5): the only place where randomness is used."""

from __future__ import annotations

import random

from .cards import ANIMAL_CARD_IDS, SPIRIT_CARD_IDS
from .hexgrid import geometry
from .state import SPIRITS_DEALT, TOKENS_PER_SPACE, GameConfig, GameState, PlayerState
from .tokens import COLOURS, TOKEN_SUPPLY


def new_game(config: GameConfig, seed: int) -> GameState:
    """A new game: pouch, deck and spirit deal shuffled by `random.Random(seed)`, used once.

    After setup the state holds no generator, so the same seed and the same actions always
    give the same state (what replays and stored games rely on).
    """
    if type(seed) is not int:
        raise ValueError(f"the seed must be an integer, not {seed!r}")
    rng = random.Random(seed)
    pouch = [colour for colour in COLOURS for _ in range(TOKEN_SUPPLY[colour])]
    rng.shuffle(pouch)
    deck = list(ANIMAL_CARD_IDS)
    rng.shuffle(deck)
    spirits = list(SPIRIT_CARD_IDS)
    rng.shuffle(spirits)
    first_seat = rng.randrange(config.players)

    spaces = config.spaces
    central = tuple(
        tuple(pouch[i * TOKENS_PER_SPACE : (i + 1) * TOKENS_PER_SPACE]) for i in range(spaces)
    )
    pouch = pouch[spaces * TOKENS_PER_SPACE :]
    shown = config.display_size
    empty_board = ((),) * geometry(config.side).size
    players = tuple(
        PlayerState(
            stacks=empty_board,
            spirit_options=(
                tuple(spirits[seat * SPIRITS_DEALT : (seat + 1) * SPIRITS_DEALT])
                if config.spirits
                else ()
            ),
        )
        for seat in range(config.players)
    )
    return GameState(
        config=config,
        players=players,
        central=central,
        pouch=tuple(pouch),
        display=tuple(deck[:shown]),
        deck=tuple(deck[shown:]),
        first_seat=first_seat,
        current_seat=first_seat,
    )
