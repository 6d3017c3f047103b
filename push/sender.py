"""Posting one encrypted notification to one device's push service, with pywebpush.

The payload is encrypted to the browser's keys (aes128gcm) and signed with the site's VAPID key,
so the push service learns nothing of it and knows which site sent it. What the push service
answers decides what happens to the subscription: 404 or 410, it is gone and is deleted; 429 or a
server error, try again later; any other refusal is final for this push.
"""

from __future__ import annotations

import json
import logging
from functools import lru_cache

import requests
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from push.endpoints import HostNotFound, InvalidSubscription, check_endpoint
from push.models import PushSubscription

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 10
GONE = {404, 410}


class PushFailed(Exception):
    """The push service could not take the push now (unreachable, 429, 5xx): retry later."""


def enabled() -> bool:
    """Web Push is on only when the three VAPID settings are given."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY and settings.VAPID_SUBJECT)


@lru_cache(maxsize=2)
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key)


class _NoRedirects(requests.Session):
    """A push service answers; it never redirects. Following one could aim the POST at a host
    the endpoint check never saw."""

    def request(self, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def _session() -> requests.Session:
    session = _NoRedirects()
    if settings.PUSH_CA_BUNDLE:
        # Tests: the local push service's own certificate, not REQUESTS_CA_BUNDLE's authorities.
        session.trust_env = False
        session.verify = settings.PUSH_CA_BUNDLE
    return session


def deliver(subscription: PushSubscription, payload: dict, ttl: int) -> str:
    """Send `payload` (JSON) to one device: "sent", "gone" (the subscription was deleted) or
    "refused" (a final no for this push). Raises PushFailed when a retry may succeed."""
    try:
        check_endpoint(subscription.endpoint)  # again: the host's addresses may have changed
    except HostNotFound as exc:  # DNS down for a moment: not a reason to forget the device
        raise PushFailed(str(exc)) from exc
    except InvalidSubscription as exc:
        logger.warning("push subscription %s deleted: %s", subscription.pk, exc)
        subscription.delete()
        return "gone"
    try:
        with _session() as session:
            webpush(
                subscription_info=subscription.as_info(),
                data=json.dumps(payload, separators=(",", ":")),
                vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=ttl,
                timeout=TIMEOUT_SECONDS,
                headers={"Urgency": "normal"},
                requests_session=session,
            )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in GONE:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            return "gone"
        if status is None or status == 429 or status >= 500:
            raise PushFailed(f"push service answered {status}") from exc
        logger.warning("push to subscription %s refused with %s", subscription.pk, status)
        return "refused"
    except requests.RequestException as exc:
        raise PushFailed(f"push service unreachable: {type(exc).__name__}") from exc
    PushSubscription.objects.filter(pk=subscription.pk).update(last_ok_at=timezone.now())
    return "sent"
