"""The site's edges (issue 12, points 7 and 9): requests that used to end in a 500, private
pages kept out of caches, htmx refusals as escaped HTML, and a poll that answers only a game's
players. The Content-Security-Policy has its own module (test_csp.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import presence
from harmonies_site.client_address import client_address
from tests.answers import answered
from tests.games.helpers import start_game
from tests.security.conftest import client_for, fingerprint

pytestmark = pytest.mark.django_db

NUL_SESSION = 'sessionid="abcdefghijklmnopqrstuvwxyz012345\\000"'  # \000 unquotes to a NUL


# --- No 500 (12.7) --------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options"])
def test_other_methods_on_a_static_file_are_refused_in_words(client, method):
    response = getattr(client, method)("/static/css/site.css")
    assert answered(response) == 405
    assert response["Allow"] == "GET, HEAD"
    assert f"This address does not take {method.upper()} requests" in response.content.decode()


def test_a_cors_preflight_on_a_static_file_is_refused_in_words(client):
    response = client.options(
        "/static/vendor/htmx.min.js",
        headers={"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "PUT"},
    )
    assert answered(response) == 405
    assert response["Allow"] == "GET, HEAD"
    assert b"does not take OPTIONS requests; it takes GET." in response.content
    assert "Access-Control-Allow-Origin" not in response


def test_a_static_file_still_serves_its_get(client):
    response = client.get("/static/css/site.css")
    assert answered(response) == 200
    assert "Cache-Control" not in response or "no-store" not in response["Cache-Control"]


def test_a_nul_in_a_quoted_session_cookie_makes_a_visitor(client):
    response = client.get("/", headers={"Cookie": NUL_SESSION})
    assert answered(response) == 200
    assert b"Log in" in response.content
    assert "sessionid" not in response.wsgi_request.COOKIES  # never looked up


def test_a_nul_in_another_cookie_leaves_the_player_logged_in(player):
    client = client_for(player)
    session = client.cookies["sessionid"].value
    response = client.get(
        reverse("games:mine"), headers={"Cookie": f'sessionid={session}; theme="dark\\000"'}
    )
    assert answered(response) == 200
    assert response.wsgi_request.user == player


@pytest.mark.postgres
def test_a_nul_in_a_quoted_session_cookie_never_reaches_postgresql(client):
    # PostgreSQL refuses text with a NUL: the session lookup was the 500.
    assert client.get("/", headers={"Cookie": NUL_SESSION}).status_code == 200
    assert client.get(reverse("login"), headers={"Cookie": NUL_SESSION}).status_code == 200


@pytest.mark.parametrize("hop", ["not-an-ip", "1.2.3.4:8080", "999.1.1.1", "<b>", "1.2.3.4/32"])
def test_a_forwarded_entry_that_is_not_an_address_is_refused_in_words(settings, player, hop):
    settings.TRUSTED_PROXY_COUNT = 1
    before = fingerprint()
    client = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"6.6.6.6, {hop}")
    for response in (
        client.post(reverse("login"), {"username": "alice", "password": "wrong"}),
        client.post(reverse("password_reset"), {"email": "alice@example.com"}),
        client.get(reverse("home")),
    ):
        assert answered(response) == 400
        assert b"did not say where it came from" in response.content
    assert fingerprint() == before


def test_only_the_counted_entry_must_be_an_address(settings, player):
    settings.TRUSTED_PROXY_COUNT = 1
    client = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="junk from the client, 1.2.3.4")
    assert client.get(reverse("login")).status_code == 200


def test_the_client_address_is_never_anything_but_an_address(rf, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="not-an-ip")
    assert client_address(request) == "10.0.0.1"
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="2001:db8::1")
    assert client_address(request) == "2001:db8::1"


# --- Private pages are not stored (12.9) ----------------------------------------------------------


def test_a_players_pages_are_private_and_not_stored(player, game):
    client = client_for(player)
    for address in (reverse("games:mine"), game.get_absolute_url(), reverse("profile")):
        response = client.get(address)
        assert response["Cache-Control"] == "private, no-store", address


def test_logging_in_answers_private_and_not_stored(player):
    from tests.factories import PASSWORD

    response = Client().post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert answered(response) == 302
    assert response["Cache-Control"] == "private, no-store"


def test_visitors_pages_and_static_files_keep_their_caching(client):
    for address in ("/", reverse("signup"), "/static/css/site.css"):
        response = client.get(address)
        assert "no-store" not in response.get("Cache-Control", ""), address
    # The log-in page keeps Django's own never_cache headers.
    assert client.get(reverse("login"))["Cache-Control"] != "private, no-store"


# --- htmx refusals are escaped HTML (12.9) --------------------------------------------------------


def test_an_htmx_refusal_is_an_escaped_html_fragment(player):
    client = client_for(player)
    response = client.generic(
        "<img src=x onerror=alert(1)>", reverse("games:mine"), headers={"HX-Request": "true"}
    )
    assert answered(response) == 405
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert "<img" not in body
    assert "&lt;IMG SRC=X ONERROR=ALERT(1)&gt;" in body  # Django upper-cases the method


def test_a_games_htmx_refusal_is_an_escaped_html_fragment(game, stranger):
    client = client_for(stranger)
    response = client.get(
        reverse("games:detail", args=[game.pk]) + "?fragment=game",
        headers={"HX-Request": "true"},
    )
    assert answered(response) == 403
    assert response["Content-Type"].startswith("text/html")
    assert response.content == (
        b'<p class="message message-error" role="alert">You are not playing in this game.</p>'
    )


# --- The poll answers only a game's players (12.9) ------------------------------------------------


def poll(client, game, **params):
    return client.get(reverse("games:poll", args=[game.pk]), {"v": game.version, **params})


def test_the_poll_tells_a_visitor_nothing_about_a_game(game):
    htmx = {"HX-Request": "true"}  # as the page polls
    missing = Client().get(
        reverse("games:poll", args=[game.pk + 1000]), {"v": game.version}, headers=htmx
    )
    for v in (game.version, game.version - 1, "x"):
        response = Client().get(reverse("games:poll", args=[game.pk]), {"v": v}, headers=htmx)
        assert answered(response) == answered(missing) == 404
        assert response.content == missing.content
        assert "HX-Trigger" not in response
        response = Client().get(reverse("games:poll", args=[game.pk]), {"v": v})
        assert answered(response) == 404


def test_the_poll_refuses_a_stranger(game, stranger):
    response = poll(client_for(stranger), game, v=game.version - 1)
    assert answered(response) == 404
    assert "HX-Trigger" not in response


def test_the_poll_answers_a_seated_player_by_the_session(game, player):
    assert answered(poll(client_for(player), game)) == 204
    assert answered(poll(client_for(player), game, v=game.version - 1)) == 200


def test_a_valid_presence_token_answers_without_loading_a_session(game, player):
    response = poll(Client(), game, p=presence.token_for(game.pk, player.pk))
    assert answered(response) == 204
    assert not response.wsgi_request.session.accessed


def test_a_token_for_another_game_does_not_open_this_one(game, stranger, player):
    other = start_game(stranger, player)
    token = presence.token_for(other.pk, stranger.pk)
    assert answered(poll(Client(), game, p=token)) == 404


def test_an_htmx_request_for_a_missing_page_gets_a_fragment(player):
    response = client_for(player).get("/nowhere/", headers={"HX-Request": "true"})
    assert answered(response) == 404
    assert response.content.startswith(b'<p class="message message-error" role="alert">Nothing')
    assert b"<html" not in response.content
    # A browser still gets the whole page.
    assert b"<html" in client_for(player).get("/nowhere/").content


def test_an_htmx_form_without_its_csrf_token_gets_a_fragment(player, game):
    client = client_for(player, csrf=True)
    response = client.post(
        reverse("games:act", args=[game.pk]), {"type": "end_turn"}, headers={"HX-Request": "true"}
    )
    assert answered(response) == 403
    assert response.content.startswith(b'<p class="message message-error" role="alert">Please')


def test_a_results_refusal_for_htmx_is_an_escaped_fragment(player, game):
    response = client_for(player).get(
        reverse("records:sheet", args=[game.pk]), headers={"HX-Request": "true"}
    )
    assert answered(response) == 403
    assert response["Content-Type"].startswith("text/html")
    assert response.content.startswith(b'<p class="message message-error" role="alert">')
