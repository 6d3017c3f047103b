"""The DELETE teardown of transactional tests (tests/fast_flush.py) leaves what flush would."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.test import TransactionTestCase

from accounts.models import User
from games import services
from games.models import Game, Seat
from tests import fast_flush
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_it_empties_every_table_but_content_types_and_permissions():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    services.create_game(creator=alice, players=2, side="A", spirits=False, invitees=[bob])
    Group.objects.create(name="testers")
    kinds, permissions = ContentType.objects.count(), Permission.objects.count()

    fast_flush.empty_database()

    assert not User.objects.filter(bot_level="").exists()  # the bots are back (reference_data)
    assert not Game.objects.exists()
    assert not Seat.objects.exists()
    assert not Group.objects.exists()
    assert (ContentType.objects.count(), Permission.objects.count()) == (kinds, permissions)


def test_post_migrate_restores_a_removed_content_type():
    ContentType.objects.filter(app_label="games", model="game").delete()

    fast_flush.empty_database()

    assert ContentType.objects.filter(app_label="games", model="game").exists()


def test_it_is_the_teardown_of_transactional_tests():
    assert TransactionTestCase._fixture_teardown is fast_flush._fixture_teardown
