"""Posting one encrypted notification to one device's push service, with pywebpush.

The payload is encrypted to the browser's keys (aes128gcm) and signed with the site's VAPID key,
so the push service learns nothing of it and knows which site sent it. What the push service
answers decides what happens to the subscription: 404 or 410, it is gone and is deleted; 429 or a
server error, try again later; any other refusal is final for this push.

The host is looked up once per push, by the endpoint check, and the connection goes to an address
that check approved (TLS and the Host header still name the host): a name server that answers a
public address to the check and 127.0.0.1 a moment later gets no connection to 127.0.0.1.
Of the answer only its first bytes are read, for a few seconds at most (`first_bytes`): an
endpoint that answers without end, or drips its answer, holds no worker and fills no memory.
"""

from __future__ import annotations

import json
import logging
import time
from functools import lru_cache
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from requests.adapters import HTTPAdapter
from urllib3.exceptions import HTTPError as TransportError
from urllib3.exceptions import NewConnectionError

from push.endpoints import HostNotFound, InvalidSubscription, check_endpoint
from push.models import PushSubscription

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 10
GONE = {404, 410}
# Addresses tried in turn when one cannot be reached (a host's IPv6 may be down): a few, so that a
# task waits at most a few connect timeouts.
ADDRESSES_TRIED = 3
# What is read of a push service's answer, and for how long at most: a real one answers 201 with
# an empty body, or a few words of refusal. The rest is never read.
ANSWER_BYTES = 4096
ANSWER_SECONDS = 15


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


class _ShortAnswers(_NoRedirects):
    """pywebpush reads the whole answer (`response.text`): here only its first bytes are read
    and kept as the whole of it, the connection closed after them."""

    def request(self, *args, **kwargs):
        kwargs["stream"] = True
        response = super().request(*args, **kwargs)
        with response:
            response._content = first_bytes(response, ANSWER_BYTES, ANSWER_SECONDS)
        return response


def first_bytes(response: requests.Response, limit: int, seconds: float) -> bytes:
    """Up to `limit` bytes of a streamed answer's body, read for `seconds` at most (webhooks.sender
    reads a chat's answer with it too). The status has come: a body cut short or broken off
    changes nothing of what it says."""
    deadline = time.monotonic() + seconds
    read, size = [], 0
    try:
        # read1: what has come, not a full chunk, so a body dripped a byte at a time ends too.
        while size < limit and time.monotonic() < deadline:
            chunk = response.raw.read1(1024, decode_content=True)
            if not chunk:
                break
            read.append(chunk)
            size += len(chunk)
    except (TransportError, requests.RequestException, OSError):
        pass
    return b"".join(read)[:limit]


class _PinnedAdapter(HTTPAdapter):
    """Connects to one checked address, never asking DNS again, while TLS (SNI and the
    certificate's name) and the Host header use the endpoint's host name."""

    def __init__(self, host: str, address: str) -> None:
        super().__init__()
        self.host, self.address = host, address

    def send(self, request: requests.PreparedRequest, **kwargs) -> requests.Response:
        parts = urlsplit(request.url)
        if parts.hostname != self.host:  # only the checked host is ever reached this way
            raise requests.ConnectionError(f"{parts.hostname} was not checked", request=request)
        request.headers["Host"] = parts.netloc  # the endpoint has no user or password part
        return super().send(request, **kwargs)

    def build_connection_pool_key_attributes(self, request, verify, cert=None):
        # requests' documented hook for changing how urllib3 connects (its docstring).
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert
        )
        host_params["host"] = self.address
        pool_kwargs["server_hostname"] = self.host
        return host_params, pool_kwargs


def pinned_session(
    host: str, address: str, session: _NoRedirects | None = None
) -> requests.Session:
    """A session that reaches `host` only, at the checked `address`, and follows no redirect
    (webhooks.sender posts to chat webhooks through it too)."""
    session = session or _NoRedirects()
    # No proxy from the environment: a proxy would look the host up again itself.
    session.trust_env = False
    if settings.PUSH_CA_BUNDLE:
        # Tests: the local push service's own certificate, not the usual authorities.
        session.verify = settings.PUSH_CA_BUNDLE
    session.mount("https://", _PinnedAdapter(host, address))
    return session


def never_connected(exc: requests.RequestException) -> bool:
    """The connection to this address was not made, so nothing was sent: the next may be tried
    without the push arriving twice."""
    if isinstance(exc, requests.ConnectTimeout):
        return True
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, NewConnectionError)


def _post(subscription: PushSubscription, addresses: list[str], payload: dict, ttl: int) -> None:
    host = urlsplit(subscription.endpoint).hostname
    unreachable = None
    for address in addresses[:ADDRESSES_TRIED]:
        try:
            with pinned_session(host, address, session=_ShortAnswers()) as session:
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
            return
        except requests.RequestException as exc:
            if not never_connected(exc):
                raise
            unreachable = exc
    raise unreachable


def deliver(subscription: PushSubscription, payload: dict, ttl: int) -> str:
    """Send `payload` (JSON) to one device: "sent", "gone" (the subscription was deleted) or
    "refused" (a final no for this push). Raises PushFailed when a retry may succeed."""
    try:
        # Again: the host's addresses may have changed. The push goes to one of these.
        addresses = check_endpoint(subscription.endpoint)
    except HostNotFound as exc:  # DNS down for a moment: not a reason to forget the device
        raise PushFailed(str(exc)) from exc
    except InvalidSubscription as exc:
        logger.warning("push subscription %s deleted: %s", subscription.pk, exc)
        subscription.delete()
        return "gone"
    try:
        _post(subscription, addresses, payload, ttl)
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
