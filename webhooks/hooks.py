"""Setting, removing and testing chat hooks: the one place they are written.

The address is checked as a push endpoint is (push.endpoints: https on the standard port, a host
all of whose addresses are public, no user or password) when it is stored, and again before each
post. A player keeps at most MAX_HOOKS_PER_PLAYER hooks in all, a table at most one. A table's
hook is shown on the game page to every seat, and any of them may remove it: their words are the
table's to send.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat
from games.queue import enqueue
from games.services.talk import channel_changed
from push.endpoints import InvalidSubscription, check_endpoint
from webhooks import channels, payloads
from webhooks.models import Delivery, Webhook

MAX_HOOKS_PER_PLAYER = 5
WHAT = "webhook address"


class HookRefused(Exception):
    """A change refused, in words for the player; nothing was stored. `status` is the HTTP one."""

    def __init__(self, message: str, status: int = 400, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.field = status, field  # `field`: the form field it is about


def checked_url(raw: object) -> str:
    """The address as it will be stored, or HookRefused with the reason."""
    if not isinstance(raw, str) or not raw.strip():
        raise HookRefused("Paste the webhook address your chat gave you.", field="url")
    url = raw.strip()
    try:
        check_endpoint(url, what=WHAT)
    except InvalidSubscription as exc:
        raise HookRefused(str(exc), field="url") from None
    return url


def checked_kind(raw: object) -> str:
    if raw not in Webhook.Kind.values:
        raise HookRefused("Choose Discord, Slack or JSON.", field="kind")
    return raw


def add_player_hook(user: User, kind: object, url: object) -> Webhook:
    """A channel for all of `user`'s tables: their own turns and the ends of their games."""
    kind, url = checked_kind(kind), checked_url(url)
    try:
        with transaction.atomic():
            _check_room(user)
            return Webhook.objects.create(owner=user, kind=kind, url=url)
    except IntegrityError:  # the same address a moment ago (a double click)
        raise HookRefused("Your tables' events already go to this address.", 409) from None


def add_table_hook(user: User, game_id: int, kind: object, url: object) -> Webhook:
    """The channel of one table, set by one of its seated players; every seat is shown it."""
    kind, url = checked_kind(kind), checked_url(url)
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=game_id).first()
            seat = Seat.objects.filter(game_id=game_id, user_id=user.pk).first() if game else None
            if game is None:
                raise HookRefused("There is no such game.", 404)
            if seat is None or seat.left:
                raise HookRefused("Only a player at this table can set its channel.", 403)
            why_not = channels.may_have_channel(game)
            if why_not:
                raise HookRefused(why_not, 409)
            if Webhook.objects.filter(game=game).exists():
                raise HookRefused("This table already has a channel: remove it first.", 409)
            _check_room(user)
            hook = Webhook.objects.create(owner=user, game=game, kind=kind, url=url)
            channel_changed(game.pk)  # every seat's page shows where the table's events go
    except IntegrityError:
        raise HookRefused("This table already has a channel: remove it first.", 409) from None
    channels.refresh(game_id)
    return hook


def _check_room(user: User) -> None:
    User.objects.select_for_update().filter(pk=user.pk).first()  # one change of theirs at a time
    if Webhook.objects.filter(owner=user).count() >= MAX_HOOKS_PER_PLAYER:
        raise HookRefused(
            f"You already have {MAX_HOOKS_PER_PLAYER} chat channels: remove one first.", 409
        )


def _hook_for(user: User, hook_id: int, *, table_may_remove: bool = False) -> Webhook:
    """The hook, if `user` may act on it: their own, or (removing) their table's."""
    hook = Webhook.objects.filter(pk=hook_id).select_related("owner").first()
    if hook is not None and hook.owner_id == user.pk:
        return hook
    if (
        hook is not None
        and table_may_remove
        and hook.game_id
        and Seat.objects.filter(game_id=hook.game_id, user_id=user.pk).exists()
    ):
        return hook
    raise HookRefused("There is no such chat channel (it may have been removed).", 404)


def remove(user: User, hook_id: int) -> Webhook:
    """The hook posts nothing more; what was queued for it is dropped with it."""
    hook = _hook_for(user, hook_id, table_may_remove=True)
    with transaction.atomic():
        Webhook.objects.filter(pk=hook.pk).delete()
        if hook.game_id:
            channel_changed(hook.game_id)
    channels.refresh(hook.game_id)
    return hook


def send_test(user: User, hook_id: int) -> Delivery:
    """A test message to one of the user's own hooks, queued like any event (the page shows its
    outcome beside the hook once posted)."""
    hook = _hook_for(user, hook_id)
    now = timezone.now()
    delivery = Delivery.objects.create(
        hook=hook, key=f"test:{now.timestamp():.6f}", payload=payloads.test(hook)
    )
    enqueue("webhooks.deliver", delivery.pk)
    return delivery
