"""Deleting an account through the writer: every table left by the usual rules, the person erased,
their games kept for the others, all in one transaction (games.services.closing)."""

from datetime import timedelta
from unittest import mock

import pytest
from axes.models import AccessAttempt, AccessLog
from django.core import mail
from django.utils import timezone

from accounts import closing as account
from accounts.models import DELETED_NAME, Friendship, RetiredUsername, User
from games import services
from games.models import AddressInvitationSent, Game, Invitation, Message, Move
from games.services import talk
from games.services.closing import close_account
from push.models import PushSubscription
from records.models import SeatResult
from tests.factories import UserFactory
from tests.games.helpers import play_to_the_end, play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db


def own_turn_in_three(alice, bob, carol) -> Game:
    """A game of three in progress, Alice to move."""
    game = start_game(alice, bob, carol)
    for _ in range(3):
        if user_to_move(game) == alice:
            return game
        play_turns(game, 1)
    raise AssertionError("Alice never came to move")


def test_a_two_player_game_is_resigned_and_ends_with_the_usual_email(
    player, other_player, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        close_account(user=player)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason in (Game.EndReason.RESIGNED, Game.EndReason.ABANDONED)
    assert game.ended_by.user_id == player.pk and game.ended_by.resigned_at is not None
    # Bob hears that the game is over, from "a deleted player"; Alice only of her account.
    (over,) = [m for m in mail.outbox if m.to == [other_player.email]]
    assert "A deleted player resigned in round 1" in over.body
    assert "Alice" not in over.subject + over.body
    (confirmation,) = [m for m in mail.outbox if m.to == ["alice@example.com"]]
    assert "account is deleted" in confirmation.subject


def test_on_their_own_turn_in_a_game_of_three_a_stand_in_plays_and_the_game_goes_on(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    game = own_turn_in_three(player, other_player, carol)
    version = game.version
    with django_capture_on_commit_callbacks(execute=True):
        close_account(user=player)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.version > version
    assert user_to_move(game) != player
    assert game.seats.get(user=player).resigned_at is not None
    assert game.moves.filter(action__type="resign", user=player).exists()
    assert game.moves.filter(detail__automatic=True).exists()  # the stand-in's turn
    # The player to move next gets their turn email, as after any resignation.
    assert any(m.to == [user_to_move(game).email] for m in mail.outbox)


def test_a_table_they_created_is_cancelled_and_everyone_on_it_is_told(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    table = services.create_game(
        creator=player, players=3, side="A", spirits=False, invitees=[other_player, carol]
    )
    services.join_game(game_id=table.pk, user=other_player)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        close_account(user=player)
    table.refresh_from_db()
    assert table.status == Game.Status.CANCELLED
    told = sorted(m.to[0] for m in mail.outbox if "cancelled" in m.subject.lower())
    assert told == sorted([other_player.email, carol.email])


def test_a_table_someone_else_created_is_left(player, other_player, carol):
    table = services.create_game(
        creator=other_player, players=3, side="A", spirits=False, invitees=[player]
    )
    services.join_game(game_id=table.pk, user=player)
    version = Game.objects.get(pk=table.pk).version
    close_account(user=player)
    table.refresh_from_db()
    assert table.status == Game.Status.OPEN and table.version > version
    assert list(table.seats.values_list("user_id", flat=True)) == [other_player.pk]


def test_invitations_to_them_by_username_and_by_their_address_are_withdrawn(
    player, other_player, carol
):
    by_name = services.create_game(
        creator=other_player, players=2, side="A", spirits=False, invitees=[player]
    )
    by_address = services.create_game(
        creator=carol, players=2, side="A", spirits=False, emails=["ALICE@example.com"]
    )
    someone_else = services.create_game(
        creator=carol, players=2, side="A", spirits=False, emails=["dora@example.com"]
    )
    versions = {g.pk: Game.objects.get(pk=g.pk).version for g in (by_name, by_address)}
    close_account(user=player)
    assert not Invitation.objects.filter(game__in=[by_name, by_address]).exists()
    assert Invitation.objects.filter(game=someone_else).count() == 1
    for game in (by_name, by_address):  # their pages redraw without the invitation
        assert Game.objects.get(pk=game.pk).version > versions[game.pk]


def test_invitations_they_sent_go_with_their_table_and_count_no_more(player, other_player):
    services.create_game(
        creator=player, players=3, side="A", spirits=False, invitees=[other_player],
        emails=["dora@example.com"],
    )  # fmt: skip
    assert AddressInvitationSent.objects.filter(invited_by=player).exists()
    close_account(user=player)
    assert not services.pending_invitations().filter(invited_by=player).exists()
    assert not AddressInvitationSent.objects.filter(invited_by=player).exists()


def test_their_talk_is_deleted_and_the_other_players_talk_redrawn(player, other_player):
    game = start_game(player, other_player)
    talk.post(game_id=game.pk, user=player, text="Hi Bob, it's Alice from the club")
    talk.post(game_id=game.pk, user=other_player, text="Hello!")
    talk_version = Game.objects.get(pk=game.pk).talk_version
    close_account(user=player)
    assert list(Message.objects.filter(game=game).values_list("text", flat=True)) == ["Hello!"]
    assert Game.objects.get(pk=game.pk).talk_version > talk_version


def test_devices_calendar_address_and_friendships_are_removed(player, other_player, carol):
    PushSubscription.objects.create(
        user=player, endpoint="https://push.example/alice", p256dh="k", auth="a"
    )
    player.renew_calendar_token()
    Friendship.objects.create(user=player, friend=carol)
    Friendship.objects.create(user=other_player, friend=player)
    close_account(user=player)
    assert not PushSubscription.objects.filter(user=player).exists()
    assert not Friendship.objects.filter(user=player).exists()
    assert not Friendship.objects.filter(friend=player).exists()
    assert User.objects.get(pk=player.pk).calendar_token is None


def test_the_row_stays_with_nothing_of_the_person(player):
    User.objects.filter(pk=player.pk).update(
        time_zone="Asia/Tokyo", quiet_start=1, first_name="Alice", last_name="Liddell",
        is_staff=True, email_digest=True,
    )  # fmt: skip
    AccessLog.objects.create(username="alice", ip_address="203.0.113.5", user_agent="Firefox")
    AccessAttempt.objects.create(username="alice", ip_address="203.0.113.5", failures_since_start=2)
    erased = close_account(user=player)
    assert (erased.address, erased.name, erased.username) == ("alice@example.com", "Alice", "alice")
    gone = User.objects.get(pk=player.pk)
    assert gone.username == f"deleted~{player.pk}" and gone.public_name == DELETED_NAME
    assert (gone.email, gone.first_name, gone.last_name) == ("", "", "")
    assert gone.email_confirmed_at is None and not gone.has_usable_password()
    assert not (gone.is_active or gone.is_staff) and gone.deleted_at is not None
    assert (gone.time_zone, gone.quiet_start) == ("UTC", 22)
    assert not any(gone.wants_email(kind) for kind in ("turn", "reminder", "digest"))
    assert not AccessLog.objects.exists() and not AccessAttempt.objects.exists()
    retired = RetiredUsername.objects.get()
    assert retired.username_key == "alice"  # the name only, with nothing pointing at the row


def test_finished_games_keep_their_seats_results_and_names_for_the_others(
    player, other_player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        finished = play_to_the_end(start_game(player, other_player))
    assert finished.name in ("Alice and Bob", "Bob and Alice")
    results = SeatResult.objects.filter(game_id=finished.pk).count()
    close_account(user=player)
    finished.refresh_from_db()
    assert finished.seats.filter(user=player).exists()
    assert SeatResult.objects.filter(game_id=finished.pk).count() == results == 2
    assert "Alice" not in finished.name and DELETED_NAME in finished.name


def test_a_name_the_creator_chose_is_kept(player, other_player):
    game = start_game(player, other_player)
    Game.objects.filter(pk=game.pk).update(name="Friday at Alice's")
    close_account(user=player)
    assert Game.objects.get(pk=game.pk).name == "Friday at Alice's"


def test_the_stand_in_they_asked_for_no_longer_names_them(player, other_player, carol):
    game = start_game(player, other_player, carol)
    while user_to_move(game) == player:
        play_turns(game, 1)
    Game.objects.filter(pk=game.pk).update(
        turn_limit_days=1, turn_deadline=timezone.now() - timedelta(minutes=1)
    )
    game.refresh_from_db()
    services.skip_turn(game_id=game.pk, user=player, expected_version=game.version)
    assert "Alice" in Game.objects.get(pk=game.pk).recent_moves
    close_account(user=player)
    asked = Move.objects.filter(game=game, detail__requested_by__isnull=False)
    assert {move.detail["requested_by"] for move in asked} == {DELETED_NAME}
    assert "Alice" not in Game.objects.get(pk=game.pk).recent_moves


def test_a_second_deletion_is_refused_and_changes_nothing(player, other_player):
    close_account(user=player)
    before = User.objects.filter(pk=player.pk).values().get()
    with pytest.raises(account.AlreadyDeleted):
        close_account(user=player)
    assert User.objects.filter(pk=player.pk).values().get() == before
    assert RetiredUsername.objects.count() == 1


def test_a_failure_half_way_leaves_everything_as_it_was(
    player, other_player, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player)
    talk.post(game_id=game.pk, user=player, text="Good luck!")
    mail.outbox.clear()
    with (
        mock.patch.object(account, "erase", side_effect=RuntimeError("the disk is full")),
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
    ):
        close_account(user=player)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and not game.seats.filter(resigned_at__isnull=False)
    assert Message.objects.filter(author=player).exists()
    assert User.objects.get(pk=player.pk).is_active
    assert mail.outbox == []


def test_the_confirmation_is_sent_only_once_the_deletion_has_committed(
    player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        close_account(user=player)
        assert mail.outbox == []
    for callback in callbacks:
        callback()
    (confirmation,) = mail.outbox
    assert confirmation.to == ["alice@example.com"]
    assert "Hello Alice," in confirmation.body and "(alice)" in confirmation.body
    assert User.objects.get(pk=player.pk).email == ""


def test_bots_and_other_players_are_untouched(player, other_player):
    bob_before = User.objects.filter(pk=other_player.pk).values().get()
    close_account(user=player)
    assert User.objects.filter(pk=other_player.pk).values().get() == bob_before
    assert UserFactory(username="newcomer").is_active
