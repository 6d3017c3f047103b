"""After a flush, the cards and bots of the data migrations are back (tests/reference_data.py)."""

import pytest
from django.core.management.sql import emit_post_migrate_signal

from accounts.models import User
from games import engine
from games.models import Card

pytestmark = pytest.mark.django_db


def test_the_catalogue_and_the_bots_come_back_after_the_database_is_emptied():
    bots = sorted(User.objects.exclude(bot_level="").values_list("username", flat=True))
    Card.objects.all().delete()
    User.objects.all().delete()

    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")  # as a flush does

    assert Card.objects.count() == len(engine.ANIMAL_CARD_IDS) + len(engine.SPIRIT_CARD_IDS)
    assert sorted(User.objects.exclude(bot_level="").values_list("username", flat=True)) == bots
    assert all(not bot.has_usable_password() for bot in User.objects.exclude(bot_level=""))
