from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"
    verbose_name = "Chat webhooks"

    def ready(self) -> None:
        from games.signals import message_posted

        message_posted.connect(_announce_message, dispatch_uid="webhooks-table-talk")


def _announce_message(sender, message, **kwargs) -> None:
    """Table talk reaches the table's channel, if it has one (the signal fires after the commit)."""
    from webhooks import notify

    notify.message_posted(message.game_id, message.pk)
