"""The clocks through the writer: a time bank spent and topped up, weekends paused in the mover's
time zone, days away not counted, a bank run out handed to the timeout rule, refusals."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from accounts.models import User, set_away
from games import reminders, services, tasks
from games.models import Game, Seat
from games.views.calendar import feed
from tests.clients import as_user
from tests.games.helpers import play_turns, user_to_move

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
# Tuesday 1 December 2026, 09:00 in Paris.
START = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture(autouse=True)
def in_paris(player, other_player):
    for user in (player, other_player):
        user.time_zone = "Europe/Paris"
        user.save(update_fields=["time_zone"])


def clocked_game(creator: User, friend: User, **clock) -> Game:
    game = services.create_game(
        creator=creator, players=2, side="A", spirits=False, invitees=[friend], **clock
    )
    services.join_game(game_id=game.pk, user=friend)
    game.refresh_from_db()
    return game


def bank_game(creator: User, friend: User, **more) -> Game:
    return clocked_game(
        creator,
        friend,
        clock="bank",
        bank_days=2,
        increment_hours=6,
        **{"pause_weekends": False, **more},
    )


def seat_of(game: Game, user: User) -> Seat:
    return Seat.objects.get(game=game, user=user)


def test_every_seat_starts_with_the_full_bank_and_the_turn_may_use_all_of_it(player, other_player):
    game = bank_game(player, other_player)
    assert (game.clock, game.bank_days, game.increment_hours) == ("bank", 2, 6)
    assert {s.bank for s in game.seats.all()} == {timedelta(days=2)}
    assert game.turn_deadline == START + timedelta(days=2)
    assert game.turns_left > 10


def test_a_turn_spends_the_time_it_took_and_earns_the_increment(player, other_player, frozen):
    game = bank_game(player, other_player)
    mover = user_to_move(game)
    frozen.shift(timedelta(hours=20))
    play_turns(game, turns=1)
    assert seat_of(game, mover).bank == timedelta(days=2) - timedelta(hours=20 - 6)
    game.refresh_from_db()
    # The next player's turn runs on their own, untouched bank.
    assert game.turn_deadline == timezone.now() + timedelta(days=2)


def test_a_bank_never_holds_more_than_it_started_with(player, other_player, frozen):
    game = bank_game(player, other_player)
    mover = user_to_move(game)
    frozen.shift(timedelta(minutes=5))
    play_turns(game, turns=1)
    assert seat_of(game, mover).bank == timedelta(days=2)


def test_a_paused_weekend_is_not_spent_from_the_bank(player, other_player, frozen):
    frozen.move_to(datetime(2026, 12, 4, 17, 0, tzinfo=UTC))  # Friday 18:00 in Paris
    game = bank_game(player, other_player, pause_weekends=True)
    # 6 hours to midnight, the weekend, then 42 hours from Monday 00:00 (Paris).
    assert game.turn_deadline == datetime(2026, 12, 8, 18, 0, tzinfo=PARIS)
    mover = user_to_move(game)
    frozen.move_to(datetime(2026, 12, 7, 1, 0, tzinfo=PARIS))  # Monday 01:00, Paris
    play_turns(game, turns=1)
    # 7 hours counted (Friday 18:00 to midnight, Monday 00:00 to 01:00), 6 earned.
    assert seat_of(game, mover).bank == timedelta(days=2) - timedelta(hours=1)


def test_a_limit_per_turn_paused_at_weekends_ends_on_a_weekday(player, other_player, frozen):
    frozen.move_to(datetime(2026, 12, 4, 12, 0, tzinfo=PARIS))  # Friday noon
    game = clocked_game(player, other_player, turn_limit_days=1, pause_weekends=True)
    assert game.turn_deadline == datetime(2026, 12, 7, 12, 0, tzinfo=PARIS)
    frozen.move_to(datetime(2026, 12, 6, 12, 0, tzinfo=PARIS))  # Sunday noon
    assert tasks.sweep_timeouts() == 0  # wall-clock day gone, clock day not


def test_the_weekend_is_the_movers_own(player, other_player, frozen):
    """A player in Auckland starts their weekend while it is still Friday in Paris."""
    User.objects.filter(pk__in=[player.pk, other_player.pk]).update(time_zone="Pacific/Auckland")
    frozen.move_to(datetime(2026, 12, 4, 9, 0, tzinfo=UTC))  # Friday 22:00 in Auckland
    game = bank_game(player, other_player, pause_weekends=True)
    zone = ZoneInfo("Pacific/Auckland")
    # 2 hours to Saturday in Auckland, then 46 hours from Monday 00:00 there.
    assert game.turn_deadline == datetime(2026, 12, 8, 22, 0, tzinfo=zone)


def test_the_bank_does_not_drain_while_its_player_is_away(player, other_player, frozen):
    game = bank_game(player, other_player)
    mover = user_to_move(game)
    frozen.shift(timedelta(hours=4))
    set_away(mover, date(2026, 12, 9))  # back on 10 December at 00:00, Paris
    game.refresh_from_db()
    back = datetime(2026, 12, 10, 0, 0, tzinfo=PARIS)
    assert game.turn_deadline == back + timedelta(days=2) - timedelta(hours=4)
    frozen.move_to(back + timedelta(hours=2))
    play_turns(game, turns=1)
    # Four hours before leaving, two after coming back: six spent, six earned.
    assert seat_of(game, mover).bank == timedelta(days=2)


def test_going_away_keeps_a_paused_weekend_paused(player, other_player, frozen):
    frozen.move_to(datetime(2026, 12, 3, 12, 0, tzinfo=PARIS))  # Thursday noon
    game = clocked_game(player, other_player, turn_limit_days=1, pause_weekends=True)
    assert game.turn_deadline == datetime(2026, 12, 4, 12, 0, tzinfo=PARIS)
    mover = user_to_move(game)
    frozen.move_to(datetime(2026, 12, 4, 0, 0, tzinfo=PARIS))  # 12 hours left
    set_away(mover, date(2026, 12, 4))  # back Saturday 00:00: the weekend, then Monday
    game.refresh_from_db()
    assert game.turn_deadline == datetime(2026, 12, 7, 12, 0, tzinfo=PARIS)


def test_a_bank_run_out_is_played_by_the_stand_in_and_restarts_from_the_increment(
    player, other_player, frozen
):
    game = bank_game(player, other_player)
    late = user_to_move(game)
    frozen.shift(timedelta(days=2, minutes=1))
    assert tasks.sweep_timeouts() == 1
    game.refresh_from_db()
    seat = seat_of(game, late)
    assert seat.timed_out_at is not None and seat.dropped_at is None
    assert seat.bank == timedelta(hours=6)
    assert game.engine_state().turn == 1  # the stand-in played the turn
    assert user_to_move(game) != late


def test_a_bank_run_out_drops_the_player_when_the_creator_chose_so(player, other_player, carol):
    game = services.create_game(
        creator=player, players=3, side="A", spirits=False, invitees=[other_player, carol],
        clock="bank", bank_days=1, increment_hours=0, on_timeout="drop",
    )  # fmt: skip
    for user in (other_player, carol):
        services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    late = user_to_move(game)
    with time_machine.travel(START + timedelta(days=1, minutes=1), tick=False):
        assert tasks.sweep_timeouts() == 1
    assert seat_of(game, late).dropped_at is not None


def test_the_deadline_warning_never_comes_in_a_paused_weekend(player, other_player, frozen):
    frozen.move_to(datetime(2026, 12, 4, 18, 0, tzinfo=PARIS))  # Friday 18:00
    game = clocked_game(player, other_player, turn_limit_days=1, pause_weekends=True)
    mover = user_to_move(game)
    warning = reminders.deadline_warning(game, mover)
    # The turn ends Monday 18:00: 12 counted hours before is Monday 06:00, not Saturday.
    assert warning == datetime(2026, 12, 7, 6, 0, tzinfo=PARIS)


@pytest.mark.parametrize(
    ("clock", "reason"),
    [
        ({"clock": "hourglass"}, "Choose a clock"),
        ({"clock": "bank", "bank_days": 0, "increment_hours": 0}, "1 to 30 days"),
        ({"clock": "bank", "bank_days": -1, "increment_hours": 6}, "1 to 30 days"),
        ({"clock": "bank", "bank_days": 10**9, "increment_hours": 6}, "1 to 30 days"),
        ({"clock": "bank", "bank_days": 3, "increment_hours": 500}, "0 to 48 hours"),
        ({"clock": "bank", "bank_days": 3, "increment_hours": 0}, "could never play again"),
        ({"clock": "bank", "bank_days": 3, "increment_hours": 6, "turn_limit_days": 3}, "not both"),
        ({"clock": "turn", "turn_limit_days": 3, "bank_days": 3}, "not both"),
        ({"clock": "turn", "turn_limit_days": 5}, "1, 3, 7 or 14 days"),
        ({"clock": "turn", "pause_weekends": True}, "needs a time limit"),
    ],
)
def test_an_impossible_clock_is_refused_and_nothing_is_stored(player, other_player, clock, reason):
    before = Game.objects.count()
    with pytest.raises(services.GameError, match=reason):
        services.create_game(
            creator=player, players=2, side="A", spirits=False, invitees=[other_player], **clock
        )
    assert Game.objects.count() == before


def test_a_rematch_keeps_the_clock(player, other_player):
    game = bank_game(player, other_player, pause_weekends=True)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    rematch = services.play_again(game_id=game.pk, user=player)
    assert (rematch.clock, rematch.bank_days, rematch.increment_hours, rematch.pause_weekends) == (
        "bank", 2, 6, True,
    )  # fmt: skip


# --- The emails and the calendar follow the clock ------------------------------------------------


def test_the_timeout_email_of_a_bank_says_the_bank_ran_out(
    player, other_player, frozen, django_capture_on_commit_callbacks
):
    late = user_to_move(bank_game(player, other_player))
    mail.outbox.clear()
    frozen.shift(timedelta(days=2, minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_timeouts()
    (notice,) = [m for m in mail.outbox if "ran out of time" in m.subject]
    assert notice.to == [late.email]
    for message in [notice]:
        assert "your time bank ran out before" in message.body
        assert "bank starts again from the 6 h added per move" in message.body
        assert "time bank ran out before" in message.alternatives[0][0]


def test_the_reminder_of_a_bank_says_what_is_left_of_it(player, other_player, frozen):
    # No cadence and no quiet hours: only the warning before the deadline is due.
    User.objects.filter(pk__in=[player.pk, other_player.pk]).update(
        remind_every_hours=0, quiet_start=0, quiet_end=0
    )
    game = bank_game(player, other_player)
    mover = user_to_move(game)
    seat = seat_of(game, mover)
    assert seat.remind_at == START + timedelta(days=2) - timedelta(hours=12)
    frozen.move_to(seat.remind_at + timedelta(minutes=1))
    mail.outbox.clear()
    assert tasks.sweep_reminders() == 1
    (message,) = [m for m in mail.outbox if m.subject.startswith("Reminder")]
    assert "Your time bank runs out on" in message.body
    assert "11 h 59 min left, and 6 h more after each move" in message.body


def test_the_calendar_event_ends_at_the_true_deadline(player, other_player, frozen):
    frozen.move_to(datetime(2026, 12, 4, 12, 0, tzinfo=PARIS))  # Friday noon
    game = bank_game(player, other_player, pause_weekends=True)
    mover = user_to_move(game)
    text = feed(mover, timezone.now()).decode().replace("\r\n ", "")
    # Two days on the clock from Friday noon: Tuesday noon, Paris time (11:00 UTC).
    assert "DTEND:20261208T110000Z" in text
    assert "Your time bank runs out Tuesday 8 December\\, 12:00 (Europe/Paris)." in text


def test_the_invitation_and_table_started_emails_word_the_clock_as_the_table_page(
    player, other_player, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            creator=player, players=2, side="A", spirits=False, invitees=[other_player],
            clock="bank", bank_days=2, increment_hours=6, pause_weekends=True,
        )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        services.join_game(game_id=game.pk, user=other_player)
    words = "a 2-day time bank, +6 h per move, paused at weekends"
    (invitation,) = [m for m in mail.outbox if m.to == [other_player.email]]
    (started,) = [m for m in mail.outbox if m.subject.startswith("Your table is full")]
    for message in (invitation, started):
        assert words in message.body and words in message.alternatives[0][0]
        assert "per turn" not in message.body
    assert f"({game.description}; {words})" in invitation.body
    assert f"Its clock: {words}." in started.body


def test_an_invitation_to_an_untimed_game_says_it_has_no_time_limit(
    player, other_player, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.create_game(
            creator=player, players=2, side="A", spirits=False, invitees=[other_player]
        )
    (invitation,) = mail.outbox
    assert "(2 players, side A; no time limit)" in invitation.body


def test_the_records_export_and_the_admin_show_the_whole_clock(player, other_player, client):
    from records import export
    from tests.games.helpers import play_to_the_end

    game = play_to_the_end(bank_game(player, other_player, pause_weekends=True))
    seats = list(game.seats.select_related("user"))
    record = export.game_record(game, seats, list(game.moves.all()))
    assert record["game"]["clock"] == {
        "kind": "bank", "turn_limit_days": None, "bank_days": 2, "increment_hours": 6,
        "pause_weekends": True, "words": "a 2-day time bank, +6 h per move, paused at weekends",
    }  # fmt: skip
    staff = User.objects.create_user("staff", "staff@example.com", "pw", is_staff=True)
    staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    html = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "a 2-day time bank, +6 h per move, paused at weekends" in html
    assert "Increment hours" in html and "Pause weekends" in html


def test_the_personal_data_download_gives_each_games_clock(player, other_player):
    from harmonies_site.personal_data import personal_data

    game = bank_game(player, other_player, pause_weekends=True)
    (entry,) = [g for g in personal_data(other_player)["games"] if g["id"] == game.pk]
    settings = entry["settings"]
    assert (settings["clock"], settings["bank_days"], settings["increment_hours"]) == (
        "bank", 2, 6,
    )  # fmt: skip
    assert settings["pause_weekends"] is True


def test_a_bank_with_nothing_added_per_move_never_says_plus_0_h(player, other_player, frozen):
    User.objects.filter(pk__in=[player.pk, other_player.pk]).update(
        remind_every_hours=0, quiet_start=0, quiet_end=0
    )
    game = clocked_game(
        player, other_player, clock="bank", bank_days=2, increment_hours=0, on_timeout="drop"
    )
    mover = user_to_move(game)
    page = as_user(mover).get(game.get_absolute_url()).content.decode()
    assert "Time bank: 2 days left.</p>" in page
    frozen.move_to(seat_of(game, mover).remind_at + timedelta(minutes=1))
    mail.outbox.clear()
    assert tasks.sweep_reminders() == 1
    (message,) = mail.outbox
    assert "09:00 (Europe/Paris): 11 h 59 min left." in message.body
    for text in (page, message.body, message.alternatives[0][0]):
        assert "+0 h" not in text and " 0 h more" not in text
