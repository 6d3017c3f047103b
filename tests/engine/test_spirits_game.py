"""Nature's Spirit cards in play (rules §10, §0 D7)."""

from __future__ import annotations

import pytest

from games.engine import (
    ChooseSpirit,
    IllegalAction,
    PlaceCube,
    ResetTurn,
    TakeCard,
    TakeTokens,
    apply,
    cube_options,
    legal_actions,
    score_sheet,
    state_to_json,
)
from tests.engine.game_support import game, play_turn, with_player


def test_each_player_is_dealt_two_different_spirit_cards():
    state = game(players=4, spirits=True)
    dealt = [c for p in state.players for c in p.spirit_options]
    assert all(len(p.spirit_options) == 2 for p in state.players)
    assert len(set(dealt)) == 8
    assert all(p.spirit is None for p in state.players)


def test_no_spirit_card_is_dealt_without_the_module():
    state = game(players=4)
    assert all(p.spirit_options == () for p in state.players)
    with pytest.raises(IllegalAction, match="without Nature's Spirit cards"):
        apply(state, ChooseSpirit("spirit_lion"))


def test_the_first_turn_starts_with_choosing_a_spirit():
    state = game(players=2, spirits=True)
    options = state.players[0].spirit_options
    assert legal_actions(state) == [ChooseSpirit(c) for c in options]
    for action in (TakeTokens(0), TakeCard(state.display[0])):
        with pytest.raises(IllegalAction, match="choose your Nature's Spirit card first"):
            apply(state, action)


def test_choosing_a_spirit_keeps_it_and_returns_the_other_to_the_box():
    state = game(players=2, spirits=True)
    kept, returned = state.players[0].spirit_options
    after = apply(state, ChooseSpirit(kept))
    assert after.players[0].spirit == kept
    assert after.players[0].spirit_options == ()
    assert after.players[0].cards_held == 1  # the spirit occupies a card slot
    after_turn = play_turn(after)
    assert returned not in state_to_json(after_turn)


def test_choosing_a_spirit_does_not_use_the_card_take():
    state = game(players=2, spirits=True)
    after = apply(state, ChooseSpirit(state.players[0].spirit_options[0]))
    assert TakeCard(after.display[0]) in legal_actions(after)
    assert TakeTokens(0) in legal_actions(after)


def test_a_spirit_is_chosen_once():
    state = game(players=2, spirits=True)
    kept, returned = state.players[0].spirit_options
    after = apply(state, ChooseSpirit(kept))
    with pytest.raises(IllegalAction, match="already chose"):
        apply(after, ChooseSpirit(returned))
    second = play_turn(after)
    second = play_turn(apply(second, ChooseSpirit(second.players[1].spirit_options[0])))
    assert second.current_seat == 0
    assert not [a for a in legal_actions(second) if type(a) is ChooseSpirit]


def test_only_a_dealt_spirit_can_be_chosen():
    state = game(players=2, spirits=True)
    other = state.players[1].spirit_options[0]
    with pytest.raises(IllegalAction, match="not dealt to you"):
        apply(state, ChooseSpirit(other))


def test_the_spirit_choice_is_part_of_the_turn_a_reset_undoes():
    state = game(players=2, spirits=True)
    after = apply(state, ChooseSpirit(state.players[0].spirit_options[1]))
    assert ResetTurn() in legal_actions(after)
    assert apply(after, ResetTurn()) == state


RAM = "spirit_ram"  # a height-3 mountain (cube) beside a height-2 mountain


def ram_state():
    state = game(players=2, spirits=True)
    board = {"0,0": ("gray",) * 3, "1,0": ("gray", "gray")}
    return with_player(state, board=board, spirit=RAM, spirit_options=())


def test_the_spirit_cube_follows_the_habitat_rules():
    state = ram_state()
    assert cube_options(state, 0) == {RAM: {"0,0": ("0,0", "1,0")}}
    with pytest.raises(IllegalAction, match="Ram habitat is not on your board"):
        apply(state, PlaceCube(RAM, "1,0"))


def test_placing_the_spirit_cube_scores_the_spirit_and_frees_its_slot():
    state = ram_state()
    assert score_sheet(state, 0).spirit == 0
    after = apply(state, PlaceCube(RAM, "0,0"))
    player = after.players[0]
    assert player.spirit_placed and player.cube_mask == 1
    assert player.cards_held == 0
    assert score_sheet(after, 0).spirit == 8  # two mountains of height 2 or 3, 4 each
    assert cube_options(after, 0) == {}
    with pytest.raises(IllegalAction, match="no cube left"):
        apply(after, PlaceCube(RAM, "0,0"))


def test_a_spirit_not_kept_cannot_take_a_cube():
    state = ram_state()
    with pytest.raises(IllegalAction, match="you do not hold that card"):
        apply(state, PlaceCube("spirit_marmot", "1,0"))
