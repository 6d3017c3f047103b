"""The profile's "Notifications on this device" in chromium: the service worker registers at the
site's root, permission is asked only on a click, and a pushed message shows a notification."""

import json

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from push.models import PushSubscription
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.push.conftest import SUBJECT
from tests.push.service import Browser, VapidKeys

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("push_on"),
]


@pytest.fixture
def push_on():
    """Web Push configured (keys only: these tests reach no push service)."""
    vapid = VapidKeys()
    with override_settings(
        VAPID_PUBLIC_KEY=vapid.public, VAPID_PRIVATE_KEY=vapid.private, VAPID_SUBJECT=SUBJECT
    ):
        yield


@pytest.mark.parametrize("width", [360, 1280])
def test_the_profile_offers_notifications_and_lists_devices(
    live_server, new_page, screenshots, width
):
    user = UserFactory(username="wanderer")
    PushSubscription.objects.create(
        user=user, endpoint="https://push.example.net/wpush/1", user_agent="Firefox on Android",
        **Browser().keys(),
    )  # fmt: skip
    page = new_page(width=width, height=800)
    log_in(page, live_server.url, "wanderer")
    page.goto(f"{live_server.url}/accounts/profile/#notifications")
    section = page.locator("[data-push]")
    expect(section.get_by_text("Notifications are off for this device.")).to_be_visible()
    expect(section.get_by_role("button", name="Turn on on this device")).to_be_visible()
    expect(page.get_by_text("Firefox on Android")).to_be_visible()
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{live_server.url}/"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#notifications").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"profile-notifications-{width}.png"), full_page=True)

    page.get_by_role("button", name="Remove").click()
    expect(page.get_by_text("Firefox on Android gets no more notifications.")).to_be_visible()
    assert not PushSubscription.objects.exists()


def test_a_refused_permission_is_explained(live_server, new_page):
    UserFactory(username="wanderer")
    page = new_page()
    log_in(page, live_server.url, "wanderer")
    page.goto(f"{live_server.url}/accounts/profile/")
    page.evaluate("navigator.serviceWorker.ready")
    page.get_by_role("button", name="Turn on on this device").click()
    expect(page.get_by_text("This browser blocks notifications from this site")).to_be_visible()
    assert not PushSubscription.objects.exists()


def test_a_push_shows_a_notification_that_names_the_game(live_server, new_page):
    UserFactory(username="wanderer")
    page = new_page()
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    log_in(page, live_server.url, "wanderer")
    page.goto(f"{live_server.url}/accounts/profile/")
    page.evaluate("navigator.serviceWorker.ready")
    cdp = page.context.new_cdp_session(page)
    cdp.send("ServiceWorker.enable")
    registrations = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    page.wait_for_timeout(500)
    (registration,) = [r for r in registrations if not r.get("isDeleted")][:1]
    payload = {"title": "Your turn in Game 7", "body": "Bob has played.", "url": "/games/7/",
               "tag": "game-7", "silent": False}  # fmt: skip
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_server.url, "registrationId": registration["registrationId"],
         "data": json.dumps(payload)},
    )  # fmt: skip
    # wait_for_function does not wait for a promise (one is truthy at once): each poll asks for
    # the notifications and returns what the previous ask found, null until there is one.
    shown = page.wait_for_function(
        """() => {
             navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => {
               window.shownNotifications = ns.length
                 ? ns.map(n => [n.title, n.body, n.tag, n.data.url]) : null;
             });
             return window.shownNotifications;
           }"""
    ).json_value()
    assert shown == [
        ["Your turn in Game 7", "Bob has played.", "game-7", f"{live_server.url}/games/7/"]
    ]
