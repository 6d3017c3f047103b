"""A table before its game starts: its page, taking a seat, invitations, leaving, cancelling.

Once the game has started, games.views.game draws it; a table nobody may see yet is refused in
words.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import presence, services
from games.forms import InviteForm
from games.models import Game
from games.presenters.clocks import table_clock_words
from games.views.common import refuse, seating


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        services.join_game(
            game_id=game_id,
            user=request.user,
            invite_token=request.POST.get("token") or None,
            invitation_token=request.POST.get("invitation") or None,
        )
    except services.GameError as exc:
        return refuse(request, exc.message, exc.status)
    messages.success(request, _("You have a seat at this table."))
    return redirect("games:detail", game_id=game_id)


@login_required
@require_GET
def invitation_link(request: HttpRequest, token: str) -> HttpResponse:
    """The table's own link: anyone holding it may take a free seat."""
    game = get_object_or_404(Game, invite_token=token)
    if game.status == Game.Status.CANCELLED:
        return refuse(request, services.CANCELLED, 409)
    seats, my_seat = seating(game, request.user)
    if my_seat is not None or game.status != Game.Status.OPEN:
        return redirect(game)
    return table_page(request, game, seats, my_seat, token=token)


HELD_INVITATIONS = "held_invitations"  # the session's invitation links, newest first
HELD_AT_MOST = 20


@require_GET
def invited(request: HttpRequest, token: str) -> HttpResponse:
    """One invitation's link, as emailed: its table with Take a seat and Decline.

    A visitor without an account (or not logged in) is told who invites them to what, and offered
    to create an account with the invited address, or to log in; both come back here (`next`).
    The link is remembered in the session, so My games lists it until it is answered, even before
    the address is confirmed (until then the invitation is the address's, not the account's).
    """
    try:
        invitation = services.invitation_from_token(token)
    except services.GameError as exc:
        return refuse(request, exc.message, exc.status)
    held = [t for t in request.session.get(HELD_INVITATIONS, []) if t != token]
    request.session[HELD_INVITATIONS] = [token, *held][:HELD_AT_MOST]
    game = invitation.game
    if not request.user.is_authenticated:
        return render(
            request,
            "games/invitation_welcome.html",
            {
                "invitation": invitation,
                "game": game,
                "login_url": f"{reverse('login')}?{urlencode({'next': request.path})}",
                # The guided first game, by an account made on the way (the link is held in
                # the session, so My games shows the invitation afterwards).
                "guide_signup_url": f"{reverse('signup')}?"
                + urlencode(
                    {
                        "next": reverse("games:guide"),
                        **({"email": invitation.email} if invitation.email else {}),
                    }
                ),
                "signup_url": f"{reverse('signup')}?"
                + urlencode(
                    {
                        "next": request.path,
                        **({"email": invitation.email} if invitation.email else {}),
                    }
                ),
            },
        )
    seats, my_seat = seating(game, request.user)
    if my_seat is not None or game.status != Game.Status.OPEN:
        return redirect(game)
    if invitation.user_id not in (None, request.user.pk):
        return refuse(request, _("This invitation is for another player."), 403)
    if invitation.declined_at is not None:
        return refuse(request, _("This invitation was declined; ask for a new one."), 409)
    if invitation.is_expired():
        return refuse(request, _("This invitation has expired: ask for a new one."), 409)
    return table_page(
        request,
        game,
        seats,
        my_seat,
        invitation_token=token,
        declining=request.GET.get("decline") == "1",
    )


@login_required
@require_POST
def invite_more(request: HttpRequest, game_id: int) -> HttpResponse:
    """The creator invites someone else from the table page, by username or email address."""
    game = get_object_or_404(Game, pk=game_id)
    form = InviteForm(request.POST, creator=request.user)
    if form.is_valid():
        invitees = form.cleaned_data["invite"]
        try:
            sent = services.invite(
                game_id=game_id, by=request.user, invitees=invitees.users, emails=invitees.emails
            )
        except services.GameError as exc:
            if exc.status != 400:
                return refuse(request, exc.message, exc.status)
            form.add_error("invite", exc.message)
        else:
            names = ", ".join(i.invitee_name for i in sent)
            messages.success(
                request, _("Invited: %(names)s. They will get an email.") % {"names": names}
            )
            return redirect(game)
    seats, my_seat = seating(game, request.user)
    if my_seat is None or game.created_by_id != request.user.pk:
        return refuse(request, _("Only the player who created the game can invite."), 403)
    return table_page(request, game, seats, my_seat, invite_form=form, status=400)


@login_required
@require_POST
def table_action(request: HttpRequest, game_id: int, verb: str) -> HttpResponse:
    try:
        if verb == "leave":
            services.leave_game(game_id=game_id, user=request.user)
            messages.success(request, _("You left the table."))
        elif verb == "cancel":
            services.cancel_game(game_id=game_id, user=request.user)
            messages.success(request, _("The game is cancelled. Everyone at the table is told."))
        else:
            invitation = services.decline_invitation(
                game_id=game_id,
                user=request.user,
                invitation_token=request.POST.get("invitation") or None,
            )
            inviter = invitation.invited_by.public_name
            messages.success(
                request, _("Invitation declined. %(name)s will be told.") % {"name": inviter}
            )
    except services.GameError as exc:
        return refuse(request, exc.message, exc.status)
    return redirect("games:mine")


def table_page(
    request,
    game,
    seats,
    my_seat,
    token: str | None = None,
    invitation_token: str | None = None,
    declining: bool = False,
    invite_form: InviteForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The table before its game starts, or after it was cancelled, for those who may see it."""
    invitations = list(game.invitations.select_related("user"))
    own = next((i for i in invitations if i.user_id == request.user.pk), None)
    invited = own is not None and own.declined_at is None and not own.is_expired()
    involved = my_seat is not None or own is not None
    if game.status == Game.Status.CANCELLED:
        if not involved:
            return refuse(request, _("This game is by invitation only."), 403)
    elif my_seat is None and not (game.public or invited or token or invitation_token):
        if own is not None and own.declined_at is not None:
            return refuse(request, _("You declined this invitation; ask for a new one."), 403)
        if own is not None:
            return refuse(request, _("Your invitation to this table has expired."), 403)
        return refuse(request, _("This game is by invitation only."), 403)
    if my_seat is not None:
        presence.mark_present(game.pk, request.user.pk)
    invite_url = request.build_absolute_uri(reverse("games:invitation", args=[game.invite_token]))
    creating = my_seat is not None and game.created_by_id == request.user.pk
    now = timezone.now()
    pending = [i for i in invitations if i.declined_at is None and not i.is_expired(now)]
    for i in invitations:  # who an invitation is for, as this viewer may see it
        if not i.email:
            i.shown_name = i.user.public_name
        else:
            i.shown_name = i.email if creating else _("Someone invited by email")
    return render(
        request,
        "games/table.html",
        {
            "game": game,
            "seats": seats,
            "my_seat": my_seat,
            "invited": invited,
            "token": token,
            "invitation_token": invitation_token,
            "declining": declining,
            "pending": pending,
            "declined": [i for i in invitations if i.declined_at is not None],
            "expired": [i for i in invitations if i.declined_at is None and i.is_expired(now)],
            "show_addresses": creating,
            "free": game.players - len(seats),
            "invite_url": invite_url if my_seat else None,
            "invite_form": (invite_form or InviteForm(creator=request.user)) if creating else None,
            "presence_token": presence.token_for(game.pk, request.user.pk) if my_seat else "",
            "clock_words": table_clock_words(game),
        },
        status=status,
    )
