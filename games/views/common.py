"""What the game views share: a refusal in words, and the people at a table."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import services
from games.models import Game, Seat, table_query
from harmonies_site.views import refusal_fragment


def refuse(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """The refusal in words: a page, or for htmx an escaped fragment (htmx inserts HTML)."""
    if request.htmx:
        return refusal_fragment(message, status)
    return render(request, "games/refused.html", {"message": message}, status=status)


def seating(game: Game, user) -> tuple[list[Seat], Seat | None]:
    """Everyone at the table (with their users, in one query), in seat order, and the viewer's
    own seat: the query a move reads under its lock (games.models.table_query)."""
    seats = services.in_seat_order(table_query.seats_of(game))
    return seats, next((s for s in seats if s.user_id == user.pk), None)
