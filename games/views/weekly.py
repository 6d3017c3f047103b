"""The deal of the week's pages. Thin: parse, call games.services.weekly or the presenter, turn
a refusal into words and a status."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.models import WeeklyDeal
from games.models.weekly import week_of
from games.presenters import weekly as presenting
from games.services import weekly
from games.services.friends import friends_of
from harmonies_site.views import refusal_fragment


def _refuse(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """The refusal in words, with the way back to the week's page."""
    if request.htmx:
        return refusal_fragment(message, status)
    back = {"back_url": reverse("weekly:this"), "back_words": "Back to the deal of the week"}
    return render(request, "games/refused.html", {"message": message, **back}, status=status)


def _friend_ids(request: HttpRequest) -> list[int]:
    return list(friends_of(request.user).values_list("pk", flat=True))


@login_required
@require_GET
def this_week(request: HttpRequest) -> HttpResponse:
    """This week's deal (made on its first visit): its rules, the viewer's game, the board."""
    deal = weekly.this_weeks_deal()
    context = presenting.week_page(deal, deal.week, request.user, _friend_ids(request))
    return render(request, "games/weekly.html", context)


@login_required
@require_GET
def past_week(request: HttpRequest, week: str) -> HttpResponse:
    """A closed week's board, with its comparisons; this week's address leads to /weekly/."""
    try:
        monday = weekly.parse_week(week)
    except services.GameError as exc:
        return _refuse(request, exc.message, exc.status)
    current = week_of(timezone.now())
    if monday == current:
        return redirect("weekly:this")
    if monday > current:
        return _refuse(request, "That week's deal is not dealt yet: it opens on its Monday.", 404)
    deal = WeeklyDeal.objects.filter(week=monday).first()  # never made for a week gone by
    context = presenting.week_page(deal, monday, request.user, _friend_ids(request))
    return render(request, "games/weekly.html", context)


@login_required
@require_POST
def play(request: HttpRequest) -> HttpResponse:
    """Start the viewer's one game of the week's deal, and go to it."""
    try:
        game = weekly.play_weekly(user=request.user, week=request.POST.get("week", ""))
    except services.GameError as exc:
        return _refuse(request, exc.message, exc.status)
    return redirect(game.get_absolute_url())


@login_required
@require_GET
def compare(request: HttpRequest, week: str) -> HttpResponse:
    """Finished games of one deal side by side: boards, score sheets and replays."""
    try:
        monday = weekly.parse_week(week)
        game_ids = presenting.parse_game_ids(request.GET.getlist("game"))
    except services.GameError as exc:
        return _refuse(request, exc.message, exc.status)
    except presenting.NotComparable as exc:
        return _refuse(request, exc.message, exc.status)
    deal = WeeklyDeal.objects.filter(week=monday).first()
    if deal is None:
        return _refuse(request, "Nobody played the deal of that week.", 404)
    try:
        context = presenting.comparison(deal, request.user, game_ids)
    except presenting.NotComparable as exc:
        return _refuse(request, exc.message, exc.status)
    return render(request, "games/weekly_compare.html", context)
