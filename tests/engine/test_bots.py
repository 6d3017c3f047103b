"""The bots: legal, finishing their turns, deciding only from what their seat may see."""

from __future__ import annotations

import random
import time

import pytest

from games.engine import (
    POLICIES,
    ChooseSpirit,
    EndTurn,
    GameConfig,
    ResetTurn,
    TakeTokens,
    apply,
    legal_actions,
    new_game,
    random_policy,
    view_for,
)
from games.engine.bots import EasyBot, HardBot, MediumBot, sample_state
from games.engine.bots.sampling import unseen_cards, unseen_tokens
from games.engine.policies import seat_policies
from games.engine.state import evolve
from games.engine.tokens import TOKEN_SUPPLY

QUICK = 0.03  # the hard bot's budget in these tests: enough to exercise its lookahead


def bots(name: str):
    return {"easy": EasyBot, "medium": MediumBot, "hard": lambda: HardBot(budget=QUICK)}[name]()


def play_checked(config: GameConfig, seed: int, policies) -> tuple:
    """A whole game, checking every bot action against legal_actions; (final state, actions)."""
    state = new_game(config, seed)
    rng = random.Random(seed)
    taken = []
    while not state.finished:
        action = policies[state.current_seat](state, rng)
        assert action in legal_actions(state), action
        assert type(action) is not ResetTurn
        taken.append(action)
        state = apply(state, action)
        assert len(taken) < 1000, "a bot never ended its turn"
    return state, taken


def random_middle(config: GameConfig, seed: int, actions: int):
    """A state part-way through a random game."""
    state = new_game(config, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        state = apply(state, random_policy(state, rng))
    return state


def test_the_three_bots_are_registered_beside_random():
    assert {"random", "easy", "medium", "hard"} <= set(POLICIES)


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_a_bot_plays_a_whole_two_player_game_with_spirits_legally(name):
    state, actions = play_checked(GameConfig(players=2, spirits=True), 3, (bots(name), bots(name)))
    assert state.finished
    assert sum(type(a) is ChooseSpirit for a in actions) == 2
    assert all(p.spirit is not None for p in state.players)


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_a_bot_plays_a_whole_solo_game_legally(name):
    state, actions = play_checked(GameConfig(players=1), 4, (bots(name),))
    assert state.finished
    ends = [a for a in actions if type(a) is EndTurn]
    assert len(ends) == state.turn


def test_bots_play_side_b_against_each_other_legally():
    config = GameConfig(players=2, side="B")
    state, _ = play_checked(config, 5, (bots("easy"), bots("hard")))
    assert state.finished


def test_the_solo_bot_may_discard_from_the_display_and_does_so_legally():
    discards = 0
    for seed in range(3):
        _, actions = play_checked(GameConfig(players=1), seed, (bots("medium"),))
        discards += sum(1 for a in actions if type(a) is EndTurn and a.discard)
    assert discards > 0


def test_a_sampled_state_shows_exactly_the_view_it_was_built_from():
    state = random_middle(GameConfig(players=3, spirits=True), 2, 40)
    seat = state.current_seat
    view = view_for(state, seat)
    world = sample_state(view, random.Random(1))
    assert view_for(world, seat) == view
    assert len(world.pouch) == len(state.pouch) and len(world.deck) == len(state.deck)


def test_the_sampled_pouch_comes_from_the_tokens_nobody_can_see():
    state = random_middle(GameConfig(players=2), 6, 25)
    view = view_for(state, state.current_seat)
    unseen = unseen_tokens(view)
    assert sorted(unseen) == sorted(state.pouch)  # multiplayer: nothing is discarded
    assert sum(TOKEN_SUPPLY.values()) - len(unseen) == sum(
        len(s) for p in state.players for s in p.stacks
    ) + sum(map(len, state.central)) + len(state.hand)
    assert sorted(unseen_cards(view)) == sorted(state.deck)


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
@pytest.mark.parametrize("players", [1, 2])
def test_a_bot_choice_does_not_depend_on_the_hidden_order(name, players):
    state = random_middle(GameConfig(players=players), 7, 30)
    if state.taken_space is not None:
        state = apply(state, ResetTurn()) if state.turn_start else state
    pouch, deck = list(state.pouch), list(state.deck)
    random.Random(99).shuffle(pouch)
    random.Random(98).shuffle(deck)
    other = evolve(state, pouch=tuple(pouch), deck=tuple(deck))
    assert other.pouch != state.pouch and other.deck != state.deck
    assert view_for(other, state.current_seat) == view_for(state, state.current_seat)
    first = bots(name)(state, random.Random(11))
    second = bots(name)(other, random.Random(11))
    assert first == second
    assert first in legal_actions(state)


def test_a_bot_starts_its_turn_from_the_plan_it_made():
    state = new_game(GameConfig(players=2), 8)
    bot = MediumBot()
    rng = random.Random(0)
    action = bot(state, rng)
    assert type(action) is TakeTokens
    while type(action) is not EndTurn:
        state = apply(state, action)
        action = bot(state, rng)
        assert action in legal_actions(state)


def test_the_hard_bot_returns_within_about_its_budget():
    state = random_middle(GameConfig(players=2), 9, 20)
    while state.taken_space is not None:
        state = apply(state, random_policy(state, random.Random(0)))
    bot = HardBot(budget=0.2)
    start = time.perf_counter()
    action = bot(state, random.Random(0))
    elapsed = time.perf_counter() - start
    assert action in legal_actions(state)
    assert elapsed < 2.0  # loose: the benchmark records the real figures


def test_a_budget_reaches_the_hard_bot_only():
    easy, hard = seat_policies("easy,hard", 2, budget=0.5)
    assert isinstance(easy, EasyBot) and hard.budget == 0.5


def test_the_hard_bot_keeps_its_search_settings_under_a_new_budget():
    bot = HardBot(budget=2.0, top=4, solo_samples=3, rival=0.25, solo_depth=3, rival_samples=5)
    bot = bot.with_budget(0.5)
    assert (bot.budget, bot.top, bot.rival, bot.solo_depth) == (0.5, 4, 0.25, 3)
    assert (bot.solo_samples, bot.rival_samples) == (3, 5)


def test_the_hard_bot_counts_the_searches_its_budget_cut_short():
    state = random_middle(GameConfig(players=1), 12, 40)
    while state.taken_space is not None:
        state = apply(state, random_policy(state, random.Random(0)))
    roomy = HardBot(budget=60.0, top=3, solo_samples=1)
    roomy(state, random.Random(5))
    assert roomy.cuts == {"searches": 1}
    # Half of 2 ms is over before the first board has had its card stage.
    hurried = HardBot(budget=0.002, top=3, solo_samples=1)
    action = hurried(state, random.Random(5))
    assert hurried.cuts == {"searches": 1, "cut": 1}
    assert action in legal_actions(state)
    assert hurried.with_budget(1.0).cuts == {}


def test_with_a_roomy_budget_the_hard_bot_decides_by_its_samples_not_the_clock():
    state = random_middle(GameConfig(players=1), 12, 40)
    while state.taken_space is not None:
        state = apply(state, random_policy(state, random.Random(0)))

    def choose() -> object:  # a new bot each time: nothing remembered from the first call
        return HardBot(budget=60.0, top=3, solo_samples=2)(state, random.Random(5))

    choices = {choose() for _ in range(2)}
    assert len(choices) == 1
    assert choices.pop() in legal_actions(state)


def test_the_plans_compared_are_distinct_positions():
    from games.engine.bots.planner import Settings, plan_turn

    state = new_game(GameConfig(players=2), 4)
    plans = plan_turn(state, Settings(), random.Random(0), top=8)
    keys = {(p.state.mover, p.state.central, p.state.display) for p in plans}
    assert len(keys) == len(plans)


def boards_of_a_game(config: GameConfig, seed: int) -> list:
    """The state at the start of each turn of a game between medium bots."""
    state = new_game(config, seed)
    policies = seat_policies("medium", config.players)
    rng = random.Random(seed)
    starts = [state]
    while not state.finished:
        action = policies[state.current_seat](state, rng)
        state = apply(state, action)
        if type(action) is EndTurn and not state.finished:
            starts.append(state)
    return starts


@pytest.mark.parametrize("side", ["A", "B"])
def test_the_card_potential_memo_gives_the_value_computed_afresh(side):
    from games.engine.bots.evaluate import card_potential, codes_of, distances
    from games.engine.bots.planner import Settings, context

    for state in boards_of_a_game(GameConfig(players=2, side=side), 21)[::3]:
        player = state.mover
        for focused in (True, False):
            ctx = context(state, Settings(), focused)
            cards = [*player.cards, *((c, 0) for c in state.display)]
            # Boards that share some hexes with this one, valued first, fill the memo.
            for cell in range(len(player.stacks)):
                stacks = list(player.stacks)
                stacks[cell] = () if stacks[cell] else ("yellow",)
                for card_id, placed in cards:
                    ctx.potential(card_id, placed, 1, codes_of(stacks, player.cube_mask))
            codes = codes_of(player.stacks, player.cube_mask)
            for card_id, placed in cards:
                places, _ = ctx.places(card_id)
                for wanted in (1, 2):
                    fresh = card_potential(card_id, placed, distances(codes, places, wanted), ctx)
                    assert ctx.potential(card_id, placed, wanted, codes) == fresh


def test_sharing_board_values_between_central_spaces_changes_no_board():
    from games.engine.bots.planner import Settings, context, token_boards

    state = boards_of_a_game(GameConfig(players=2), 22)[6]
    settings = Settings()
    shared: dict = {}
    for space in range(len(state.central)):
        taken = apply(state, TakeTokens(space))
        ctx = context(taken, settings, True)
        alone = token_boards(taken, taken.hand, ctx, settings, random.Random(0))
        ctx = context(taken, settings, True)
        assert token_boards(taken, taken.hand, ctx, settings, random.Random(0), shared) == alone
    assert shared


def test_the_solo_lookahead_depth_changes_nothing_with_rivals():
    state = boards_of_a_game(GameConfig(players=2), 23)[5]
    choices = {
        HardBot(budget=60.0, top=3, solo_samples=2, solo_depth=depth)(state, random.Random(5))
        for depth in (1, 3)
    }
    assert len(choices) == 1


def test_the_hard_bot_looks_two_turns_ahead_in_solo_and_stays_deterministic(monkeypatch):
    state = boards_of_a_game(GameConfig(players=1), 24)[4]
    greedy_turns = []
    original = HardBot._greedy_turn

    def counted(self, state, rng, memo):
        greedy_turns.append(state.turn)
        return original(self, state, rng, memo)

    monkeypatch.setattr(HardBot, "_greedy_turn", counted)
    bot = HardBot(budget=60.0, top=3, solo_samples=1, solo_depth=2)
    choices = {bot.with_budget(60.0)(state, random.Random(6)) for _ in range(2)}
    assert len(choices) == 1
    assert choices.pop() in legal_actions(state)
    assert len(greedy_turns) == 2 * 3  # one greedy turn per plan and future, in both decisions


def test_a_full_hand_costs_its_weight_and_three_cards_do_not():
    from games.engine.bots.evaluate import Context, Weights, board_value, fade

    stacks = ((),) * 23
    four = [(f"animal_0{i}", 0) for i in range(1, 5)]

    def value(cards, weights):
        return board_value(Context("A", 8, weights), stacks, 0, cards, (), None, False)

    costly = Weights(full_hand=6.0)
    assert value(four, Weights()) - value(four, costly) == pytest.approx(6.0 * fade(8))
    assert value(four[:3], Weights()) == value(four[:3], costly)


def test_a_board_too_full_for_the_turns_left_costs_the_turns_it_will_not_play():
    from games.engine.bots.evaluate import Context, Weights, board_value, fade

    def value(empties, weights):
        stacks = ((),) * empties + (("yellow",),) * (23 - empties)
        return board_value(Context("A", 4, weights), stacks, 0, (), (), None, False)

    costly = Weights(turn_worth=3.0, hexes_per_turn=2.0)
    # 12 empty hexes leave room for 5 turns of 2 new hexes: no cost with 4 turns to play.
    assert value(12, costly) == value(12, Weights())
    # 6 empty hexes leave room for 2 of the 4 turns: the other 2 cost 3 points each.
    assert value(6, Weights()) - value(6, costly) == pytest.approx(6.0 * fade(4))


@pytest.mark.parametrize(("players", "futures"), [(2, 2), (3, 1)])
def test_the_hard_bot_shares_its_rival_futures_among_its_rivals(monkeypatch, players, futures):
    state = boards_of_a_game(GameConfig(players=players), 25)[4]
    valued = []
    original = HardBot._future_value

    def counted(self, future, plan, seat, rng, memo):
        valued.append(plan)
        return original(self, future, plan, seat, rng, memo)

    monkeypatch.setattr(HardBot, "_future_value", counted)
    bot = HardBot(budget=60.0, top=3, rival_samples=2)
    assert bot(state, random.Random(7)) in legal_actions(state)
    assert len(valued) == futures * 3  # every plan valued in each future


def test_searches_sharing_a_memo_plan_exactly_as_searches_alone():
    """The hard bot's futures share contexts and board values: only work may change, not plans."""
    from games.engine.bots.planner import Settings, plan_turn

    state = boards_of_a_game(GameConfig(players=2), 26)[4]
    search = Settings(beam=3, keep=2, focus=8)
    memo: dict = {}
    # Our first turn's plans, then the rival's reply to each: the rival's board is the same each
    # time, the central spaces and display not always.
    for ours in plan_turn(state, search, random.Random(1), top=4):
        after = apply(ours.state, ours.actions[-1])  # its EndTurn: the rival to move
        alone = plan_turn(after, search, random.Random(2), top=3)
        shared = plan_turn(after, search, random.Random(2), top=3, memo=memo)
        assert [(p.actions, p.value) for p in shared] == [(p.actions, p.value) for p in alone]
    assert memo  # the rival's searches did share it
