# Columns for canonical usernames, look-alike skeletons and confirmed emails; filled by 0005 and
# made unique by 0006 (split so PostgreSQL never alters a table with row updates pending).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_away_until"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="email_confirmed_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=150, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(db_index=True, default="", editable=False, max_length=150),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="user",
            name="bot_level",
            field=models.CharField(blank=True, db_index=True, default="", max_length=8),
        ),
    ]
