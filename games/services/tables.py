"""Creating and filling a table, until the game starts (or its creator cancels it).

Invitations go to players by username or to anyone by email address (an address that belongs to a
player invites that player). Their emails, and the creator's news of the table, are queued after
the commit to `games.table_mail` through the tasks.
"""

import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.core import signing
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games import engine
from games.models import INVITATION_LIFETIME, Game, Invitation, Seat, names_in_words
from games.queue import enqueue
from games.services.core import _bump, _locked, _publish_version, _start_turn_clock
from games.services.errors import Conflict, GameError, NotAllowed, NotFound
from games.services.seating import positions, seating_order

logger = logging.getLogger(__name__)

# Caps against abuse: one account must not fill the lobby, the bot queue or others' My games.
MAX_BOT_GAMES = 10  # games not yet finished with a computer opponent seated
MAX_OPEN_TABLES = 5  # tables created and still waiting for players
MAX_PENDING_INVITATIONS = 50  # invitations sent and not yet answered, across all tables

CANCELLED = "This table was cancelled."
_TOKEN_SALT = "games.invitation"


@dataclass(frozen=True)
class Invitee:
    """Someone to invite: a player, or an email address with no account behind it."""

    user: User | None = None
    email: str = ""

    @property
    def name(self) -> str:
        return self.user.public_name if self.user else self.email


def invitees_for(users: Iterable[User] = (), emails: Iterable[str] = ()) -> list[Invitee]:
    """Players and addresses as invitees, each person once; an address of a player is that player.

    Naming the same person twice (two spellings of a name, an address in another case, a name and
    that player's address) is refused in words: the creator meant one seat, not two.
    """
    found: list[Invitee] = []
    seen: set[object] = set()
    for user in users:
        found.append(Invitee(user=user))
    for raw in emails:
        email = raw.strip().lower()
        user = User.objects.filter(email__iexact=email, is_active=True).first()
        found.append(Invitee(user=user) if user else Invitee(email=email))
    for invitee in found:
        if invitee.user is not None and invitee.user.is_bot:
            raise GameError("Computer opponents are seated, not invited: choose one for a seat.")
        key = ("user", invitee.user.pk) if invitee.user else ("email", invitee.email)
        if key in seen:
            raise GameError(f"{invitee.name} is named twice: one invitation each.")
        seen.add(key)
    return found


def pending_invitations(now=None) -> QuerySet[Invitation]:
    """Invitations still waiting for an answer: not declined, not expired, at an open table."""
    now = now or timezone.now()
    return Invitation.objects.filter(
        declined_at__isnull=True,
        created_at__gt=now - INVITATION_LIFETIME,
        game__status=Game.Status.OPEN,
    )


def invitation_token(invitation: Invitation) -> str:
    """The signed token of an invitation's own link (Join and Decline in its email)."""
    return signing.dumps(invitation.pk, salt=_TOKEN_SALT)


def invitation_from_token(token: str) -> Invitation:
    """The invitation a link names, or a refusal that says what is wrong with the link."""
    try:
        invitation_id = signing.loads(
            token, salt=_TOKEN_SALT, max_age=INVITATION_LIFETIME.total_seconds()
        )
    except signing.SignatureExpired:
        raise Conflict("This invitation has expired: ask for a new one.") from None
    except signing.BadSignature:
        raise NotFound("This invitation link is not valid: check it was copied whole.") from None
    invitation = Invitation.objects.select_related("game", "user").filter(pk=invitation_id).first()
    if invitation is None:
        raise Conflict("This invitation has already been used.")
    if invitation.game.status == Game.Status.CANCELLED:
        raise Conflict(CANCELLED)
    return invitation


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
) -> Game:
    """A new table with the creator (and any bots) seated; it starts once every seat is taken."""
    engine.GameConfig(players=players, side=side, spirits=spirits)  # validates
    people = [
        i for i in invitees_for(invitees, emails) if i.user is None or i.user.pk != creator.pk
    ]
    bots = list(bots)
    if any(not b.is_bot for b in bots):
        raise GameError("Only computer opponents can be seated without joining.")
    if on_timeout not in Game.OnTimeout.values:
        raise GameError("Choose what happens when a turn's time limit passes.")
    if len(people) + len(bots) > players - 1:
        raise GameError(f"A {players}-player game has room for {players - 1} other players.")
    starts_now = 1 + len(bots) == players
    with transaction.atomic():
        _lock_player(creator)  # one creation at a time per player, so the caps hold under races
        if bots:
            _check_bot_games(creator)
        if not starts_now:
            _check_open_tables(creator)
        _check_pending_invitations(creator, len(people))
        game = Game.objects.create(
            created_by=creator,
            players=players,
            side=side,
            spirits=spirits,
            public=public,
            turn_limit_days=turn_limit_days,
            name=" ".join(name.split())[:80],
            on_timeout=on_timeout,
            rematch_of=rematch_of,
        )
        Seat.objects.create(game=game, user=creator)
        Seat.objects.bulk_create(Seat(game=game, user=bot) for bot in bots)
        _create_invitations(game, creator, people)
        if starts_now:
            _start(game, joined_by=creator)
        _publish_version(game)
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
        game = _locked(game_id)
        if game.status == Game.Status.CANCELLED:
            raise Conflict(CANCELLED)
        if game.seats.filter(user=user).exists():
            return game
        if game.status != Game.Status.OPEN:
            raise Conflict("This game has already started; its seats are taken.")
        if invitation is not None:
            invitation = _usable_invitation(game, invitation.pk, user)
        own = game.invitations.filter(user=user).first()
        invited = own is not None and own.declined_at is None and not own.is_expired()
        # As bytes: compare_digest raises TypeError on str with non-ASCII characters.
        has_link = invite_token is not None and secrets.compare_digest(
            invite_token.encode(), game.invite_token.encode()
        )
        if not (game.public or invited or has_link or invitation is not None):
            if own is not None and own.declined_at is not None:
                raise NotAllowed("You declined this invitation; ask for a new one.")
            if own is not None:
                raise NotAllowed("Your invitation to this table has expired; ask for a new one.")
            raise NotAllowed("This game is by invitation only.")
        taken = game.seats.count()
        if taken >= game.players:
            raise Conflict("This game is full.")
        Seat.objects.create(game=game, user=user)
        # Used up: their invitation by name, the link they came by, one to their address.
        game.invitations.filter(_same_person(Invitee(user=user))).delete()
        if invitation is not None:
            invitation.delete()
        if taken + 1 == game.players:
            _start(game, joined_by=user)
        _bump(game)
        game.save()
    return game


def leave_game(*, game_id: int, user: User) -> Game:
    """Give up a seat before the game starts; the creator cancels instead."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status == Game.Status.CANCELLED:
            raise Conflict(CANCELLED)
        if game.status != Game.Status.OPEN:
            raise Conflict("Only a game that has not started can be left.")
        if game.created_by_id == user.pk:
            raise GameError("You created this game: cancel it instead of leaving.")
        deleted, _ = game.seats.filter(user=user).delete()
        if not deleted:
            raise NotAllowed("You are not seated in this game.")
        _bump(game)
        game.save()
    return game


def decline_invitation(
    *, game_id: int, user: User, invitation_token: str | None = None
) -> Invitation:
    """Say no to an invitation: the creator is told, and the seat is free to offer again.

    Each refusal says what is true: no such table, cancelled, already seated, not invited,
    already declined.
    """
    by_link = invitation_from_token(invitation_token) if invitation_token else None
    with transaction.atomic():
        try:
            game = _locked(game_id)
        except NotFound:
            raise NotFound("There is no such table.") from None
        if game.status == Game.Status.CANCELLED:
            raise Conflict(CANCELLED)
        if game.seats.filter(user=user).exists():
            raise Conflict("You already have a seat at this table: leave it instead.")
        invitations = game.invitations.select_for_update()
        if by_link is not None and by_link.game_id == game.pk:
            invitation = invitations.filter(pk=by_link.pk).first()
            if invitation is not None and invitation.user_id not in (None, user.pk):
                raise NotAllowed("This invitation is for another player.")
        else:
            invitation = invitations.filter(user=user).first()
        if invitation is None or game.status != Game.Status.OPEN:
            raise NotAllowed("You are not invited to this table.")
        if invitation.declined_at is not None:
            raise Conflict("You already declined this invitation.")
        invitation.declined_at = timezone.now()
        invitation.save(update_fields=["declined_at"])
        _bump(game)
        game.save()
        from games import tasks

        enqueue(tasks.notify_invitation_declined, invitation.pk)
    return invitation


def invite(
    *, game_id: int, by: User, invitees: Iterable[User] = (), emails: Iterable[str] = ()
) -> list[Invitation]:
    """Invite more people to a table that still has room; returns the invitations sent.

    Someone who declined may be invited again; someone seated or already invited is refused by
    name, and nothing is sent to anyone else in that request.
    """
    people = invitees_for(invitees, emails)
    with transaction.atomic():
        _lock_player(by)
        game = _locked(game_id)
        if game.status == Game.Status.CANCELLED:
            raise Conflict(CANCELLED)
        if game.created_by_id != by.pk:
            raise NotAllowed("Only the player who created the game can invite.")
        if game.status != Game.Status.OPEN:
            raise Conflict("This game has already started.")
        if not people:
            raise GameError("Name someone to invite: a username or an email address.")
        seated = set(game.seats.values_list("user_id", flat=True))
        pending = pending_invitations().filter(game=game)
        for person in people:
            if person.user is not None and person.user.pk in seated:
                raise GameError(f"{person.name} already has a seat at this table.")
            if pending.filter(_same_person(person)).exists():
                raise GameError(f"{person.name} is already invited to this table.")
        room = game.players - len(seated)
        if pending.count() + len(people) > room:
            free = room - pending.count()
            raise GameError(
                f"This table has room for {free} more invitation{'' if free == 1 else 's'}."
            )
        _check_pending_invitations(by, len(people))
        sent = _create_invitations(game, by, people)
        _bump(game)
        game.save()
    return sent


def cancel_game(*, game_id: int, user: User) -> None:
    """Close a table that has not started; everyone seated or invited keeps it in My games."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status == Game.Status.CANCELLED:
            raise Conflict(CANCELLED)
        if game.created_by_id != user.pk:
            raise NotAllowed("Only the player who created the game can cancel it.")
        if game.status != Game.Status.OPEN:
            raise Conflict("A game in progress cannot be cancelled.")
        game.status = Game.Status.CANCELLED
        _bump(game)
        game.save()
        from games import tasks

        enqueue(tasks.notify_table_cancelled, game.pk)


def _same_person(person: Invitee) -> Q:
    if person.user is not None:
        if not person.user.email:
            return Q(user=person.user)
        return Q(user=person.user) | Q(email__iexact=person.user.email, user__isnull=True)
    return Q(email__iexact=person.email) | Q(user__email__iexact=person.email)


def _create_invitations(game: Game, by: User, people: list[Invitee]) -> list[Invitation]:
    """New invitations (or a declined or expired one renewed), each emailed after the commit."""
    from games import tasks

    now = timezone.now()
    sent = []
    for person in people:
        earlier = game.invitations.filter(_same_person(person)).first()
        if earlier is not None:  # declined or expired: a fresh invitation in its place
            earlier.delete()
        invitation = Invitation.objects.create(
            game=game, user=person.user, email=person.email, invited_by=by, created_at=now
        )
        enqueue(tasks.notify_invitation, invitation.pk)
        sent.append(invitation)
    return sent


def _lock_player(user: User) -> None:
    User.objects.select_for_update().filter(pk=user.pk).first()


def _check_bot_games(creator: User) -> None:
    playing = (
        Game.objects.filter(seats__user=creator, status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .filter(seats__user__bot_level__gt="")
        .distinct()
        .count()
    )
    if playing >= MAX_BOT_GAMES:
        raise Conflict(
            f"You already have {MAX_BOT_GAMES} games in progress against computer opponents: "
            "finish one before starting another."
        )


def _check_open_tables(creator: User) -> None:
    waiting = Game.objects.filter(created_by=creator, status=Game.Status.OPEN).count()
    if waiting >= MAX_OPEN_TABLES:
        raise Conflict(
            f"You already have {MAX_OPEN_TABLES} tables waiting for players: "
            "start or cancel one before opening another."
        )


def _check_pending_invitations(by: User, adding: int) -> None:
    if not adding:
        return
    sent = pending_invitations().filter(invited_by=by).count()
    if sent + adding > MAX_PENDING_INVITATIONS:
        raise Conflict(
            f"You have {sent} invitations waiting for an answer; at most "
            f"{MAX_PENDING_INVITATIONS} can wait at once. Cancel a table or wait for replies."
        )


def _usable_invitation(game: Game, invitation_id: int, user: User) -> Invitation:
    """The emailed invitation, checked again under the game's lock."""
    invitation = Invitation.objects.filter(pk=invitation_id).first()
    if invitation is None:
        raise Conflict("This invitation has already been used.")
    if invitation.game_id != game.pk:
        raise NotAllowed("This invitation is for another table.")
    if invitation.user_id not in (None, user.pk):
        raise NotAllowed("This invitation is for another player.")
    if invitation.declined_at is not None:
        raise NotAllowed("This invitation was declined; ask for a new one.")
    if invitation.is_expired():
        raise Conflict("This invitation has expired: ask for a new one.")
    return invitation


def _start(game: Game, joined_by: User) -> None:
    """Seat order is drawn here (a rematch's is rotated); the engine picks the first player
    from the seed."""
    game.seed = secrets.randbits(62)
    state = engine.new_game(game.config, game.seed)
    seats = seating_order(game, list(game.seats.select_related("user")))
    positions(game, seats, state.first_seat)
    Seat.objects.bulk_update(seats, ["position"])
    seats.sort(key=lambda s: s.position)
    if not game.name:  # named after the players, in seat order
        game.name = names_in_words([s.user.public_name for s in seats])[:80]
    game.state = engine.state_to_json(state)
    game.status = Game.Status.ACTIVE
    game.current_seat = state.current_seat
    _start_turn_clock(game, state)
    if not game.solo:
        from games import tasks

        enqueue(tasks.notify_turn, game.pk, state.turn)  # "the game has started: you play first"
        if joined_by.pk != game.created_by_id:  # the creator did not start it: tell them
            enqueue(tasks.notify_table_started, game.pk, joined_by.pk)
    game.started_at = game.turn_started_at
    game.invitations.all().delete()
    game.version += 1
    game.save()
