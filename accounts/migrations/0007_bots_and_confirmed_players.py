"""Fill the canonical usernames, confirm the players who signed up before confirmation, seat bots.

- Every account gets its canonical key; an account whose canonical name an older one already has
  (possible before: "alice" and "alıce") keeps a key of its own, "<canonical>:<id>", and logs in
  by its exact spelling.
- Accounts created before sign-up asked for a confirmed email are confirmed: the rule is new.
- Bots are marked by `bot_level`, never by name: the bots already made on first use (they have a
  level) stay, a player who signed up under a bot's name stays a player, and each level gets its
  three bots, under the first free name.
"""

from django.db import migrations
from django.utils import timezone

from accounts.identity import canonical_username, username_skeleton

BOT_NAMES = {
    "easy": ("Pip", "Moss", "Fern"),
    "medium": ("Sage", "Reed", "Wren"),
    "hard": ("Oak", "Birch", "Cedar"),
}


def free_bot_username(User, level: str, number: int) -> str:
    candidate, suffix = f"bot-{level}-{number}", 1
    while User.objects.filter(username_key=canonical_username(candidate)).exists():
        suffix += 1
        candidate = f"bot-{level}-{number}-{suffix}"
    return candidate


def forwards(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    seen: set[str] = set()
    for user in User.objects.order_by("pk").only("pk", "username"):
        key = canonical_username(user.username)
        if key in seen:
            key = f"{key}:{user.pk}"
        seen.add(key)
        User.objects.filter(pk=user.pk).update(
            username_key=key, username_skeleton=username_skeleton(user.username)
        )
    now = timezone.now()
    User.objects.filter(bot_level="", email_confirmed_at__isnull=True).update(
        email_confirmed_at=now
    )
    for level, names in BOT_NAMES.items():
        have = User.objects.filter(bot_level=level).count()
        for index in range(have, len(names)):
            username = free_bot_username(User, level, index + 1)
            User.objects.create(
                username=username,
                username_key=canonical_username(username),
                username_skeleton=username_skeleton(username),
                display_name=f"{names[index]} ({level} bot)",
                email=f"{username}@bots.invalid",
                bot_level=level,
                password="!",  # unusable: a bot never logs in
                is_active=True,
            )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_username_keys_and_email_confirmation"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
