"""Behind proxies, the lockout and the rate limits count the client's address, not the proxy's."""

import logging

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse

from harmonies_site.client_address import client_address, warn_about_an_uncounted_proxy
from tests.factories import PASSWORD


@pytest.mark.parametrize(
    ("hops", "forwarded", "expected"),
    [
        (0, "6.6.6.6", "10.0.0.1"),  # no proxy: the header is the client's own words
        (1, "1.2.3.4", "1.2.3.4"),
        (1, "6.6.6.6, 1.2.3.4", "1.2.3.4"),  # a forged entry left of the proxy's is ignored
        (2, "6.6.6.6, 1.2.3.4, 10.0.0.7", "1.2.3.4"),
        (1, "", "10.0.0.1"),  # not through the proxy
        (2, "1.2.3.4", "10.0.0.1"),
        (1, " 1.2.3.4 ,, ", "1.2.3.4"),
        (1, "1.2.3.4, not-an-address", "10.0.0.1"),  # junk in the counted hop: the proxy's
        (1, "1.2.3.4, 1.2.3.4\x00", "10.0.0.1"),
    ],
)
def test_the_client_is_the_entry_before_the_trusted_proxies(settings, hops, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = hops
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected


@pytest.mark.django_db
def test_behind_a_proxy_one_visitors_lockout_leaves_the_others_alone(settings, player):
    settings.TRUSTED_PROXY_COUNT = 1
    attacker = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attacker.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert (
        attacker.post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code
        == 429
    )
    owner = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    response = owner.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302


@pytest.mark.django_db
def test_behind_a_proxy_reset_requests_are_limited_per_client(settings, player):
    cache.clear()
    settings.TRUSTED_PROXY_COUNT = 1
    settings.PASSWORD_RESET_RATE = "2/h"
    noisy = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6")
    for n in range(3):
        noisy.post(reverse("password_reset"), {"email": f"nobody{n}@example.com"})
    assert noisy.post(reverse("password_reset"), {"email": "x@example.com"}).status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    response = other.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    cache.clear()


@pytest.mark.django_db
@pytest.mark.parametrize("forwarded", ["not-an-address", "1.2.3.4:80", "<script>"])
def test_a_non_address_in_the_counted_hop_is_not_a_500(settings, player, forwarded):
    # Issue 12.7: the rate limit and the lockout failed on a value that is not an address. Such a
    # request is refused in words before any view (ClientAddressMiddleware), never a 500.
    cache.clear()
    settings.TRUSTED_PROXY_COUNT = 1
    visitor = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    for response in (
        visitor.post(reverse("password_reset"), {"email": "x@example.com"}),
        visitor.post(reverse("login"), {"username": "alice", "password": PASSWORD}),
    ):
        assert response.status_code == 400
        assert b"X-Forwarded-For entry is not an address" in response.content
    cache.clear()


@pytest.fixture
def fresh_proxy_warning():
    """The warning is logged once per process: each test starts before it was."""
    warn_about_an_uncounted_proxy.cache_clear()
    yield
    warn_about_an_uncounted_proxy.cache_clear()


def proxy_warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "harmonies_site.client_address"]


@pytest.mark.django_db
def test_a_site_behind_a_proxy_it_was_not_told_about_warns_once(
    settings, caplog, fresh_proxy_warning
):
    # Behind a proxy with TRUSTED_PROXY_COUNT = 0 every visitor shares one lockout and one rate
    # limit, and nothing said so.
    settings.TRUSTED_PROXY_COUNT = 0
    with caplog.at_level(logging.WARNING, logger="harmonies_site.client_address"):
        for visitor in ("1.2.3.4", "5.6.7.8", "1.2.3.4"):
            Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=visitor).get(reverse("login"))
    [warning] = proxy_warnings(caplog)
    assert "X-Forwarded-For" in warning and "Set TRUSTED_PROXY_COUNT" in warning


@pytest.mark.django_db
@pytest.mark.parametrize(("hops", "headers"), [(0, {}), (1, {"HTTP_X_FORWARDED_FOR": "1.2.3.4"})])
def test_no_proxy_warning_without_a_forwarded_header_or_with_a_proxy_count(
    settings, caplog, fresh_proxy_warning, hops, headers
):
    settings.TRUSTED_PROXY_COUNT = hops
    with caplog.at_level(logging.WARNING, logger="harmonies_site.client_address"):
        Client(REMOTE_ADDR="10.0.0.1", **headers).get(reverse("login"))
    assert proxy_warnings(caplog) == []
