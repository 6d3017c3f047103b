from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from accounts.signals import email_preferences_changed
        from games import reminders

        email_preferences_changed.connect(
            reminders.on_email_preferences_changed, dispatch_uid="games.replan_reminders"
        )
