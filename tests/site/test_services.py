"""The real services the production shape runs on; CI must run these."""

import uuid

import pytest
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction

from tests.factories import UserFactory


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgres_enforces_case_insensitive_unique_emails():
    assert connection.vendor == "postgresql"
    UserFactory(email="same@example.com")
    with pytest.raises(IntegrityError), transaction.atomic():
        UserFactory(email="SAME@example.com")


@pytest.mark.redis
def test_the_cache_is_redis_and_round_trips():
    from django.conf import settings

    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    key = f"test-{uuid.uuid4()}"
    cache.set(key, {"version": 3}, timeout=10)
    assert cache.get(key) == {"version": 3}
    cache.delete(key)
