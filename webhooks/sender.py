"""Posting one body to one chat webhook, through the push sender's pinned connection.

The address is checked again before each post (push.endpoints: DNS may have changed since it was
stored) and the connection goes to an address that check returned, never following a redirect
(push.sender.pinned_session). What the chat answers decides what happens next: 2xx, posted;
429 or a server error or no answer, try again later (after Retry-After when the chat says);
any other refusal is final for this post. Of the answer only its first words are read, for a
few seconds at most: a receiver that answers without end holds no worker and fills no memory.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests

from push.endpoints import HostNotFound, InvalidSubscription, check_endpoint
from push.sender import ADDRESSES_TRIED, first_bytes, never_connected, pinned_session

TIMEOUT_SECONDS = 10
MAX_RETRY_AFTER = 15 * 60  # within the broker's one-hour visibility timeout
ERROR_CHARS = 300
# What is read of a chat's answer, and for how long at most: enough for its words of refusal or
# Discord's {"retry_after": ...}. The rest is never read.
ANSWER_BYTES = 4096
ANSWER_SECONDS = 15


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    text: str


@dataclass(frozen=True)
class Outcome:
    """`ok`, or `error` in words with `retry` (worth trying again, after `retry_after` s)."""

    ok: bool
    error: str = ""
    retry: bool = False
    retry_after: int = 0


def post(url: str, body: dict) -> Outcome:
    """POST `body` as JSON to the webhook at `url`; never raises for the network or the chat."""
    try:
        addresses = check_endpoint(url, what="webhook address")
    except HostNotFound as exc:  # DNS down for a moment, or the host is gone
        return Outcome(False, str(exc), retry=True)
    except InvalidSubscription as exc:  # now resolves somewhere private: never again
        return Outcome(False, str(exc))
    data = json.dumps(body, separators=(",", ":")).encode()
    try:
        response = _post(url, addresses, data)
    except requests.RequestException as exc:
        return Outcome(False, f"The chat could not be reached ({type(exc).__name__}).", retry=True)
    status = response.status
    if 200 <= status < 300:
        return Outcome(True)
    said = " ".join(response.text.split())[:120] if response.text else ""
    error = f"The chat answered {status}" + (f": {said}" if said else ".")
    if status == 429 or status >= 500:
        return Outcome(False, error[:ERROR_CHARS], retry=True, retry_after=_retry_after(response))
    return Outcome(False, error[:ERROR_CHARS])


def _post(url: str, addresses: list[str], data: bytes) -> Answer:
    host = urlsplit(url).hostname
    unreachable = None
    for address in addresses[:ADDRESSES_TRIED]:
        try:
            with pinned_session(host, address) as session:
                response = session.post(
                    url,
                    data=data,
                    headers={"Content-Type": "application/json", "User-Agent": "Harmonies"},
                    timeout=TIMEOUT_SECONDS,
                    stream=True,  # the body is read below, a little of it
                )
                with response:
                    return Answer(response.status_code, response.headers, _first_words(response))
        except requests.RequestException as exc:
            if not never_connected(exc):
                raise
            unreachable = exc
    raise unreachable


def _first_words(response: requests.Response) -> str:
    """Up to ANSWER_BYTES of the answer's body, read for ANSWER_SECONDS at most. The status has
    come: a body cut short or broken off changes nothing of what it says (a 2xx stays posted)."""
    body = first_bytes(response, ANSWER_BYTES, ANSWER_SECONDS)
    try:
        return body.decode(response.encoding or "utf-8", "replace")
    except LookupError:  # a charset no codec knows
        return body.decode("utf-8", "replace")


def _retry_after(response: Answer) -> int:
    """Seconds the chat asked to wait (Retry-After, or Discord's JSON `retry_after`), capped."""
    raw = response.headers.get("Retry-After", "")
    try:
        seconds = float(raw)
    except ValueError:
        seconds = 0.0
    if not seconds:
        try:
            seconds = float(json.loads(response.text).get("retry_after", 0))
        except (ValueError, AttributeError, TypeError):
            seconds = 0.0
    if seconds != seconds or seconds < 0:  # NaN or negative: ignored
        return 0
    return int(min(seconds + 0.999, MAX_RETRY_AFTER))
