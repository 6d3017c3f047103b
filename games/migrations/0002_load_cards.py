from django.db import migrations


def load_cards(apps, schema_editor):
    from games.models.catalogue import sync_cards

    sync_cards(apps.get_model("games", "Card"))


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(load_cards, migrations.RunPython.noop)]
