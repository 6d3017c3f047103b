from django.apps import AppConfig


class PushConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "push"
    verbose_name = "Web Push notifications"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from games.signals import message_posted
        from push import checks  # noqa: F401  (registers the VAPID key check)
        from push.devices import forget_on_logout

        message_posted.connect(_push_message, dispatch_uid="push-table-talk")
        # Logging out on a shared computer stops the devices that session turned on.
        user_logged_out.connect(forget_on_logout, dispatch_uid="push-forget-on-logout")


def _push_message(sender, message, **kwargs) -> None:
    """Table talk reaches the other players' devices (the signal fires after the commit)."""
    from push import notify

    notify.message_posted(message.game_id, message.pk, message.author_id, message.text)
