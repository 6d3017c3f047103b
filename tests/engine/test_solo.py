"""Solo mode (rules §5.2, §6.3, §11, §0 D5)."""

from __future__ import annotations

import pytest

from games.engine import (
    EndTurn,
    GameConfig,
    IllegalAction,
    PlaceToken,
    TakeCard,
    TakeTokens,
    apply,
    legal_actions,
    new_game,
    score_sheet,
    suns,
)
from games.engine.state import evolve
from tests.engine.game_support import empty_cells, full_board, holding, play_turn, with_player


def solo(**changes):
    return evolve(new_game(GameConfig(players=1, side="A"), 7), **changes)


def placed(state, *colours):
    """Take space 0 holding `colours` and place them on the first empty hexes."""
    state = holding(state, *colours)
    for colour, cell in zip(colours, empty_cells(state), strict=False):
        state = apply(state, PlaceToken(colour, cell))
    return state


def test_solo_uses_three_central_spaces_and_three_display_cards():
    state = solo()
    assert len(state.central) == 3 and all(len(s) == 3 for s in state.central)
    assert len(state.pouch) == 120 - 9
    assert len(state.display) == 3
    assert len(state.deck) == 32 - 3
    assert state.current_seat == state.first_seat == 0


def test_the_six_leftover_tokens_are_discarded_and_every_space_refilled():
    state = solo()
    after = play_turn(state, space=1)
    assert after.discarded_tokens == 6
    assert after.central == (state.pouch[0:3], state.pouch[3:6], state.pouch[6:9])
    assert after.pouch == state.pouch[9:]
    assert after.current_seat == 0 and after.turn == 1


def test_with_three_tokens_left_only_the_first_space_is_refilled():
    state = solo(pouch=("red", "red", "blue"))
    after = play_turn(state, space=0)
    assert after.central == (("red", "red", "blue"), (), ())
    assert not after.finished
    assert [a for a in legal_actions(after) if isinstance(a, TakeTokens)] == [TakeTokens(0)]


def test_the_game_ends_when_the_pouch_cannot_fill_a_space():
    state = solo(pouch=("red", "blue"))
    after = play_turn(state)
    assert after.finished
    assert after.central == ((), (), ())
    assert after.discarded_tokens == 6
    assert after.pouch == ("red", "blue")


def test_the_game_ends_when_two_or_fewer_hexes_are_empty():
    state = with_player(solo(), board=full_board("A", 5))
    after = play_turn(state)
    assert after.finished


def test_a_display_card_may_be_discarded_when_no_card_was_taken():
    state = placed(solo(), "blue", "blue", "blue")
    discards = [a for a in legal_actions(state) if isinstance(a, EndTurn) and a.discard]
    assert discards == [EndTurn(c) for c in state.display]
    victim = state.display[1]
    after = apply(state, EndTurn(victim))
    assert after.display == (state.display[0], state.deck[0], state.display[2])
    assert after.deck == state.deck[1:]
    assert after.discarded_cards == (victim,)


def test_no_display_card_may_be_discarded_after_taking_one():
    state = apply(solo(), TakeCard(solo().display[0]))
    state = placed(state, "blue", "blue", "blue")
    assert [a for a in legal_actions(state) if isinstance(a, EndTurn)] == [EndTurn()]
    with pytest.raises(IllegalAction, match="you took an animal card"):
        apply(state, EndTurn(state.display[0]))
    after = apply(state, EndTurn())
    assert len(after.display) == 3  # refilled from the draw pile


def test_no_display_card_may_be_discarded_when_the_game_is_ending():
    state = placed(solo(pouch=("red",)), "blue", "blue", "blue")
    with pytest.raises(IllegalAction, match="the game ends with this turn"):
        apply(state, EndTurn(state.display[0]))
    assert [a for a in legal_actions(state) if isinstance(a, EndTurn)] == [EndTurn()]


def test_no_display_card_may_be_discarded_without_a_replacement():
    state = placed(solo(deck=()), "blue", "blue", "blue")
    with pytest.raises(IllegalAction, match="draw pile is empty"):
        apply(state, EndTurn(state.display[0]))


def test_only_a_card_of_the_display_may_be_discarded():
    state = placed(solo(), "blue", "blue", "blue")
    with pytest.raises(IllegalAction, match="not in the display"):
        apply(state, EndTurn(state.deck[0]))


def test_multiplayer_games_have_no_display_discard():
    state = new_game(GameConfig(players=2), 3)
    state = evolve(state, first_seat=0, current_seat=0)
    state = placed(state, "blue", "blue", "blue")
    with pytest.raises(IllegalAction, match="only be discarded in solo"):
        apply(state, EndTurn(state.display[0]))


def test_solo_scores_convert_to_suns():
    state = with_player(solo(), cards=(("animal_13", 2),))  # Bee completed track: 18 points
    total = score_sheet(state, 0).total
    assert total == 18
    assert suns(state) == 0 + 1 + 2  # 0-39 band, side A, no spirit module
    spirit = new_game(GameConfig(players=1, side="B", spirits=True), 7)
    spirit = with_player(spirit, spirit="spirit_lion", spirit_options=())
    assert suns(spirit) == 0 + 0 + 1


def test_multiplayer_games_have_no_suns():
    assert suns(new_game(GameConfig(players=3), 1)) is None
