"""The profile's "Notifications on this device" section (accounts.views adds it to the page)."""

from django.conf import settings
from django.http import HttpRequest

from push.sender import enabled

MAX_DEVICES = 10


def profile_context(request: HttpRequest) -> dict:
    """What the profile's "Notifications on this device" section needs (nothing when off)."""
    if not enabled():
        return {}
    return {
        "push": {
            "public_key": settings.VAPID_PUBLIC_KEY,
            "devices": list(request.user.push_subscriptions.all()),
            "max_devices": MAX_DEVICES,
        }
    }
