import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clear_rate_limits():
    cache.clear()
    yield
    cache.clear()


def test_a_reset_email_carries_a_working_link_on_the_public_site(client, player, settings):
    settings.SITE_URL = "https://harmonies.example"
    response = client.post(reverse("password_reset"), {"email": "ALICE@example.com"})
    assert response.url == reverse("password_reset_done")
    (message,) = mail.outbox
    assert message.subject == "Reset your Harmonies password"
    link = re.search(r"https://harmonies\.example(\S+)", message.body).group(1)
    assert message.alternatives and link in message.alternatives[0][0]

    form_url = client.get(link).url  # Django swaps the token for a session key, then redirects.
    client.post(
        form_url,
        {"new_password1": "a-brand-new-passphrase", "new_password2": "a-brand-new-passphrase"},
    )
    player.refresh_from_db()
    assert player.check_password("a-brand-new-passphrase")
    assert b"no longer works" in client.get(link, follow=True).content


def test_an_unknown_email_sends_nothing_but_looks_the_same(client, player):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


def test_reset_requests_are_rate_limited(client, player, settings):
    settings.PASSWORD_RESET_RATE = "2/h"
    for _ in range(2):
        client.post(reverse("password_reset"), {"email": "alice@example.com"})
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 429
    assert len(mail.outbox) == 2
