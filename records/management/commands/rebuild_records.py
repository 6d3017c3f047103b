"""Recompute results, ratings and leaderboards from the finished games: maintenance, by hand."""

import os

from django.core.management.base import BaseCommand, CommandParser

from records import services


class Command(BaseCommand):
    help = "Rebuild the results and ratings tables from every finalized game."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--jobs",
            type=int,
            default=os.cpu_count() or 1,
            help="processes that parse and score the games (default: one per core)",
        )

    def handle(self, *args, **options) -> None:
        counts = services.rebuild(jobs=options["jobs"])
        self.stdout.write(
            f"Recorded {counts['games']} games ({counts['results']} seats), "
            f"{counts['ratings']} ratings."
        )
