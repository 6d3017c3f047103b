# Issue 36: a private plan per seat, and watching a game in progress (written by hand).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0023_deal_of_the_week"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="open_to_watchers",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="game",
            name="watch_token",
            field=models.CharField(blank=True, max_length=32, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="game",
            name="planned_seats",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.CreateModel(
            name="Plan",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("notes", models.TextField(blank=True, default="")),
                ("marks", models.JSONField(blank=True, default=list)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "seat",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="plan",
                        to="games.seat",
                    ),
                ),
            ],
        ),
    ]
