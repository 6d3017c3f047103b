"""Computer opponents are users with a `bot_level`, created on first use, never able to log in."""

from __future__ import annotations

from accounts.models import User

LEVELS = ("easy", "medium", "hard")
# Three of each level, so a table can seat several bots of one level.
NAMES = {
    "easy": ("Pip", "Moss", "Fern"),
    "medium": ("Sage", "Reed", "Wren"),
    "hard": ("Oak", "Birch", "Cedar"),
}


def bot_user(level: str, index: int) -> User:
    """The `index`-th bot of `level` (0-based), created the first time it is needed."""
    name = NAMES[level][index]
    user, created = User.objects.get_or_create(
        username=f"bot-{level}-{index + 1}",
        defaults={
            "display_name": f"{name} ({level} bot)",
            "email": f"bot-{level}-{index + 1}@bots.invalid",
            "bot_level": level,
        },
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def bots_for(levels: list[str]) -> list[User]:
    """Distinct bot users for the requested levels, in order."""
    used: dict[str, int] = {}
    bots = []
    for level in levels:
        bots.append(bot_user(level, used.get(level, 0)))
        used[level] = used.get(level, 0) + 1
    return bots
