"""The visitor's address, one rule for the log-in lockout and the password-reset rate limit.

Behind TLS-terminating proxies REMOTE_ADDR is the nearest proxy's, so every visitor would share
one lockout and one rate limit. With TRUSTED_PROXY_COUNT = n, each of the n proxies in front of
the site appends the address it received the request from to X-Forwarded-For, so the client is
the n-th entry from the right; anything further left was written by the client and is ignored.

The counted entry must be an IP address: the lockout stores it in an address column and the
rate limit masks it as a network, and both failed with a 500 on anything else. A request whose
counted entry is not an address is refused (ClientAddressMiddleware) before any view: counting
it under the proxy's own address instead would let one client lock everyone out.

A request carrying X-Forwarded-For while TRUSTED_PROXY_COUNT is 0 most likely came through a
proxy nobody told the site about: then every visitor shares the proxy's address, and one
visitor's failed log-ins or resets throttle them all. The middleware logs that once per process
(a start-up check cannot see requests).
"""

import functools
import ipaddress
import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

logger = logging.getLogger(__name__)


def _counted_hop(request: HttpRequest) -> str | None:
    """The X-Forwarded-For entry the trusted proxies vouch for, or None without one."""
    hops = settings.TRUSTED_PROXY_COUNT
    if not hops:
        return None
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [a for a in forwarded if a]
    # Fewer entries than proxies: the request did not come through all of them.
    return forwarded[-hops] if len(forwarded) >= hops else None


def _is_ip(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


def client_address(request: HttpRequest) -> str:
    """The address the nearest untrusted hop connected from (REMOTE_ADDR when the counted entry
    is missing, or is not an address: the middleware refuses those before any view asks)."""
    hop = _counted_hop(request)
    return hop if hop is not None and _is_ip(hop) else request.META.get("REMOTE_ADDR", "")


@functools.cache  # once per process: the first such request says all there is to say
def warn_about_an_uncounted_proxy() -> None:
    """Tell the operator that the lockout and the rate limits see one address for everyone."""
    logger.warning(
        "Requests arrive with an X-Forwarded-For header but TRUSTED_PROXY_COUNT is 0, so every "
        "visitor is counted under the proxy's address: one visitor's failed log-ins and password "
        "resets slow down everyone. Set TRUSTED_PROXY_COUNT to the number of proxies in front "
        "of the site (docs/operating.md)."
    )


class ClientAddressMiddleware:
    """Refuses, in words, a request whose counted X-Forwarded-For entry is not an IP address, and
    warns once when proxies seem to be in front of a site told there are none."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not settings.TRUSTED_PROXY_COUNT and "HTTP_X_FORWARDED_FOR" in request.META:
            warn_about_an_uncounted_proxy()
        hop = _counted_hop(request)
        if hop is not None and not _is_ip(hop):
            return HttpResponseBadRequest(
                "This request came through a proxy that did not say where it came from "
                "(its X-Forwarded-For entry is not an address).",
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)
