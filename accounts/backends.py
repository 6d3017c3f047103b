"""Log-in: by canonical username, and never as a computer opponent."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend


class PlayerBackend(ModelBackend):
    """Django's ModelBackend (one password hash per attempt, found or not), refusing bots.

    The lookup goes through `User.objects.get_by_natural_key`, which compares canonical names.
    """

    def user_can_authenticate(self, user) -> bool:
        return super().user_can_authenticate(user) and not getattr(user, "is_bot", False)

    def get_user(self, user_id):
        """The session's player, or None once staff suspended the account: its sessions stop
        working at once on every device. (The password still checks out, so that the log-in
        form can say why it refuses: accounts.moderation.LoginForm.)"""
        user = super().get_user(user_id)
        return None if user is None or user.is_suspended else user
