"""Checking what a browser says its push subscription is, before storing or posting to it.

The endpoint is a URL our worker will POST to, so a forged one could aim the worker at the site's
own network (SSRF): only https on the standard port, to a host whose every address is public. The
check runs when the subscription is stored and again before each push, since DNS can change.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

MAX_ENDPOINT_LENGTH = 1000
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


class InvalidSubscription(ValueError):
    """A subscription refused, with the reason in words for the player."""


class HostNotFound(InvalidSubscription):
    """DNS gave no answer: perhaps only for now (the sender retries rather than delete)."""


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str


def parse(data: object) -> Subscription:
    """The subscription in a browser's `PushSubscription.toJSON()`, checked; raises
    InvalidSubscription with the reason otherwise."""
    if not isinstance(data, dict):
        raise InvalidSubscription("The browser sent no subscription.")
    keys = data.get("keys")
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not isinstance(keys, dict):
        raise InvalidSubscription("The subscription needs an endpoint and keys.")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    _check_key(p256dh, 65, "p256dh")
    _check_key(auth, 16, "auth")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _decode(p256dh))
    except ValueError:
        raise InvalidSubscription("The p256dh key is not a point on the P-256 curve.") from None
    check_endpoint(endpoint)
    return Subscription(endpoint=endpoint, p256dh=p256dh, auth=auth)


def _decode(value: str) -> bytes:
    return base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))


def _check_key(value: object, size: int, name: str) -> None:
    if not isinstance(value, str) or len(value) > 100 or not _BASE64URL.fullmatch(value):
        raise InvalidSubscription(f"The {name} key must be base64url text.")
    try:
        raw = _decode(value)
    except (binascii.Error, ValueError):
        raise InvalidSubscription(f"The {name} key must be base64url text.") from None
    if len(raw) != size or (size == 65 and raw[0] != 4):
        what = "an uncompressed P-256 point" if size == 65 else "a secret"
        raise InvalidSubscription(f"The {name} key must be {what} of {size} bytes.")


def check_endpoint(endpoint: str) -> None:
    """Raises InvalidSubscription unless the endpoint is an https URL of a public host."""
    if len(endpoint) > MAX_ENDPOINT_LENGTH or any(c.isspace() or ord(c) < 32 for c in endpoint):
        raise InvalidSubscription("The push endpoint is not a valid address.")
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise InvalidSubscription("The push endpoint is not a valid address.") from None
    if parts.scheme != "https":
        raise InvalidSubscription("The push endpoint must be an https address.")
    if not parts.hostname or parts.username is not None or parts.password is not None:
        raise InvalidSubscription("The push endpoint must name a host, without a user or password.")
    if settings.PUSH_ALLOW_PRIVATE_ENDPOINTS:
        return  # tests: a push service on this machine
    if port not in (None, 443):
        raise InvalidSubscription("The push endpoint must use the standard https port.")
    try:
        found = socket.getaddrinfo(parts.hostname, 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise HostNotFound("The push endpoint's host could not be found.") from None
    if not found:
        raise HostNotFound("The push endpoint's host could not be found.")
    for *_, sockaddr in found:
        if not _is_public(sockaddr[0]):
            raise InvalidSubscription("The push endpoint must be on the public internet.")


def _is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 scope ("fe80::1%eth0")
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast
