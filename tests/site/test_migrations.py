"""The migrations match the models: a model change without its migration fails here (and in
`make lint`), and no migration depends on the machine that made it."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_the_models_have_no_change_without_a_migration(capsys):
    try:
        call_command("makemigrations", "--check", "--dry-run", verbosity=1)
    except SystemExit:
        pytest.fail("a model changed without a migration:\n" + capsys.readouterr().out)


def test_the_time_zone_choices_are_named_not_frozen():
    from accounts.models import User, time_zone_choices

    assert User._meta.get_field("time_zone").choices == time_zone_choices()
    _, _, _, kwargs = User._meta.get_field("time_zone").deconstruct()
    assert kwargs["choices"] is time_zone_choices  # a reference in the migration, not the list
