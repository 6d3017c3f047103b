from django.apps import AppConfig


class PushConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "push"
    verbose_name = "Web Push notifications"

    def ready(self) -> None:
        from push import checks  # noqa: F401  (registers the VAPID key check)
