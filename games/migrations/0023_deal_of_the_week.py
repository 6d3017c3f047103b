# The deal of the week (issue 36): one seeded solo deal a week, and a game's link to it, with at
# most one game per player and deal. Written by hand in the chain reserved for it.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0022_clocks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="WeeklyDeal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("week", models.DateField(unique=True)),
                ("seed", models.BigIntegerField()),
                (
                    "side",
                    models.CharField(
                        choices=[("A", "Side A (river)"), ("B", "Side B (islands)")], max_length=1
                    ),
                ),
                ("spirits", models.BooleanField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                "ordering": ["-week"],
            },
        ),
        migrations.AddField(
            model_name="game",
            name="weekly_deal",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="games",
                to="games.weeklydeal",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                fields=("weekly_deal", "created_by"), name="game_one_per_weekly_deal"
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(weekly_deal__isnull=True) | models.Q(guided=False),
                name="game_weekly_never_guided",
            ),
        ),
    ]
