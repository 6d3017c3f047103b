"""Creating and filling a table, until the game starts (or its creator cancels it).

Who may take a seat besides the public is settled by invitations (see `invitations`). The creator's
news of the table is queued after the commit to `games.mail.tables` through the tasks.
"""

import logging
import secrets
from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.blocks import blocked_ids, blockers_among
from accounts.models import User
from games import clocks, engine
from games.models import Game, Seat, WeeklyDeal, english_names
from games.models.versions import publish_version
from games.queue import enqueue
from games.results import starting_reason
from games.services.core import bump, lock_player, locked, start_turn_clock
from games.services.errors import CANCELLED, NO_SEAT_HERE, Conflict, GameError, NotAllowed
from games.services.invitations import (
    Invitee,
    check_address_invitations,
    check_invitable,
    check_pending_invitations,
    create_invitations,
    invitation_from_token,
    invitees_for,
    same_person,
    usable_invitation,
)
from games.services.seating import positions, seating_order

logger = logging.getLogger(__name__)

# Caps against abuse: one account must not fill the lobby or the bot queue (and invitations have
# their own cap, against filling others' My games).
MAX_BOT_GAMES = 10  # games not yet finished with a computer opponent seated
MAX_OPEN_TABLES = 5  # tables created and still waiting for players


def create_game(
    *,
    creator: User,
    players: int,
    side: str,
    spirits: bool,
    public: bool = False,
    invitees: Iterable[User] = (),
    emails: Iterable[str] = (),
    turn_limit_days: int | None = None,
    bots: Iterable[User] = (),
    name: str = "",
    on_timeout: str = Game.OnTimeout.STAND_IN,
    rematch_of: Game | None = None,
    clock: str = Game.Clock.PER_TURN,
    bank_days: int | None = None,
    increment_hours: int | None = 0,
    pause_weekends: bool = False,
    weekly_deal: WeeklyDeal | None = None,
) -> Game:
    """A new table with the creator (and any bots) seated; it starts once every seat is taken.
    A game of the deal of the week (games.services.weekly) starts from the deal's seed."""
    engine.GameConfig(players=players, side=side, spirits=spirits)  # validates
    people = [
        i for i in invitees_for(invitees, emails) if i.user is None or i.user.pk != creator.pk
    ]
    bots = list(bots)
    if any(not b.is_bot for b in bots):
        raise GameError(_("Only computer opponents can be seated without joining."))
    if on_timeout not in Game.OnTimeout.values:
        raise GameError(_("Choose what happens when a turn's time limit passes."))
    try:
        chosen = clocks.check_clock(
            clock,
            turn_limit_days,
            bank_days,
            increment_hours,
            pause_weekends,
            stand_in=on_timeout == Game.OnTimeout.STAND_IN,
        )
    except clocks.ClockError as exc:
        raise GameError(str(exc)) from None
    if len(people) + len(bots) > players - 1:
        raise GameError(
            ngettext(
                "A %(players)s-player game has room for %(others)s other player.",
                "A %(players)s-player game has room for %(others)s other players.",
                players - 1,
            )
            % {"players": players, "others": players - 1}
        )
    starts_now = 1 + len(bots) == players
    with transaction.atomic():
        lock_player(creator)  # one creation at a time per player, so the caps hold under races
        if bots:
            _check_bot_games(creator)
        if not starts_now:
            _check_open_tables(creator)
        check_invitable(creator, people)
        check_pending_invitations(creator, len(people))
        check_address_invitations(creator, people)
        game = Game.objects.create(
            created_by=creator,
            players=players,
            side=side,
            spirits=spirits,
            public=public,
            turn_limit_days=chosen.turn_limit_days,
            clock=chosen.kind,
            bank_days=chosen.bank_days,
            increment_hours=chosen.increment_hours,
            pause_weekends=chosen.pause_weekends,
            name=" ".join(name.split())[:80],
            on_timeout=on_timeout,
            rematch_of=rematch_of,
            weekly_deal=weekly_deal,
        )
        Seat.objects.create(game=game, user=creator)
        Seat.objects.bulk_create(Seat(game=game, user=bot) for bot in bots)
        create_invitations(game, creator, people)
        if starts_now:
            _start(game, joined_by=creator)
        publish_version(game)
    return game


def join_game(
    *,
    game_id: int,
    user: User,
    invite_token: str | None = None,
    invitation_token: str | None = None,
) -> Game:
    """Take a free seat: invited players, holders of an invitation link, or anyone if public.

    `invite_token` is the table's link (anyone with it); `invitation_token` is one invitation's
    own signed link, as emailed, which is used up by joining.
    """
    invitation = invitation_from_token(invitation_token) if invitation_token else None
    with transaction.atomic():
        game = locked(game_id)
        if game.status == Game.Status.CANCELLED:
            raise Conflict(CANCELLED)
        if game.seats.filter(user=user).exists():
            return game
        if game.status != Game.Status.OPEN:
            raise Conflict(_("This game has already started; its seats are taken."))
        if invitation is not None:
            invitation = usable_invitation(game, invitation.pk, user)
        own = game.invitations.filter(user=user).first()
        invited = own is not None and own.declined_at is None and not own.is_expired()
        # As bytes: compare_digest raises TypeError on str with non-ASCII characters.
        has_link = invite_token is not None and secrets.compare_digest(
            invite_token.encode(), game.invite_token.encode()
        )
        if not (game.public or invited or has_link or invitation is not None):
            if own is not None and own.declined_at is not None:
                raise NotAllowed(_("You declined this invitation; ask for a new one."))
            if own is not None:
                raise NotAllowed(_("Your invitation to this table has expired; ask for a new one."))
            raise NotAllowed(_("This game is by invitation only."))
        taken = game.seats.count()
        if taken >= game.players:
            raise Conflict(_("This game is full."))
        check_not_kept_apart(game, user)
        Seat.objects.create(game=game, user=user)
        # Used up: their invitation by name, the link they came by, one to their address.
        game.invitations.filter(same_person(Invitee(user=user))).delete()
        if invitation is not None:
            invitation.delete()
        if taken + 1 == game.players:
            _start(game, joined_by=user)
        bump(game)
        game.save()
    return game


def check_not_kept_apart(game: Game, user: User) -> None:
    """No new game brings together two players with a block between them, whoever made it and
    however the seat is asked for (the lobby, the table's link, an invitation, Play again). The
    one blocked reads only that they cannot sit here; the blocker is reminded of their block."""
    seated = [seat.user for seat in game.seats.select_related("user")]
    mine = blocked_ids(user.pk)
    for other in seated:
        if other.pk in mine:
            raise NotAllowed(
                _(
                    "You have blocked %(name)s, who has a seat at this table: unblock them from "
                    "your profile to play together."
                )
                % {"name": other.public_name}
            )
    if blockers_among(user, seated):
        raise NotAllowed(NO_SEAT_HERE)


def leave_game(*, game_id: int, user: User) -> Game:
    """Give up a seat before the game starts; the creator cancels instead."""
    with transaction.atomic():
        game = locked(game_id)
        if game.status == Game.Status.CANCELLED:
            raise Conflict(CANCELLED)
        if game.status != Game.Status.OPEN:
            raise Conflict(_("Only a game that has not started can be left."))
        if game.created_by_id == user.pk:
            raise GameError(_("You created this game: cancel it instead of leaving."))
        deleted, _rows = game.seats.filter(user=user).delete()
        if not deleted:
            raise NotAllowed(_("You are not seated in this game."))
        bump(game)
        game.save()
    return game


def cancel_game(*, game_id: int, user: User) -> None:
    """Close a table that has not started; everyone seated or invited keeps it in My games."""
    with transaction.atomic():
        game = locked(game_id)
        if game.status == Game.Status.CANCELLED:
            raise Conflict(CANCELLED)
        if game.created_by_id != user.pk:
            raise NotAllowed(_("Only the player who created the game can cancel it."))
        if game.status != Game.Status.OPEN:
            raise Conflict(_("A game in progress cannot be cancelled."))
        game.status = Game.Status.CANCELLED
        bump(game)
        game.save()
        enqueue("games.notify_table_cancelled", game.pk)


def _check_bot_games(creator: User) -> None:
    playing = (
        Game.objects.filter(seats__user=creator, status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .filter(seats__user__bot_level__gt="")
        .distinct()
        .count()
    )
    if playing >= MAX_BOT_GAMES:
        raise Conflict(
            _(
                "You already have %(count)s games in progress against computer opponents: "
                "finish one before starting another."
            )
            % {"count": MAX_BOT_GAMES}
        )


def _check_open_tables(creator: User) -> None:
    waiting = Game.objects.filter(created_by=creator, status=Game.Status.OPEN).count()
    if waiting >= MAX_OPEN_TABLES:
        raise Conflict(
            _(
                "You already have %(count)s tables waiting for players: "
                "start or cancel one before opening another."
            )
            % {"count": MAX_OPEN_TABLES}
        )


def _start(game: Game, joined_by: User) -> None:
    """Seat order is drawn here (a rematch's is rotated); the engine picks the first player
    from the seed."""
    # Every game of one deal of the week starts from the same seed, hence the same setup.
    game.seed = game.weekly_deal.seed if game.weekly_deal_id else secrets.randbits(62)
    state = engine.new_game(game.config, game.seed)
    seats = seating_order(game, list(game.seats.select_related("user")))
    positions(game, seats, state.first_seat)
    bank = clocks.Clock.of(game).bank  # every seat starts with the full bank (or none)
    for seat in seats:
        seat.bank = bank
    Seat.objects.bulk_update(seats, ["position", "bank"])
    seats.sort(key=lambda s: s.position)
    if not game.name:  # named after the players, in seat order
        game.name = english_names([s.user.public_name for s in seats])[:80]
    game.state = engine.state_to_json(state)
    game.status = Game.Status.ACTIVE
    # Rated or not is fixed here, from the addresses as they are now (games.results).
    game.uncounted = starting_reason(seats)
    game.current_seat = state.current_seat
    start_turn_clock(game, state, seats)
    if not game.solo:
        enqueue("games.notify_turn", game.pk, state.turn)  # "the game has started: you play first"
        if joined_by.pk != game.created_by_id:  # the creator did not start it: tell them
            enqueue("games.notify_table_started", game.pk, joined_by.pk)
    game.started_at = game.turn_started_at
    game.invitations.all().delete()
    game.version += 1
    game.save()
