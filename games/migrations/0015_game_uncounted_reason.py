from django.db import migrations, models


def decide_for_finished_games(apps, schema_editor):
    """Finished games get the reason they count for nothing, decided as games.results decided it
    on the day of this migration (a frozen copy: live code may change its mind later)."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    for game in Game.objects.filter(status="finished").iterator():
        seats = list(Seat.objects.filter(game_id=game.pk).select_related("user"))
        people = [s for s in seats if not s.user.bot_level]
        if game.end_reason == "abandoned":
            reason = "abandoned"
        elif game.players == 1 and any(s.resigned_at or s.dropped_at for s in seats):
            reason = "solo_resigned"
        elif not all(s.user.email_confirmed_at and s.user.is_active for s in people):
            reason = "unconfirmed"
        elif any(s.own_turns is None or s.own_turns < 3 for s in people):
            reason = "few_turns"
        else:
            continue
        Game.objects.filter(pk=game.pk).update(uncounted=reason)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_calendar_token"),
        ("games", "0014_page_reads_from_rows"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="uncounted",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "Counts"),
                    ("abandoned", "Abandoned before everyone played 3 turns"),
                    ("solo_resigned", "A resigned solo game"),
                    ("unconfirmed", "An email address at the table was not confirmed"),
                    ("few_turns", "A player played fewer than 3 turns of their own"),
                ],
                default="",
                max_length=13,
            ),
        ),
        migrations.RunPython(decide_for_finished_games, migrations.RunPython.noop),
    ]
