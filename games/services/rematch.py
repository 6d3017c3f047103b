"""Play again: one table per finished game, with the same players and settings.

The first player to click creates it (seated, with the same bots, the others invited and emailed
as any invitation is); anyone else from the old game who clicks takes a seat at that same table,
so a double click or two players clicking at once never make two tables (`Game.rematch_of` is
unique, and the old game's row is locked while deciding). A cancelled rematch frees the link for
a new one. The seat order is rotated when the table starts (see `seating`).

Offering again and again must not become a way to flood someone's mailbox: each player of the old
game is emailed an invitation to its rematch once, however often it is cancelled and offered
again (`games.mail.tables.send_invitation` claims their old seat), and nobody hears of a
rematch's cancellation by email. A player who has removed the offerer from their friends is not
invited at all, nor one with a block between them and the offerer (and joining it is refused to
such a pair, as at any table: games.services.tables.check_not_kept_apart); the view limits how
often a player may click. A guided first game is played again as a lesson (games.services.guide).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.blocks import kept_apart_ids
from accounts.models import User
from games.models import Game
from games.services.core import locked
from games.services.errors import Conflict, NotAllowed
from games.services.friends import who_removed
from games.services.guide import start_guided_game
from games.services.tables import create_game, join_game


def rematch_of(game: Game) -> Game | None:
    """The table that replays `game`, if someone asked for one."""
    return Game.objects.filter(rematch_of=game).first()


def play_again(*, game_id: int, user: User) -> Game:
    """The rematch of a finished game, created or joined by one of its players."""
    with transaction.atomic():
        old = locked(game_id)
        seats = list(old.seats.select_related("user"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise NotAllowed(_("Only the players of this game can play it again."))
        if old.status != Game.Status.FINISHED:
            raise Conflict(_("This game is not over yet: play again once it has ended."))
        if old.guided:
            # A lesson again, with its guide (or the one in progress): never a real solo game
            # named "Guided first game" without one.
            return start_guided_game(user)
        rematch = rematch_of(old)
        if rematch is not None and rematch.status == Game.Status.CANCELLED:
            rematch.rematch_of = None  # cancelled: the next click makes a fresh table
            rematch.save(update_fields=["rematch_of"])
            rematch = None
        if rematch is None:
            others = [
                s.user
                for s in seats
                if s.user_id != user.pk and not s.user.is_bot and s.user.is_active
            ]
            # Nor a player with a block between them and the offerer, whoever made it: no new
            # game together (and the one blocked is not told: the table looks like any other).
            unwilling = who_removed(user, others) | kept_apart_ids(user, others)
            return create_game(
                creator=user,
                players=old.players,
                side=old.side,
                spirits=old.spirits,
                public=False,
                invitees=[other for other in others if other.pk not in unwilling],
                bots=[s.user for s in seats if s.user.is_bot],
                turn_limit_days=old.turn_limit_days,
                on_timeout=old.on_timeout,
                clock=old.clock,
                bank_days=old.bank_days,
                increment_hours=old.increment_hours,
                pause_weekends=old.pause_weekends,
                name=old.name,
                rematch_of=old,
            )
        if rematch.seats.filter(user=user).exists():
            return rematch
        if rematch.status != Game.Status.OPEN:
            raise Conflict(_("The rematch has already started without you: its seats are taken."))
        # A player of the old game may sit down even without (or after declining) an invitation.
        return join_game(game_id=rematch.pk, user=user, invite_token=rematch.invite_token)
