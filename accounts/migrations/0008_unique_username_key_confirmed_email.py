import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_bots_and_confirmed_players"),
    ]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=150, unique=True),
        ),
        migrations.RemoveConstraint(
            model_name="user",
            name="user_email_unique_ci",
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("email"),
                condition=models.Q(("email_confirmed_at__isnull", False)),
                name="user_confirmed_email_unique_ci",
                violation_error_message="Another account already uses this email.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="user",
            name="user_username_unique_ci",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("username"),
                name="user_username_unique_ci",
                violation_error_message="That username is taken. Please choose another.",
            ),
        ),
    ]
