"""The service worker at /sw.js, subscribing a device, and the profile's device list; all of it
absent without the VAPID settings."""

import hashlib
import json

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from push.models import PushSubscription
from push.views import device_label
from tests.clients import as_user
from tests.push.service import Browser

pytestmark = pytest.mark.django_db

FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"


def post_json(client: Client, url: str, data, **headers):
    body = data if isinstance(data, str | bytes) else json.dumps(data)
    return client.post(url, body, content_type="application/json", **headers)


def browser_subscription(origin: str, path: str = "/wpush/1") -> dict:
    return {"endpoint": origin + path, "expirationTime": None, "keys": Browser().keys()}


@pytest.fixture
def logged_in(client, player):
    client.force_login(player)
    return client


# --- Without VAPID keys: no feature ---------------------------------------------------------------


def test_without_keys_there_is_no_service_worker_and_no_endpoints(logged_in, push_service):
    assert logged_in.get("/sw.js").status_code == 404
    sub = browser_subscription(push_service.origin)
    assert post_json(logged_in, reverse("push:subscribe"), {"subscription": sub}).status_code == 404
    assert post_json(logged_in, reverse("push:unsubscribe"), {"endpoint": "x"}).status_code == 404
    assert logged_in.post(reverse("push:remove_device", args=[1])).status_code == 404
    assert not PushSubscription.objects.exists()


def test_without_keys_the_profile_offers_no_notifications(logged_in):
    page = logged_in.get(reverse("profile")).content.decode()
    assert "Notifications on this device" not in page
    assert "push.js" not in page


# --- With keys ------------------------------------------------------------------------------------


@pytest.mark.usefixtures("push_on")
def test_the_service_worker_is_served_at_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "max-age=300"
    assert b'addEventListener("push"' in response.content
    assert b"notificationclick" in response.content


@pytest.mark.usefixtures("push_on")
def test_the_profile_offers_notifications_with_the_public_key(logged_in, vapid):
    page = logged_in.get(reverse("profile")).content.decode()
    assert 'id="notifications"' in page
    assert f'data-key="{vapid.public}"' in page
    assert "js/push.js" in page
    assert "<script>" not in page  # no inline script (CSP)


@pytest.mark.usefixtures("push_on")
def test_a_player_subscribes_a_device(logged_in, player, push_service):
    sub = browser_subscription(push_service.origin)
    response = post_json(
        logged_in, reverse("push:subscribe"), {"subscription": sub}, HTTP_USER_AGENT=FIREFOX_ANDROID
    )
    assert response.status_code == 200 and response.json() == {"ok": True}
    (stored,) = PushSubscription.objects.all()
    assert (stored.user, stored.endpoint) == (player, sub["endpoint"])
    assert (stored.p256dh, stored.auth) == (sub["keys"]["p256dh"], sub["keys"]["auth"])
    assert stored.user_agent == "Firefox on Android"
    page = logged_in.get(reverse("profile")).content.decode()
    assert "Firefox on Android" in page
    assert reverse("push:remove_device", args=[stored.pk]) in page
    # The page's script learns which endpoints the site knows by digest, never the endpoint.
    assert sub["endpoint"] not in page
    assert hashlib.sha256(sub["endpoint"].encode()).hexdigest() in page


@pytest.mark.usefixtures("push_on")
def test_subscribing_again_refreshes_the_keys_rather_than_adding_a_device(logged_in, push_service):
    sub = browser_subscription(push_service.origin)
    post_json(logged_in, reverse("push:subscribe"), {"subscription": sub})
    sub["keys"] = Browser().keys()
    post_json(logged_in, reverse("push:subscribe"), {"subscription": sub})
    (stored,) = PushSubscription.objects.all()
    assert stored.p256dh == sub["keys"]["p256dh"]


@pytest.mark.usefixtures("push_on")
def test_a_stranger_who_learns_an_endpoint_cannot_take_it_over(player, stranger, push_service):
    alice, mallory = as_user(player), as_user(stranger)
    sub = browser_subscription(push_service.origin)
    assert post_json(alice, reverse("push:subscribe"), {"subscription": sub}).status_code == 200
    forged = {**sub, "keys": Browser().keys()}  # Alice's endpoint, Mallory's keys
    response = post_json(mallory, reverse("push:subscribe"), {"subscription": forged})
    assert response.status_code == 409
    assert "already gets notifications for another account" in response.json()["error"]
    (stored,) = PushSubscription.objects.all()
    assert (stored.user, stored.p256dh) == (player, sub["keys"]["p256dh"])
    # Alice's own browser may still refresh it.
    assert post_json(alice, reverse("push:subscribe"), {"subscription": sub}).status_code == 200
    assert PushSubscription.objects.get().user == player


@pytest.mark.usefixtures("push_on")
def test_logging_out_stops_the_notifications_that_browser_turned_on(
    player, other_player, device, push_service
):
    shared_computer, phone = as_user(player), as_user(player)
    for client, path in [(shared_computer, "/wpush/library"), (phone, "/wpush/phone")]:
        sub = browser_subscription(push_service.origin, path)
        assert (
            post_json(client, reverse("push:subscribe"), {"subscription": sub}).status_code == 200
        )
    theirs, _ = device(other_player)

    response = shared_computer.post(reverse("logout"))  # the plain form: no JavaScript needed

    assert response.status_code == 302
    assert sorted(s.endpoint for s in PushSubscription.objects.all()) == sorted(
        [push_service.origin + "/wpush/phone", theirs.endpoint]
    )


@pytest.mark.usefixtures("push_on")
def test_logging_out_after_a_password_change_still_stops_that_browsers_notifications(
    player, push_service
):
    from tests.factories import PASSWORD

    client = as_user(player)
    sub = browser_subscription(push_service.origin)
    post_json(client, reverse("push:subscribe"), {"subscription": sub})
    key_before = client.session.session_key
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "a new pass phrase 42",
         "new_password2": "a new pass phrase 42"},
    )  # fmt: skip
    assert response.status_code == 302
    assert client.session.session_key != key_before  # Django gave the session a new key
    client.post(reverse("logout"))
    assert not PushSubscription.objects.exists()


@pytest.mark.usefixtures("push_on")
def test_two_subscribes_at_once_cannot_make_an_eleventh_device(
    logged_in, player, device, push_service
):
    """The race, replayed in one thread: the other request's device is stored after this one's
    check would have passed (9 devices) and before its own insert."""
    from django.db.models.signals import pre_save

    for _ in range(9):
        device(player)
    rival = browser_subscription(push_service.origin, "/wpush/rival")

    def the_other_request_lands(sender, instance, **kwargs):
        if instance.pk is None and instance.endpoint != rival["endpoint"]:
            PushSubscription.objects.bulk_create(
                [PushSubscription(user=player, endpoint=rival["endpoint"], **rival["keys"])]
            )

    pre_save.connect(the_other_request_lands, sender=PushSubscription, dispatch_uid="race")
    try:
        sub = browser_subscription(push_service.origin, "/wpush/mine")
        response = post_json(logged_in, reverse("push:subscribe"), {"subscription": sub})
    finally:
        pre_save.disconnect(sender=PushSubscription, dispatch_uid="race")
    assert response.status_code == 409
    assert "remove one in your profile" in response.json()["error"]
    assert player.push_subscriptions.count() <= 10
    assert not PushSubscription.objects.filter(endpoint=sub["endpoint"]).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("push_on")
def test_racing_subscribes_on_postgresql_stop_at_ten_devices(player, device, push_service):
    import threading

    from django.db import connection

    for _ in range(8):
        device(player)
    racers, barrier, statuses = 4, threading.Barrier(4), []

    def subscribe(n: int) -> None:
        try:
            client = as_user(player)
            sub = browser_subscription(push_service.origin, f"/wpush/racer-{n}")
            barrier.wait(timeout=30)
            response = post_json(client, reverse("push:subscribe"), {"subscription": sub})
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=subscribe, args=(n,)) for n in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(statuses) == [200, 200, 409, 409]
    assert player.push_subscriptions.count() == 10


@pytest.mark.usefixtures("push_on")
@pytest.mark.parametrize(
    "body, reason",
    [
        ("not json", "was not JSON"),
        ("[1]", "no subscription"),
        ({"subscription": None}, "no subscription"),
        ({"subscription": {"endpoint": "http://push.example.net/x", "keys": Browser().keys()}},
         "must be an https address"),
        ({"subscription": {"endpoint": "https://x.example/x", "keys": {"p256dh": "AA"}}},
         "p256dh key must be"),
        ({"subscription": {"endpoint": "https://x.example/" + "a" * 5000, "keys": {}}}, "too long"),
        ("[" * 2000 + "]" * 2000, "was not JSON"),
        (b"\xff\xfe", "was not JSON"),
        ({"subscription": {"endpoint": "https://x.example/\u0000", "keys": Browser().keys()}},
         "not a valid address"),
    ],
)  # fmt: skip
def test_a_forged_subscription_is_refused_in_words_and_nothing_stored(logged_in, body, reason):
    response = post_json(logged_in, reverse("push:subscribe"), body)
    assert response.status_code == 400
    assert reason in response.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.usefixtures("push_on")
def test_a_loopback_endpoint_is_refused_outside_tests(logged_in, push_service):
    sub = browser_subscription(push_service.origin)
    with override_settings(PUSH_ALLOW_PRIVATE_ENDPOINTS=False):
        response = post_json(logged_in, reverse("push:subscribe"), {"subscription": sub})
    assert response.status_code == 400
    assert response.json()["error"] in {
        "The push endpoint must use the standard https port.",
        "The push endpoint must be on the public internet.",
    }
    sub["endpoint"] = "https://127.0.0.1/wpush/1"
    with override_settings(PUSH_ALLOW_PRIVATE_ENDPOINTS=False):
        response = post_json(logged_in, reverse("push:subscribe"), {"subscription": sub})
    assert response.json()["error"] == "The push endpoint must be on the public internet."
    assert not PushSubscription.objects.exists()


@pytest.mark.usefixtures("push_on")
@pytest.mark.parametrize("address", ["64:ff9b::7f00:1", "2002:a00:1::", "fec0::1"])
def test_a_host_resolving_to_an_ipv6_form_of_a_private_address_is_refused(
    logged_in, monkeypatch, address
):
    import socket

    def getaddrinfo(host, port, *args, **kwargs):
        return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    sub = browser_subscription("https://push.attacker.example")
    with override_settings(PUSH_ALLOW_PRIVATE_ENDPOINTS=False):
        response = post_json(logged_in, reverse("push:subscribe"), {"subscription": sub})
    assert response.status_code == 400
    assert response.json()["error"] == "The push endpoint must be on the public internet."
    assert not PushSubscription.objects.exists()


@pytest.mark.usefixtures("push_on")
def test_a_visitor_cannot_subscribe(client, push_service):
    sub = browser_subscription(push_service.origin)
    response = post_json(client, reverse("push:subscribe"), {"subscription": sub})
    assert response.status_code == 403
    assert "log in" in response.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.usefixtures("push_on")
def test_subscribing_needs_the_csrf_token(player, push_service):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    sub = browser_subscription(push_service.origin)
    assert post_json(client, reverse("push:subscribe"), {"subscription": sub}).status_code == 403
    assert not PushSubscription.objects.exists()


@pytest.mark.usefixtures("push_on")
def test_a_get_is_not_a_subscription(logged_in):
    assert logged_in.get(reverse("push:subscribe")).status_code == 405


@pytest.mark.usefixtures("push_on")
def test_ten_devices_at_most(logged_in, push_service):
    for n in range(10):
        sub = browser_subscription(push_service.origin, f"/wpush/{n}")
        assert (
            post_json(logged_in, reverse("push:subscribe"), {"subscription": sub}).status_code
            == 200
        )
    sub = browser_subscription(push_service.origin, "/wpush/11")
    response = post_json(logged_in, reverse("push:subscribe"), {"subscription": sub})
    assert response.status_code == 409
    assert "remove one in your profile" in response.json()["error"]
    assert PushSubscription.objects.count() == 10
    again = browser_subscription(push_service.origin, "/wpush/3")  # a known one may refresh
    assert (
        post_json(logged_in, reverse("push:subscribe"), {"subscription": again}).status_code == 200
    )


@pytest.mark.usefixtures("push_on")
def test_turning_off_forgets_only_that_players_device(logged_in, player, other_player, device):
    mine, _ = device(player)
    theirs, _ = device(other_player)
    post_json(logged_in, reverse("push:unsubscribe"), {"endpoint": theirs.endpoint})
    post_json(logged_in, reverse("push:unsubscribe"), {"endpoint": mine.endpoint})
    assert list(PushSubscription.objects.all()) == [theirs]


@pytest.mark.usefixtures("push_on")
def test_turning_off_a_forged_endpoint_is_refused_in_words(logged_in, device, player):
    mine, _ = device(player)
    for endpoint in [None, 3, mine.endpoint + "\x00"]:
        response = post_json(logged_in, reverse("push:unsubscribe"), {"endpoint": endpoint})
        assert response.status_code == 400
        assert "which subscription" in response.json()["error"]
    assert PushSubscription.objects.count() == 1


@pytest.mark.usefixtures("push_on")
def test_removing_a_device_from_the_profile(logged_in, player, other_player, device):
    mine, _ = device(player)
    theirs, _ = device(other_player)
    assert logged_in.post(reverse("push:remove_device", args=[theirs.pk])).status_code == 404
    response = logged_in.post(reverse("push:remove_device", args=[mine.pk]), follow=True)
    assert response.redirect_chain[-1][0].endswith(reverse("profile") + "#notifications")
    assert "Firefox on Android gets no more notifications." in response.content.decode()
    assert list(PushSubscription.objects.all()) == [theirs]


@pytest.mark.parametrize(
    "agent, label",
    [
        (FIREFOX_ANDROID, "Firefox on Android"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
         "Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "Safari on iPhone"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge on Windows"),
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/131.0.0.0 Safari/537.36", "Chrome on Linux"),
        ("<script>", "A browser"),
    ],
)  # fmt: skip
def test_devices_are_named_for_their_owner(agent, label):
    assert device_label(agent) == label


def test_the_keys_command_prints_a_pair_the_site_accepts(vapid):
    import io

    from django.core.management import call_command

    from push.checks import vapid_keys

    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    pair = dict(line.split("=", 1) for line in out.getvalue().split())
    with override_settings(VAPID_SUBJECT="mailto:ops@example.com", **pair):
        assert vapid_keys(None) == []
    with override_settings(VAPID_SUBJECT="mailto:ops@example.com", VAPID_PUBLIC_KEY=vapid.public,
                           VAPID_PRIVATE_KEY=pair["VAPID_PRIVATE_KEY"]):  # fmt: skip
        assert [e.id for e in vapid_keys(None)] == ["push.E003"]
    with override_settings(VAPID_SUBJECT="", **pair):
        assert [e.id for e in vapid_keys(None)] == ["push.E001"]
    with override_settings(VAPID_SUBJECT="ops", VAPID_PUBLIC_KEY="x", VAPID_PRIVATE_KEY="!!"):
        assert [e.id for e in vapid_keys(None)] == ["push.E002"]
    with override_settings(VAPID_SUBJECT="ops@example.com", **pair):
        assert [e.id for e in vapid_keys(None)] == ["push.E004"]
