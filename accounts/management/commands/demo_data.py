"""Demo data for a development site (DEBUG only): players to log in as, with their log-ins."""

from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.models import User

DEMO_PASSWORD = "harmonies-demo"
DEMO_PLAYERS = [
    ("alice", "Alice", "Europe/Paris"),
    ("bob", "Bob", "America/New_York"),
    ("carol", "Carol", "Asia/Tokyo"),
    ("dave", "Dave", "UTC"),
]


class Command(BaseCommand):
    help = "Create demo players (only when DEBUG is on) and print how to log in as them."

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            self.stdout.write("DEBUG is off: no demo data created.")
            return
        for username, display_name, time_zone in DEMO_PLAYERS:
            user, created = User.objects.get_or_create(
                username=username,
                defaults={
                    "display_name": display_name,
                    "email": f"{username}@example.com",
                    "time_zone": time_zone,
                },
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
        names = ", ".join(username for username, _, _ in DEMO_PLAYERS)
        self.stdout.write(f"Demo players: {names} (password: {DEMO_PASSWORD})")
