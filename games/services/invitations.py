"""Invitations to a table: who is invited, their signed links, declining, inviting more people.

Apart from the table itself because an invitation has a life of its own: it goes to a player by
username or to anyone by email address, it expires, it can be declined, and its link must be checked
again when used. An address invites the account that has confirmed it, and only that one: an
invitation to an address nobody has confirmed stays the address's (`claim_invitations` gives it to
the account that confirms it later), so whoever signs up first with someone else's address receives
nothing. The signed link itself still lets whoever holds it take the seat. The emails are queued
after the commit to `games.mail.tables` through the tasks.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from django.core import signing
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.models import INVITATION_LIFETIME, Game, Invitation
from games.models.social import TOKEN_SALT
from games.queue import enqueue
from games.services.core import bump, lock_player, locked
from games.services.errors import CANCELLED, Conflict, GameError, NotAllowed, NotFound

# A cap against abuse: one account must not fill others' My games.
MAX_PENDING_INVITATIONS = 50  # invitations sent and not yet answered, across all tables


@dataclass(frozen=True)
class Invitee:
    """Someone to invite: a player, or an email address with no account behind it."""

    user: User | None = None
    email: str = ""

    @property
    def name(self) -> str:
        return self.user.public_name if self.user else self.email


def invitees_for(users: Iterable[User] = (), emails: Iterable[str] = ()) -> list[Invitee]:
    """Players and addresses as invitees, each person once; an address a player has confirmed is
    that player (one merely typed into an account is still just an address).

    Naming the same person twice (two spellings of a name, an address in another case, a name and
    that player's address) is refused in words: the creator meant one seat, not two.
    """
    found: list[Invitee] = []
    seen: set[object] = set()
    for user in users:
        found.append(Invitee(user=user))
    for raw in emails:
        email = raw.strip().lower()
        user = _owner_of(email)
        found.append(Invitee(user=user) if user else Invitee(email=email))
    for invitee in found:
        if invitee.user is not None and invitee.user.is_bot:
            raise GameError("Computer opponents are seated, not invited: choose one for a seat.")
        key = ("user", invitee.user.pk) if invitee.user else ("email", invitee.email)
        if key in seen:
            raise GameError(f"{invitee.name} is named twice: one invitation each.")
        seen.add(key)
    return found


def _owner_of(email: str) -> User | None:
    """The active account that has confirmed this address, if any (at most one can)."""
    return User.objects.filter(
        email__iexact=email, email_confirmed_at__isnull=False, is_active=True
    ).first()


def claim_invitations(user: User) -> list[Invitation]:
    """The invitations waiting for the address `user` has just confirmed become theirs: they show
    in My games like any other. Called in the transaction that confirms the address; an invitation
    to a table where they already sit or are already invited by name is left to the address."""
    if not user.email or user.email_confirmed_at is None:
        return []
    claimed = []
    waiting = pending_invitations().filter(user__isnull=True, email__iexact=user.email)
    for invitation in waiting.select_related("invited_by").order_by("game_id"):
        game = locked(invitation.game_id)  # in id order, as every writer locks games
        if game.seats.filter(user=user).exists() or game.invitations.filter(user=user).exists():
            continue
        invitation.user, invitation.email = user, ""  # the address was only ever a way to them
        invitation.save(update_fields=["user", "email"])
        invitation.game = game
        bump(game)  # the table's open pages now name the player, not "someone invited by email"
        game.save()
        claimed.append(invitation)
    return claimed


def pending_invitations(now=None) -> QuerySet[Invitation]:
    """Invitations still waiting for an answer: not declined, not expired, at an open table."""
    now = now or timezone.now()
    return Invitation.objects.filter(
        declined_at__isnull=True,
        created_at__gt=now - INVITATION_LIFETIME,
        game__status=Game.Status.OPEN,
    )


def invitation_from_token(token: str) -> Invitation:
    """The invitation a link names, or a refusal that says what is wrong with the link."""
    try:
        invitation_id = signing.loads(
            token, salt=TOKEN_SALT, max_age=INVITATION_LIFETIME.total_seconds()
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
            game = locked(game_id)
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
        bump(game)
        game.save()
        enqueue("games.notify_invitation_declined", invitation.pk)
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
        lock_player(by)
        game = locked(game_id)
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
            if pending.filter(same_person(person)).exists():
                raise GameError(f"{person.name} is already invited to this table.")
        room = game.players - len(seated)
        if pending.count() + len(people) > room:
            free = room - pending.count()
            raise GameError(
                f"This table has room for {free} more invitation{'' if free == 1 else 's'}."
            )
        check_pending_invitations(by, len(people))
        sent = create_invitations(game, by, people)
        bump(game)
        game.save()
    return sent


def same_person(person: Invitee) -> Q:
    """Invitations to the same person: a player, or the address they have confirmed."""
    if person.user is not None:
        if not person.user.email or person.user.email_confirmed_at is None:
            return Q(user=person.user)
        return Q(user=person.user) | Q(email__iexact=person.user.email, user__isnull=True)
    return Q(email__iexact=person.email) | Q(
        user__email__iexact=person.email, user__email_confirmed_at__isnull=False
    )


def create_invitations(game: Game, by: User, people: list[Invitee]) -> list[Invitation]:
    """New invitations (or a declined or expired one renewed), each emailed after the commit."""
    now = timezone.now()
    sent = []
    for person in people:
        earlier = game.invitations.filter(same_person(person)).first()
        if earlier is not None:  # declined or expired: a fresh invitation in its place
            earlier.delete()
        invitation = Invitation.objects.create(
            game=game, user=person.user, email=person.email, invited_by=by, created_at=now
        )
        enqueue("games.notify_invitation", invitation.pk)
        sent.append(invitation)
    return sent


def check_pending_invitations(by: User, adding: int) -> None:
    if not adding:
        return
    sent = pending_invitations().filter(invited_by=by).count()
    if sent + adding > MAX_PENDING_INVITATIONS:
        raise Conflict(
            f"You have {sent} invitations waiting for an answer; at most "
            f"{MAX_PENDING_INVITATIONS} can wait at once. Cancel a table or wait for replies."
        )


def usable_invitation(game: Game, invitation_id: int, user: User) -> Invitation:
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
