"""A watcher's page: with the shared link, or at an open table, anyone sees the game as an
outsider would, and polls it; forged, revoked and ended links are refused."""

import pytest
from django.urls import reverse

from games import presence
from games.models import Game
from games.services import plans, talk, watching
from tests.answers import answered
from tests.clients import as_user
from tests.games.helpers import play_to_the_end, start_game

pytestmark = pytest.mark.django_db

NOTE = "Plan of the player, planted for the watcher test"


def watch_url(game, token=None):
    if token:
        return reverse("games:watch-link", args=[game.pk, token])
    return reverse("games:watch", args=[game.pk])


def test_a_visitor_with_the_link_watches_without_the_players_secrets(game, player, client):
    token = watching.share(game_id=game.pk, user=player)
    plans.save_notes(game_id=game.pk, user=player, notes=NOTE)
    response = client.get(watch_url(game, token))
    html = response.content.decode()
    assert response.status_code == 200
    assert "You are watching" in html
    assert NOTE not in html and 'id="plan"' not in html
    assert 'id="talk"' not in html and "Your board" not in html
    assert 'id="hand"' not in html and "Resign" not in html
    assert f"w={token}" in html  # the poll proves its right with the token
    assert f'hx-get="{watch_url(game, token)}?fragment=game"' in html
    assert response["Referrer-Policy"] == "no-referrer"


def test_forged_and_revoked_links_are_not_found(game, player, client):
    token = watching.share(game_id=game.pk, user=player)
    assert client.get(watch_url(game, "forged-token-1234567890")).status_code == 404
    assert client.get(watch_url(game)).status_code == 404  # the table is not open
    watching.revoke(game_id=game.pk, user=player)
    response = client.get(watch_url(game, token))
    assert response.status_code == 404 and "revoked" in response.content.decode()


def test_the_link_of_an_ended_game_is_refused_in_words(player, other_player, client):
    game = start_game(player, other_player)
    token = watching.share(game_id=game.pk, user=player)
    play_to_the_end(game)
    response = client.get(watch_url(game, token))
    assert response.status_code == 410 and "This game is over" in response.content.decode()
    hx = {"HX-Request": "true"}
    htmx = client.get(watch_url(game, token), {"fragment": "game"}, headers=hx)
    assert htmx["HX-Redirect"] == watch_url(game, token)  # the refusal, as a page
    htmx = as_user(player).get(watch_url(game, token), {"fragment": "game"}, headers=hx)
    assert htmx["HX-Redirect"] == reverse("records:sheet", args=[game.pk])


def test_an_open_table_is_watched_by_anyone_and_its_page_sends_strangers_there(
    game, stranger, client
):
    watching.set_open(game_id=game.pk, user=game.created_by, open_to_watchers=True)
    assert client.get(watch_url(game)).status_code == 200
    assert as_user(stranger).get(game.get_absolute_url())["Location"] == watch_url(game)


def test_a_player_following_the_link_is_sent_to_their_own_seat(game, player):
    token = watching.share(game_id=game.pk, user=player)
    response = as_user(player).get(watch_url(game, token))
    assert response["Location"] == game.get_absolute_url()


def test_the_watchers_poll_answers_with_the_token_only(game, player, client):
    token = watching.share(game_id=game.pk, user=player)
    poll = reverse("games:poll", args=[game.pk])
    assert client.get(poll, {"v": game.version, "w": token}).status_code == 204
    assert client.get(poll, {"v": game.version - 1, "w": token})["HX-Trigger"] == "game-changed"
    assert client.get(poll, {"v": game.version, "w": "forged"}).status_code == 404
    assert client.get(poll, {"v": game.version, "w": ""}).status_code == 404
    assert presence.last_seen(game.pk, player.pk) is None  # a watcher is nobody's presence


def test_the_watchers_poll_says_nothing_of_the_talk(game, player, client):
    """A watcher reads no talk, so its poll must not tell when the table talks, nor the talk's
    version (asked with "t", the poll would answer "talk-changed" to every wrong guess)."""
    token = watching.share(game_id=game.pk, user=player)
    talk.post(game_id=game.pk, user=player, text="Only for the table")
    talk_version = Game.objects.get(pk=game.pk).talk_version
    poll = reverse("games:poll", args=[game.pk])
    for guess in (talk_version - 1, talk_version, "x"):
        answer = client.get(poll, {"v": game.version, "t": guess, "w": token})
        assert answer.status_code == 204, guess


def test_a_watchers_open_page_leaves_the_board_once_the_link_is_revoked(game, player, client):
    """Otherwise it would go on saying "This page updates by itself" over a board that no
    longer does; every refused watcher's poll answers alike, so it tells nothing."""
    token = watching.share(game_id=game.pk, user=player)
    poll = reverse("games:poll", args=[game.pk])
    hx = {"HX-Request": "true"}
    watching.revoke(game_id=game.pk, user=player)
    answer = client.get(poll, {"v": game.version, "w": token}, headers=hx)
    assert answer.status_code == 200 and answer["HX-Redirect"] == watch_url(game, token)
    assert client.get(answer["HX-Redirect"]).status_code == 404  # "... or it was revoked."
    for forged in ("not a slug!", ""):
        answer = client.get(poll, {"v": game.version, "w": forged}, headers=hx)
        assert answer["HX-Redirect"] == watch_url(game)
    missing = reverse("games:poll", args=[game.pk + 1000])
    answer = client.get(missing, {"v": 1, "w": token}, headers=hx)
    assert answer["HX-Redirect"] == reverse("games:watch-link", args=[game.pk + 1000, token])
    assert client.get(poll, {"v": game.version, "w": token}).status_code == 404  # not htmx


def test_a_plan_bumps_no_version_so_the_watchers_poll_stays_quiet(game, player, client):
    token = watching.share(game_id=game.pk, user=player)
    plans.save_notes(game_id=game.pk, user=player, notes=NOTE)
    poll = reverse("games:poll", args=[game.pk])
    assert client.get(poll, {"v": game.version, "w": token}).status_code == 204


def test_players_share_and_revoke_from_the_game_page(game, player, stranger):
    share = reverse("games:watchers", args=[game.pk])
    response = as_user(player).post(share, {"do": "share"})
    assert response["Location"] == game.get_absolute_url() + "#watch"
    token = Game.objects.get(pk=game.pk).watch_token
    assert token
    page = as_user(player).get(game.get_absolute_url()).content.decode()
    assert watch_url(game, token) in page and "Revoke the link" in page
    assert answered(as_user(stranger).post(share, {"do": "revoke"})) == 403
    assert answered(as_user(player).post(share, {"do": "explode"})) == 400
    assert Game.objects.get(pk=game.pk).watch_token == token
    as_user(player).post(share, {"do": "revoke"})
    assert Game.objects.get(pk=game.pk).watch_token is None


def test_only_the_creator_sees_the_open_table_switch(game, player, other_player):
    creator = game.created_by
    other = other_player if creator == player else player
    assert (
        "Open the table to every watcher"
        in as_user(creator).get(game.get_absolute_url()).content.decode()
    )
    assert (
        "Open the table to every watcher"
        not in as_user(other).get(game.get_absolute_url()).content.decode()
    )


def test_the_new_game_form_opens_the_table_to_watchers(player):
    response = as_user(player).post(
        reverse("games:new"),
        {"players": 2, "side": "A", "open_to_watchers": "on", "on_timeout": "stand_in"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.get().open_to_watchers
