"""The writer of blocks (games.services.blocks) and the rules it sets, through the services.

Personas: alice (player) blocks; bob (other_player) is blocked; carol is a friend of both.
"""

import pytest
from django.utils import timezone

from accounts.models import Block, Friendship, User
from games import services
from games.models import Game
from games.services import blocks, friends, talk
from games.services.closing import close_account
from games.services.errors import NO_SEAT_HERE, Conflict, GameError, NotAllowed, NotFound
from games.talk import unread_counts, unread_for
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db


def table(creator, players: int = 3, **kwargs) -> Game:
    return services.create_game(creator=creator, players=players, side="A", spirits=False, **kwargs)


def test_blocking_ends_her_friendship_with_him_and_leaves_his_list_alone(player, other_player):
    start_game(player, other_player)
    assert friends.is_friend(player, other_player) and friends.is_friend(other_player, player)
    blocks.block(user=player, username="bob")
    assert not friends.is_friend(player, other_player)
    assert friends.is_friend(other_player, player)  # his pages look as they did
    assert list(Friendship.objects.values_list("user", "friend")) == [(player.pk, other_player.pk)]


def test_an_added_friend_is_removed_too_and_stays_removed_after_unblocking(player, other_player):
    friends.add_friend(user=player, name="bob")
    blocks.block(user=player, username="bob")
    assert not friends.is_friend(player, other_player)
    blocks.unblock(user=player, player_id=str(other_player.pk))
    assert not friends.is_friend(player, other_player)
    friends.add_friend(user=player, name="bob")  # and she may add him again
    assert friends.is_friend(player, other_player)


def test_his_invitations_to_her_address_are_declined_and_hers_to_his_address_stay(
    player, other_player, carol
):
    """Withdrawing an invitation to an address would tell the blocker whose address it is: it
    stays, and its seat is refused to him."""
    his = table(other_player, emails=["alice@example.com"])
    hers = table(player, emails=["bob@example.com"])
    blocks.block(user=player, username="bob")
    mine = his.invitations.get()
    assert mine.declined_at is not None and mine.decline_emailed_at is not None
    kept = hers.invitations.get()
    assert kept.declined_at is None and kept.email == "bob@example.com"
    with pytest.raises(NotAllowed, match=str(NO_SEAT_HERE)):
        services.join_game(game_id=hers.pk, user=other_player)


def test_a_table_version_moves_when_an_invitation_ends(player, other_player):
    hers = table(player, invitees=[other_player])
    version = hers.version
    blocks.block(user=player, username="bob")
    hers.refresh_from_db()
    assert hers.version > version and not hers.invitations.exists()


def test_an_address_invitation_from_him_is_never_claimed_by_her(player, other_player):
    player.email_confirmed_at = None
    player.save()
    game = table(other_player, emails=["alice@example.com"])
    Block.objects.create(blocker=player, blocked=other_player)
    player.email_confirmed_at = timezone.now()
    player.save()
    assert services.claim_invitations(player) == []
    assert game.invitations.get().user is None


def test_no_new_game_brings_them_together_even_at_someone_elses_table(player, other_player, carol):
    game = table(carol, invitees=[player, other_player])
    services.join_game(game_id=game.pk, user=player)
    blocks.block(user=player, username="bob")
    with pytest.raises(NotAllowed, match=str(NO_SEAT_HERE)):
        services.join_game(game_id=game.pk, user=other_player)
    other = table(carol, invitees=[player, other_player])
    services.join_game(game_id=other.pk, user=other_player)
    with pytest.raises(NotAllowed, match="You have blocked Bob"):
        services.join_game(game_id=other.pk, user=player)


def test_a_table_they_both_sit_at_is_left_alone_and_named_to_the_blocker(
    player, other_player, carol
):
    game = table(carol, players=4, invitees=[player, other_player])
    for user in (player, other_player):
        services.join_game(game_id=game.pk, user=user)
    playing = start_game(player, other_player)
    found = blocks.block(user=player, username="bob")
    assert found.waiting == [game] and found.playing == [playing]
    assert game.seats.count() == 3


def test_the_refusals_to_block_change_nothing(player, other_player):
    gone = UserFactory(username="gone", deleted_at=timezone.now())
    inactive = UserFactory(username="asleep", is_active=False)
    bot = User.objects.bots("hard").first()
    cases = [
        ("", GameError, "Name the player to block"),
        (None, GameError, "Name the player to block"),
        (["bob"], GameError, "Name the player to block"),
        ("bo\x00b", GameError, "That is not a username"),
        ("x" * 151, GameError, "That is not a username"),
        ("ALICE", GameError, "you cannot block yourself"),
        (bot.username, GameError, "computer opponent"),
        (gone.username, NotFound, "No player is called gone"),
        (inactive.username, NotFound, "No player is called asleep"),
    ]
    for name, error, words in cases:
        with pytest.raises(error, match=words):
            blocks.block(user=player, username=name)
    assert not Block.objects.exists()
    blocks.block(user=player, username=" Bob ")  # a name as typed, in any case
    with pytest.raises(Conflict, match="You have already blocked Bob"):
        blocks.block(user=player, username="bob")
    assert Block.objects.count() == 1


def test_unblocking_someone_not_blocked_is_refused(player, other_player, carol):
    blocks.block(user=player, username="bob")
    for value in (str(carol.pk), str(player.pk), "", None, 12, "x"):
        with pytest.raises(GameError, match="not among those you have blocked"):
            blocks.unblock(user=player, player_id=value)
    with pytest.raises(GameError):
        blocks.unblock(user=other_player, player_id=str(player.pk))  # his is not hers to undo
    assert Block.objects.count() == 1


def test_her_talk_reads_skip_him_and_his_see_her(player, other_player, carol):
    game = start_game(player, other_player, carol)
    blocks.block(user=player, username="bob")
    talk.post(game_id=game.pk, user=other_player, text="from Bob")
    talk.post(game_id=game.pk, user=player, text="from Alice")
    seats = {seat.user_id: seat for seat in game.seats.all()}
    assert unread_for(seats[player.pk]) == ([], 0)
    assert [m.text for m in unread_for(seats[carol.pk])[0]] == ["from Bob", "from Alice"]
    assert [m.text for m in unread_for(seats[other_player.pk])[0]] == ["from Alice"]
    assert unread_counts(player) == {}
    assert unread_counts(carol) == {game.pk: 2}


def test_deleting_an_account_erases_its_blocks_both_ways(player, other_player, carol):
    blocks.block(user=player, username="bob")
    blocks.block(user=carol, username="alice")
    close_account(user=User.objects.get(pk=player.pk))
    assert not Block.objects.exists()
