"""Run the periodic sweeps once. Celery beat runs them in production; without a broker (the
embedded setup) a cron job can run this every minute instead, and the tasks it queues run in this
process. The list is beat's own (`harmonies_site.celery.SWEEPS`), so the two cannot drift apart."""

from django.core.management.base import BaseCommand

from harmonies_site.celery import SWEEPS, app


class Command(BaseCommand):
    help = "Run once every periodic sweep that beat runs (harmonies_site.celery.SWEEPS)."

    def handle(self, *args, **options) -> None:
        app.loader.import_default_modules()  # the apps' tasks modules, as a worker would
        for name, _every, _expires in SWEEPS:
            self.stdout.write(f"{name}: {app.tasks[name]()} queued")
