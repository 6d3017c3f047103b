"""factory-boy factories shared by every test package."""

from datetime import timedelta

import factory
from django.utils import timezone

from accounts.models import User

PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.LazyAttribute(lambda u: u.username.capitalize())
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    time_zone = "UTC"
    # Players in tests have confirmed their email, as every account from before the rule has.
    email_confirmed_at = factory.LazyFunction(timezone.now)
    # And are past their first week, whose games against other new accounts raise no rating
    # (records.ratings.NEW_ACCOUNT_AGE): tests of newcomers set date_joined.
    date_joined = factory.LazyFunction(lambda: timezone.now() - timedelta(days=365))
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def saved(obj, create, extracted, **kwargs):
        if create:
            obj.save()
