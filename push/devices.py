"""Turning a player's device on: the one writer of a new subscription, and its end at logout.

An endpoint has one owner. Anyone who learns it (it travels in logs, in a shared browser's
storage) could otherwise claim it for their account: the owner would lose their notifications,
so a second account is refused rather than given the endpoint or a second row of it (the two rows
would make the device show one account's notifications to whoever holds the other). At most
MAX_DEVICES per player, checked under the player's row lock so that two subscribes at once cannot
both slip under the cap. The session remembers which devices it turned on, and logging out
deletes them: a shared computer stops showing the last player's turns.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.http import HttpRequest

from accounts.models import User
from games.services.core import lock_player
from push.endpoints import Subscription
from push.models import PushSubscription
from push.profile import MAX_DEVICES

# The ids of the subscriptions this session created or refreshed, kept in the session's data
# (not its key, which changes at a password change) until logout.
SESSION_DEVICES = "push_devices"
TAKEN = (
    "This device already gets notifications for another account: log out of that account on "
    "this device, or remove the device from its profile, then try again."
)


class DeviceRefused(Exception):
    """The device cannot be turned on for this player, with the reason in words."""


def turn_on(request: HttpRequest, user: User, sub: Subscription, label: str) -> PushSubscription:
    """Store the browser's subscription for `user` (or refresh its keys when it is already theirs)
    and remember it in this session; raises DeviceRefused and changes nothing otherwise."""
    try:
        with transaction.atomic():
            lock_player(user)  # one subscribe at a time per player, so that the cap holds
            rows = PushSubscription.objects.select_for_update()
            device = rows.filter(endpoint=sub.endpoint).first()
            if device is not None and device.user_id != user.pk:
                raise DeviceRefused(TAKEN)
            created = device is None
            if created:
                device = PushSubscription(user=user, endpoint=sub.endpoint)
            device.p256dh, device.auth, device.user_agent = sub.p256dh, sub.auth, label
            device.save()
            # Counted after the insert, in the same transaction: a row that came in by any way
            # since the lock was taken is counted too, and the refusal undoes ours.
            if created and user.push_subscriptions.count() > MAX_DEVICES:
                raise DeviceRefused(
                    f"You have {MAX_DEVICES} devices with notifications: remove one in your "
                    "profile first."
                )
    except IntegrityError:  # another account stored the same endpoint a moment ago
        raise DeviceRefused(TAKEN) from None
    remembered = request.session.get(SESSION_DEVICES, [])
    if device.pk not in remembered:
        request.session[SESSION_DEVICES] = [*remembered, device.pk]
    return device


def forget_on_logout(
    sender: object, request: HttpRequest | None, user: User | None, **kwargs
) -> None:
    """On `user_logged_out`: the devices this session turned on get no more of the player's
    notifications (the browser keeps a subscription the site no longer knows, and the profile
    page's script drops it the next time it looks)."""
    if request is None or user is None:
        return
    ids = [pk for pk in request.session.get(SESSION_DEVICES, []) if isinstance(pk, int)]
    if ids:
        PushSubscription.objects.filter(user=user, pk__in=ids).delete()
