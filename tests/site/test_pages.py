import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_home_page_invites_a_visitor_to_sign_up(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert reverse("signup").encode() in response.content


def test_every_page_loads_the_vendored_htmx_and_sends_csrf_with_it(client, player):
    client.force_login(player)
    html = client.get(reverse("profile")).content.decode()
    assert "/static/vendor/htmx.min.js" in html
    assert 'hx-headers=\'{"X-CSRFToken":' in html
    assert "https://" not in html.split("<body")[0], "no asset comes from a CDN"
    assert finders.find("vendor/htmx.min.js")


def test_the_layout_is_usable_on_a_phone(client):
    html = client.get(reverse("home")).content.decode()
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in html
    assert 'href="#main"' in html and 'id="main"' in html


def test_a_player_lands_on_their_games(client, player):
    client.force_login(player)
    assert client.get(reverse("home")).url == reverse("games:mine")
