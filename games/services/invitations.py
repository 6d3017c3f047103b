"""Invitations to a table: who is invited, their signed links, declining, inviting more people.

Apart from the table itself because an invitation has a life of its own: it goes to a player by
username or to anyone by email address, it expires, it can be declined, and its link must be checked
again when used. An address invites the account that has confirmed it, and only that one: an
invitation to an address nobody has confirmed stays the address's (`claim_invitations` gives it to
the account that confirms it later), so whoever signs up first with someone else's address receives
nothing. The signed link itself still lets whoever holds it take the seat. The emails are queued
after the commit to `games.mail.tables` through the tasks.

What the creator sees of an invitation by address never depends on whether an account is behind
it: the address as typed (never the player's name) until they take the seat, the same messages,
the same daily cap. Otherwise typing addresses into the invite box would tell anyone which have
accounts, and whose.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import Q, QuerySet, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.blocks import has_blocked, kept_apart_ids
from accounts.models import User
from games.models import INVITATION_LIFETIME, AddressInvitationSent, Game, Invitation, Seat
from games.models.social import TOKEN_SALT
from games.queue import enqueue
from games.services.core import bump, lock_player, locked
from games.services.errors import (
    CANCELLED,
    Conflict,
    GameError,
    NotAllowed,
    NotFound,
)

# A cap against abuse: one account must not fill others' My games.
MAX_PENDING_INVITATIONS = 50  # invitations sent and not yet answered, across all tables


@dataclass(frozen=True)
class Invitee:
    """Someone to invite, as the creator named them: a player by username, or an email address
    (with the account that has confirmed it, if there is one; the creator is never told)."""

    user: User | None = None
    email: str = ""  # the address as typed (lower-cased); "" for a player named by username

    @property
    def name(self) -> str:
        """How the creator named them: the only name a message to the creator may use."""
        return self.email or self.user.public_name


def invitees_for(users: Iterable[User] = (), emails: Iterable[str] = ()) -> list[Invitee]:
    """Players and addresses as invitees, each named once; an address a player has confirmed
    invites that player (one merely typed into an account is still just an address).

    Naming the same player or the same address twice (two spellings of a name, an address in
    another case) is refused in words: the creator meant one seat, not two. A name and an address
    are never compared: "Bob is named twice" would tell the creator whose address it is.
    """
    found = [Invitee(user=user) for user in users]
    for raw in emails:
        email = raw.strip().lower()
        found.append(Invitee(user=_owner_of(email), email=email))
    seen: set[object] = set()
    for invitee in found:
        if not invitee.email and invitee.user.is_bot:
            raise GameError(_("Computer opponents are seated, not invited: choose one for a seat."))
        key = ("email", invitee.email) if invitee.email else ("user", invitee.user.pk)
        if key in seen:
            raise GameError(
                _("%(name)s is named twice: one invitation each.") % {"name": invitee.name}
            )
        seen.add(key)
    return found


def _owner_of(email: str) -> User | None:
    """The active player who has confirmed this address, if any (at most one can)."""
    return User.objects.filter(
        email__iexact=email, email_confirmed_at__isnull=False, is_active=True, bot_level=""
    ).first()


def claim_invitations(user: User) -> list[Invitation]:
    """The invitations waiting for the address `user` has just confirmed become theirs: they show
    in My games like any other. Called in the transaction that confirms the address; an invitation
    to a table where they already sit or are already invited by name is left to the address.

    The table's pages do not change: they show the address until the player takes the seat, so
    the creator is not told that it now has an account (nor is the version moved to tell them)."""
    if not user.email or user.email_confirmed_at is None:
        return []
    claimed = []
    waiting = pending_invitations().filter(user__isnull=True, email__iexact=user.email)
    # One from a player kept apart by a block stays the address's: it never reaches them.
    waiting = waiting.exclude(invited_by_id__in=kept_apart_ids(user))
    for invitation in waiting.select_related("invited_by").order_by("game_id"):
        game = locked(invitation.game_id)  # in id order, as every writer locks games
        if game.seats.filter(user=user).exists() or game.invitations.filter(user=user).exists():
            continue
        invitation.user = user  # the address stays: it is how the creator named them
        invitation.save(update_fields=["user"])
        invitation.game = game
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
        raise Conflict(_("This invitation has expired: ask for a new one.")) from None
    except signing.BadSignature:
        raise NotFound(_("This invitation link is not valid: check it was copied whole.")) from None
    invitation = Invitation.objects.select_related("game", "user").filter(pk=invitation_id).first()
    if invitation is None:
        raise Conflict(_("This invitation has already been used."))
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
            raise NotFound(_("There is no such table.")) from None
        if game.status == Game.Status.CANCELLED:
            raise Conflict(CANCELLED)
        if game.seats.filter(user=user).exists():
            raise Conflict(_("You already have a seat at this table: leave it instead."))
        invitations = game.invitations.select_for_update()
        if by_link is not None and by_link.game_id == game.pk:
            invitation = invitations.filter(pk=by_link.pk).first()
            if invitation is not None and invitation.user_id not in (None, user.pk):
                raise NotAllowed(_("This invitation is for another player."))
        else:
            invitation = invitations.filter(user=user).first()
        if invitation is None or game.status != Game.Status.OPEN:
            raise NotAllowed(_("You are not invited to this table."))
        if invitation.declined_at is not None:
            raise Conflict(_("You already declined this invitation."))
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

    Someone who declined may be invited again; a player seated or already invited, or an address
    already invited, is refused as the creator named them, and nothing is sent to anyone else in
    that request. An address is never refused for its owner being here: see `create_invitations`.
    """
    people = invitees_for(invitees, emails)
    with transaction.atomic():
        lock_player(by)
        game = locked(game_id)
        if game.status == Game.Status.CANCELLED:
            raise Conflict(CANCELLED)
        if game.created_by_id != by.pk:
            raise NotAllowed(_("Only the player who created the game can invite."))
        if game.status != Game.Status.OPEN:
            raise Conflict(_("This game has already started."))
        if not people:
            raise GameError(_("Name someone to invite: a username or an email address."))
        seated = set(game.seats.values_list("user_id", flat=True))
        pending = pending_invitations().filter(game=game)
        for person in people:
            if not person.email and person.user.pk in seated:
                raise GameError(
                    _("%(name)s already has a seat at this table.") % {"name": person.name}
                )
            if pending.filter(named_as(person)).exists():
                raise GameError(
                    _("%(name)s is already invited to this table.") % {"name": person.name}
                )
        room = game.players - len(seated)
        if pending.count() + len(people) > room:
            free = room - pending.count()
            raise GameError(
                ngettext(
                    "This table has room for %(count)s more invitation.",
                    "This table has room for %(count)s more invitations.",
                    free,
                )
                % {"count": free}
            )
        check_invitable(by, people)
        check_pending_invitations(by, len(people))
        check_address_invitations(by, people)
        sent = create_invitations(game, by, people)
        bump(game)
        game.save()
    return sent


def same_person(person: Invitee) -> Q:
    """Every invitation that is a way to the same person: a player's by name or by address, and
    one to the address they have confirmed that stayed the address's (all used up by joining)."""
    if person.user is not None:
        if not person.user.email or person.user.email_confirmed_at is None:
            return Q(user=person.user)
        return Q(user=person.user) | Q(email__iexact=person.user.email, user__isnull=True)
    return Q(email__iexact=person.email) | Q(
        user__email__iexact=person.email, user__email_confirmed_at__isnull=False
    )


def named_as(person: Invitee) -> Q:
    """Invitations that name `person` the way the creator did: the same address (whoever owns
    it), or the player by username."""
    if person.email:
        return Q(email__iexact=person.email)
    return Q(user=person.user, email="")


def create_invitations(game: Game, by: User, people: list[Invitee]) -> list[Invitation]:
    """New invitations (or a declined or expired one renewed), each emailed after the commit.

    An address whose owner already sits here, or already has an invitation here, stays the
    address's and is emailed nothing: the player has their seat or invitation, and the creator sees
    an address like any other. For the same reason a player named by username takes over from an
    invitation to their address, which becomes the address's (and is not emailed again). A
    rematch's invitations are never followed by a "cancelled" email: its offer is the one email.
    An address whose owner has a block with the creator stays the address's too, and is emailed
    nothing: refusing it would tell the creator whose address it is (see `check_invitable`).
    """
    now = timezone.now()
    seated = set(game.seats.values_list("user_id", flat=True))
    apart = kept_apart_ids(by, [p.user for p in people if p.email and p.user is not None])
    sent = []
    for person in people:
        # Declined or expired: a fresh invitation in its place.
        game.invitations.filter(named_as(person)).delete()
        user, quiet = person.user, False
        if not person.email:  # by username: their invitation by address stays the address's
            game.invitations.filter(user=user).exclude(email="").update(
                user=None, emailed_at=Coalesce("emailed_at", Value(now)), cancel_emailed_at=now
            )
        elif user is not None and (
            user.pk in seated or user.pk in apart or game.invitations.filter(user=user).exists()
        ):
            user, quiet = None, True
        invitation = Invitation.objects.create(
            game=game,
            user=user,
            email=person.email,
            invited_by=by,
            created_at=now,
            emailed_at=now if quiet else None,
            cancel_emailed_at=now if quiet or game.rematch_of_id else None,
        )
        if not quiet:
            enqueue("games.notify_invitation", invitation.pk)
        sent.append(invitation)
    AddressInvitationSent.objects.bulk_create(
        AddressInvitationSent(invited_by=by, created_at=now) for person in people if person.email
    )
    return sent


def check_invitable(by: User, people: list[Invitee]) -> None:
    """Refuse, in words and before anything is stored, a player named by username when a block
    stands between them and the creator. The one blocked reads only that this player cannot be
    invited, never why; the blocker is reminded of their own block. An address is never refused
    (`create_invitations` keeps it from its owner instead): the words would say whose it is."""
    named = [person.user for person in people if not person.email]
    apart = kept_apart_ids(by, named) if named else set()
    for person in people:
        if person.email or person.user.pk not in apart:
            continue
        if has_blocked(by, person.user):
            raise GameError(
                _("You have blocked %(name)s: unblock them from your profile to invite them.")
                % {"name": person.name}
            )
        # The words of CANNOT_BE_INVITED, naming the player.
        raise GameError(_("This player cannot be invited: %(name)s.") % {"name": person.name})


def check_pending_invitations(by: User, adding: int) -> None:
    if not adding:
        return
    sent = pending_invitations().filter(invited_by=by).count()
    if sent + adding > MAX_PENDING_INVITATIONS:
        raise Conflict(
            ngettext(
                "You have %(sent)s invitation waiting for an answer; at most %(limit)s can wait "
                "at once. Cancel a table or wait for replies.",
                "You have %(sent)s invitations waiting for an answer; at most %(limit)s can wait "
                "at once. Cancel a table or wait for replies.",
                sent,
            )
            % {"sent": sent, "limit": MAX_PENDING_INVITATIONS}
        )


def is_established(user: User, now: datetime | None = None) -> bool:
    """Whether `user` has earned the larger cap on invitations by address: an account
    INVITATIONS_TRUSTED_AFTER_DAYS old with a finished game that counts (a sock puppet made today
    has neither)."""
    now = now or timezone.now()
    if now - user.date_joined < timedelta(days=settings.INVITATIONS_TRUSTED_AFTER_DAYS):
        return False
    return Seat.objects.filter(
        user=user, game__status=Game.Status.FINISHED, game__uncounted=Game.Uncounted.COUNTS
    ).exists()


def check_address_invitations(by: User, people: list[Invitee]) -> None:
    """Refuse, in words and before anything is stored or sent, invitations by address beyond the
    day's cap, counted over the last 24 hours. Every address counts, whether or not an account is
    behind it: a cap that skipped those would tell the creator which addresses have one. Called
    under the creator's lock (`lock_player`), so two requests at once cannot both squeeze in."""
    adding = sum(1 for person in people if person.email)
    if not adding:
        return
    now = timezone.now()
    day_ago = now - timedelta(days=1)
    mine = AddressInvitationSent.objects.filter(invited_by=by)
    mine.filter(created_at__lte=day_ago).delete()  # no longer counted: the table stays small
    sent = mine.filter(created_at__gt=day_ago).count()
    established = is_established(by, now)
    if established:
        limit = settings.ADDRESS_INVITATIONS_PER_DAY
    else:
        limit = settings.ADDRESS_INVITATIONS_PER_DAY_NEW
    if sent + adding <= limit:
        return
    left = max(limit - sent, 0)
    words = {"limit": limit, "left": left, "days": settings.INVITATIONS_TRUSTED_AFTER_DAYS}
    if established and not left:
        message = _(
            "You can invite %(limit)s people by email address a day, and you have none left for "
            "now. Invite players by their username, or try again tomorrow."
        )
    elif established:
        message = ngettext(
            "You can invite %(limit)s people by email address a day, and you have %(left)s left "
            "for now. Invite players by their username, or try again tomorrow.",
            "You can invite %(limit)s people by email address a day, and you have %(left)s left "
            "for now. Invite players by their username, or try again tomorrow.",
            left,
        )
    elif not left:
        message = _(
            "A new account can invite %(limit)s people by email address a day (more once it is "
            "%(days)s days old and has finished a game that counts), and you have none left for "
            "now. Invite players by their username, or try again tomorrow."
        )
    else:
        message = ngettext(
            "A new account can invite %(limit)s people by email address a day (more once it is "
            "%(days)s days old and has finished a game that counts), and you have %(left)s left "
            "for now. Invite players by their username, or try again tomorrow.",
            "A new account can invite %(limit)s people by email address a day (more once it is "
            "%(days)s days old and has finished a game that counts), and you have %(left)s left "
            "for now. Invite players by their username, or try again tomorrow.",
            left,
        )
    raise GameError(message % words)


def usable_invitation(game: Game, invitation_id: int, user: User) -> Invitation:
    """The emailed invitation, checked again under the game's lock."""
    invitation = Invitation.objects.filter(pk=invitation_id).first()
    if invitation is None:
        raise Conflict(_("This invitation has already been used."))
    if invitation.game_id != game.pk:
        raise NotAllowed(_("This invitation is for another table."))
    if invitation.user_id not in (None, user.pk):
        raise NotAllowed(_("This invitation is for another player."))
    if invitation.declined_at is not None:
        raise NotAllowed(_("This invitation was declined; ask for a new one."))
    if invitation.is_expired():
        raise Conflict(_("This invitation has expired: ask for a new one."))
    return invitation
