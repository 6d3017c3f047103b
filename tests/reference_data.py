"""The rows data migrations made, put back after a transactional test empties the database.

Why: the card catalogue (games 0002) and the bots (accounts 0007) are made by data migrations,
so they exist when the test database is created. A transactional test ends by emptying every
table (Django's flush, or tests.fast_flush on PostgreSQL); pytest-django runs such tests after
the others, but in parallel runs a process that has finished its own can take plain tests from
another's queue and run them after a flush, without cards or bots (this failed two tests once).
Both flushes send post_migrate; this receiver restores the two with the site's own code.
"""

from __future__ import annotations

from django.db.models.signals import post_migrate


def restore(sender, using: str = "default", **kwargs) -> None:
    if sender.label != "games":  # post_migrate is sent once per app: act once per flush
        return
    from accounts.models import User
    from games.models import Card
    from games.models.catalogue import sync_cards
    from games.services.bots import NAMES, bot_user

    if not Card.objects.using(using).exists():
        sync_cards(Card)
    if not User.objects.using(using).exclude(bot_level="").exists():
        for level, names in NAMES.items():
            bot_user(level, len(names) - 1)  # makes the level's missing bots, in order


def install() -> None:
    post_migrate.connect(restore, dispatch_uid="tests.reference_data.restore")
