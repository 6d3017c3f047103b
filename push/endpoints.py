"""Checking what a browser says its push subscription is, before storing or posting to it.

The endpoint is a URL our worker will POST to, so a forged one could aim the worker at the site's
own network (SSRF): only https on the standard port, to a host whose every address is public. The
check runs when the subscription is stored and again before each push, since DNS can change; the
push then connects to an address this check returned, so DNS is not asked a second time between
the check and the connection (DNS rebinding).
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
# A host whose last label is a number is an IPv4 address to URL parsers (WHATWG "ends in a
# number") and to inet_aton, which also read "0x7f.1", "2130706433" and "0177.0.0.1".
_NUMBER_LABEL = re.compile(r"0x[0-9a-f]*|[0-9]+", re.IGNORECASE)
# Where IPv6 addresses carry an IPv4 address that the network delivers to (RFC 6052 NAT64).
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
# The local-use NAT64 prefix (RFC 8215) translates to a private network's own choice of addresses.
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")
# Global unicast: every routable IPv6 address outside the prefixes above (fec0::/10 site-local,
# which Python 3.11 still calls global, and the rest of ::/8 are outside it).
_GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")


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


def check_endpoint(endpoint: str, what: str = "push endpoint") -> list[str]:
    """The addresses of the endpoint's host, to connect to; raises InvalidSubscription unless the
    endpoint is an https URL of a public host, every address of which is public. `what` names the
    address in the refusal's words (webhooks.addresses checks a chat webhook's with this too)."""
    if len(endpoint) > MAX_ENDPOINT_LENGTH or any(c.isspace() or ord(c) < 32 for c in endpoint):
        raise InvalidSubscription(f"The {what} is not a valid address.")
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise InvalidSubscription(f"The {what} is not a valid address.") from None
    if parts.scheme != "https":
        raise InvalidSubscription(f"The {what} must be an https address.")
    host = parts.hostname
    if not host or parts.username is not None or parts.password is not None:
        raise InvalidSubscription(f"The {what} must name a host, without a user or password.")
    literal = _address_literal(host, what)
    if settings.PUSH_ALLOW_PRIVATE_ENDPOINTS:
        # Tests: a push service (or a chat) on this machine.
        return [literal] if literal else _resolve(host, what)
    if port not in (None, 443):
        raise InvalidSubscription(f"The {what} must use the standard https port.")
    addresses = [literal] if literal else _resolve(host, what)
    if not all(_is_public(address) for address in addresses):
        raise InvalidSubscription(f"The {what} must be on the public internet.")
    return addresses


def _address_literal(host: str, what: str) -> str:
    """The IP address the host is, written plainly ("" for a host name). An IPv4 address written
    in any other way is refused: parsers and resolvers disagree on those, and no push service
    uses them."""
    bare = host.removesuffix(".")
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        pass
    if _NUMBER_LABEL.fullmatch(bare.rsplit(".", 1)[-1]):
        raise InvalidSubscription(
            f"The host of the {what} is not written as a name or a plain IP address."
        )
    return ""


def _resolve(host: str, what: str) -> list[str]:
    try:
        found = socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise HostNotFound(f"The {what}'s host could not be found.") from None
    addresses = list(dict.fromkeys(sockaddr[0] for *_, sockaddr in found))
    if not addresses:
        raise HostNotFound(f"The {what}'s host could not be found.")
    return addresses


def _is_public(address: str) -> bool:
    """Whether a connection to `address` reaches the public internet, and only it: an IPv6
    address that carries an IPv4 one (mapped, NAT64, 6to4, Teredo) is judged by that one too."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 scope ("fe80::1%eth0")
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv4Address):
        return ip.is_global and not ip.is_multicast
    if ip in _LOCAL_NAT64:
        return False
    if ip.ipv4_mapped is not None:
        return _is_public(str(ip.ipv4_mapped))
    if ip in _NAT64:
        return _is_public(str(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)))
    if ip.sixtofour is not None and not _is_public(str(ip.sixtofour)):
        return False
    if ip.teredo is not None and not all(_is_public(str(v4)) for v4 in ip.teredo):
        return False
    return ip in _GLOBAL_UNICAST and ip.is_global
