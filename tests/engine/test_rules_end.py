"""End of the game (rules §8, §9.10, §0 D6): triggers, the final round, the ranking."""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, TakeTokens, apply, legal_actions, ranking, winners
from games.engine.state import evolve
from tests.engine.game_support import full_board, game, play_turn, with_player


def nearly_full(state, seat, leave_empty):
    return with_player(state, seat, board=full_board(state.config.side, leave_empty))


def test_three_empty_hexes_after_a_turn_do_not_end_the_game():
    state = nearly_full(game(players=2), 0, 6)
    after = play_turn(state)
    assert after.players[0].empty_hexes == 3
    assert not after.ending


def test_two_empty_hexes_after_a_turn_trigger_the_end():
    state = nearly_full(game(players=3), 0, 5)
    after = play_turn(state)
    assert after.players[0].empty_hexes == 2
    assert after.ending and not after.finished
    assert after.current_seat == 1


def test_the_final_round_ends_with_the_player_before_the_first_player():
    state = game(players=4, first_seat=2, current_seat=3)
    state = nearly_full(state, 3, 5)
    state = play_turn(state)  # seat 3 triggers the end
    assert state.ending and state.current_seat == 0
    state = play_turn(state)
    assert state.current_seat == 1 and not state.finished
    state = play_turn(state)  # seat 1 sits just before the first player
    assert state.finished
    turns = [p.turns for p in state.players]
    assert turns == [1, 1, 0, 1]  # seat 2 started; in this test it never played before seat 3


def test_every_player_plays_the_same_number_of_turns():
    state = game(players=3, first_seat=1, current_seat=1)
    state = play_turn(play_turn(play_turn(state)))  # seats 1, 2, 0
    state = nearly_full(state, 1, 5)
    state = play_turn(state)  # seat 1 triggers
    assert state.ending
    state = play_turn(play_turn(state))  # seats 2 and 0 complete the round
    assert state.finished
    assert [p.turns for p in state.players] == [2, 2, 2]


def test_the_game_ends_at_once_when_the_player_before_the_first_triggers_it():
    state = game(players=2, first_seat=0, current_seat=1)
    state = nearly_full(state, 1, 5)
    after = play_turn(state)
    assert after.ending and after.finished
    assert after.current_seat == 1


def test_an_empty_pouch_at_refill_leaves_the_space_empty_and_triggers_the_end():
    state = evolve(game(players=3), pouch=())
    after = play_turn(state, space=2)
    assert after.central[2] == ()
    assert after.ending and not after.finished
    # The final round goes on with the spaces still filled; none is refilled.
    after = play_turn(after, space=0)
    assert after.central[0] == () and after.central[2] == ()
    after = play_turn(after, space=1)
    assert after.finished


def test_the_last_tokens_of_the_pouch_refill_a_space_without_ending_the_game():
    state = evolve(game(players=2), pouch=("blue", "red", "gray"))
    after = play_turn(state, space=4)
    assert after.central[4] == ("blue", "red", "gray")
    assert after.pouch == ()
    assert not after.ending
    assert play_turn(after).ending  # the next refill finds the pouch empty


def test_a_finished_game_accepts_no_action():
    state = evolve(game(players=2), finished=True, ending=True)
    assert legal_actions(state) == []
    with pytest.raises(IllegalAction, match="the game is over"):
        apply(state, TakeTokens(0))


CROCODILE, FROG, MEERKAT = "animal_01", "animal_05", "animal_26"


def test_the_highest_total_wins():
    state = with_player(game(players=2), 0, cards=((CROCODILE, 2),))  # 9 points
    state = with_player(state, 1, cards=((FROG, 2),))  # 4 points
    places = ranking(state)
    assert [(p.seat, p.place, p.total) for p in places] == [(0, 1, 9), (1, 2, 4)]
    assert winners(state) == (0,)


def test_a_tie_goes_to_the_most_animal_cubes_on_the_board():
    state = with_player(game(players=2), 0, cards=((CROCODILE, 1),))  # 4 points, 1 cube
    state = with_player(state, 1, cards=((FROG, 2),))  # 4 points, 2 cubes
    places = ranking(state)
    assert [(p.seat, p.place, p.animal_cubes, p.shared) for p in places] == [
        (1, 1, 2, False),
        (0, 2, 1, False),
    ]


def test_the_spirit_cube_does_not_count_in_the_tie_break():
    # Ram's Spirit scores mountains of height 2 or 3: none here, so its placed cube adds 0.
    state = with_player(
        game(players=2, spirits=True),
        0,
        cards=((FROG, 1),),
        spirit="spirit_ram",
        spirit_placed=True,
        spirit_options=(),
        cubes=["0,0", "4,4"],
    )
    state = with_player(state, 1, cards=((MEERKAT, 1),), spirit="spirit_owl", spirit_options=())
    places = ranking(state)
    assert [(p.place, p.total, p.animal_cubes, p.shared) for p in places] == [
        (1, 2, 1, True),
        (1, 2, 1, True),
    ]
    assert winners(state) == (0, 1)


def test_completed_cards_count_all_their_cubes_in_the_tie_break():
    state = with_player(game(players=3), 0, completed=("animal_25",))  # Eagle: 11, 2 cubes
    state = with_player(state, 1, cards=(("animal_13", 2),))  # Bee: 18, 2 cubes
    state = with_player(state, 2, cards=(("animal_29", 1),), completed=("animal_12",))  # 5 + 12
    places = ranking(state)
    assert [(p.seat, p.place, p.total, p.animal_cubes) for p in places] == [
        (1, 1, 18, 2),
        (2, 2, 17, 3),
        (0, 3, 11, 2),
    ]
