"""The development mail backend: each message is printed and also kept as a file in var/mail/."""

from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.console import EmailBackend as ConsoleBackend
from django.core.mail.backends.filebased import EmailBackend as FileBackend


class ConsoleAndFileBackend(BaseEmailBackend):
    """Shows mail in the terminal running the site and keeps it where a developer can open it."""

    def __init__(self, fail_silently: bool = False, **kwargs) -> None:
        super().__init__(fail_silently=fail_silently)
        self.console = ConsoleBackend(fail_silently=fail_silently, **kwargs)
        self.file = FileBackend(fail_silently=fail_silently, **kwargs)

    def send_messages(self, email_messages) -> int:
        self.console.send_messages(email_messages)
        return self.file.send_messages(email_messages)
