"""The daily digest: once a day, in the player's morning, the games waiting for them, most urgent
first."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from accounts.models import User
from games import services, tasks
from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db

T0 = datetime(2027, 3, 1, 7, 5, tzinfo=UTC)  # 08:05 in Paris (winter time)


def waiting_for(user: User, opponent: User, *, started: datetime, deadline=None) -> Game:
    game = start_game(user, opponent)
    if user_to_move(game) != user:
        game = play_turns(game, turns=1)
    Game.objects.filter(pk=game.pk).update(turn_started_at=started, turn_deadline=deadline)
    return game


def sweep_at(moment: datetime) -> int:
    with time_machine.travel(moment, tick=False):
        return tasks.sweep_digests()


@pytest.fixture
def reader(player):
    User.objects.filter(pk=player.pk).update(email_digest=True, time_zone="Europe/Paris")
    player.refresh_from_db()
    return player


def test_the_digest_lists_the_games_waiting_most_urgent_first_once_a_day(
    reader, other_player, stranger
):
    long_ago = waiting_for(reader, other_player, started=T0 - timedelta(days=5))
    recent = waiting_for(reader, stranger, started=T0 - timedelta(hours=2))
    later = waiting_for(reader, other_player, started=T0, deadline=T0 + timedelta(days=2))
    soon = waiting_for(reader, stranger, started=T0, deadline=T0 + timedelta(hours=20))
    theirs = start_game(other_player, stranger)  # not the reader's game
    services.create_game(creator=reader, players=1, side="A", spirits=False)  # solo: no one waits

    assert sweep_at(T0 - timedelta(minutes=10)) == 0  # 07:55 in Paris
    assert sweep_at(T0) == 1
    assert sweep_at(T0 + timedelta(minutes=15)) == 0
    (digest,) = mail.outbox
    assert digest.to == [reader.email]
    assert digest.subject == "4 games waiting for your move"
    # Each game by its link (games with the same players share a name)
    order = [digest.body.index(g.get_absolute_url()) for g in (soon, later, long_ago, recent)]
    assert order == sorted(order)
    assert theirs.get_absolute_url() not in digest.body
    soon.refresh_from_db()
    assert f"- {soon.name}: waiting for" in digest.body  # its name says who plays: no "with"
    assert "List-Unsubscribe" in digest.extra_headers

    assert sweep_at(T0 + timedelta(days=1)) == 1  # the next morning
    assert len(mail.outbox) == 2


def test_the_digest_comes_in_each_players_own_morning(reader, other_player):
    kiwi = UserFactory(username="kiri", time_zone="Pacific/Auckland", email_digest=True)
    waiting_for(reader, other_player, started=T0 - timedelta(days=1))
    waiting_for(kiwi, other_player, started=T0 - timedelta(days=1))
    assert sweep_at(datetime(2027, 3, 1, 20, 5, tzinfo=UTC)) == 1  # 09:05 in Auckland, 21:05 Paris
    assert [m.to for m in mail.outbox] == [[kiwi.email]]


def test_quiet_hours_delay_the_digest(reader, other_player):
    User.objects.filter(pk=reader.pk).update(quiet_start=22, quiet_end=9)
    waiting_for(reader, other_player, started=T0 - timedelta(days=1))
    assert sweep_at(T0) == 0  # 08:05 is still quiet
    assert sweep_at(T0 + timedelta(hours=1)) == 1


def test_no_digest_unless_asked_for_or_with_nothing_waiting(player, reader, other_player):
    User.objects.filter(pk=reader.pk).update(email_digest=False)
    waiting_for(player, other_player, started=T0 - timedelta(days=1))
    assert sweep_at(T0) == 0
    User.objects.filter(pk=reader.pk).update(email_digest=True)
    Game.objects.update(status=Game.Status.FINISHED)
    assert sweep_at(T0) == 0
    assert mail.outbox == []


def test_the_digest_task_run_twice_sends_once(reader, other_player):
    waiting_for(reader, other_player, started=T0 - timedelta(days=1))
    day = T0.date().isoformat()
    with time_machine.travel(T0, tick=False):
        assert tasks.send_digest(reader.pk, day) is True
        assert tasks.send_digest(reader.pk, day) is False
    assert len(mail.outbox) == 1


def test_the_digest_tells_each_deadline_by_its_games_clock(reader, other_player, stranger):
    per_turn = waiting_for(reader, other_player, started=T0, deadline=T0 + timedelta(days=2))
    banked = waiting_for(reader, stranger, started=T0, deadline=T0 + timedelta(days=5, hours=3))
    Game.objects.filter(pk=banked.pk).update(clock="bank", bank_days=7, increment_hours=12)

    assert sweep_at(T0) == 1
    (digest,) = mail.outbox
    html = digest.alternatives[0][0]
    for text in (digest.body, html):
        # 08:05 on Monday 1 March in Paris; the deadlines in the reader's time
        assert "time limit" in text and text.count("time limit") == 1
        assert "time bank runs out" in text
    assert ", time limit Wednesday 3 March, 08:05" in digest.body
    assert ", time bank runs out Saturday 6 March, 11:05" in digest.body
    assert ", time bank runs out <strong>Saturday 6 March, 11:05</strong>" in html
    assert per_turn.get_absolute_url() in digest.body
