import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

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


def reset_from(address: str, email: str):
    return Client(REMOTE_ADDR=address).post(reverse("password_reset"), {"email": email})


CAPPED = (
    b"Several reset emails were already sent to this address in the last hour; check your inbox, "
    b"including spam, or try again in an hour."
)


def test_one_address_gets_at_most_three_reset_emails_an_hour_whoever_asks(player, settings):
    # Many source addresses sent one victim as many reset emails as they liked.
    assert settings.PASSWORD_RESET_EMAILS_PER_HOUR == 3
    spellings = ["alice@example.com", "ALICE@example.com", " Alice@Example.COM "]
    answers = [reset_from(f"203.0.113.{n}", spellings[n % 3]) for n in range(5)]
    assert len(mail.outbox) == 3
    assert [a.status_code for a in answers] == [302, 302, 302, 429, 429]
    assert all(CAPPED in later.content for later in answers[3:])


def test_the_owner_asking_after_a_stranger_is_told_the_links_are_in_the_inbox(client, player):
    # A stranger's requests used up the victim's reset emails, and the victim's own request then
    # said "sent" while nothing was.
    for n in range(3):
        reset_from(f"203.0.113.{n}", "alice@example.com")
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 429 and CAPPED in response.content
    assert b'value="alice@example.com"' in response.content  # the form, to ask again later
    assert len(mail.outbox) == 3


def test_the_cap_answers_alike_for_an_address_without_an_account(player):
    # Counted whether or not an account uses the address: the answer reveals nothing.
    def fourth_answer(email: str):
        for n in range(3):
            assert reset_from(f"203.0.113.{n}", email).status_code == 302
        return reset_from("203.0.113.9", email)

    registered, unknown = fourth_answer("alice@example.com"), fourth_answer("nobody@example.com")
    assert registered.status_code == unknown.status_code == 429
    assert CAPPED in registered.content and CAPPED in unknown.content
    assert len(mail.outbox) == 3  # alice's three: nobody@ has no account


def test_requests_refused_per_requester_do_not_use_up_the_targets_emails(player, settings):
    settings.PASSWORD_RESET_RATE = "1/h"
    for _ in range(5):
        reset_from("203.0.113.1", "alice@example.com")  # one sent, four refused at the door
    assert reset_from("203.0.113.2", "alice@example.com").status_code == 302
    assert len(mail.outbox) == 2


def test_the_cap_on_one_address_leaves_other_addresses_alone(player, other_player, settings):
    settings.PASSWORD_RESET_EMAILS_PER_HOUR = 1
    reset_from("203.0.113.1", "alice@example.com")
    reset_from("203.0.113.2", "alice@example.com")
    reset_from("203.0.113.3", other_player.email)
    assert [m.to for m in mail.outbox] == [["alice@example.com"], [other_player.email]]


def test_the_cap_on_one_address_lifts_after_an_hour(player, settings):
    settings.PASSWORD_RESET_EMAILS_PER_HOUR = 1
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        reset_from("203.0.113.1", "alice@example.com")
        reset_from("203.0.113.2", "alice@example.com")
    with time_machine.travel(start + timedelta(hours=1, minutes=1), tick=False):
        reset_from("203.0.113.3", "alice@example.com")
    assert len(mail.outbox) == 2


def test_past_the_cap_the_victim_still_resets_with_a_link_already_sent(client, player, settings):
    # The cap blocks nothing: the emails that went out carry links that still work.
    settings.PASSWORD_RESET_EMAILS_PER_HOUR = 1
    reset_from("203.0.113.1", "alice@example.com")  # a stranger
    reset_from("203.0.113.2", "alice@example.com")  # alice herself: nothing more is sent
    (message,) = mail.outbox
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+)", message.body).group(1)
    form_url = client.get(link).url
    new = "a-brand-new-passphrase"
    client.post(form_url, {"new_password1": new, "new_password2": new})
    player.refresh_from_db()
    assert player.check_password(new)
