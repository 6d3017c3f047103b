# Clocks that fit real lives (games/clocks.py): a time bank beside the limit per turn, weekends
# paused in the mover's time zone, each seat's bank, and the estimate of turns left that My games
# forecasts from. Written by hand, in the chain reserved for it.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_guided_first_game"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="bank_days",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="clock",
            field=models.CharField(
                choices=[("turn", "A limit per turn"), ("bank", "A time bank")],
                default="turn",
                max_length=4,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="increment_hours",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="game",
            name="pause_weekends",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="game",
            name="turns_left",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="bank",
            field=models.DurationField(blank=True, null=True),
        ),
    ]
