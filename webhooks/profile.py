"""The profile's "Chat channel" section: the player's hooks, each with its latest outcome, and the
form for a channel for all their tables (templates/webhooks/_profile_section.html asks for it
through the `chat_channels` tag, so the profile's view knows nothing of webhooks)."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from webhooks.forms import HookForm
from webhooks.hooks import MAX_HOOKS_PER_PLAYER
from webhooks.models import Webhook


def section(user: User, form: HookForm | None = None) -> dict[str, Any]:
    own = list(Webhook.objects.filter(owner=user).select_related("game"))
    return {
        "hooks": own,
        "form": form or HookForm(),
        "max_hooks": MAX_HOOKS_PER_PLAYER,
        "room": len(own) < MAX_HOOKS_PER_PLAYER,
    }
