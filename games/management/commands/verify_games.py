"""Replay every started game from its seed and move log and compare with the stored state."""

from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.models.replaying import verify


class Command(BaseCommand):
    help = "Check that replaying each game's moves from its seed reproduces its stored state."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games.")

    def handle(self, *args, game_ids: list[int], **options) -> None:
        games = Game.objects.exclude(seed=None).order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        checked = failed = 0
        for game in games.iterator():
            checked += 1
            problem = verify(game)
            if problem:
                failed += 1
                self.stderr.write(f"game {game.pk}: {problem}")
        self.stdout.write(f"{checked} games checked, {failed} differ")
        if failed:
            raise CommandError(f"{failed} game(s) do not replay to their stored state")
