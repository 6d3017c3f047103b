"""The visitor's address, one rule for the log-in lockout and the password-reset rate limit.

Behind TLS-terminating proxies REMOTE_ADDR is the nearest proxy's, so every visitor would share
one lockout and one rate limit. With TRUSTED_PROXY_COUNT = n, each of the n proxies in front of
the site appends the address it received the request from to X-Forwarded-For, so the client is
the n-th entry from the right; anything further left was written by the client and is ignored.
"""

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The address the nearest untrusted hop connected from."""
    remote = request.META.get("REMOTE_ADDR", "")
    hops = settings.TRUSTED_PROXY_COUNT
    if not hops:
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [a for a in forwarded if a]
    # Fewer entries than proxies: the request did not come through all of them.
    if len(forwarded) < hops:
        return remote
    # Not an address (a proxy passing on junk): counting it would fail in the rate limit and in
    # the lockout's address column (a 500), so the nearest proxy's address is counted instead.
    try:
        return str(ipaddress.ip_address(forwarded[-hops]))
    except ValueError:
        return remote
