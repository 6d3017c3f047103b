"""Web Push of table talk skips a player who blocked the author: they do not see the message,
so their devices are not told of it either. Personas: alice (player) blocked bob (other_player);
mallory (stranger) plays with them both."""

import pytest

from games.services import blocks, talk
from tests.games.helpers import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("push_on")]


def test_his_message_is_pushed_to_the_others_but_not_to_who_blocked_him(
    player, other_player, stranger, device, push_service, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, stranger)
    blocks.block(user=player, username="bob")
    device(player)
    _, mallory = device(stranger)
    with django_capture_on_commit_callbacks(execute=True):
        talk.post(game_id=game.pk, user=other_player, text="Alice, answer me")
    (received,) = push_service.received
    assert mallory.decrypt(received.body)["body"] == "Alice, answer me"
    # Hers still reach him: the block hides what she is shown, not what she says.
    device(other_player)
    with django_capture_on_commit_callbacks(execute=True):
        talk.post(game_id=game.pk, user=player, text="Good game, Mallory")
    assert len(push_service.received) == 3
