"""Counting requests against a rate, shared by the pages that refuse (or quietly skip) work done
too often: password resets, confirmation links, table talk, friends, push subscriptions."""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable

from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited

logger = logging.getLogger(__name__)

Key = str | Callable[[str, HttpRequest], str]


def limited(request: HttpRequest, group: str, key: Key, rate: str) -> bool:
    """Count this request against `rate` per `key` ("ip", "user", or a function of the group and
    request); True once it is over.

    With the cache (Redis) unreachable the request is let through and the outage logged: a
    limit that cannot count must not turn a password reset into a 500.
    """
    try:
        return is_ratelimited(
            request, group=group, key=key, rate=rate, method="POST", increment=True
        )
    except Exception:
        logger.exception("rate limit %s could not be counted; letting the request through", group)
        return False


def normalised_email(address: str) -> str:
    """One spelling per mailbox as far as the site can tell ("Alice@Example.com " is
    "alice@example.com"), so that a limit per address cannot be dodged by changing case."""
    return unicodedata.normalize("NFKC", address or "").strip().casefold()
