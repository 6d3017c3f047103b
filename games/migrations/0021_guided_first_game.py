# The guided first game (issue 34): Game.guided, and the reason it counts for nothing.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_report_reports"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="guided",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="game",
            name="uncounted",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "Counts"),
                    ("abandoned", "Abandoned before everyone played 3 turns"),
                    ("solo_resigned", "A resigned solo game"),
                    ("unconfirmed", "An email address at the table was not confirmed"),
                    ("same_address", "Two players at the table shared an email address"),
                    ("hinted", "A hint from the hard bot was taken"),
                    ("few_turns", "A player played fewer than 3 turns of their own"),
                    ("guided", "A guided first game"),
                ],
                default="",
                max_length=13,
            ),
        ),
    ]
