"""How a game ends: the writer stores the result once, and every page and table reads it."""

import random
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games import services, tasks
from games.mail import turns
from games.models import Game, Move, Seat
from games.models.replaying import verify
from games.results import MIN_OWN_TURNS, SITE_EVENTS
from games.services.bots import bots_for
from records import leaderboards, sheets
from records import presenters as record_pages
from records.models import Rating, SeatResult
from records.services import counts_for_ratings
from records.tasks import record_game
from tests.clients import as_user
from tests.factories import PASSWORD, UserFactory
from tests.games.helpers import (
    first_legal,
    play_one_action,
    play_to_the_end,
    play_turns,
    play_until_the_last_action,
    start_game,
    user_to_move,
)

pytestmark = pytest.mark.django_db


def ranks(game: Game) -> dict[str, int]:
    return dict(game.seats.values_list("user__username", "rank"))


def timed_game(*users, on_timeout: str = Game.OnTimeout.STAND_IN) -> Game:
    game = services.create_game(
        creator=users[0], players=len(users), side="A", spirits=False, invitees=users[1:],
        turn_limit_days=1, on_timeout=on_timeout,
    )  # fmt: skip
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


@pytest.fixture
def dave(db):
    return UserFactory(username="dave", display_name="Dave")


# --- The stored ranking ---------------------------------------------------------------------------


def test_a_resigner_ranks_last_even_when_his_stand_in_outscores_everyone(
    player, other_player, carol
):
    game = start_game(player, other_player, carol)
    quitter = user_to_move(game)
    services.resign(game_id=game.pk, user=quitter)
    play_to_the_end(game, seed=3)
    game.refresh_from_db()
    # Stored by the writer in the transaction that ended the game, before any finalize task.
    assert game.finalized_at is None
    assert (game.status, game.end_reason) == (Game.Status.FINISHED, "")
    placed = ranks(game)
    assert placed.pop(quitter.username) == 3
    # The deal is random (a new game's seed): the two who stayed may tie, and then share first.
    assert sorted(placed.values()) in ([1, 2], [1, 1])
    assert all(seat.final_score is not None for seat in game.seats.all())
    assert verify(game) is None


def test_with_two_resignations_the_latest_to_leave_ranks_first_of_them(
    player, other_player, carol, dave
):
    game = start_game(player, other_player, carol, dave)
    play_turns(game, turns=4)
    first = user_to_move(game)
    services.resign(game_id=game.pk, user=first)
    game.refresh_from_db()
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        second = user_to_move(game)
        services.resign(game_id=game.pk, user=second)
    play_to_the_end(game, seed=1)
    game.refresh_from_db()
    placed = ranks(game)
    assert placed[first.username] == 4
    assert placed[second.username] == 3
    assert sorted(placed.values())[:2] in ([1, 2], [1, 1])  # the two who stayed may tie
    assert game.end_reason == ""


def test_a_turn_played_by_the_stand_in_after_a_timeout_ranks_the_player_after_the_others(
    player, other_player, carol
):
    game = timed_game(player, other_player, carol)
    late = user_to_move(game)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        assert tasks.sweep_timeouts() == 1
    late_seat = game.seats.get(user=late)
    assert late_seat.turns_missed == 1 and late_seat.timed_out_at is not None
    play_to_the_end(game, seed=2)
    game.refresh_from_db()
    assert ranks(game)[late.username] == 3
    sheet = sheets.score_sheet(game, list(game.seats.select_related("user")))
    assert "timed out" in [p["result"].mark for p in sheet["players"]]


def test_the_provisional_sheet_equals_the_final_one(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, carol)
    play_turns(game, turns=3)
    services.resign(game_id=game.pk, user=user_to_move(game))
    play_to_the_end(game, seed=4)
    game.refresh_from_db()
    seats = list(game.seats.select_related("user"))

    def shown(sheet):
        return [(p["name"], p["result"].place, p["result"].total) for p in sheet["ranking"]]

    provisional = sheets.score_sheet(game, seats)
    assert provisional["provisional"]
    version = game.version
    with django_capture_on_commit_callbacks(execute=True):
        tasks.finalize_game(game.pk)
    game.refresh_from_db()
    final = sheets.score_sheet(game, list(game.seats.select_related("user")))
    assert not final["provisional"]
    assert shown(final) == shown(provisional)
    assert game.version == version  # nothing on the page changed: no flip when finalize runs


# --- Abandoned games count for nothing ------------------------------------------------------------


def test_a_resignation_at_move_0_abandons_the_game_and_counts_for_nothing(
    player, other_player, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game_id=game.pk, user=player)
    game.refresh_from_db()
    assert game.end_reason == Game.EndReason.ABANDONED
    assert game.ended_by.user == player
    assert ranks(game) == {"alice": 2, "bob": 1}
    assert not Rating.objects.exists()
    results = SeatResult.objects.filter(game=game)
    assert results.count() == 2 and not any(r.counts or r.won for r in results)
    stats = record_pages.player_stats(other_player)
    assert stats["totals"]["wins"] == 0 and stats["totals"]["games"] == 0
    history = as_user(other_player).get(reverse("records:history"))
    assert "Abandoned" in history.content.decode()
    mine = as_user(other_player).get(reverse("games:mine")).content.decode()
    assert "abandoned" in mine and "won" not in mine


def test_the_last_person_leaving_bots_gives_the_bots_no_win(
    player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            creator=player, players=4, side="A", spirits=False,
            bots=bots_for(["easy", "easy", "medium"]),
        )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game_id=game.pk, user=player)
    game.refresh_from_db()
    assert game.end_reason == Game.EndReason.ABANDONED
    assert not Rating.objects.exists()
    assert not SeatResult.objects.filter(game=game, counts=True).exists()
    assert not any(r.won for r in SeatResult.objects.filter(game=game))


def test_a_resigned_solo_game_is_never_won_and_enters_no_solo_records(
    player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=player, players=1, side="A", spirits=False)
        play_turns(game, turns=4)
        services.resign(game_id=game.pk, user=player)
    game.refresh_from_db()
    assert game.end_reason == Game.EndReason.RESIGNED  # 4 turns played: resigned, not abandoned
    result = SeatResult.objects.get(game=game)
    assert not result.counts and result.suns is None and not result.won
    stats = record_pages.player_stats(player)
    assert stats["totals"]["solo_games"] == 0 and stats["totals"]["solo_suns"] is None
    boards = leaderboards.leaderboard(
        {"board": "solo", "side": "", "spirits": "", "period": "all", "friends": False,
         "pool": "solo", "players": ""},
        player,
    )  # fmt: skip
    assert all(not table["results"] for table in boards["solo_tables"])
    mine = as_user(player).get(reverse("games:mine")).content.decode()
    assert "resigned, with" in mine and "won" not in mine


def test_a_game_where_someone_played_under_3_turns_moves_no_rating(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(player, other_player, carol)
        services.resign(game_id=game.pk, user=user_to_move(game))
        play_to_the_end(game, seed=6)
    game.refresh_from_db()
    assert game.end_reason == ""  # played to its end by the two who stayed
    assert not counts_for_ratings(game, list(game.seats.select_related("user")))
    assert not Rating.objects.exists()
    assert not SeatResult.objects.filter(game=game, counts=True).exists()


def test_a_game_everyone_played_counts(player, other_player, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(player, other_player)
        play_to_the_end(game, seed=2)
    game.refresh_from_db()
    seats = list(game.seats.select_related("user"))
    assert all(seat.own_turns >= MIN_OWN_TURNS for seat in seats)
    assert counts_for_ratings(game, seats)
    assert Rating.objects.filter(user=player).exists()


# --- A player who left can do nothing -------------------------------------------------------------


def test_a_resigned_player_can_do_nothing_more(player, other_player, carol):
    game = timed_game(player, other_player, carol)
    quitter = next(u for u in (player, other_player, carol) if u != user_to_move(game))
    services.resign(game_id=game.pk, user=quitter)
    game.refresh_from_db()
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        version = game.version
        for attempt in (
            lambda: services.skip_turn(game_id=game.pk, user=quitter, expected_version=version),
            lambda: services.end_stalled_game(
                game_id=game.pk, user=quitter, expected_version=version
            ),
            lambda: services.resign(game_id=game.pk, user=quitter),
        ):
            with pytest.raises(services.Conflict, match="You resigned"):
                attempt()
    # On their own turn (the stand-in's, its task not run yet) they may not act either.
    rng = random.Random(0)
    while user_to_move(game) != quitter:
        play_one_action(game, rng)
    version = game.version
    with pytest.raises(services.Conflict, match="You resigned"):
        services.play(
            game_id=game.pk, user=quitter, action=first_legal(game), expected_version=version
        )
    game.refresh_from_db()
    assert game.version == version


def test_a_dropped_player_can_do_nothing_more_and_the_game_goes_on(player, other_player, carol):
    game = timed_game(player, other_player, carol, on_timeout=Game.OnTimeout.DROP)
    late = user_to_move(game)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        assert services.act_on_timeout(game.pk, game.engine_state().turn)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert user_to_move(game) != late
    seat = game.seats.get(user=late)
    assert seat.dropped_at is not None and seat.left
    assert game.moves.filter(action__type="drop").count() == 1
    with pytest.raises(services.Conflict, match="dropped"):
        services.resign(game_id=game.pk, user=late)
    with pytest.raises(services.Conflict, match="dropped"):
        services.play(
            game_id=game.pk, user=late, action=first_legal(game), expected_version=game.version
        )
    assert verify(game) is None


def test_a_finished_game_refuses_everything_in_words(player, other_player):
    game = start_game(player, other_player)
    services.resign(game_id=game.pk, user=player)
    game.refresh_from_db()
    version = game.version
    with pytest.raises(services.Conflict, match="over"):
        services.resign(game_id=game.pk, user=other_player)
    with pytest.raises(services.Conflict, match="over"):
        services.skip_turn(game_id=game.pk, user=other_player, expected_version=version)
    with pytest.raises(services.Conflict, match="over"):
        services.end_stalled_game(game_id=game.pk, user=other_player, expected_version=version)
    with pytest.raises(services.Conflict, match="over"):
        services.play(
            game_id=game.pk, user=other_player, action={"type": "end_turn"},
            expected_version=version,
        )  # fmt: skip
    client = as_user(other_player)
    for name in ("games:resign", "games:skip", "games:end"):
        response = client.post(reverse(name, args=[game.pk]), {"version": version})
        assert response.status_code == 409, name
        assert "over" in response.content.decode()
    game.refresh_from_db()
    assert game.version == version


# --- Time limits that act -------------------------------------------------------------------------


def test_the_sweep_has_a_stand_in_play_a_late_turn_and_tells_everyone_once(
    player, other_player, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player)
    late = user_to_move(game)
    turn = game.engine_state().turn
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(hours=23)):
        assert tasks.sweep_timeouts() == 0  # the deadline is still ahead
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        with django_capture_on_commit_callbacks(execute=True):
            assert tasks.sweep_timeouts() == 1
        assert not services.act_on_timeout(game.pk, turn)  # a second run finds it done
        tasks.notify_timeout(game.pk, turn)
    game.refresh_from_db()
    assert user_to_move(game) != late
    assert game.moves.filter(detail__stand_in=True, detail__timed_out=True).exists()
    # The late player gets the timeout notice; the next player hears it in their turn email.
    (notice,) = [m for m in mail.outbox if "ran out of time" in m.subject]
    assert notice.to == [late.email] and "a stand-in played it" in notice.subject
    nxt = user_to_move(game)
    (turn_email,) = [m for m in mail.outbox if m.to == [nxt.email]]
    assert "time ran out, a stand-in played: your turn in" in turn_email.subject


def test_dropping_one_of_two_players_ends_the_game(
    player, other_player, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player, on_timeout=Game.OnTimeout.DROP)
    late = user_to_move(game)
    mail.outbox.clear()
    with (
        time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        tasks.sweep_timeouts()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.ended_by.user == late
    assert game.end_reason == Game.EndReason.ABANDONED  # before anyone played 3 turns
    assert ranks(game)[late.username] == 2
    # One email each, the game-over one, which says why the game ended.
    assert sorted(m.to[0] for m in mail.outbox) == sorted([player.email, other_player.email])
    assert all(f"{late.public_name} ran out of time" in m.body for m in mail.outbox)


def test_the_new_game_form_keeps_the_timeout_choice(player):
    response = as_user(player).post(
        reverse("games:new"),
        {"players": 1, "side": "A", "turn_limit_days": 3, "on_timeout": "drop"},
    )
    assert response.status_code == 302
    game = Game.objects.get(created_by=player)
    assert game.on_timeout == Game.OnTimeout.DROP


def test_create_game_refuses_an_unknown_timeout_choice(player):
    with pytest.raises(services.GameError, match="time limit"):
        services.create_game(
            creator=player, players=1, side="A", spirits=False, on_timeout="explode"
        )


# --- The finished game page -----------------------------------------------------------------------


def test_a_game_ended_early_says_game_over_with_the_reason_and_offers_nothing(player, other_player):
    game = start_game(player, other_player)
    play_turns(game, turns=6)
    services.resign(game_id=game.pk, user=player)
    game.refresh_from_db()
    for user in (player, other_player):
        client = as_user(user)
        for page in (
            client.get(game.get_absolute_url()),
            client.get(game.get_absolute_url() + "?fragment=game", HTTP_HX_REQUEST="true"),
        ):
            html = page.content.decode()
            assert "Game over" in html
            # Six turns played, so during the 7th: round 4 as players count (turns are internal).
            assert game.ended_on_turn == 7 and "Alice resigned in round 4" in html
            assert "resigned</span>" in html
            assert reverse("records:sheet", args=[game.pk]) in html
            assert reverse("records:replay", args=[game.pk]) in html
            assert "every 3s" not in html and 'hx-trigger="every' not in html
            assert "Resign from this game" not in html
            assert "Your turn" not in html and "Waiting for" not in html
            assert 'name="type" value="take_tokens"' not in html


def test_the_resign_box_is_inside_the_swapped_part(player, other_player):
    game = start_game(player, other_player)
    html = as_user(player).get(game.get_absolute_url() + "?fragment=game", HTTP_HX_REQUEST="true")
    assert "Resign from this game" in html.content.decode()


# --- Ratings order and words ----------------------------------------------------------------------


def test_a_profile_shows_reliability_and_a_best_score_of_0(player, other_player):
    game = timed_game(player, other_player)
    late = user_to_move(game)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        tasks.sweep_timeouts()
    services.resign(game_id=game.pk, user=late)
    html = as_user(late).get(reverse("records:player", args=[late.username])).content.decode()
    assert "Turns in time" in html and "(1 missed of 1)" in html
    assert "Games abandoned" in html
    stats = record_pages.reliability(late)
    assert stats == {"turns": 1, "missed": 1, "share": 0, "left": 1}


def test_record_game_for_a_game_that_finished_earlier_gives_the_rebuilds_ratings(
    player, other_player, carol
):
    from records import services as records
    from tests.records.helpers import quick_game, snapshot

    start = timezone.now() - timedelta(days=3)
    early = quick_game(player, other_player, finished_at=start, record=False)
    quick_game(other_player, player, seed=2, finished_at=start + timedelta(days=1))
    quick_game(carol, player, seed=3, finished_at=start + timedelta(days=2))
    record_game(early.pk)  # finalized late: after two later games moved the ratings
    late_order = snapshot()
    records.rebuild()
    assert snapshot() == late_order


def test_record_game_on_an_abandoned_game_skips_the_ratings_but_lists_it(player, other_player):
    game = start_game(player, other_player)
    services.resign(game_id=game.pk, user=other_player)
    services.finalize(game.pk)
    record_game(game.pk)
    assert SeatResult.objects.filter(game=game, abandoned=True).count() == 2
    assert not Rating.objects.exists()


def test_no_reminder_is_sent_after_the_limit(player, other_player):
    # The timeout sweep plays the turn for them (or drops them) and its email tells them: a
    # reminder of a turn about to stop being theirs would only repeat it, wrongly.
    game = timed_game(player, other_player)
    late = user_to_move(game)
    seat = game.seats.get(user=late)
    due = game.turn_deadline + timedelta(hours=1)
    Seat.objects.filter(pk=seat.pk).update(remind_at=due)
    type(late).objects.filter(pk=late.pk).update(quiet_start=0, quiet_end=0)
    mail.outbox.clear()
    with time_machine.travel(due + timedelta(minutes=1)):
        assert not turns.send_reminder(seat.pk, due)
    assert mail.outbox == []


def test_points_are_pluralised_in_my_games_and_the_game_over_email(
    player, other_player, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player)
    play_turns(game, turns=6)
    services.resign(game_id=game.pk, user=other_player)
    game.seats.update(final_score=1)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        tasks.finalize_game(game.pk)
    mine = as_user(player).get(reverse("games:mine")).content.decode()
    assert "with 1 point ·" in mine and "1 points" not in mine
    for message in mail.outbox:
        assert "1 points" not in message.subject + message.body
        assert ": 1 point" in message.body
        assert reverse("records:sheet", args=[game.pk]) in message.body


def test_a_best_score_of_0_is_shown_as_0(player, other_player):
    from tests.records.helpers import quick_game

    quick_game(player, other_player)
    SeatResult.objects.filter(user=other_player).update(total=0)
    html = as_user(player).get(reverse("records:player", args=[other_player.username]))
    assert "<dt>Best score</dt><dd>0</dd>" in html.content.decode()


def test_the_replay_names_a_turn_by_the_seat_that_moved(player, other_player, carol):
    game = start_game(player, other_player, carol)
    mover = user_to_move(game)
    quitter = next(u for u in (player, other_player, carol) if u != mover)
    services.resign(game_id=game.pk, user=quitter)  # logged before the mover's first action
    play_turns(game, turns=1)
    services.resign(game_id=game.pk, user=mover)
    game.refresh_from_db()
    seats = list(game.seats.select_related("user"))
    moves = list(game.moves.order_by("seq"))
    shown = sheets.replay(game, seats, moves, 0)
    assert shown["turns"][0]["name"] == mover.public_name


def test_own_turns_count_turns_not_moves(player, other_player):
    game = start_game(player, other_player)
    play_turns(game, turns=6)
    services.resign(game_id=game.pk, user=player)
    game.refresh_from_db()
    assert sorted(game.seats.values_list("own_turns", flat=True)) == [3, 3]
    assert game.end_reason == Game.EndReason.RESIGNED  # both played 3 turns: not abandoned
    assert record_pages.reliability(player) == {"turns": 3, "missed": 0, "share": 100, "left": 1}


def test_reliability_reads_ended_games_from_their_seats_and_games_in_play_from_their_log(
    player, other_player, carol
):
    ended = start_game(player, other_player)
    play_turns(ended, turns=6)
    services.resign(game_id=ended.pk, user=other_player)
    going = start_game(player, carol)
    play_turns(going, turns=4)
    ended.refresh_from_db()
    assert all(seat.own_turns is not None for seat in ended.seats.all())
    # What the move log says, counted the old way over every game.
    from_the_log = (
        Move.objects.filter(user=player)
        .exclude(action__type__in=sorted(SITE_EVENTS))
        .order_by()
        .values_list("game_id", "turn")
        .distinct()
        .count()
    )
    assert from_the_log == 5  # three turns in the ended game, two in the one going on
    assert record_pages.reliability(player)["turns"] == from_the_log
    # The ended game is no longer read from its moves: its seat's figure is what counts.
    Seat.objects.filter(game=ended, user=player).update(own_turns=7)
    assert record_pages.reliability(player)["turns"] == 9


# --- The page of the player who ends the game ---------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_the_last_mover_sees_the_stored_ranking_at_once(player, other_player, htmx):
    game = start_game(player, other_player)
    last = play_until_the_last_action(game, seed=4)
    mover = user_to_move(game)
    client = as_user(mover)
    response = client.post(
        reverse("games:act", args=[game.pk]),
        {"version": game.version, **last},
        headers={"HX-Request": "true"} if htmx else {},
        follow=not htmx,
    )
    html = response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert "None" not in html
    for seat in game.seats.select_related("user"):
        assert f"{seat.user.public_name}, {seat.final_score} point" in html
    # The answer the mover got says what a reload says.
    again = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert _ranking_lines(html) == _ranking_lines(again)


def test_the_last_mover_of_a_solo_game_sees_the_final_score(player):
    game = start_game(player)
    last = play_until_the_last_action(game, seed=2)
    response = as_user(player).post(
        reverse("games:act", args=[game.pk]),
        {"version": game.version, **last},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    game.refresh_from_db()
    seat = game.seats.get()
    assert "None" not in html
    assert f"Final score:</strong> Alice, {seat.final_score} point" in html


def _ranking_lines(html: str) -> list[str]:
    import re

    block = html.split('class="ranking"', 1)[1].split("</ol>", 1)[0]
    return [re.sub(r"<[^>]+>", "", line).strip() for line in block.split("<li")[1:]]


# --- When everyone ran out of time; one reason for a game that does not count ---------------------


def test_when_everyone_ran_out_of_time_once_the_score_decides(player, other_player):
    game = timed_game(player, other_player)
    start = timezone.now()
    for day in (1, 2):  # each player's turn runs out once; a stand-in plays it
        with time_machine.travel(start + timedelta(days=day, minutes=day)):
            assert tasks.sweep_timeouts() == 1
    play_to_the_end(game, seed=5)
    game.refresh_from_db()
    seats = list(game.seats.select_related("user"))
    assert all(seat.timed_out_at is not None for seat in seats)
    best = max(seats, key=lambda s: s.final_score)
    worst = min(seats, key=lambda s: s.final_score)
    if best.final_score != worst.final_score:
        assert (best.rank, worst.rank) == (1, 2)
    sheet = as_user(player).get(reverse("records:sheet", args=[game.pk])).content.decode()
    assert "stayed to the end, by score" in sheet  # the sheet says the rule it applied
    page = as_user(player).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f"Winner:</strong> {best.user.public_name}" in page or best.final_score == (
        worst.final_score
    )


def test_a_player_who_timed_out_ranks_after_those_in_time_but_before_those_who_left(
    player, other_player, carol, dave
):
    game = timed_game(player, other_player, carol, dave)
    late = user_to_move(game)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        assert tasks.sweep_timeouts() == 1
    game.refresh_from_db()
    quitter = next(
        s.user for s in game.seats.select_related("user") if s.user != late and s.position != 0
    )
    services.resign(game_id=game.pk, user=quitter)
    play_to_the_end(game, seed=7)
    placed = ranks(game)
    assert placed[quitter.username] == 4
    assert placed[late.username] == 3


def test_an_unconfirmed_player_against_a_bot_is_told_the_true_reason_everywhere(
    django_capture_on_commit_callbacks,
):
    newcomer = UserFactory(username="nina", display_name="Nina", email_confirmed_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            creator=newcomer, players=2, side="A", spirits=False, bots=bots_for(["easy"])
        )
        play_to_the_end(game, seed=3)
    game.refresh_from_db()
    assert game.uncounted == Game.Uncounted.UNCONFIRMED
    client = as_user(newcomer)
    reason = "not every player at the table had confirmed their email address"
    for name, args in [("records:sheet", [game.pk]), ("games:detail", [game.pk])]:
        html = client.get(reverse(name, args=args)).content.decode()
        assert reason in html, name
        assert "fewer than 3 turns" not in html, name
    over = next(m for m in mail.outbox if "is over" in m.subject)
    assert reason in over.body and reason in over.alternatives[0][0]
    profile = client.get(reverse("records:player", args=["nina"])).content.decode()
    assert "No finished games yet" not in profile
    assert "(0 counted)" in profile and "An email address at the table was not confirmed" in profile
    # Confirming the address afterwards does not rewrite a finished game's verdict.
    newcomer.email_confirmed_at = timezone.now()
    newcomer.save()
    assert not counts_for_ratings(game, list(game.seats.select_related("user")))


def test_a_loser_who_unconfirms_their_address_before_the_end_cannot_void_a_rated_game(
    player, other_player, django_capture_on_commit_callbacks
):
    """Whether a game is rated is fixed when it starts (games.results.starting_reason): a
    player whose address is unconfirmed by the end (a change through the profile) still has the
    result counted, as everyone at the table was promised when it started."""
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(player, other_player)
        client = as_user(other_player)
        form = {
            "display_name": other_player.display_name,
            "email": "elsewhere@example.com",
            "time_zone": other_player.time_zone,
            "current_password": PASSWORD,
        }
        assert client.post(reverse("profile"), form).status_code == 302
        other_player.refresh_from_db()
        assert not other_player.can_play_rated
        play_to_the_end(game, seed=5)
    game.refresh_from_db()
    assert game.uncounted == Game.Uncounted.COUNTS
    assert SeatResult.objects.filter(game=game, counts=True).count() == 2
    assert Rating.objects.filter(user=other_player, pool="players", games=1).exists()


def test_a_game_short_of_turns_names_who_was_short(player, other_player, carol):
    game = start_game(player, other_player, carol)
    quitter = user_to_move(game)
    services.resign(game_id=game.pk, user=quitter)
    play_to_the_end(game, seed=6)
    game.refresh_from_db()
    assert game.uncounted == Game.Uncounted.FEW_TURNS
    html = as_user(player).get(reverse("records:sheet", args=[game.pk])).content.decode()
    assert f"{quitter.public_name} was short of 3 turns of their own" in html


def test_the_notify_offer_is_part_of_the_game_and_goes_when_it_ends(player, other_player):
    game = start_game(player, other_player)
    last = play_until_the_last_action(game, seed=4)
    client = as_user(user_to_move(game))
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    game_part = page[page.index('<div id="game"') :]
    assert 'id="notify-offer"' in game_part  # inside the part an htmx swap draws again
    response = client.post(
        reverse("games:act", args=[game.pk]),
        {"version": game.version, **last},
        headers={"HX-Request": "true"},
    )
    assert 'id="game"' in response.content.decode()
    assert "notify-offer" not in response.content.decode()
