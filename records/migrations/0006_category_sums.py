# Written by hand (the model is records.models.CategorySums) on 2026-12-04.

from django.db import migrations, models
from django.db.models import Count, Q, Sum

CATEGORIES = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit", "total")


def fill_sums(apps, schema_editor):
    """The people's counted results added up by pool and category, from the results already
    stored (what records.category_sums.refresh_all sums, written out here so the migration keeps
    working whatever the live code becomes)."""
    SeatResult = apps.get_model("records", "SeatResult")
    CategorySums = apps.get_model("records", "CategorySums")
    grouped = (
        SeatResult.objects.filter(counts=True, is_bot=False)
        .values("pool")
        .annotate(
            games=Count("pk"),
            spirit_games=Count("pk", filter=Q(spirits=True)),
            **{f"sum_{key}": Sum(key) for key in CATEGORIES},
        )
        .order_by()
    )
    CategorySums.objects.bulk_create(
        CategorySums(
            pool=g["pool"],
            games=g["games"],
            spirit_games=g["spirit_games"],
            **{key: g[f"sum_{key}"] or 0 for key in CATEGORIES},
        )
        for g in grouped
    )


class Migration(migrations.Migration):
    dependencies = [
        ("records", "0005_board_places"),
    ]

    operations = [
        migrations.CreateModel(
            name="CategorySums",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "pool",
                    models.CharField(
                        choices=[("solo", "Solo"), ("players", "Players"), ("bots", "With bots")],
                        max_length=8,
                        unique=True,
                    ),
                ),
                ("games", models.PositiveIntegerField(default=0, help_text="Seats added up.")),
                (
                    "spirit_games",
                    models.PositiveIntegerField(
                        default=0,
                        help_text=(
                            "Seats in games with Nature's Spirits, the spirit column's divisor."
                        ),
                    ),
                ),
                ("trees", models.PositiveBigIntegerField(default=0)),
                ("mountains", models.PositiveBigIntegerField(default=0)),
                ("fields", models.PositiveBigIntegerField(default=0)),
                ("buildings", models.PositiveBigIntegerField(default=0)),
                ("water", models.PositiveBigIntegerField(default=0)),
                ("animals", models.PositiveBigIntegerField(default=0)),
                ("spirit", models.PositiveBigIntegerField(default=0)),
                ("total", models.PositiveBigIntegerField(default=0)),
            ],
            options={
                "verbose_name_plural": "category sums",
            },
        ),
        migrations.RunPython(fill_sums, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="seatresult",
            index=models.Index(fields=["user", "-total"], name="result_best_of_player"),
        ),
    ]
