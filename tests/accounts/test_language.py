"""The language a player reads: chosen on the profile, stored at sign-up, switched by `?lang=`."""

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PROFILE = {"display_name": "Alice", "email": "alice@example.com", "time_zone": "UTC"}


@pytest.fixture
def alice():
    return UserFactory(username="alice", display_name="Alice", email="alice@example.com")


def test_the_profile_offers_the_languages_named_in_themselves(client, alice):
    client.force_login(alice)
    page = client.get(reverse("profile")).content.decode()
    for words in ("As my browser asks", "English", "Français", "Deutsch", 'name="language"'):
        assert words in page


def test_a_language_chosen_on_the_profile_is_saved_and_used_at_once(client, alice):
    client.force_login(alice)
    response = client.post(reverse("profile"), {**PROFILE, "language": "fr"}, follow=True)
    alice.refresh_from_db()
    assert alice.language == "fr"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    page = response.content.decode()
    assert '<html lang="fr">' in page
    assert "Votre profil est enregistré." in page and "Mes parties" in page


def test_an_unknown_language_is_refused_and_nothing_is_stored(client, alice):
    alice.language = "de"
    alice.save()
    client.force_login(alice)
    response = client.post(
        reverse("profile"), {**PROFILE, "display_name": "Changed", "language": "xx"}
    )
    assert response.status_code == 200
    assert "language" in response.context["form"].errors
    alice.refresh_from_db()
    assert (alice.language, alice.display_name) == ("de", "Alice")


def test_as_my_browser_asks_clears_the_choice(client, alice):
    alice.language = "de"
    alice.save()
    client.force_login(alice)
    response = client.post(
        reverse("profile"), {**PROFILE, "language": ""}, HTTP_ACCEPT_LANGUAGE="fr", follow=True
    )
    alice.refresh_from_db()
    assert alice.language == ""
    assert '<html lang="fr">' in response.content.decode()


def test_sign_up_in_french_stores_french(client):
    data = {
        "username": "newbie",
        "display_name": "",
        "email": "newbie@example.com",
        "time_zone": "Europe/Paris",
        "password1": "a-long-and-lovely-passphrase",
        "password2": "a-long-and-lovely-passphrase",
    }
    client.post(reverse("signup"), data, HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert User.objects.get(username="newbie").language == "fr"


def test_sign_up_in_english_stores_english(client):
    data = {
        "username": "newbie",
        "display_name": "",
        "email": "newbie@example.com",
        "time_zone": "Europe/Paris",
        "password1": "a-long-and-lovely-passphrase",
        "password2": "a-long-and-lovely-passphrase",
    }
    client.post(reverse("signup"), data)
    assert User.objects.get(username="newbie").language == settings.LANGUAGE_CODE


def test_lang_switches_a_visitor_and_is_remembered(client):
    page = client.get(reverse("login") + "?lang=de").content.decode()
    assert '<html lang="de">' in page and "Anmelden" in page
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert '<html lang="de">' in client.get(reverse("login")).content.decode()


@pytest.mark.parametrize("asked", ["xx", "garbage;;q=zz", "", "*"])
def test_an_unknown_browser_language_falls_back_to_english(client, asked):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=asked).content.decode()
    assert '<html lang="en-gb">' in page and "Log in" in page


def test_a_members_language_wins_over_their_browsers(client, alice):
    alice.language = "de"
    alice.save()
    client.force_login(alice)
    page = client.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="de">' in page and "Meine Partien" in page


def test_the_footer_offers_every_language_on_the_current_path(client):
    page = client.get(reverse("login") + "?next=/games/&x=1").content.decode()
    path = reverse("login")
    for code, name in settings.LANGUAGES:
        assert f'href="{path}?lang={code}"' in page and f">{name}</a>" in page
