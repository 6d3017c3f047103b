"""Counting requests against a rate, shared by the pages that refuse (or quietly skip) work done
too often: sign-ups, password resets, confirmation links, current-password checks, table talk,
friends, push subscriptions."""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable

from django.http import HttpRequest
from django.utils.translation import npgettext, pgettext
from django_ratelimit.core import get_usage, is_ratelimited

from . import identity

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


def used_up(request: HttpRequest, group: str, key: Key, rate: str) -> bool:
    """Whether `rate` is already spent for `key`, without counting this request.

    For limits that count failures only (wrong current passwords): the check comes before the
    work, so that a refused guess is not even tried, and `limited` counts each failure after it.
    Same group, key and rate as the `limited` calls it reads. Fails open, as `limited` does.
    """
    try:
        usage = get_usage(request, group=group, key=key, rate=rate, method="POST")
    except Exception:
        logger.exception("rate limit %s could not be read; letting the request through", group)
        return False
    return usage is not None and usage["count"] >= usage["limit"]


_RATE = re.compile(r"\d+/(\d*)([smhd])?$")
_UNITS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}


def _one(unit: str) -> str:
    """One window of `unit`, as it reads after "try again in" (German wants the dative)."""
    return {
        "second": pgettext("try again in", "a second"),
        "minute": pgettext("try again in", "a minute"),
        "hour": pgettext("try again in", "an hour"),
        "day": pgettext("try again in", "a day"),
    }[unit]


def _many(unit: str, count: int) -> str:
    """`count` windows of `unit`, as they read after "try again in"."""
    words = {
        "second": npgettext("try again in", "%(count)d second", "%(count)d seconds", count),
        "minute": npgettext("try again in", "%(count)d minute", "%(count)d minutes", count),
        "hour": npgettext("try again in", "%(count)d hour", "%(count)d hours", count),
        "day": npgettext("try again in", "%(count)d day", "%(count)d days", count),
    }[unit]
    return words % {"count": count}


def window_in_words(rate: str) -> str:
    """How long one window of `rate` lasts, for "please try again in ...": "5/15m" is
    "15 minutes", "3/h" is "an hour" (a message must not promise a time the setting changed)."""
    match = _RATE.match(rate)
    if match is None:
        raise ValueError(f"not a rate: {rate!r}")
    count = int(match.group(1) or 1)
    unit = _UNITS[match.group(2) or "s"]
    return _one(unit) if count == 1 else _many(unit, count)


def normalised_email(address: str) -> str:
    """One spelling per mailbox as far as the site can tell ("Alice@Example.com " is
    "alice@example.com", and "al.ice+2@gmail.com" too: accounts.identity.normalised_email, the
    rule rated games use), so that a limit per address cannot be dodged by respelling it."""
    return identity.normalised_email(unicodedata.normalize("NFKC", address or "").casefold())
