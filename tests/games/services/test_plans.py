"""The writer of private plans: notes and pencil marks of the seat's own player, judged by the
stacking rules, never a move (no version, no log)."""

import pytest

from games import engine, services
from games.models import NOTES_LIMIT, Game, Plan
from games.models.plans import check_marks
from games.services import plans
from games.services.closing import close_account
from tests.games.helpers import play_to_the_end, start_game, user_to_move

pytestmark = pytest.mark.django_db


def empty_cell(game: Game, user) -> str:
    state = game.engine_state()
    position = game.seats.get(user=user).position
    geo = engine.geometry(game.side)
    return next(geo.names[i] for i, s in enumerate(state.players[position].stacks) if not s)


def test_it_keeps_the_notes_without_touching_the_game(game, player):
    before = Game.objects.get(pk=game.pk)
    plans.save_notes(game_id=game.pk, user=player, notes="Bears on the left.\r\nThen fields.")
    after = Game.objects.get(pk=game.pk)
    assert Plan.objects.get(seat__user=player).notes == "Bears on the left.\nThen fields."
    assert (after.version, after.move_count, after.state) == (
        before.version,
        before.move_count,
        before.state,
    )


def test_it_refuses_notes_past_the_limit_and_stores_nothing(game, player):
    with pytest.raises(services.RuleViolation) as refused:
        plans.save_notes(game_id=game.pk, user=player, notes="x" * 100_000)
    assert "100,000" in refused.value.message and f"{NOTES_LIMIT:,}" in refused.value.message
    assert not Plan.objects.exists()
    plans.save_notes(game_id=game.pk, user=player, notes="x" * NOTES_LIMIT)  # the limit itself


def test_it_refuses_a_nul_character(game, player):
    with pytest.raises(services.RuleViolation):
        plans.save_notes(game_id=game.pk, user=player, notes="a\x00b")
    assert not Plan.objects.exists()


def test_it_pencils_stacks_by_the_rules(game, player):
    cell = empty_cell(game, player)
    plans.pencil(game_id=game.pk, user=player, cell=cell, colour="brown")
    plans.pencil(game_id=game.pk, user=player, cell=cell, colour="green")
    assert Plan.objects.get().marks == [
        {"cell": cell, "colour": "brown"},
        {"cell": cell, "colour": "green"},
    ]
    with pytest.raises(services.RuleViolation) as refused:
        plans.pencil(game_id=game.pk, user=player, cell=cell, colour="green")
    assert "cannot be pencilled there" in refused.value.message
    assert len(Plan.objects.get().marks) == 2
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.parametrize(
    ("cell", "colour"), [("99,99", "green"), ("", "green"), (None, "purple"), ("x", "")]
)
def test_it_refuses_a_forged_hex_or_colour(game, player, cell, colour):
    cell = cell if cell is not None else empty_cell(game, player)
    with pytest.raises(services.RuleViolation):
        plans.pencil(game_id=game.pk, user=player, cell=cell, colour=colour)
    assert all(not plan.marks for plan in Plan.objects.all())


def test_it_rubs_out_the_top_mark_and_clears(game, player):
    cell = empty_cell(game, player)
    plans.pencil(game_id=game.pk, user=player, cell=cell, colour="gray")
    plans.pencil(game_id=game.pk, user=player, cell=cell, colour="gray")
    plans.erase(game_id=game.pk, user=player, cell=cell)
    assert Plan.objects.get().marks == [{"cell": cell, "colour": "gray"}]
    with pytest.raises(services.RuleViolation):
        plans.erase(game_id=game.pk, user=player, cell="0,0" if cell != "0,0" else "1,0")
    plans.clear_marks(game_id=game.pk, user=player)
    assert Plan.objects.get().marks == []


def test_another_player_cannot_write_into_a_plan(game, player, stranger):
    with pytest.raises(services.NotAllowed):
        plans.save_notes(game_id=game.pk, user=stranger, notes="mine now")
    with pytest.raises(services.NotFound):
        plans.save_notes(game_id=10**9, user=player, notes="nowhere")
    assert not Plan.objects.exists()


def test_each_seat_has_its_own_plan(game, player, other_player):
    plans.save_notes(game_id=game.pk, user=player, notes="Alice's")
    plans.save_notes(game_id=game.pk, user=other_player, notes="Bob's")
    notes = dict(Plan.objects.values_list("seat__user__username", "notes"))
    assert notes == {player.username: "Alice's", other_player.username: "Bob's"}


def test_a_plan_is_frozen_once_the_game_is_over(player, other_player):
    game = play_to_the_end(start_game(player, other_player))
    with pytest.raises(services.Conflict):
        plans.save_notes(game_id=game.pk, user=player, notes="too late")
    assert not Plan.objects.exists()


def test_a_player_who_resigned_keeps_no_plan(player, other_player, carol):
    game = start_game(player, other_player, carol)
    waiting = next(u for u in (player, other_player, carol) if u != user_to_move(game))
    services.resign(game_id=game.pk, user=waiting)
    with pytest.raises(services.NotAllowed):
        plans.save_notes(game_id=game.pk, user=waiting, notes="still here")


def test_marks_are_checked_against_the_board_as_it_is_now(game, player):
    cell = empty_cell(game, player)
    state = game.engine_state()
    position = game.seats.get(user=player).position
    checks = check_marks(
        state,
        position,
        [{"cell": cell, "colour": "blue"}, {"cell": cell, "colour": "green"}],
    )
    assert checks[0].error is None
    assert "nothing can be stacked on a water token" in checks[1].error


def test_deleting_the_account_deletes_its_plans(game, player, other_player):
    plans.save_notes(game_id=game.pk, user=player, notes="mine")
    plans.save_notes(game_id=game.pk, user=other_player, notes="theirs")
    close_account(user=player)
    assert list(Plan.objects.values_list("notes", flat=True)) == ["theirs"]
