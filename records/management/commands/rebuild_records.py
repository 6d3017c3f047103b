"""Recompute results, ratings and leaderboards from the finished games."""

from django.core.management.base import BaseCommand

from records import services


class Command(BaseCommand):
    help = "Rebuild the results and ratings tables from every finalized game."

    def handle(self, *args, **options) -> None:
        counts = services.rebuild()
        self.stdout.write(
            f"Recorded {counts['games']} games ({counts['results']} seats), "
            f"{counts['ratings']} ratings."
        )
