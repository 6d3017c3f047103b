import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_explained_in_the_sites_words(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert b"Nothing here" in response.content


def test_a_form_without_its_csrf_token_is_refused_politely(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(reverse("profile"), {"display_name": "x"})
    assert response.status_code == 403
    assert b"Please try again" in response.content


@pytest.mark.parametrize("url", ["/games/invitation/a%00b/", "/admin/?q=%00", "/players/%00/"])
def test_a_nul_byte_in_an_address_is_a_bad_request(client, player, url):
    client.force_login(player)
    assert client.get(url).status_code == 400


def test_a_nul_byte_in_a_form_is_a_bad_request(client, player):
    client.force_login(player)
    response = client.post(reverse("profile"), {"display_name": "a\x00b"})
    assert response.status_code == 400


def test_a_wrong_method_is_explained_and_keeps_its_allow_header(client, player):
    client.force_login(player)
    response = client.get("/accounts/logout/")
    assert response.status_code == 405
    assert response["Allow"] == "POST, OPTIONS"
    assert b"only receives forms sent from the site" in response.content
    assert b"Back to your games" in response.content  # the site's page, not a bare status


def test_a_wrong_method_from_htmx_is_explained_in_an_html_fragment(client, player):
    client.force_login(player)
    response = client.get("/accounts/logout/", headers={"HX-Request": "true"})
    assert response.status_code == 405
    assert response["Content-Type"].startswith("text/html")  # htmx inserts it as HTML
    assert response.content == (
        b'<p class="message message-error" role="alert">'
        b"This address does not take GET requests; it takes POST.</p>"
    )


def test_a_wrong_method_on_a_page_says_which_it_takes(client, player):
    client.force_login(player)
    response = client.post(reverse("games:mine"))
    assert response.status_code == 405
    assert b"does not take POST requests; it takes GET." in response.content
