"""Watch links and open tables: the players share or revoke, the creator opens, and a watcher
gets the game only while it is played, with the right token."""

import pytest
from django.utils import timezone

from games import services
from games.models import Game
from games.models.weekly import week_of
from games.services import watching, weekly
from tests.clients import as_user
from tests.games.helpers import play_to_the_end, start_game

pytestmark = pytest.mark.django_db


def test_a_player_shares_one_link_for_the_table(game, player, other_player):
    token = watching.share(game_id=game.pk, user=player)
    assert len(token) >= 20
    assert watching.share(game_id=game.pk, user=other_player) == token
    assert watching.watched_game(game.pk, token).pk == game.pk
    assert Game.objects.get(pk=game.pk).version == game.version  # not a move


def test_a_revoked_or_forged_token_finds_no_game(game, player):
    token = watching.share(game_id=game.pk, user=player)
    with pytest.raises(services.NotFound):
        watching.watched_game(game.pk, token + "x")
    watching.revoke(game_id=game.pk, user=player)
    with pytest.raises(services.NotFound):
        watching.watched_game(game.pk, token)
    assert not watching.may_watch(game.pk, token)
    with pytest.raises(services.NotFound):
        watching.watched_game(game.pk, None)


def test_a_stranger_can_neither_share_nor_open(game, stranger):
    with pytest.raises(services.NotAllowed):
        watching.share(game_id=game.pk, user=stranger)
    with pytest.raises(services.NotAllowed):
        watching.set_open(game_id=game.pk, user=stranger, open_to_watchers=True)
    assert Game.objects.get(pk=game.pk).watch_token is None


def test_only_the_creator_opens_the_table(game, player, other_player):
    creator = game.created_by
    other = other_player if creator == player else player
    with pytest.raises(services.NotAllowed):
        watching.set_open(game_id=game.pk, user=other, open_to_watchers=True)
    watching.set_open(game_id=game.pk, user=creator, open_to_watchers=True)
    assert watching.watched_game(game.pk, None).pk == game.pk
    assert watching.may_watch(game.pk, "")


def test_a_finished_game_is_no_longer_watched(player, other_player):
    game = start_game(player, other_player)
    token = watching.share(game_id=game.pk, user=player)
    game = play_to_the_end(game)
    with pytest.raises(watching.GameOver) as refused:
        watching.watched_game(game.pk, token)
    assert refused.value.status == 410
    assert watching.may_watch(game.pk, token)  # the page open at the end hears of it
    watching.revoke(game_id=game.pk, user=player)
    assert not watching.may_watch(game.pk, token)
    with pytest.raises(services.Conflict):
        watching.share(game_id=game.pk, user=player)


def test_a_cancelled_table_is_not_watched(player, other_player):
    table = services.create_game(creator=player, players=2, side="A", spirits=False)
    watching.set_open(game_id=table.pk, user=player, open_to_watchers=True)
    with pytest.raises(services.Conflict):
        watching.watched_game(table.pk, None)  # not started yet
    services.cancel_game(game_id=table.pk, user=player)
    with pytest.raises(watching.GameOver):
        watching.watched_game(table.pk, None)


def test_a_game_of_the_deal_of_the_week_is_never_watched(player, client):
    """Watched, it would show the week's pouch order to everyone yet to play the deal."""
    game = weekly.play_weekly(user=player, week=week_of(timezone.now()).isoformat())
    with pytest.raises(services.NotAllowed) as refused:
        watching.share(game_id=game.pk, user=player)
    assert "deal of the week" in refused.value.message
    with pytest.raises(services.NotAllowed):
        watching.set_open(game_id=game.pk, user=player, open_to_watchers=True)
    # Nor through a row that says otherwise (a link made before this rule).
    Game.objects.filter(pk=game.pk).update(
        watch_token="old-link-of-a-weekly", open_to_watchers=True
    )
    for token in ("old-link-of-a-weekly", None):
        with pytest.raises(services.NotFound):
            watching.watched_game(game.pk, token)
        assert not watching.may_watch(game.pk, token)
    page = as_user(player).get(game.get_absolute_url()).content.decode()
    assert "Let friends watch this game" not in page


def test_a_player_who_left_can_no_longer_share_or_revoke(player, other_player, carol):
    game = start_game(player, other_player, carol)
    services.resign(game_id=game.pk, user=carol)
    token = watching.share(game_id=game.pk, user=player)
    for verb in (watching.share, watching.revoke):
        with pytest.raises(services.GameError, match="You have left this game"):
            verb(game_id=game.pk, user=carol)
    assert Game.objects.get(pk=game.pk).watch_token == token
