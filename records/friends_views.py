"""Adding and removing friends (from the profile pages), and the new-game form's type-ahead."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.core import is_ratelimited

from accounts.next_page import local_path
from accounts.ratelimits import limited
from games.services import friends

logger = logging.getLogger(__name__)

ADD_RATE = "30/h"  # friend requests a player may make
SUGGEST_RATE = "120/m"  # type-ahead requests (one per pause in typing)
# The boxes that ask for suggestions, each sending its own value under its name.
SUGGEST_FIELDS = ("q", "friend_2", "friend_3", "friend_4", "invite")


def _back(request: HttpRequest):
    """The page the form was on (a profile), or one's own profile."""
    back = local_path(request, request.POST.get("next", ""))
    if back:
        return redirect(back)
    return redirect("records:player", username=request.user.username)


@login_required
@require_POST
def add_friend(request: HttpRequest) -> HttpResponse:
    if limited(request, "friends-add", "user", ADD_RATE):
        messages.error(request, "Too many friend requests at once: try again in an hour.")
        return _back(request)
    try:
        friend = friends.add_friend(user=request.user, name=request.POST.get("username", ""))
    except friends.FriendError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{friend.public_name} is now among your friends.")
    return _back(request)


@login_required
@require_POST
def remove_friend(request: HttpRequest) -> HttpResponse:
    try:
        friend = friends.remove_friend(user=request.user, friend_id=request.POST.get("friend"))
    except friends.FriendError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{friend.public_name} is no longer among your friends.")
    return _back(request)


@login_required
@require_GET
def suggest(request: HttpRequest) -> HttpResponse:
    """Options for a name box: the viewer's friends whose name begins with what was typed."""
    text = next((request.GET[name] for name in SUGGEST_FIELDS if request.GET.get(name)), "")
    if len(text.replace(",", " ").split()) > 1:
        text = ""  # several names in the invite box: choosing one would replace them all
    try:
        over = is_ratelimited(
            request, group="friends-suggest", key="user", rate=SUGGEST_RATE, method="GET",
            increment=True,
        )  # fmt: skip
    except Exception:
        logger.exception("rate limit friends-suggest could not be counted")
        over = False
    found = [] if over else friends.suggestions(request.user, text)
    response = render(request, "records/_friend_options.html", {"friends": found})
    response["Cache-Control"] = "private, no-store"
    return response
