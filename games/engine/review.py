"""What the hard bot would have played on each of a player's turns, and what it was worth.

The bot decides from `view_for(state, seat)` only: the pouch and the draw pile are sampled
from what that seat could know (bots.sampling), never read from the real state, so a review
teaches nothing a player could not have seen at the table. Both turns, the player's and the
bot's, are valued by the same board evaluation the bot plays by (points on the board plus what
the cards and habitats in progress promise), in the same sampled world, so the difference says
how much better the bot expected its choice to be.

A review is reproducible: each decision's random generator is seeded from the game's seed, the
turn and the seat, and the bot's time budget is set far above what a decision takes, so the
machine's speed never cuts a search short.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, ChooseSpirit, EndTurn, ResetTurn, action_from_json
from .bots.planner import Plan, _value, context
from .bots.players import HardBot
from .bots.sampling import sample_state
from .queries import score_sheet
from .rules import apply
from .setup_game import new_game
from .state import GameConfig, GameState, PlayerState
from .view import view_for

# Far above the hard bot's usual 1-2 s, so that the search is never cut short (reproducibility).
REVIEW_BUDGET = 60.0


@dataclass(frozen=True)
class TurnReview:
    """One of the player's turns beside the hard bot's choice in the same position."""

    turn: int
    played: tuple[Action, ...]
    suggested: tuple[Action, ...]
    played_value: float
    suggested_value: float
    played_points: int
    suggested_points: int
    played_player: PlayerState
    suggested_player: PlayerState
    # The position the turn started from (after a spirit kept), for telling the turns in words.
    before: GameState | None = field(default=None, compare=False, repr=False)

    @property
    def gain(self) -> float:
        """How many points the bot expected its choice to be worth more than the player's."""
        return round(self.suggested_value - self.played_value, 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "played": [a.to_json() for a in self.played],
            "suggested": [a.to_json() for a in self.suggested],
            "played_value": round(self.played_value, 2),
            "suggested_value": round(self.suggested_value, 2),
            "played_points": self.played_points,
            "suggested_points": self.suggested_points,
            "played_player": self.played_player.to_json(),
            "suggested_player": self.suggested_player.to_json(),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> TurnReview:
        return cls(
            turn=obj["turn"],
            played=tuple(action_from_json(a) for a in obj["played"]),
            suggested=tuple(action_from_json(a) for a in obj["suggested"]),
            played_value=obj["played_value"],
            suggested_value=obj["suggested_value"],
            played_points=obj["played_points"],
            suggested_points=obj["suggested_points"],
            played_player=PlayerState.from_json(obj["played_player"]),
            suggested_player=PlayerState.from_json(obj["suggested_player"]),
        )


def decision_rng(seed: int, turn: int, seat: int) -> random.Random:
    """The generator of one review decision: the same game gives the same review."""
    return random.Random(f"review:{seed}:{turn}:{seat}")


def suggest(view: dict[str, Any], rng: random.Random, bot: HardBot | None = None) -> Plan:
    """The hard bot's plan for the rest of the mover's turn, from the mover's view alone."""
    bot = bot or HardBot(budget=REVIEW_BUDGET)
    world = sample_state(view, rng)
    return bot.choose(view, world, rng)


def _turns(config: GameConfig, seed: int, actions: Iterable[Action]) -> Iterator[tuple]:
    """(state at the turn's start, the actions that stood, state after) for every turn."""
    state = new_game(config, seed)
    start, taken = state, []
    for action in actions:
        after = apply(state, action)
        taken = [] if isinstance(action, ResetTurn) else [*taken, action]
        if after.turn != state.turn or after.finished or isinstance(action, EndTurn):
            yield start, taken, after
            start, taken = after, []
        state = after


def review_turns(
    config: GameConfig,
    seed: int,
    actions: Iterable[Action],
    seat: int,
    *,
    turns: Iterable[int] | None = None,
    bot: HardBot | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[TurnReview]:
    """The review of `seat`'s turns (all, or those numbered in `turns`) in a recorded game.
    Each takes the bot seconds: `progress(n)` is told after each, n counting those gone
    through so far, so that a page can say how far it has got."""
    wanted = None if turns is None else set(turns)
    bot = bot or HardBot(budget=REVIEW_BUDGET)
    reviews = []
    seen = 0
    for start, played, after in _turns(config, seed, actions):
        if start.current_seat != seat or (wanted is not None and start.turn not in wanted):
            continue
        review = _review_turn(seed, seat, start, played, after, bot)
        if review is not None:
            reviews.append(review)
        seen += 1
        if progress is not None:
            progress(seen)
    return reviews


def _review_turn(
    seed: int, seat: int, start: GameState, played: list[Action], after: GameState, bot: HardBot
) -> TurnReview | None:
    """One turn beside the bot's choice from the same view; None if nothing was played."""
    before = start
    if played and isinstance(played[0], ChooseSpirit):
        # The spirit kept is the player's choice for both: the turn proper starts after it.
        before = apply(before, played[0])
        played = played[1:]
    if not played:
        return None
    view = view_for(before, seat)
    plan = suggest(view, decision_rng(seed, start.turn, seat), bot)
    # Both turns valued in the world the bot planned in (the generator's first draw), by the
    # evaluation it plays by.
    world = sample_state(view, decision_rng(seed, start.turn, seat))
    ctx = context(world, bot.settings, focused=False)
    mine, its = after.players[seat], plan.state.players[seat]
    return TurnReview(
        turn=start.turn,
        played=tuple(played),
        suggested=tuple(plan.actions),
        played_value=_value(ctx, mine),
        suggested_value=_value(ctx, its),
        played_points=score_sheet(after, seat).total,
        suggested_points=score_sheet(plan.state, seat).total,
        played_player=mine,
        suggested_player=its,
        before=before,
    )
