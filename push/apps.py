from django.apps import AppConfig


class PushConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "push"
    verbose_name = "Web Push notifications"

    def ready(self) -> None:
        from games.signals import message_posted
        from push import checks  # noqa: F401  (registers the VAPID key check)

        message_posted.connect(_push_message, dispatch_uid="push-table-talk")


def _push_message(sender, message, **kwargs) -> None:
    """Table talk reaches the other players' devices (the signal fires after the commit)."""
    from push import notify

    notify.message_posted(message.game_id, message.pk, message.author_id, message.text)
