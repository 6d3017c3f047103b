from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from accounts.signals import away_changed, email_preferences_changed
        from games import reminders
        from games.services import away

        email_preferences_changed.connect(
            reminders.on_email_preferences_changed, dispatch_uid="games.replan_reminders"
        )
        away_changed.connect(away.on_away_changed, dispatch_uid="games.move_turn_clocks")
