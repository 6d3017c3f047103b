"""The bots: policies `(state, rng) -> Action` that decide from the mover's view only.

Each call rebuilds a state from `view_for(state, seat)` with the hidden pouch and deck replaced
by a sampled order (bots.sampling), plans the whole rest of the turn, returns its first action
and remembers the following ones keyed on the view they expect, so the next calls of the same
turn answer from the plan. A bot never returns ResetTurn and always ends its turn.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import time
from collections import Counter, OrderedDict
from typing import Any

from ..actions import Action, ChooseSpirit
from ..queries import score_sheet
from ..rules import apply
from ..state import GameState
from ..view import view_for
from .evaluate import Weights
from .planner import Memo, Plan, Settings, plan_turn
from .sampling import sample_state, unseen_cards

PLAN_CACHE = 512

# The hard bot's futures per decision against one rival (shared among more rivals) and in
# solo: one future is mostly noise, and each more one is worth about a point a game up to these
# counts (bench_bots.py, paired on the same deals; figures in docs/bots.md).
RIVAL_SAMPLES = 5
SOLO_SAMPLES = 6
# The hard bot's seconds per decision, the 3 s a hard turn may take: no new future starts past
# 90% of it, so on a slow machine the slowest turns compare fewer futures instead of taking longer.
HARD_BUDGET = 3.0

# Rough worth of each Nature's Spirit over a game (its rule's usual points, less for hard
# habitats); a bot keeps the better one of its two.
SPIRIT_WORTH = {
    "spirit_tortoise": 14,
    "spirit_dragonfly": 9,
    "spirit_ram": 11,
    "spirit_marmot": 10,
    "spirit_deer": 9,
    "spirit_owl": 11,
    "spirit_lion": 9,
    "spirit_butterfly": 10,
    "spirit_cat": 8,
    "spirit_stork": 6,
}


def view_key(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class Bot:
    """A searching bot; subclasses differ in settings and in what they do with spare time."""

    name = "bot"

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._next: OrderedDict[str, Action] = OrderedDict()

    def __call__(self, state: GameState, rng: random.Random) -> Action:
        seat = state.current_seat
        view = view_for(state, seat)
        key = view_key(view)
        cached = self._next.pop(key, None)
        if cached is not None:
            return cached
        return self.decide(view, seat, rng)

    def decide(self, view: dict[str, Any], seat: int, rng: random.Random) -> Action:
        world = sample_state(view, rng)
        options = world.mover.spirit_options
        if options:
            return ChooseSpirit(max(options, key=lambda c: (SPIRIT_WORTH.get(c, 0), c)))
        plan = self.choose(view, world, rng)
        self._remember(world, seat, plan.actions)
        return plan.actions[0]

    def choose(self, view: dict[str, Any], world: GameState, rng: random.Random) -> Plan:
        return plan_turn(world, self.settings, rng, unseen_cards(view))[0]

    def _remember(self, world: GameState, seat: int, actions: list[Action]) -> None:
        """Key each later step on the view it expects (in-turn actions reveal nothing hidden)."""
        state = world
        for action, following in itertools.pairwise(actions):
            state = apply(state, action)
            self._next[view_key(view_for(state, seat))] = following
        while len(self._next) > PLAN_CACHE:
            self._next.popitem(last=False)


class EasyBot(Bot):
    """Greedy with noise: a narrow search of the board value, blurred so it errs like a novice."""

    name = "easy"

    def __init__(self) -> None:
        weights = Weights(card_rest=0.0, river_end=0.5, empty_scarce=0.5, empty_plenty=0.2)
        super().__init__(Settings(beam=2, keep=2, focus=4, noise=4.0, weights=weights))


class MediumBot(Bot):
    """The best whole turn by the board value after it (points plus simple potentials)."""

    name = "medium"

    def __init__(self) -> None:
        super().__init__(Settings(beam=12, keep=6, focus=12))


class HardBot(Bot):
    """A wider search, then its best `top` plans are compared over sampled futures.

    A future plays the plan in a sampled world, the others reply greedily, then our best next
    turn is valued; in a solo game, where nobody replies, our next `solo_depth - 1` turns are
    played greedily first and the turn after them is valued. The comparison plays `solo_samples`
    futures in a solo game and `rival_samples` divided by the number of rivals (at least one)
    otherwise, since each rival's reply is one more turn to search in every future; the same
    futures serve every plan, so the lookahead work per decision is fixed and a decision
    depends on the seed, not on the machine's speed, unless `budget` (seconds) cuts it short:
    the wide search stops giving boards the card stage at half the budget and no new future
    starts past 90% of it, so a slow machine compares fewer futures on its slowest turns. With
    rivals a future is worth our value less `rival` times the best rival's, so plans that take
    what a rival wanted are preferred.
    """

    name = "hard"

    def __init__(
        self,
        budget: float = HARD_BUDGET,
        top: int = 10,
        solo_samples: int = SOLO_SAMPLES,
        rival: float = 0.5,
        solo_depth: int = 2,
        rival_samples: int = RIVAL_SAMPLES,
    ) -> None:
        super().__init__(self._search(budget))
        self.budget = budget
        self.top = top
        self.solo_samples = solo_samples
        self.rival = rival
        self.solo_depth = solo_depth
        self.rival_samples = rival_samples
        self.lookahead = Settings(beam=3, keep=2, focus=8)
        # How often the budget's half cut the wide search short (bench_bots.py reports it).
        self.cuts: Counter[str] = Counter()

    @staticmethod
    def _search(budget: float) -> Settings:
        # A small budget gets the medium search, so that the first plan fits in it too.
        wide = budget >= 0.5
        return Settings(beam=24 if wide else 12, keep=10 if wide else 6, focus=16)

    def with_budget(self, budget: float) -> HardBot:
        """The same bot with another budget; only the search width follows from the budget."""
        bot = copy.copy(self)
        bot.budget = budget
        bot.settings = self._search(budget)
        bot._next = OrderedDict()  # plans are the old bot's
        bot.cuts = Counter()
        return bot

    def choose(self, view: dict[str, Any], world: GameState, rng: random.Random) -> Plan:
        start = time.perf_counter()
        deadline = start + self.budget * 0.9
        plans = plan_turn(
            world,
            self.settings,
            rng,
            unseen_cards(view),
            top=self.top,
            deadline=start + self.budget * 0.5,
            cuts=self.cuts,
        )
        if len(plans) == 1:
            return plans[0]
        seat = world.current_seat
        totals = [0.0] * len(plans)
        rounds = 0
        rivals = len(world.players) - 1
        wanted = self.solo_samples if world.config.solo else max(1, self.rival_samples // rivals)
        # The searches of all futures share one memo: the plans of a future meet the same
        # rival boards, and each plan's own next turn starts from the same board in every future.
        memo: Memo = {}
        while rounds < wanted and time.perf_counter() < deadline:
            future = sample_state(view, rng)
            values = []
            for plan in plans:
                values.append(self._future_value(future, plan, seat, rng, memo))
                if time.perf_counter() >= deadline:
                    break
            if len(values) < len(plans):
                break
            totals = [t + v for t, v in zip(totals, values)]  # noqa: B905
            rounds += 1
        if not rounds:
            return plans[0]
        best = max(range(len(plans)), key=lambda i: (totals[i], -i))
        return plans[best]

    def _future_value(
        self, future: GameState, plan: Plan, seat: int, rng: random.Random, memo: Memo
    ) -> float:
        """The plan played in a sampled world, the others replying greedily, then our best turn.

        Solo: `solo_depth - 1` greedy turns of ours come before the valued one (on 60 seeded
        games a second turn of lookahead gained about 2 points; a third did not).
        """
        state = future
        for action in plan.actions:
            state = apply(state, action)
        rivals: dict[int, float] = {}
        while not state.finished and state.current_seat != seat:
            other = state
            if other.mover.spirit_options:
                other = apply(other, ChooseSpirit(other.mover.spirit_options[0]))
            reply = plan_turn(other, self.lookahead, rng, memo=memo)[0]
            rivals[other.current_seat] = reply.value
            for action in reply.actions:
                other = apply(other, action)
            state = other
        if state.finished:
            mine = float(score_sheet(state, seat).total)
            others = [
                float(score_sheet(state, s).total) for s in range(len(state.players)) if s != seat
            ]
            return mine - self.rival * max(others, default=0.0)
        if state.config.solo:
            # Solo: nobody replies, so the time goes into our own following turns instead.
            for _ in range(self.solo_depth - 1):
                state = self._greedy_turn(state, rng, memo)
                if state.finished:
                    return float(score_sheet(state, seat).total)
        mine = plan_turn(state, self.lookahead, rng, memo=memo)[0].value
        return mine - self.rival * max(rivals.values(), default=0.0)

    def _greedy_turn(self, state: GameState, rng: random.Random, memo: Memo) -> GameState:
        """The state after the mover plays its best turn by the lookahead search."""
        for action in plan_turn(state, self.lookahead, rng, memo=memo)[0].actions:
            state = apply(state, action)
        return state
