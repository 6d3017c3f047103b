import pytest
from django.test import override_settings

from push.models import PushSubscription
from tests.push.service import Browser, PushService, VapidKeys

SUBJECT = "mailto:operator@harmonies.example"


@pytest.fixture
def vapid():
    return VapidKeys()


@pytest.fixture
def push_service(tmp_path):
    with PushService(tmp_path) as service:
        yield service


@pytest.fixture
def push_on(vapid, push_service):
    """Web Push configured, with the local push service trusted (its certificate) and allowed
    (a loopback address): the only two settings that differ from production."""
    with override_settings(
        VAPID_PUBLIC_KEY=vapid.public,
        VAPID_PRIVATE_KEY=vapid.private,
        VAPID_SUBJECT=SUBJECT,
        PUSH_ALLOW_PRIVATE_ENDPOINTS=True,
        PUSH_CA_BUNDLE=str(push_service.cert),
    ):
        yield


@pytest.fixture
def device(push_service):
    """Subscribes a user's browser to the local push service: returns (subscription, browser)."""
    made = 0

    def subscribe(user, path: str | None = None) -> tuple[PushSubscription, Browser]:
        nonlocal made
        made += 1
        browser = Browser()
        subscription = PushSubscription.objects.create(
            user=user,
            endpoint=push_service.origin + (path or f"/wpush/{user.username}-{made}"),
            user_agent="Firefox on Android",
            **browser.keys(),
        )
        return subscription, browser

    return subscribe
