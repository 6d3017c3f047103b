"""Run the periodic sweeps once. Celery beat runs them in production; without a broker (the
embedded setup) a cron job can run this instead, and the tasks it queues run in this process."""

from django.core.management.base import BaseCommand

from games import tasks

SWEEPS = (
    tasks.sweep_reminders,
    tasks.sweep_digests,
    tasks.sweep_missed_turns,
    tasks.sweep_finished_games,
    tasks.sweep_timeouts,
)


class Command(BaseCommand):
    help = "Send due reminders and digests; catch up on missed turn emails and unfinalized games."

    def handle(self, *args, **options) -> None:
        for sweep in SWEEPS:
            self.stdout.write(f"{sweep.name}: {sweep()} queued")
