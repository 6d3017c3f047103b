"""Friends: the players someone added by username, plus everyone they have played with.

"Played with" means sharing a game that started (in progress or finished) with another person;
bots are never friends. Removing a friend stores a `Friendship` row with `removed_at` set, which
hides them even though the games together remain; adding them again clears it. It lives here
rather than in accounts because it reads the games (accounts imports nothing from games).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.blocks import has_blocked, kept_apart_ids
from accounts.identity import canonical_username
from accounts.models import Friendship, User
from games.models import Game, Seat
from games.services.errors import CANNOT_BE_ADDED

SUGGESTIONS = 8  # names offered by the type-ahead at once
MAX_NAME = 150  # a username is at most this long; anything longer is not one


class FriendError(Exception):
    """A refused friend request, in words for the player."""

    def __init__(self, message: str) -> None:
        message = str(message)  # a lazy constant, in the language of the one who is refused
        super().__init__(message)
        self.message = message


def played_with_ids(user: User) -> QuerySet:
    """Ids of the people (not bots) who sat at a started game with `user` (a subquery)."""
    their_games = Seat.objects.filter(
        user=user, game__status__in=[Game.Status.ACTIVE, Game.Status.FINISHED]
    ).values("game_id")
    return (
        Seat.objects.filter(game_id__in=their_games)
        .exclude(user=user)
        .filter(user__bot_level="")
        .order_by()
        .values("user_id")
    )


def friends_of(user: User) -> QuerySet[User]:
    """Everyone `user` counts as a friend: added or played with, less those removed."""
    # The ids are read first from the player's own rows, then the accounts by their keys: as
    # one query with the removed ones excluded by a subquery, PostgreSQL scanned every account
    # (17 ms of a profile at 100k games), and an OR of subqueries did the same.
    rows = Friendship.objects.filter(user=user).order_by().values_list("friend_id", "removed_at")
    added, removed = set(), set()
    for friend_id, removed_at in rows:
        (added if removed_at is None else removed).add(friend_id)
    played = set(played_with_ids(user).values_list("user_id", flat=True))
    ids = (added | played) - removed - {user.pk}
    return User.objects.filter(pk__in=sorted(ids), is_active=True, bot_level="")


def is_friend(user: User, other: User) -> bool:
    """The same answer as `other in friends_of(user)`, asked of the two players' own rows: a
    friendship row, else one started game they share (from `other`'s seats, each checked
    against the game's seats), never the whole circle of a player who has played thousands."""
    if other.pk == user.pk or not other.is_active or other.is_bot:
        return False
    row = Friendship.objects.filter(user=user, friend=other).first()
    if row is not None:
        return row.removed_at is None
    return Seat.objects.filter(
        user=other,
        game__status__in=[Game.Status.ACTIVE, Game.Status.FINISHED],
        game__seats__user=user,
    ).exists()


def who_removed(user: User, among: Iterable[User]) -> set[int]:
    """Ids of the players `among` who have removed `user` from their friends: they want nothing
    more from them, so nothing offered by `user` (a rematch) invites them."""
    return set(
        Friendship.objects.filter(
            user__in=list(among), friend=user, removed_at__isnull=False
        ).values_list("user_id", flat=True)
    )


def add_friend(*, user: User, name: str) -> User:
    """Add a player by username; refused in words for oneself, a bot, an unknown name, a
    friend already, or a block between the two (each refusal stores nothing)."""
    name = (name or "").strip()
    if not name:
        raise FriendError(_("Type the username of the player to add."))
    if len(name) > MAX_NAME or "\x00" in name:
        raise FriendError(_("That is not a username."))
    friend = User.objects.filter(username_key=canonical_username(name), is_active=True).first()
    if friend is None:
        raise FriendError(_("No player is called %(name)s.") % {"name": name})
    if friend.pk == user.pk:
        raise FriendError(_("That is you: you cannot add yourself as a friend."))
    if friend.is_bot:
        raise FriendError(
            _("%(name)s is a computer opponent: bots cannot be friends.")
            % {"name": friend.public_name}
        )
    if is_friend(user, friend):
        raise FriendError(_("%(name)s is already your friend.") % {"name": friend.public_name})
    if has_blocked(user, friend):
        raise FriendError(
            _("You have blocked %(name)s: unblock them from your profile first.")
            % {"name": friend.public_name}
        )
    if has_blocked(friend, user):
        raise FriendError(CANNOT_BE_ADDED)  # never why: a block is not announced
    with transaction.atomic():
        row = Friendship.objects.select_for_update().filter(user=user, friend=friend).first()
        if row is not None:
            row.removed_at = None
            row.save(update_fields=["removed_at"])
        else:
            try:
                with transaction.atomic():
                    Friendship.objects.create(user=user, friend=friend)
            except IntegrityError:  # a double click: the other request stored it
                raise FriendError(
                    _("%(name)s is already your friend.") % {"name": friend.public_name}
                ) from None
    return friend


def remove_friend(*, user: User, friend_id: object) -> User:
    """Remove a friend, whether added or played with: a stored removal hides them."""
    friend = None
    if isinstance(friend_id, str) and friend_id.isascii() and friend_id.isdigit():
        friend = friends_of(user).filter(pk=int(friend_id[:18])).first()
    if friend is None:
        raise FriendError(_("That player is not among your friends."))
    with transaction.atomic():
        updated = Friendship.objects.filter(user=user, friend=friend).update(
            removed_at=timezone.now()
        )
        if not updated:
            try:
                with transaction.atomic():
                    Friendship.objects.create(user=user, friend=friend, removed_at=timezone.now())
            except IntegrityError:  # removed at the same moment by another request
                pass
    return friend


def suggestions(user: User, text: str) -> list[User]:
    """The friends whose username or name begins with `text`: only friends, so the type-ahead
    tells nobody which other accounts exist; none with a block between them and `user`, who
    could not be invited anyway."""
    text = (text or "").strip()
    if not text or len(text) > MAX_NAME or "\x00" in text:
        return []
    key = canonical_username(text)
    matching = (
        friends_of(user)
        .filter(
            Q(username_key__startswith=key)
            | Q(username__istartswith=text)
            | Q(display_name__istartswith=text)
        )
        .exclude(pk__in=kept_apart_ids(user))
    )
    return list(matching.order_by("username")[:SUGGESTIONS])
