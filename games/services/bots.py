"""Computer opponents: accounts of their own kind, marked by `bot_level`, never able to log in.

A data migration (accounts 0005) creates three of each level. They are found by that indexed
field, never by username, so a player who signs up under a name like a bot's (refused now, but
possible before) can never be seated as one. Should a level have fewer than three (a test that
empties the tables), the missing ones are made again under the first free name.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.identity import canonical_username
from accounts.models import User

LEVELS = ("easy", "medium", "hard")
# Three of each level, so a table can seat several bots of one level.
NAMES = {
    "easy": ("Pip", "Moss", "Fern"),
    "medium": ("Sage", "Reed", "Wren"),
    "hard": ("Oak", "Birch", "Cedar"),
}


def bot_user(level: str, index: int) -> User:
    """The `index`-th bot of `level` (0-based)."""
    bots = list(User.objects.bots(level)[: index + 1])
    for _attempt in range(len(NAMES[level]) + 1):
        if len(bots) > index:
            break
        _make_bot(level, len(bots))
        bots = list(User.objects.bots(level)[: index + 1])
    return bots[index]


def _make_bot(level: str, index: int) -> None:
    number, suffix = index + 1, 1
    username = f"bot-{level}-{number}"
    while User.objects.filter(username_key=canonical_username(username)).exists():
        suffix += 1
        username = f"bot-{level}-{number}-{suffix}"
    bot = User(
        username=username,
        display_name=f"{NAMES[level][index]} ({level} bot)",
        email=f"{username}@bots.invalid",
        bot_level=level,
    )
    bot.set_unusable_password()
    try:
        with transaction.atomic():
            bot.save()
    except IntegrityError:
        pass  # made at the same moment by another request: the caller reads it back


def bots_for(levels: list[str]) -> list[User]:
    """Distinct bot users for the requested levels, in order."""
    used: dict[str, int] = {}
    bots = []
    for level in levels:
        bots.append(bot_user(level, used.get(level, 0)))
        used[level] = used.get(level, 0) + 1
    return bots
