"""The service worker at the site's root, and a player's devices: subscribe (the page's script
posts the browser's subscription as JSON), unsubscribe, and remove one from the profile.

Without the VAPID settings every one of these answers 404: the feature does not exist."""

from __future__ import annotations

import json
import re
from functools import lru_cache, wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.ratelimits import limited
from push import devices, endpoints
from push.sender import enabled

MAX_BODY_BYTES = 4096
SUBSCRIBE_RATE = "30/h"


def push_enabled(view):
    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not enabled():
            raise Http404("Notifications are not offered on this site.")
        return view(request, *args, **kwargs)

    return wrapper


@lru_cache(maxsize=1)
def _worker_source() -> bytes:
    with open(finders.find("js/sw.js"), "rb") as f:
        return f.read()


@require_GET
@push_enabled
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: at the root so that its scope is the whole site; checked again every 5 minutes."""
    response = HttpResponse(_worker_source(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "max-age=300"
    return response


def _refusal(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"ok": False, "error": message}, status=status)


def _json_body(request: HttpRequest) -> dict:
    if len(request.body) > MAX_BODY_BYTES:
        raise endpoints.InvalidSubscription("The subscription is too long.")
    try:
        data = json.loads(request.body)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise endpoints.InvalidSubscription("The browser's message was not JSON.") from None
    if not isinstance(data, dict):
        raise endpoints.InvalidSubscription("The browser sent no subscription.")
    return data


@require_POST
@push_enabled
def subscribe(request: HttpRequest) -> JsonResponse:
    """Store (or refresh) this browser's subscription for the logged-in player; an endpoint that
    is another account's stays theirs (push.devices)."""
    if not request.user.is_authenticated:
        return _refusal("Please log in again to turn on notifications.", status=403)
    if limited(request, "push_subscribe", "user", SUBSCRIBE_RATE):
        return _refusal("Too many attempts: please try again in an hour.", status=429)
    try:
        sub = endpoints.parse(_json_body(request).get("subscription"))
    except endpoints.InvalidSubscription as exc:
        return _refusal(str(exc))
    label = device_label(request.headers.get("User-Agent", ""))
    try:
        devices.turn_on(request, request.user, sub, label)
    except devices.DeviceRefused as exc:
        return _refusal(str(exc), status=409)
    return JsonResponse({"ok": True})


@require_POST
@push_enabled
def unsubscribe(request: HttpRequest) -> JsonResponse:
    """Forget this browser's subscription (the page turned notifications off)."""
    if not request.user.is_authenticated:
        return _refusal("Please log in again to turn off notifications.", status=403)
    try:
        endpoint = _json_body(request).get("endpoint")
    except endpoints.InvalidSubscription as exc:
        return _refusal(str(exc))
    if not isinstance(endpoint, str) or not endpoint.isprintable():  # no NUL for PostgreSQL
        return _refusal("The browser did not say which subscription to forget.")
    request.user.push_subscriptions.filter(endpoint=endpoint).delete()
    return JsonResponse({"ok": True})


@require_POST
@login_required
@push_enabled
def remove_device(request: HttpRequest, subscription_id: int) -> HttpResponse:
    """The profile's Remove button (a plain form): that device gets no more notifications."""
    subscription = get_object_or_404(request.user.push_subscriptions, pk=subscription_id)
    subscription.delete()
    device = subscription.user_agent or "That device"
    messages.success(request, f"{device} gets no more notifications.")
    return redirect(reverse("profile") + "#notifications")


_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"),
             ("SamsungBrowser", "Samsung Internet"), ("CriOS", "Chrome"), ("Chrome/", "Chrome"),
             ("Chromium", "Chromium"), ("Safari/", "Safari"))  # fmt: skip
_SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
            ("CrOS", "ChromeOS"), ("Mac OS X", "macOS"), ("Linux", "Linux"))  # fmt: skip


def device_label(user_agent: str) -> str:
    """ "Firefox on Android": enough for a player to tell their devices apart."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), "A browser")
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), "")
    label = f"{browser} on {system}" if system else browser
    return re.sub(r"[^\w ]", "", label)[:60]
