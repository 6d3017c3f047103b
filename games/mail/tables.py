"""Emails about tables: an invitation, a full table, an invitation declined, a table cancelled.

Like `games.mail`, each sender claims its row with a conditional UPDATE before it sends
(0 rows: another run sent it), and gives the claim back if the mail server fails so that the
task's retry sends it. Preferences ("invitation" kind) are read at sending time. Someone invited
by email address has no account, so no preferences: they get the invitation and, if the table is
cancelled before they answer, one line saying so. A rematch's invitation is emailed to each player
of the old game once, however often the rematch is offered again.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.language import for_user, speaking
from accounts.models import User
from games import presence
from games.mail import send as emails
from games.mail.claims import give_back_on_failure, naming
from games.models import Game, Invitation, Seat
from games.models.social import invitation_token

KIND = "invitation"  # the preference every table email follows


def invitation_url(invitation: Invitation) -> str:
    return settings.SITE_URL + reverse("games:invited", args=[invitation_token(invitation)])


def send_invitation(invitation_id: int) -> bool:
    """The invitation, with its own Join and Decline links; False when none was sent."""
    invitation = (
        Invitation.objects.select_related("game", "user", "invited_by")
        .filter(pk=invitation_id, game__status=Game.Status.OPEN, declined_at__isnull=True)
        .first()
    )
    if invitation is None:
        return False  # joined, declined or cancelled before the worker got here
    claimed = Invitation.objects.filter(pk=invitation.pk, emailed_at__isnull=True)
    if not claimed.update(emailed_at=timezone.now()):
        return False
    ours = Invitation.objects.filter(pk=invitation.pk)
    if invitation.user is not None and not invitation.user.wants_email(KIND):
        return False
    old_seat = _first_rematch_email(invitation)
    if old_seat is None:
        return False  # already emailed about a rematch of that game: see it in My games
    url = invitation_url(invitation)
    ctx = {
        "game": invitation.game,
        "inviter": invitation.invited_by,
        "invitation": invitation,
        "join_url": url,
        "decline_url": url + "?decline=1",
        "newcomer": invitation.user is None,
        # Someone without an account reads the inviter's language, and may switch: the
        # invitation page keeps the language chosen through sign-up (accounts.language).
        "languages": [
            {"code": code, "name": name, "url": f"{url}?lang={code}"}
            for code, name in settings.LANGUAGES
        ],
    }
    with (
        give_back_on_failure(ours, emailed_at=None),
        give_back_on_failure(old_seat, rematch_emailed_at=None),
    ):
        _send("invitation", invitation.user, invitation.email, ctx, invitation.invited_by)
    return True


def _first_rematch_email(invitation: Invitation) -> QuerySet | None:
    """For an invitation to a rematch, the invitee's seat at the old game, claimed: None when it
    was claimed before (the offer was cancelled and made again). Other invitations have nothing
    to claim: an empty queryset, for `give_back_on_failure`."""
    if invitation.game.rematch_of_id is None or invitation.user_id is None:
        return Seat.objects.none()
    old_seat = Seat.objects.filter(
        game_id=invitation.game.rematch_of_id, user_id=invitation.user_id
    )
    if not old_seat.filter(rematch_emailed_at__isnull=True).update(
        rematch_emailed_at=timezone.now()
    ):
        return None
    return old_seat


def send_table_started(game_id: int, joined_by_id: int) -> bool:
    """Tell the creator that the last seat was taken, unless they are looking at the table."""
    game = Game.objects.select_related("created_by").filter(pk=game_id).first()
    if game is None or game.status == Game.Status.OPEN or game.started_at is None:
        return False
    creator = game.created_by
    if joined_by_id == creator.pk:
        return False
    if not Game.objects.filter(pk=game.pk, start_emailed_at__isnull=True).update(
        start_emailed_at=timezone.now()
    ):
        return False
    if not creator.wants_email(KIND) or presence.is_looking(game.pk, creator.pk):
        return False  # claimed all the same: the creator saw it start
    seats = list(game.seats.select_related("user"))
    ours = Game.objects.filter(pk=game.pk)
    with speaking(creator), give_back_on_failure(ours, start_emailed_at=None):
        ctx = {
            **naming(game, seats, creator),
            "game_url": settings.SITE_URL + game.get_absolute_url(),
            "joined_by": next((s.user for s in seats if s.user_id == joined_by_id), None),
        }
        emails.send("table_started", creator, ctx, unsubscribe_kind=KIND)
    return True


def send_declined(invitation_id: int) -> bool:
    """Tell the creator that an invitation was declined and its seat can be offered again."""
    invitation = (
        Invitation.objects.select_related("game", "user", "invited_by")
        .filter(pk=invitation_id, declined_at__isnull=False)
        .first()
    )
    if invitation is None or invitation.game.status != Game.Status.OPEN:
        return False
    claimed = Invitation.objects.filter(pk=invitation.pk, decline_emailed_at__isnull=True)
    if not claimed.update(decline_emailed_at=timezone.now()):
        return False
    creator = invitation.invited_by
    if not creator.wants_email(KIND):
        return False
    ctx = {
        "game": invitation.game,
        "invitation": invitation,
        "table_url": settings.SITE_URL + invitation.game.get_absolute_url(),
    }
    ours = Invitation.objects.filter(pk=invitation.pk)
    with give_back_on_failure(ours, decline_emailed_at=None):
        emails.send("invitation_declined", creator, ctx, unsubscribe_kind=KIND)
    return True


def send_cancelled(game_id: int) -> int:
    """One email to each player seated (but the creator) and each person still invited."""
    game = (
        Game.objects.select_related("created_by")
        .filter(pk=game_id, status=Game.Status.CANCELLED)
        .first()
    )
    if game is None:
        return 0
    ctx = {"game": game, "creator": game.created_by, "my_games_url": settings.SITE_URL + "/games/"}
    sent = 0
    seats = game.seats.select_related("user").exclude(user=game.created_by)
    for seat in seats.filter(cancel_emailed_at__isnull=True, user__bot_level=""):
        sent += _send_cancelled_once(Seat.objects.filter(pk=seat.pk), seat.user, "", ctx)
    invitations = game.invitations.select_related("user").filter(
        cancel_emailed_at__isnull=True, declined_at__isnull=True
    )
    for invitation in invitations:
        row = Invitation.objects.filter(pk=invitation.pk)
        sent += _send_cancelled_once(row, invitation.user, invitation.email, ctx)
    return sent


def _send_cancelled_once(row: QuerySet, user: User | None, email: str, ctx: dict) -> int:
    """Claim the row (a seat or an invitation), then send; 1 if an email went out."""
    if not row.filter(cancel_emailed_at__isnull=True).update(cancel_emailed_at=timezone.now()):
        return 0
    if user is not None and not user.wants_email(KIND):
        return 0
    with give_back_on_failure(row, cancel_emailed_at=None):
        _send("table_cancelled", user, email, ctx, ctx["creator"])
    return 1


def _send(
    kind: str, user: User | None, email: str, ctx: dict[str, Any], sender: User | None = None
) -> None:
    """To a player through `games.mail.send` (their time zone, their language, their unsubscribe
    link), or to an address with no account: the same templates, without preferences to point
    at, in the language of the player who wrote to them (`sender`: the inviter, the creator)."""
    if user is not None:
        emails.send(kind, user, ctx, unsubscribe_kind=KIND)
        return
    ctx = {
        **ctx,
        "user": None,
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
        "language": for_user(sender),
    }
    with speaking(sender):
        ctx = emails.with_title(ctx)
        subject = " ".join(render_to_string(f"emails/{kind}_subject.txt", ctx).split())
        text = render_to_string(f"emails/{kind}_body.txt", ctx)
        html = render_to_string(f"emails/{kind}_body.html", ctx)
    message = EmailMultiAlternatives(subject, text, to=[email])
    message.attach_alternative(html, "text/html")
    message.send()
