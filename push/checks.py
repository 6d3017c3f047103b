"""A VAPID key pair that does not parse, or whose halves do not match, fails at start-up: every
push service would refuse every push (403), and nobody would know why."""

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.checks import Error, register

from push.sender import enabled


@register()
def vapid_keys(app_configs, **kwargs) -> list[Error]:
    if not (settings.VAPID_PUBLIC_KEY or settings.VAPID_PRIVATE_KEY or settings.VAPID_SUBJECT):
        return []  # Web Push is simply off
    if not enabled():
        message = "Set all three of VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT, or none."
        return [Error(message, id="push.E001")]
    from py_vapid import Vapid, b64urlencode

    try:
        key = Vapid.from_string(settings.VAPID_PRIVATE_KEY).public_key
    except Exception:
        return [Error("VAPID_PRIVATE_KEY is not a base64url P-256 private key.", id="push.E002")]
    public = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    if b64urlencode(public) != settings.VAPID_PUBLIC_KEY.rstrip("="):
        message = "VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY."
        return [Error(message, id="push.E003")]
    if not settings.VAPID_SUBJECT.startswith(("mailto:", "https://")):
        return [Error("VAPID_SUBJECT must be a mailto: or https: address.", id="push.E004")]
    return []
