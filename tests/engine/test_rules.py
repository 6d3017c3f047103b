"""The turn, rule by rule (rules §4, §6, §7): taking and placing tokens, cards, cubes, reset."""

from __future__ import annotations

import pytest

from games.engine import (
    EndTurn,
    IllegalAction,
    PlaceCube,
    PlaceToken,
    ResetTurn,
    TakeCard,
    TakeTokens,
    apply,
    cube_options,
    geometry,
    legal_actions,
    score_sheet,
    token_targets,
)
from games.engine.state import evolve
from tests.engine.game_support import game, holding, with_player


def test_a_turn_starts_by_offering_every_filled_central_space():
    state = game(players=2)
    takes = [a for a in legal_actions(state) if isinstance(a, TakeTokens)]
    assert takes == [TakeTokens(i) for i in range(5)]


def test_taking_tokens_moves_the_three_tokens_of_the_space_into_the_hand():
    state = game(players=2)
    space = state.central[2]
    after = apply(state, TakeTokens(2))
    assert after.hand == space
    assert after.central[2] == ()
    assert after.taken_space == 2
    assert after.pouch == state.pouch  # no refill during the turn


def test_tokens_can_be_taken_only_once_per_turn():
    state = apply(game(), TakeTokens(0))
    with pytest.raises(IllegalAction, match="already took tokens"):
        apply(state, TakeTokens(1))


def test_an_empty_central_space_cannot_be_taken():
    state = game()
    state = evolve(state, central=((), *state.central[1:]))
    with pytest.raises(IllegalAction, match="empty"):
        apply(state, TakeTokens(0))
    assert TakeTokens(0) not in legal_actions(state)


def test_a_token_cannot_be_placed_before_tokens_are_taken():
    with pytest.raises(IllegalAction, match="take 3 tokens from the central board first"):
        apply(game(), PlaceToken("blue", "0,0"))


def test_a_token_of_a_colour_not_in_hand_cannot_be_placed():
    state = holding(game(), "blue", "blue", "gray")
    with pytest.raises(IllegalAction, match="no yellow token"):
        apply(state, PlaceToken("yellow", "0,0"))


def test_placing_a_token_adds_it_on_top_of_the_stack_and_removes_it_from_the_hand():
    state = holding(with_player(game(), board={"1,1": ("brown",)}), "green", "blue", "blue")
    after = apply(state, PlaceToken("green", "1,1"))
    assert after.players[0].stacks[geometry("A").index["1,1"]] == ("brown", "green")
    assert after.hand == ("blue", "blue")


def test_a_field_token_can_only_go_on_an_empty_hex():
    state = holding(with_player(game(), board={"0,0": ("brown",)}), "yellow", "blue", "blue")
    with pytest.raises(IllegalAction, match="a field token can only go on an empty hex"):
        apply(state, PlaceToken("yellow", "0,0"))


def test_nothing_can_be_stacked_on_a_building():
    state = holding(with_player(game(), board={"0,0": ("gray", "red")}), "red", "gray", "brown")
    for colour in ("red", "gray", "brown"):
        with pytest.raises(IllegalAction, match="building"):
            apply(state, PlaceToken(colour, "0,0"))
    assert "0,0" not in token_targets(state, "red")


def test_a_mountain_grows_to_three_gray_tokens_and_no_higher():
    state = holding(with_player(game(), board={"0,0": ("gray", "gray")}), "gray", "gray", "red")
    state = apply(state, PlaceToken("gray", "0,0"))
    with pytest.raises(IllegalAction, match="at most 3"):
        apply(state, PlaceToken("gray", "0,0"))


def test_a_token_cannot_go_on_a_hex_carrying_a_cube():
    state = with_player(game(), board={"0,0": ("gray",)}, cubes=["0,0"])
    state = holding(state, "gray", "gray", "gray")
    with pytest.raises(IllegalAction, match="cube"):
        apply(state, PlaceToken("gray", "0,0"))
    assert "0,0" not in token_targets(state, "gray")


def test_a_hex_that_is_not_on_the_board_side_is_refused():
    state = holding(game(side="B"), "blue", "blue", "blue")
    with pytest.raises(IllegalAction, match="no hex 4,4 on a side-B board"):
        apply(state, PlaceToken("blue", "4,4"))


def test_token_targets_lists_exactly_the_cells_that_accept_the_colour():
    board = {"0,0": ("brown",), "0,1": ("blue",), "1,0": ("brown", "brown"), "1,1": ("gray",)}
    state = holding(with_player(game(), board=board), "green", "brown", "yellow")
    green = token_targets(state, "green")
    assert "0,0" in green and "1,0" in green
    assert "0,1" not in green and "1,1" not in green
    assert "1,0" not in token_targets(state, "brown")
    assert token_targets(state, "red") == ()  # no red token in hand
    assert len(token_targets(state, "yellow")) == 23 - 4


def test_the_turn_cannot_end_before_the_tokens_are_taken_and_placed():
    state = game()
    with pytest.raises(IllegalAction, match="take 3 tokens"):
        apply(state, EndTurn())
    state = holding(state, "blue", "blue", "blue")
    state = apply(state, PlaceToken("blue", "0,0"))
    with pytest.raises(IllegalAction, match="place all the tokens"):
        apply(state, EndTurn())
    assert EndTurn() not in legal_actions(state)


def test_ending_the_turn_refills_the_taken_space_and_passes_to_the_next_seat():
    state = holding(game(players=3), "blue", "blue", "blue", space=3)
    for cell in ("0,0", "0,1", "0,2"):
        state = apply(state, PlaceToken("blue", cell))
    after = apply(state, EndTurn())
    assert after.central[3] == state.pouch[:3]
    assert after.pouch == state.pouch[3:]
    assert after.current_seat == 1
    assert after.turn == 1
    assert after.players[0].turns == 1
    assert (after.hand, after.taken_space, after.took_card, after.turn_start) == (
        (),
        None,
        False,
        None,
    )


def test_taking_a_card_puts_it_above_the_board_with_no_cube_placed():
    state = game()
    card_id = state.display[1]
    after = apply(state, TakeCard(card_id))
    assert after.players[0].cards == ((card_id, 0),)
    assert card_id not in after.display
    assert len(after.display) == 4  # refilled only at the end of the turn
    assert after.deck == state.deck


def test_only_one_card_may_be_taken_per_turn():
    state = apply(game(), TakeCard(game().display[0]))
    with pytest.raises(IllegalAction, match="already took an animal card"):
        apply(state, TakeCard(state.display[0]))
    assert not [a for a in legal_actions(state) if isinstance(a, TakeCard)]


def test_a_card_not_in_the_display_cannot_be_taken():
    state = game()
    with pytest.raises(IllegalAction, match="not in the display"):
        apply(state, TakeCard(state.deck[0]))


def test_a_fifth_card_cannot_be_taken():
    state = game()
    held = tuple((c, 0) for c in state.deck[:4])
    state = with_player(state, cards=held)
    with pytest.raises(IllegalAction, match="you already hold 4 cards"):
        apply(state, TakeCard(state.display[0]))
    assert not [a for a in legal_actions(state) if isinstance(a, TakeCard)]


def test_an_unplaced_spirit_card_counts_toward_the_card_limit():
    state = game(spirits=True)
    held = tuple((c, 0) for c in state.deck[:3])
    state = with_player(state, cards=held, spirit="spirit_ram", spirit_options=())
    with pytest.raises(IllegalAction, match="Nature's Spirit card counts"):
        apply(state, TakeCard(state.display[0]))
    placed = with_player(state, spirit_placed=True, board={"0,0": ("gray",) * 3}, cubes=["0,0"])
    assert apply(placed, TakeCard(state.display[0])).players[0].cards[-1] == (state.display[0], 0)


def test_the_display_is_refilled_at_the_end_of_the_turn():
    state = game()
    card_id = state.display[0]
    state = apply(state, TakeCard(card_id))
    state = holding(state, "blue", "blue", "blue")
    for cell in ("0,0", "0,1", "0,2"):
        state = apply(state, PlaceToken("blue", cell))
    after = apply(state, EndTurn())
    assert after.display == (*state.display, state.deck[0])
    assert after.deck == state.deck[1:]


def test_the_display_stays_short_when_the_draw_pile_is_empty():
    state = evolve(game(), deck=())
    state = apply(state, TakeCard(state.display[0]))
    state = holding(state, "blue", "blue", "blue")
    for cell in ("0,0", "0,1", "0,2"):
        state = apply(state, PlaceToken("blue", cell))
    assert len(apply(state, EndTurn()).display) == 4


# Meerkat (animal_26): a height-1 mountain with the cube, next to a field; 4 cubes.
MEERKAT = "animal_26"
MEERKAT_BOARD = {"0,0": ("gray",), "1,0": ("yellow",), "2,0": ("gray",), "2,1": ("yellow",)}


def test_a_cube_goes_on_the_cube_hex_of_a_matching_habitat():
    state = with_player(game(), board=MEERKAT_BOARD, cards=((MEERKAT, 0),))
    options = cube_options(state, 0)[MEERKAT]
    assert set(options) == {"0,0", "2,0"}
    assert options["0,0"][0] == "0,0"
    after = apply(state, PlaceCube(MEERKAT, "0,0"))
    player = after.players[0]
    assert player.cards == ((MEERKAT, 1),)
    assert player.cube_mask == 1  # cell 0 is "0,0"


def test_a_cube_needs_the_habitat_under_its_hex():
    state = with_player(game(), board=MEERKAT_BOARD, cards=((MEERKAT, 0),))
    with pytest.raises(IllegalAction, match="Meerkat habitat is not on your board"):
        apply(state, PlaceCube(MEERKAT, "1,0"))


def test_a_hex_carries_at_most_one_cube():
    state = with_player(game(), board=MEERKAT_BOARD, cards=((MEERKAT, 1),), cubes=["0,0"])
    with pytest.raises(IllegalAction, match="already carries a cube"):
        apply(state, PlaceCube(MEERKAT, "0,0"))
    assert set(cube_options(state, 0)[MEERKAT]) == {"2,0"}


def test_a_cube_can_only_come_from_a_held_card():
    state = with_player(game(), board=MEERKAT_BOARD)
    with pytest.raises(IllegalAction, match="you do not hold that card"):
        apply(state, PlaceCube(MEERKAT, "0,0"))


def test_cubes_leave_the_card_from_the_bottom_and_its_value_rises():
    state = with_player(game(), board=MEERKAT_BOARD, cards=((MEERKAT, 0),))
    assert score_sheet(state, 0).animals == 0
    state = apply(state, PlaceCube(MEERKAT, "0,0"))
    assert score_sheet(state, 0).animals == 2  # bottom value of 14/9/5/2
    state = apply(state, PlaceCube(MEERKAT, "2,0"))
    assert score_sheet(state, 0).animals == 5


def test_placing_the_last_cube_completes_the_card_and_frees_a_slot():
    eagle = "animal_25"  # height-3 mountain next to a field, 2 cubes
    board = {
        "0,0": ("gray",) * 3,
        "1,0": ("yellow",),
        "0,1": ("yellow",),
        "4,0": ("gray",) * 3,
        "4,1": ("yellow",),
    }
    others = tuple((c, 0) for c in ("animal_01", "animal_02", "animal_03"))
    state = with_player(game(), board=board, cards=((eagle, 1), *others), cubes=["0,0"])
    assert not [a for a in legal_actions(state) if isinstance(a, TakeCard)]
    after = apply(state, PlaceCube(eagle, "4,0"))
    player = after.players[0]
    assert player.completed == (eagle,)
    assert player.cards == others
    assert player.cards_held == 3
    # The card take of this turn is still unused, and a slot is free again.
    assert TakeCard(after.display[0]) in legal_actions(after)
    assert score_sheet(after, 0).animals == 11
    with pytest.raises(IllegalAction, match="no cube left"):
        apply(after, PlaceCube(eagle, "0,0"))


def test_a_cube_may_be_placed_before_taking_tokens_and_between_placements():
    state = with_player(game(), board=MEERKAT_BOARD, cards=((MEERKAT, 0),))
    assert PlaceCube(MEERKAT, "0,0") in legal_actions(state)
    state = holding(state, "blue", "blue", "blue")
    state = apply(state, PlaceToken("blue", "4,4"))
    assert PlaceCube(MEERKAT, "0,0") in legal_actions(state)


def test_a_habitat_destroyed_later_keeps_its_cube():
    bear = "animal_14"  # a height-1 tree (cube) beside two height-2 mountains
    board = {"1,1": ("green",), "0,1": ("gray", "gray"), "0,2": ("gray", "gray")}
    state = with_player(game(), board=board, cards=((bear, 0),))
    state = apply(state, PlaceCube(bear, "1,1"))
    state = holding(state, "gray", "blue", "blue")
    state = apply(state, PlaceToken("gray", "0,1"))  # the habitat is gone...
    assert cube_options(state, 0)[bear] == {}
    assert state.players[0].cards == ((bear, 1),)  # ...but the cube stays and scores
    assert score_sheet(state, 0).animals == 5


def test_reset_turn_is_not_offered_before_anything_happened():
    state = game()
    assert ResetTurn() not in legal_actions(state)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        apply(state, ResetTurn())


def test_reset_turn_restores_the_start_of_the_turn():
    start = with_player(game(), board=MEERKAT_BOARD, cards=((MEERKAT, 0),))
    state = apply(start, TakeTokens(1))
    state = apply(state, PlaceToken(state.hand[0], "4,4"))
    state = apply(state, TakeCard(state.display[0]))
    state = apply(state, PlaceCube(MEERKAT, "0,0"))
    assert legal_actions(state)[-1] == ResetTurn()
    assert apply(state, ResetTurn()) == start


def test_every_listed_action_is_accepted_in_a_busy_turn():
    state = with_player(game(), board=MEERKAT_BOARD, cards=((MEERKAT, 0),))
    state = apply(state, TakeTokens(0))
    for action in legal_actions(state):
        apply(state, action)
