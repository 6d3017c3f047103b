"""Blocking a player, and unblocking them: the one writer of accounts.models.Block.

A block keeps the blocked player away from the blocker, and each rule is checked where the thing
is done: no invitation (games.services.invitations.check_invitable, and an address is quietly kept
from its owner), no seat at the same new table, whoever created it and however the seat is asked
for (games.services.tables.check_not_kept_apart, so also a rematch and a table's link), no friend
request (games.services.friends.add_friend), and none of their table talk shown to the blocker
(games.talk, games.presenters.talk, push.deliveries). The one blocked is never told: they read
"this player cannot be invited", as they would for any other refusal, and their pages look as
before.

Here, making a block also ends at once what it forbids from now on:
- the blocker's friendship with them: the blocker's side only. Friends here are one-sided and
  private (games.services.friends), so the blocked player's own list is left alone: a name gone
  from it would tell them, and it gives them nothing of the blocker now (their invitations are
  refused and the blocker's name is no longer offered by the type-ahead);
- their invitations to the blocker still waiting are declined, without the "declined" email;
- the blocker's invitations to them by username are withdrawn. One sent to an address is left as
  it is (withdrawing it would tell the blocker whose address it is), and its seat is refused.

A game in progress is left alone: the block throws nobody out; their messages are hidden from the
blocker. A table not started yet where both sit is left alone too: the blocker is told, and may
leave it (or cancel it, if they created it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.blocks import forget_hidden_authors, has_blocked
from accounts.identity import canonical_username
from accounts.models import Block, Friendship, User
from games.models import Game
from games.services.core import bump, lock_player, locked
from games.services.errors import Conflict, GameError, NotFound
from games.services.invitations import Invitee, pending_invitations, same_person

MAX_NAME = 150  # a username is at most this long; anything longer is not one


@dataclass(frozen=True)
class Together:
    """What the blocker shares with a player, for the confirmation page and the answer."""

    player: User
    playing: list[Game] = field(default_factory=list)  # games in progress: they go on
    waiting: list[Game] = field(default_factory=list)  # tables not started: the blocker may leave


def player_to_block(user: User, username: object) -> Together:
    """The player `user` may block, with the games they share; refused in words for an empty or
    junk name, nobody by that name, oneself, a computer opponent, or someone already blocked."""
    name = username.strip() if isinstance(username, str) else ""
    if not name:
        raise GameError(_("Name the player to block."))
    if len(name) > MAX_NAME or "\x00" in name:
        raise GameError(_("That is not a username."))
    other = User.objects.filter(
        username_key=canonical_username(name), is_active=True, deleted_at__isnull=True
    ).first()
    if other is None:
        raise NotFound(_("No player is called %(name)s.") % {"name": name})
    if other.pk == user.pk:
        raise GameError(_("That is you: you cannot block yourself."))
    if other.is_bot:
        raise GameError(
            _(
                "%(name)s is a computer opponent: it never invites or writes to anyone, "
                "so there is nothing to block."
            )
            % {"name": other.public_name}
        )
    if has_blocked(user, other):
        raise Conflict(_("You have already blocked %(name)s.") % {"name": other.public_name})
    return together(user, other)


def together(user: User, other: User) -> Together:
    """The games in progress and the tables not started where both have a seat."""
    shared = (
        Game.objects.filter(seats__user=user)
        .filter(seats__user=other)
        .filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .defer(*Game.PLAY_FIELDS)
        .order_by("pk")
    )
    playing, waiting = [], []
    for game in shared:
        (waiting if game.status == Game.Status.OPEN else playing).append(game)
    return Together(player=other, playing=playing, waiting=waiting)


def block(*, user: User, username: object) -> Together:
    """`user` blocks the player named `username`; returns what they still share. Every refusal
    of `player_to_block` applies, and changes nothing."""
    found = player_to_block(user, username)
    other = found.player
    with transaction.atomic():
        # Both players, in id order (two blocking each other at once cannot deadlock): an
        # invitation or table being made by either waits, then sees the block.
        for person in sorted((user, other), key=lambda u: u.pk):
            lock_player(person)
        try:
            with transaction.atomic():
                Block.objects.create(blocker=user, blocked=other)
        except IntegrityError:  # a double click: the other request stored it
            raise Conflict(
                _("You have already blocked %(name)s.") % {"name": other.public_name}
            ) from None
        _end_friendship(user, other)
        _end_invitations(user, other)
        forget_hidden_authors(user.pk)
    return together(user, other)


def unblock(*, user: User, player_id: object) -> User:
    """Undo `user`'s block of the player with this id. What the block ended stays ended (the
    friendship, the invitations): each can be made again."""
    blocked = None
    if isinstance(player_id, str) and player_id.isascii() and player_id.isdigit():
        row = (
            Block.objects.filter(blocker=user, blocked_id=int(player_id[:18]))
            .select_related("blocked")
            .first()
        )
        blocked = row.blocked if row is not None else None
    if blocked is None:
        raise GameError(_("That player is not among those you have blocked."))
    Block.objects.filter(blocker=user, blocked=blocked).delete()
    forget_hidden_authors(user.pk)
    return blocked


def _end_friendship(user: User, other: User) -> None:
    """The blocker's side only (see the module's docstring for why)."""
    now = timezone.now()
    updated = Friendship.objects.filter(user=user, friend=other, removed_at__isnull=True).update(
        removed_at=now
    )
    if not updated and not Friendship.objects.filter(user=user, friend=other).exists():
        Friendship.objects.create(user=user, friend=other, removed_at=now)


def _end_invitations(user: User, other: User) -> None:
    """Theirs to the blocker declined (no email: the claim is taken), the blocker's to them by
    username withdrawn; each table's version moves, so its open pages redraw."""
    waiting = pending_invitations()
    theirs = waiting.filter(invited_by=other).filter(same_person(Invitee(user=user)))
    mine = waiting.filter(invited_by=user, user=other, email="")
    game_ids = sorted(
        {*theirs.values_list("game_id", flat=True), *mine.values_list("game_id", flat=True)}
    )
    now = timezone.now()
    for game_id in game_ids:
        game = locked(game_id)  # in id order, as every writer locks games
        theirs.filter(game=game).update(declined_at=now, decline_emailed_at=now)
        mine.filter(game=game).delete()
        bump(game)
        game.save()
