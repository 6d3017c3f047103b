"""Playing a turn, and the end of the game."""

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import engine
from games.models import Game, Move, Seat
from games.narration import move_detail
from games.results import own_turns, placing, uncounted_reason
from games.services.core import (
    bump,
    check_version,
    locked,
    log_moves,
    next_seq,
    parse_action,
    save_state,
    sentence,
    table_and_seat,
)
from games.services.errors import Conflict, PlayResult, RuleViolation

logger = logging.getLogger(__name__)


def play(*, game_id: int, user: User, action: object, expected_version: object) -> PlayResult:
    """Apply one action for the user's seat, if the page they acted from is still current."""
    with transaction.atomic():
        game = locked(game_id)
        seats, seat = table_and_seat(game, user)
        # Who asks comes before what: a stranger's forged action is refused as a stranger's.
        parsed = parse_action(action)
        if game.status == Game.Status.FINISHED:
            raise Conflict(_("This game is over."))
        if game.status == Game.Status.CANCELLED:
            raise Conflict(_("This table was cancelled."))
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("This game has not started yet."))
        check_version(game, expected_version)
        before = game.engine_state()
        if seat.resigned_at is not None:
            raise Conflict(_("You resigned from this game: a stand-in plays your turns."))
        if seat.dropped_at is not None:
            raise Conflict(_("You were dropped from this game when your turn's time ran out."))
        if seat.position != before.current_seat:
            raise Conflict(_("It is not your turn."))
        try:
            after = engine.apply(before, parsed)
        except engine.IllegalAction as exc:
            raise RuleViolation(sentence(str(exc))) from None
        move = Move(
            game=game,
            seq=next_seq(game),
            seat=seat.position,
            user=user,
            turn=before.turn,
            action=parsed.to_json(),
            detail=move_detail(before, parsed, after),
        )
        log_moves(game, [move])
        save_state(game, before, after, seats)
    return PlayResult(game=game, state=after, move=move, seats=seats)


def finalize(game_id: int) -> bool:
    """Claims a finished game's slow follow-ups (records, ratings, emails) once; False when
    there was nothing (left) to do. The result itself was stored when the game ended; only a
    game that ended before results were stored that way gets its ranks here."""
    with transaction.atomic():
        # The conditional UPDATE is the claim: a second run, or a racing one, updates 0 rows.
        claimed = Game.objects.filter(
            pk=game_id, status=Game.Status.FINISHED, finalized_at__isnull=True
        ).update(finalized_at=timezone.now())
        if not claimed:
            return False
        game = Game.objects.get(pk=game_id)
        seats = list(game.seats.select_related("user"))
        if any(seat.rank is None for seat in seats):
            state = game.engine_state()
            sheets = engine.score_sheets(state)
            places = placing(state, seats)
            turns = own_turns(game)
            for seat in seats:
                seat.final_score = sheets[seat.position].total
                seat.rank = places[seat.position]
                seat.own_turns = turns.get(seat.position, 0)
            Seat.objects.bulk_update(seats, ["final_score", "rank", "own_turns"])
            game.uncounted = uncounted_reason(game, seats)
            bump(game)
            game.save(update_fields=["version", "uncounted", "updated_at"])
    return True
