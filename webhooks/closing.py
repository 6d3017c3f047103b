"""A deleted account's chat channels go with it (games.services.closing calls this inside its
transaction): the addresses are theirs, and nothing may post in the name of "a deleted player"."""

from accounts.models import User
from webhooks import channels
from webhooks.models import Webhook


def forget_owner(user: User) -> int:
    """Delete every hook `user` set; the game pages of their tables stop announcing them."""
    hooks = Webhook.objects.filter(owner=user)
    tables = list(hooks.filter(game__isnull=False).values_list("game_id", flat=True))
    deleted, _ = hooks.delete()
    for game_id in tables:
        channels.refresh(game_id)
    return deleted
