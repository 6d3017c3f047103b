from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts.language import on_logged_in

        user_logged_in.connect(on_logged_in, dispatch_uid="accounts.language_at_log_in")
