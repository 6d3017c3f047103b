"""A forged subscription is refused in words: only https, only public hosts, real keys."""

import socket

import pytest
from django.test import override_settings

from push.endpoints import InvalidSubscription, check_endpoint, parse
from tests.push.service import Browser, b64url

GOOD = "https://push.example.net/wpush/v2/abc"


@pytest.fixture
def resolves_to(monkeypatch):
    """DNS answers with these addresses for any host."""

    def answer(*addresses: str):
        def getaddrinfo(host, port, *args, **kwargs):
            return [
                (
                    socket.AF_INET6 if ":" in a else socket.AF_INET,
                    socket.SOCK_STREAM,
                    6,
                    "",
                    (a, port),
                )
                for a in addresses
            ]

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)

    return answer


def subscription(endpoint: str = GOOD, **keys) -> dict:
    return {"endpoint": endpoint, "keys": {**Browser().keys(), **keys}}


def test_a_public_https_endpoint_is_accepted(resolves_to):
    resolves_to("93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946")
    data = subscription()
    parsed = parse(data)
    assert (parsed.endpoint, parsed.p256dh, parsed.auth) == (
        GOOD, data["keys"]["p256dh"], data["keys"]["auth"]
    )  # fmt: skip


@pytest.mark.parametrize(
    "endpoint, reason",
    [
        ("http://push.example.net/x", "must be an https address"),
        ("ftp://push.example.net/x", "must be an https address"),
        ("javascript:alert(1)", "must be an https address"),
        ("https:///x", "must name a host"),
        ("https://user:pw@push.example.net/x", "without a user or password"),
        ("https://push.example.net:8443/x", "standard https port"),
        ("https://push.example.net:99999/x", "not a valid address"),
        ("https://push.example.net/a b", "not a valid address"),
        ("https://push.example.net/" + "a" * 1000, "not a valid address"),
    ],
)
def test_a_malformed_endpoint_is_refused(resolves_to, endpoint, reason):
    resolves_to("93.184.216.34")
    with pytest.raises(InvalidSubscription, match=reason):
        check_endpoint(endpoint)


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1", "10.1.2.3", "172.16.0.5", "192.168.1.1", "169.254.169.254", "100.64.0.1",
        "0.0.0.0", "240.0.0.1", "224.0.0.1", "::1", "fe80::1%eth0", "fc00::1",
        "::ffff:127.0.0.1", "::",
    ],
)  # fmt: skip
def test_a_host_resolving_to_a_non_public_address_is_refused(resolves_to, address):
    resolves_to(address)
    with pytest.raises(InvalidSubscription, match="public internet"):
        check_endpoint(GOOD)


@pytest.mark.parametrize(
    "address",
    [
        "64:ff9b::7f00:1",  # NAT64 (well-known prefix) of 127.0.0.1
        "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
        "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254, the cloud's metadata service
        "64:ff9b:1::a00:1",  # the local-use NAT64 prefix: never on the public internet
        "2002:7f00:1::",  # 6to4 of 127.0.0.1
        "2002:a00:1::1",  # 6to4 of 10.0.0.1
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
        "::ffff:10.0.0.1",  # IPv4-mapped
        "::7f00:1",  # IPv4-compatible (deprecated) 127.0.0.1
        "fec0::1",  # site-local (deprecated): Python 3.11 calls it global
        "fe80::1",
        "fd12:3456::1",
        "ff0e::1",  # global-scope multicast
        "100::1",  # discard-only
        "2001:db8::1",  # documentation
    ],
)
def test_an_ipv6_address_that_leads_to_a_private_one_is_refused(resolves_to, address):
    resolves_to(address)
    with pytest.raises(InvalidSubscription, match="public internet"):
        check_endpoint(GOOD)


@pytest.mark.parametrize(
    "address",
    [
        "64:ff9b::5db8:d822",  # NAT64 of 93.184.216.34, as DNS64 answers on an IPv6-only host
        "::ffff:93.184.216.34",
        "2002:5db8:d822::1",
        "2606:2800:220:1:248:1893:25c8:1946",
    ],
)
def test_an_ipv6_address_that_leads_to_a_public_one_is_accepted(resolves_to, address):
    resolves_to(address)
    assert check_endpoint(GOOD) == [address]


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://0x7f.1/wpush/1",
        "https://2130706433/wpush/1",
        "https://127.1/wpush/1",
        "https://0177.0.0.1/wpush/1",
        "https://0x7f000001/wpush/1",
        "https://0x5d.0xb8.0xd8.0x22/wpush/1",  # public, but no push service writes it so
        "https://1.2.3.4.5/wpush/1",
    ],
)
def test_an_ipv4_address_written_oddly_is_refused_whatever_dns_says(resolves_to, endpoint):
    resolves_to("93.184.216.34")  # a resolver that disagrees with the URL parser
    with pytest.raises(InvalidSubscription, match="not written as"):
        check_endpoint(endpoint)


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.1/wpush/1",
        "https://127.0.0.1./wpush/1",
        "https://[::1]/wpush/1",
        "https://[::ffff:7f00:1]/wpush/1",
        "https://[64:ff9b::7f00:1]/wpush/1",
        "https://[2002:a00:1::]/wpush/1",
    ],
)
def test_an_address_in_the_url_is_judged_by_itself_whatever_dns_says(resolves_to, endpoint):
    resolves_to("93.184.216.34")
    with pytest.raises(InvalidSubscription, match="public internet"):
        check_endpoint(endpoint)


def test_every_resolved_address_must_be_public(resolves_to):
    resolves_to("93.184.216.34", "10.0.0.7")
    with pytest.raises(InvalidSubscription, match="public internet"):
        check_endpoint(GOOD)


def test_an_unknown_host_is_refused(monkeypatch):
    def getaddrinfo(*args, **kwargs):
        raise socket.gaierror("Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with pytest.raises(InvalidSubscription, match="could not be found"):
        check_endpoint(GOOD)


def test_loopback_is_allowed_only_when_the_tests_say_so():
    with pytest.raises(InvalidSubscription):
        check_endpoint("https://127.0.0.1:8443/x")
    with override_settings(PUSH_ALLOW_PRIVATE_ENDPOINTS=True):
        check_endpoint("https://127.0.0.1:8443/x")
        with pytest.raises(InvalidSubscription, match="https"):
            check_endpoint("http://127.0.0.1:8443/x")  # still https only


@pytest.mark.parametrize(
    "keys, reason",
    [
        (
            {"p256dh": b64url(b"short")},
            "p256dh key must be an uncompressed P-256 point of 65 bytes",
        ),
        ({"p256dh": b64url(b"\x04" + b"\x01" * 64)}, "not a point on the P-256 curve"),
        ({"p256dh": b64url(b"\x02" + b"\x01" * 64)}, "uncompressed P-256 point"),
        ({"p256dh": "a+b/" * 22}, "base64url"),
        ({"p256dh": None}, "base64url"),
        ({"auth": b64url(b"x" * 15)}, "auth key must be a secret of 16 bytes"),
        ({"auth": b64url(b"x" * 17)}, "of 16 bytes"),
        ({"auth": "é" * 22}, "base64url"),
        ({"auth": 12}, "base64url"),
    ],
)
def test_wrong_keys_are_refused(resolves_to, keys, reason):
    resolves_to("93.184.216.34")
    with pytest.raises(InvalidSubscription, match=reason):
        parse(subscription(**keys))


@pytest.mark.parametrize(
    "data", [None, [], "x", {"endpoint": GOOD}, {"keys": {}}, {"endpoint": 3, "keys": {}}]
)
def test_a_shapeless_subscription_is_refused(data):
    with pytest.raises(InvalidSubscription):
        parse(data)
