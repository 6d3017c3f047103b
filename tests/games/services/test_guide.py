"""The guided first game: its fixed deal, one in progress per player, the lesson's end, and the
guide's step read from the state whatever order the player went in."""

import pytest
from django.core import mail

from games import engine, services
from games.models import Game
from games.presenters.guide import STEP_KEYS, STEPS, current_step, guide_panel, steps_done
from games.services import guide as lessons

pytestmark = pytest.mark.django_db

# The first turn that plays every step of the guide on GUIDE_SEED, in the guide's order
# (tools/find_guide_deal.py found it): if an engine change breaks the deal, this fails.
LESSON_LINE = [
    {"type": "take_tokens", "space": 0},
    {"type": "place_token", "colour": "brown", "cell": "2,2"},
    {"type": "place_token", "colour": "green", "cell": "2,2"},
    {"type": "take_card", "card_id": "animal_18"},
    {"type": "place_token", "colour": "green", "cell": "1,1"},
    {"type": "place_cube", "card_id": "animal_18", "cell": "2,2"},
    {"type": "end_turn"},
]


def play(game: Game, user, action: dict) -> Game:
    game.refresh_from_db()
    services.play(game_id=game.pk, user=user, action=action, expected_version=game.version)
    game.refresh_from_db()
    return game


def test_the_deal_allows_every_step_in_order_in_the_first_turn():
    state = engine.new_game(lessons.GUIDE_CONFIG, lessons.GUIDE_SEED)
    seen = [current_step(state)[0].key]
    for action in LESSON_LINE:
        state = engine.apply(state, engine.action_from_json(action))
        seen.append(current_step(state)[0].key)
    # Each action moves the guide on by exactly one step (the last token builds the habitat).
    assert seen == ["space", "place", "stack", "card", "cube", "cube", "end", "scores"]
    assert list(STEP_KEYS) == ["space", "place", "stack", "card", "cube", "end", "scores"]


def test_it_starts_a_guided_solo_game_on_the_fixed_deal(player):
    game = lessons.start_guided_game(player)
    assert game.guided and game.solo and game.status == Game.Status.ACTIVE
    assert game.uncounted == Game.Uncounted.GUIDED
    assert game.seed == lessons.GUIDE_SEED and not game.public
    assert game.engine_state() == engine.new_game(lessons.GUIDE_CONFIG, lessons.GUIDE_SEED)
    assert game.seats.get().user == player


def test_asking_again_resumes_the_one_in_progress(player):
    first = lessons.start_guided_game(player)
    assert lessons.start_guided_game(player).pk == first.pk
    assert Game.objects.filter(guided=True).count() == 1
    assert lessons.guided_game_in_progress(player).pk == first.pk


def test_each_player_has_their_own(player, other_player):
    assert lessons.start_guided_game(player).pk != lessons.start_guided_game(other_player).pk


def test_a_finished_lesson_leaves_room_for_a_new_one(player):
    first = lessons.start_guided_game(player)
    lessons.finish_lesson(game_id=first.pk, user=player, expected_version=first.version)
    assert lessons.guided_game_in_progress(player) is None
    assert lessons.start_guided_game(player).pk != first.pk


def test_finishing_the_lesson_scores_the_board_and_counts_for_nothing(
    player, django_capture_on_commit_callbacks
):
    game = lessons.start_guided_game(player)
    for action in LESSON_LINE:
        game = play(game, player, action)
    with django_capture_on_commit_callbacks(execute=True):
        lessons.finish_lesson(game_id=game.pk, user=player, expected_version=game.version)
    game.refresh_from_db()
    seat = game.seats.get()
    assert game.status == Game.Status.FINISHED and game.finalized_at is not None
    assert game.end_reason == Game.EndReason.ENDED  # a lesson is not abandoned
    assert game.uncounted == Game.Uncounted.GUIDED
    assert seat.final_score == game.score_sheets()[0].total > 0
    assert mail.outbox == []  # no game-over email for a lesson


def test_playing_to_the_end_keeps_it_uncounted(player, django_capture_on_commit_callbacks):
    from tests.games.helpers import play_to_the_end

    game = lessons.start_guided_game(player)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(game)
    game.refresh_from_db()
    assert game.end_reason == Game.EndReason.NATURAL
    assert game.uncounted == Game.Uncounted.GUIDED
    assert mail.outbox == []


def test_finishing_refuses_a_stale_page_and_leaves_the_game(player):
    game = lessons.start_guided_game(player)
    stale = game.version
    game = play(game, player, LESSON_LINE[0])
    with pytest.raises(services.StaleVersion):
        lessons.finish_lesson(game_id=game.pk, user=player, expected_version=stale)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_finishing_twice_is_refused(player):
    game = lessons.start_guided_game(player)
    lessons.finish_lesson(game_id=game.pk, user=player, expected_version=game.version)
    game.refresh_from_db()
    with pytest.raises(services.Conflict, match="already over"):
        lessons.finish_lesson(game_id=game.pk, user=player, expected_version=game.version)


def test_it_refuses_another_players_lesson(player, stranger):
    game = lessons.start_guided_game(player)
    with pytest.raises(services.NotAllowed):
        lessons.finish_lesson(game_id=game.pk, user=stranger, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_it_refuses_to_end_a_real_game_as_a_lesson(player):
    game = services.create_game(creator=player, players=1, side="A", spirits=False)
    with pytest.raises(services.NotAllowed, match="guided"):
        lessons.finish_lesson(game_id=game.pk, user=player, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_bot_takes_no_lesson(db):
    from tests.factories import UserFactory

    bot = UserFactory(bot_level="easy")
    with pytest.raises(services.NotAllowed):
        lessons.start_guided_game(bot)


def test_a_card_taken_first_is_told_as_done_ahead(player):
    game = lessons.start_guided_game(player)
    game = play(game, player, LESSON_LINE[3])  # the Koala, before taking any tokens
    state = game.engine_state()
    step, ahead = current_step(state)
    assert step.key == "space" and [s.key for s in ahead] == ["card"]
    guide = guide_panel(game, game.seats.get())
    assert guide.target == "central" and guide.number == 1


def test_a_reset_takes_the_guide_back(player):
    game = lessons.start_guided_game(player)
    for action in LESSON_LINE[:3]:
        game = play(game, player, action)
    assert current_step(game.engine_state())[0].key == "card"
    game = play(game, player, {"type": "reset_turn"})
    assert current_step(game.engine_state())[0].key == "space"


def test_an_ended_turn_without_a_stack_points_at_the_next_turns_tokens(player):
    game = lessons.start_guided_game(player)
    game = play(game, player, LESSON_LINE[0])
    for cell in ("0,0", "0,2", "0,4"):
        colour = game.engine_state().hand[0]
        game = play(game, player, {"type": "place_token", "colour": colour, "cell": cell})
    game = play(game, player, {"type": "end_turn"})
    state = game.engine_state()
    assert steps_done(state)["end"] and not steps_done(state)["stack"]
    guide = guide_panel(game, game.seats.get())
    assert guide.step.key == "stack" and guide.target == "central"
    assert [s.key for s in guide.ahead] == ["end"]


def test_the_finished_guide_explains_each_line_of_the_sheet(player):
    game = lessons.start_guided_game(player)
    for action in LESSON_LINE:
        game = play(game, player, action)
    lessons.finish_lesson(game_id=game.pk, user=player, expected_version=game.version)
    game.refresh_from_db()
    guide = guide_panel(game, game.seats.get())
    lines = {line["label"]: line for line in guide.sheet_lines}
    assert guide.finished and guide.score == game.seats.get().final_score
    assert lines["Trees"]["points"] == 4  # a tree 2 high (3) and a tree 1 high (1)
    assert lines["Trees"]["words"].startswith("2 trees: 1 + 3 = 4.")
    assert "Koala has 1 of 4 cubes placed" in lines["Animal cards"]["words"]
    assert "Nature's Spirit" not in lines  # a game without the module
    assert sum(line["points"] for line in guide.sheet_lines) == guide.score


def test_no_guide_for_other_games_or_viewers(player, game):
    seat = game.seats.first()
    assert guide_panel(game, seat) is None
    lesson = lessons.start_guided_game(player)
    assert guide_panel(lesson, None) is None


def test_the_end_step_offers_a_discard_only_on_a_turn_without_a_card(player):
    """Rules 6.3: the solo discard is for a turn in which no animal card was taken, and the
    lesson's first turn takes the Koala."""
    end = next(step for step in STEPS if step.key == "end")
    assert "took no animal card" in end.todo


def test_the_finished_guide_counts_the_suns_as_a_real_game_would(player):
    """Rules 11: side A adds 1 sun and a game without spirits 2, so 7 points make 3 suns."""
    game = lessons.start_guided_game(player)
    for action in LESSON_LINE:
        game = play(game, player, action)
    lessons.finish_lesson(game_id=game.pk, user=player, expected_version=game.version)
    game.refresh_from_db()
    guide = guide_panel(game, game.seats.get())
    assert guide.score == 7 and guide.suns == 3


def test_play_again_on_a_lesson_is_the_lesson_again(player):
    from games.services.rematch import play_again

    first = lessons.start_guided_game(player)
    lessons.finish_lesson(game_id=first.pk, user=player, expected_version=first.version)
    again = play_again(game_id=first.pk, user=player)
    assert again.guided and again.pk != first.pk and again.status == Game.Status.ACTIVE
    assert again.uncounted == Game.Uncounted.GUIDED
    assert play_again(game_id=first.pk, user=player).pk == again.pk
