from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce


def count_logged_moves(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    counts = (
        Move.objects.filter(game=OuterRef("pk"))
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Game.objects.update(move_count=Coalesce(Subquery(counts), 0))


class Migration(migrations.Migration):
    dependencies = [("games", "0005_turn_email_claim_time")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="move_count",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_logged_moves, migrations.RunPython.noop),
    ]
