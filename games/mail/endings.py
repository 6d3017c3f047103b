"""The emails that tell everyone at the table how something ended.

The game: final scores, once it is finalized. A turn whose time ran out: what the timeout sweep
did (a stand-in played it, or the late player was dropped). Each person's email is claimed on
their seat before sending and given back on failure (`games.mail.claims`).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.language import speaking
from games.mail import pictures as mail_pictures
from games.mail import send as emails
from games.mail.claims import (
    CATCH_UP_WINDOW,
    MISSED_AFTER,
    SWEEP_BATCH,
    game_context,
    give_back_on_failure,
)
from games.models import Game, Move, Seat
from games.narration import end_words
from games.results import counting_sentence

# --- Game over ------------------------------------------------------------------------------------


def send_game_over(game_id: int) -> int:
    """Final scores to every player of a finalized game, once each; returns how many were sent."""
    # A guided first game ends on its own page, where the guide explains the sheet: no email.
    game = Game.objects.finalized().filter(pk=game_id, guided=False).first()
    if game is None:
        return 0
    seats = list(game.seats.select_related("user").order_by("rank", "position"))
    sent = 0
    for seat in seats:
        user = seat.user
        if user.is_bot:
            continue
        claimed = Seat.objects.filter(pk=seat.pk, game_over_notified_at__isnull=True).update(
            game_over_notified_at=timezone.now()
        )
        if not claimed or not user.wants_email("game_over"):
            continue
        with speaking(user):
            ctx = {
                **game_context(game, seats, user),
                "seat": seat,
                "seats": seats,
                "place": _ordinal(seat.rank),
                "sheet_url": settings.SITE_URL + reverse("records:sheet", args=[game.pk]),
                "end_words": end_words(game, seats),
                "counting": counting_sentence(game, seats),
            }
            ctx["pictures"] = mail_pictures.game_over_pictures(game, seats, seat)
        with give_back_on_failure(Seat.objects.filter(pk=seat.pk), game_over_notified_at=None):
            emails.game_over(user, ctx)
        sent += 1
    return sent


# --- A turn's time ran out -----------------------------------------------------------------------


def send_timeout(game_id: int, turn: int) -> int:
    """Tells the table what the timeout sweep did on turn `turn` (a stand-in played it, or the
    late player was dropped), once each; returns how many were sent.

    One email per event and person: the player to move next hears it in their "your turn"
    email (`games.mail.since`), which waits while they watch or are away, so they get no
    notice beside it; and when the timeout ended the game, the game-over email says why, alone.
    """
    game = Game.objects.filter(pk=game_id).first()
    late_move = Move.objects.filter(game_id=game_id, turn=turn).order_by("seq").first()
    if game is None or late_move is None or game.status != Game.Status.ACTIVE:
        return 0
    seats = list(game.seats.select_related("user"))
    late = next((s for s in seats if s.position == late_move.seat), None)
    if late is None:
        return 0
    next_position = (late.position + 1) % game.players
    sent = 0
    for seat in seats:
        user = seat.user
        if user.is_bot:
            continue
        if seat.position == next_position and seat.pk != late.pk and not seat.left:
            continue  # their turn email tells it
        claimed = (
            Seat.objects.filter(pk=seat.pk)
            .exclude(timeout_notified_turn=turn)
            .update(timeout_notified_turn=turn)
        )
        if not claimed or not user.wants_email("turn"):
            continue
        with speaking(user):
            words = game_context(game, seats, user)
        ctx = {
            **words,
            "late": late,
            "is_me": late.pk == seat.pk,
            "dropped": late.dropped_at is not None,
        }
        with give_back_on_failure(Seat.objects.filter(pk=seat.pk), timeout_notified_turn=None):
            emails.timeout(user, ctx)
        sent += 1
    return sent


def _ordinal(n: int | None) -> str:
    """ "1st", "2nd": a place in the ranking, in the active language ("1er", "1."), up to 6."""
    if n is None:
        return ""
    places = {
        1: _("1st"),
        2: _("2nd"),
        3: _("3rd"),
        4: _("4th"),
        5: _("5th"),
        6: _("6th"),
    }
    return places.get(n, f"{n}.")


def games_missing_game_over(now: datetime) -> list[int]:
    """Games finalized a while ago where a player's game-over email was never claimed."""
    unclaimed = Seat.objects.filter(
        game=OuterRef("pk"), game_over_notified_at__isnull=True, user__bot_level=""
    )
    games = Game.objects.filter(
        Exists(unclaimed),
        guided=False,  # never emailed (send_game_over)
        status=Game.Status.FINISHED,
        finalized_at__range=(now - CATCH_UP_WINDOW, now - MISSED_AFTER),
    )
    return list(games.values_list("pk", flat=True)[:SWEEP_BATCH])
