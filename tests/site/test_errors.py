import pytest
from django.test import Client
from django.urls import reverse

from tests.answers import answered

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_explained_in_the_sites_words(client):
    response = client.get("/no/such/page/")
    assert answered(response) == 404
    assert b"Nothing here" in response.content


def test_a_form_without_its_csrf_token_is_refused_politely(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(reverse("profile"), {"display_name": "x"})
    assert answered(response) == 403
    assert b"Please try again" in response.content


@pytest.mark.parametrize("url", ["/games/invitation/a%00b/", "/admin/?q=%00", "/players/%00/"])
def test_a_nul_byte_in_an_address_is_a_bad_request(client, player, url):
    client.force_login(player)
    assert client.get(url).status_code == 400


def test_a_nul_byte_in_a_form_is_a_bad_request(client, player):
    client.force_login(player)
    response = client.post(reverse("profile"), {"display_name": "a\x00b"})
    assert answered(response) == 400


def test_a_wrong_method_is_explained_and_keeps_its_allow_header(client, player):
    client.force_login(player)
    response = client.get("/accounts/logout/")
    assert answered(response) == 405
    assert response["Allow"] == "POST, OPTIONS"
    assert b"only receives forms sent from the site" in response.content
    assert b"Back to your games" in response.content  # the site's page, not a bare status


def test_a_wrong_method_from_htmx_is_explained_in_an_html_fragment(client, player):
    client.force_login(player)
    response = client.get("/accounts/logout/", headers={"HX-Request": "true"})
    assert answered(response) == 405
    assert response["Content-Type"].startswith("text/html")  # htmx inserts it as HTML
    assert response.content == (
        b'<p class="message message-error" role="alert">'
        b"This address does not take GET requests; it takes POST.</p>"
    )


def test_a_wrong_method_on_a_page_says_which_it_takes(client, player):
    client.force_login(player)
    response = client.post(reverse("games:mine"))
    assert answered(response) == 405
    assert b"does not take POST requests; it takes GET." in response.content


def test_a_refusal_in_words_answers_htmx_with_200_and_its_status_in_a_header(client, player):
    # A browser logs every 4xx as a failed request: a player's page meets refusals all evening.
    client.force_login(player)
    htmx = client.get("/accounts/logout/", headers={"HX-Request": "true"})
    assert htmx.status_code == 200 and htmx["X-Refused-Status"] == "405"
    plain = client.get("/accounts/logout/")
    assert plain.status_code == 405 and "X-Refused-Status" not in plain


def test_an_htmx_refusal_of_a_move_is_a_200_with_the_fresh_board(player, other_player):
    from tests.games.helpers import first_legal, start_game, user_to_move

    game = start_game(player, other_player)
    waiting = other_player if user_to_move(game) == player else player
    client = Client()
    client.force_login(waiting)
    url = reverse("games:act", args=[game.pk])
    htmx = client.post(
        url, {"version": game.version, **first_legal(game)}, headers={"HX-Request": "true"}
    )
    assert htmx.status_code == 200 and htmx["X-Refused-Status"] == "409"
    assert b"It is not your turn." in htmx.content and b'id="game"' in htmx.content
    assert client.post(url, {"version": game.version, **first_legal(game)}).status_code == 409
