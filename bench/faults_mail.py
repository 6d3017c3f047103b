"""A file mail backend that takes its time, for bench/faults.py: with a slow send, killing the
Celery worker is likely to land in the middle of a "your turn" email, as it can in production
with a slow mail server. BENCH_MAIL_DELAY is the delay in seconds (default 0.3)."""

import os
import time

from django.core.mail.backends.filebased import EmailBackend


class SlowFileBackend(EmailBackend):
    def send_messages(self, email_messages):
        time.sleep(float(os.environ.get("BENCH_MAIL_DELAY", "0.3")))
        return super().send_messages(email_messages)
