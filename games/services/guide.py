"""The guided first game (issue 34): a real solo game on a fixed deal, played with a guide.

It is an ordinary solo game in every way the rules see (its moves go through `services.play`),
marked `Game.guided` so that nothing counts it: its `uncounted` reason is GUIDED from the start
(games.results keeps it to the end), the records never record it, and no email or push is sent
for it (a solo game has no turn emails or reminders; the game-over mail and push skip it). Each
player has at most one in progress: asking again resumes it. The guide's words are
games.presenters.guide, read from the state; nothing about the lesson is stored beyond the game.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import engine
from games.models import Game, Seat
from games.models.game import GUIDED_NAME
from games.models.versions import publish_version
from games.services.core import (
    bump,
    check_version,
    finish,
    lock_player,
    locked,
    start_turn_clock,
    table_and_seat,
)
from games.services.errors import Conflict, NotAllowed

# The deal, found by tools/find_guide_deal.py: solo, side A, no spirits. Space 1 holds brown,
# green and green, and the display shows the Koala (a tree 2 high beside a tree 1 high), so the
# first turn plays every step in order: take space 1, place brown, stack green on it (a tree),
# take the Koala, place the other green beside the tree, put a Koala cube on the tall tree, end
# the turn. tests/games/services/test_guide.py plays that line: an engine change that breaks
# the deal fails there. The seed is no secret (it is here), and a lesson has nothing to protect.
GUIDE_SEED = 232
GUIDE_CONFIG = engine.GameConfig(players=1, side="A", spirits=False)
# Stored in English, like every name the site makes up; `Game.title` shows it translated.
GUIDE_NAME = GUIDED_NAME


def guided_game_in_progress(user: User) -> Game | None:
    """The player's guided game not yet over, if any (at most one: see start_guided_game)."""
    if not user.is_authenticated:
        return None
    return (
        Game.objects.filter(guided=True, status=Game.Status.ACTIVE, seats__user=user)
        .defer(*Game.PLAY_FIELDS)
        .first()
    )


def start_guided_game(user: User) -> Game:
    """The player's guided game: the one in progress, or a new one on the fixed deal. Under
    the player's row lock, so two clicks or two tabs make one game."""
    if user.is_bot:
        raise NotAllowed(_("Computer opponents do not take lessons."))
    with transaction.atomic():
        lock_player(user)
        existing = guided_game_in_progress(user)
        if existing is not None:
            return existing
        game = Game.objects.create(
            created_by=user,
            name=GUIDE_NAME,
            players=GUIDE_CONFIG.players,
            side=GUIDE_CONFIG.side,
            spirits=GUIDE_CONFIG.spirits,
            public=False,
            guided=True,
            uncounted=Game.Uncounted.GUIDED,
            seed=GUIDE_SEED,
        )
        seat = Seat.objects.create(game=game, user=user, position=0)
        state = engine.new_game(GUIDE_CONFIG, GUIDE_SEED)
        game.set_engine_state(state)
        game.status = Game.Status.ACTIVE
        start_turn_clock(game, state, [seat])  # solo: no reminder is planned, no email queued
        game.started_at = game.turn_started_at
        game.version += 1
        game.save()
        publish_version(game)
    return game


def finish_lesson(*, game_id: int, user: User, expected_version: object) -> Game:
    """The player ends their guided game now: scored as the board stands, as any early end is
    (core.finish), and then the guide explains the score sheet. Ended, not abandoned: a lesson
    is not a game someone walked away from, and its GUIDED reason already says it counts for
    nothing."""
    with transaction.atomic():
        game = locked(game_id)
        seats, _own_seat = table_and_seat(game, user)
        if not game.guided:
            raise NotAllowed(_("Only a guided first game can be finished as a lesson."))
        if game.status == Game.Status.FINISHED:
            raise Conflict(_("This lesson is already over: its score sheet is on the page."))
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("This lesson has not started."))
        check_version(game, expected_version)
        finish(game, game.engine_state(), reason=Game.EndReason.ENDED, seats=seats)
        game.end_reason = Game.EndReason.ENDED
        bump(game)
        game.save()
    return game
