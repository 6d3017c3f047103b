"""Learning from the hard bot: the review of a finished game, and a hint on one's turn.

A review is asked for by the seat's own player once the game is over, made once by a task on
the bots queue and kept. A hint is the hard bot's plan for the rest of the current turn; it is
refused in a game between players that will count (a rated game in progress is between the
players alone) and in a guided first game (its guide is its help), and a solo game in which one is
taken counts for no records. It is computed by a
task too (a few seconds of search must not hold a web process) and kept in the cache for the
game's version, so asking twice costs nothing.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from games import engine
from games.engine import review as engine_review
from games.engine.bots.players import SPIRIT_WORTH
from games.models import Game, Move, Review, Seat
from games.narration import describe, move_detail
from games.queue import enqueue, send_now
from games.results import SITE_EVENTS
from games.services.core import table_and_seat
from games.services.errors import Conflict, NotAllowed, NotFound

logger = logging.getLogger(__name__)

# A review still "running" this long after it started was lost with its worker: run it again.
STALE_REVIEW = timedelta(minutes=30)
HINT_CACHE_SECONDS = 60 * 60
PLACING = (engine.PlaceToken, engine.PlaceCube)


def _seat_in(game_id: int, user: User) -> tuple[Game, list[Seat], Seat]:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("There is no such game."))
    return game, *table_and_seat(game, user)


def review_for(game_id: int, user: User) -> tuple[Game, Seat, Review | None]:
    """The viewer's own seat in a finished game and its review, if one was asked for."""
    game, _seats, seat = _seat_in(game_id, user)
    if game.status != Game.Status.FINISHED:
        raise Conflict(_("A review is made once the game is over."))
    return game, seat, Review.objects.filter(game=game, position=seat.position).first()


def request_review(game_id: int, user: User) -> Review:
    """Ask for the review of one's own turns; asking again (or twice at once) changes nothing,
    unless the last attempt failed or was lost with its worker."""
    game, seat, _state = review_for(game_id, user)
    with transaction.atomic():
        review, created = Review.objects.get_or_create(game=game, position=seat.position)
        stale = timezone.now() - STALE_REVIEW
        retry = review.status == Review.Status.FAILED or (
            review.status == Review.Status.RUNNING and review.started_at < stale
        )
        if retry:
            Review.objects.filter(pk=review.pk).update(status=Review.Status.PENDING)
            review.status = Review.Status.PENDING
        if created or retry:
            enqueue("games.review_seat", review.pk)
    return review


def lost_reviews(now) -> list[int]:
    """Reviews waiting longer than a review takes: never queued, or lost with their worker
    (those are put back to pending, so that the task's claim takes them again)."""
    Review.objects.filter(status=Review.Status.RUNNING, started_at__lt=now - STALE_REVIEW).update(
        status=Review.Status.PENDING
    )
    waiting = Review.objects.filter(
        status=Review.Status.PENDING, created_at__lt=now - timedelta(minutes=5)
    )
    return list(waiting.values_list("pk", flat=True)[:100])


def own_turns_of(game: Game, seat: Seat) -> list[int]:
    """The turns in which the seat's player moved themself (not a stand-in, not a bot)."""
    return sorted(
        set(
            Move.objects.filter(game=game, seat=seat.position, user_id=seat.user_id)
            .exclude(action__type__in=sorted(SITE_EVENTS))
            .values_list("turn", flat=True)
        )
    )


def make_review(review_id: int) -> bool:
    """Claim a pending review and make it; False if another run has it or it is done."""
    claimed = Review.objects.filter(pk=review_id, status=Review.Status.PENDING).update(
        status=Review.Status.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return False
    review = Review.objects.select_related("game").get(pk=review_id)
    game = review.game
    seat = game.seats.get(position=review.position)
    own = own_turns_of(game, seat)
    progress = Review.objects.filter(pk=review_id)
    progress.update(turns_total=len(own), turns_done=0)
    try:
        actions = [
            engine.action_from_json(raw)
            for raw in game.moves.order_by("seq").values_list("action", flat=True)
            if raw.get("type") not in SITE_EVENTS
        ]
        turns = engine_review.review_turns(
            game.config,
            game.seed,
            actions,
            review.position,
            turns=own,
            # Each turn is seconds of search: the waiting page reads how far it has got.
            progress=lambda done: progress.update(turns_done=done),
        )
    except Exception:
        logger.exception("the review of seat %s in game %s failed", review.position, game.pk)
        Review.objects.filter(pk=review_id).update(status=Review.Status.FAILED)
        return False
    Review.objects.filter(pk=review_id).update(
        status=Review.Status.DONE,
        turns=[
            {
                **turn.to_json(),
                "played_words": plan_in_words(turn.before, list(turn.played)),
                "suggested_words": plan_in_words(turn.before, list(turn.suggested)),
            }
            for turn in turns
        ],
        finished_at=timezone.now(),
    )
    return True


# --- Hints ------------------------------------------------------------------------------------


def may_be_rated(game: Game, seats: list[Seat]) -> bool:
    """Whether hints are refused: in a game between players (bots or people) that was rated when
    it started. The same stored verdict the end keeps (`games.results.starting_reason`), never
    the players' addresses now, so unconfirming an address mid-game unlocks nothing; solo games
    and games that can no longer count allow hints (a solo game that takes one stops counting)."""
    return not game.solo and game.uncounted == Game.Uncounted.COUNTS


def hint_key(game_id: int, version: int) -> str:
    return f"hint:{game_id}:{version}"


def _hint_seat(game_id: int, user: User) -> tuple[Game, Seat]:
    game, seats, seat = _seat_in(game_id, user)
    if game.status != Game.Status.ACTIVE:
        raise Conflict(_("Hints are for games in progress."))
    if game.guided:  # the page offers none: the guide beside the board is the lesson's help
        raise NotAllowed(_("A guided first game has its guide beside the board, and no hints."))
    if may_be_rated(game, seats):
        raise NotAllowed(
            _("Hints are for solo and unrated games: in a rated game the players are on their own.")
        )
    if seat.left or seat.position != game.current_seat:
        raise Conflict(_("A hint is for your own turn."))
    return game, seat


def hint(game_id: int, user: User, *, take: bool = False) -> dict[str, Any] | None:
    """The hint for the current position if it is ready, else None after asking for it (a
    worker makes it: the answer does not wait for the bot's seconds of search).

    In a solo game that still counts, a hint is taken only with `take` (the player's form post,
    never a mere look, which a link on another site could make): the game is then marked, before
    any hint is made, as counting for no records."""
    game, _seat = _hint_seat(game_id, user)
    if game.uncounted == Game.Uncounted.COUNTS:  # solo: _hint_seat refused the others
        if not take:
            raise Conflict(
                _(
                    "Please ask for a hint with the button on the game page: "
                    "a solo game in which a hint is taken counts for no records."
                )
            )
        _mark_hinted(game)
    found = _cached_hint(game.pk, game.version)
    if found is None and _first_to_ask(game.pk, game.version):
        send_now("games.make_hint", game.pk, game.version)  # nothing to commit first
        found = _cached_hint(game.pk, game.version)  # made at once where tasks run eagerly
    return found


def _mark_hinted(game: Game) -> None:
    """The game counts for nothing from now on, whatever happens next (games.results keeps the
    reason at the end). A conditional update, not a save: it changes this column alone, and
    waits for a move being played (which holds the row) rather than overwrite it. The version
    is left alone: the hint is cached for it."""
    Game.objects.filter(
        pk=game.pk, status=Game.Status.ACTIVE, uncounted=Game.Uncounted.COUNTS
    ).update(uncounted=Game.Uncounted.HINTED)
    if game.uncounted == Game.Uncounted.COUNTS:  # a reason already stored stays, as in the row
        game.uncounted = Game.Uncounted.HINTED


def hint_state(game_id: int, version: int) -> tuple[dict[str, Any] | None, bool]:
    """For the game page: the hint for this version if made, and whether one was asked for
    (the page then waits for it). One cache read; never asks for a hint."""
    key = hint_key(game_id, version)
    try:
        found = cache.get_many([key, f"{key}:asked"])
    except Exception:
        return None, False
    return found.get(key), bool(found.get(f"{key}:asked"))


def _first_to_ask(game_id: int, version: int) -> bool:
    """One task per position, however often the waiting page asks again (a minute's claim)."""
    try:
        return cache.add(f"{hint_key(game_id, version)}:asked", True, timeout=60)
    except Exception:
        return True  # without the cache, asking again is the lesser harm


def _cached_hint(game_id: int, version: int) -> dict[str, Any] | None:
    try:
        return cache.get(hint_key(game_id, version))
    except Exception:
        logger.warning("cache unavailable reading a hint for game %s", game_id)
        return None


def make_hint(game_id: int, version: int) -> bool:
    """The hard bot's plan for the rest of the turn, in words, cached for that version only."""
    game = Game.objects.filter(pk=game_id, version=version, status=Game.Status.ACTIVE).first()
    if game is None or _cached_hint(game_id, version) is not None:
        return False  # moved on since, or made already
    state = game.engine_state()
    seat = state.current_seat
    view = engine.view_for(state, seat)
    if state.mover.spirit_options:
        keep = max(state.mover.spirit_options, key=lambda c: (SPIRIT_WORTH.get(c, 0), c))
        actions: list[engine.Action] = [engine.ChooseSpirit(keep)]
        start = state
    else:
        rng = engine_review.decision_rng(game.seed or 0, state.turn * 1000 + game.version, seat)
        plan = engine_review.suggest(view, rng)
        actions, start = plan.actions, state
    steps = plan_in_words(start, actions)
    # The hexes the plan fills, outlined on the player's board (of the steps that could be told).
    cells = [a.cell for a in actions[: len(steps)] if isinstance(a, PLACING)]
    try:
        cache.set(
            hint_key(game_id, version), {"steps": steps, "cells": cells}, timeout=HINT_CACHE_SECONDS
        )
    except Exception:
        logger.warning("cache unavailable storing a hint for game %s", game_id)
        return False
    return True


def plan_in_words(state: engine.GameState, actions: list[engine.Action]) -> list[str]:
    """One instruction per action ("Take the tokens of space 3 (...)"), told from `state` as the
    log tells moves; the end of a turn says nothing of what the refill would bring.

    In English whatever the language active: the words are stored (a review's turns) and cached
    (a hint) for everyone, and `_imperative` rewrites the log's English sentences."""
    with translation.override(settings.LANGUAGE_CODE):
        return _plan_in_words(state, actions)


def _plan_in_words(state: engine.GameState, actions: list[engine.Action]) -> list[str]:
    words = []
    for action in actions:
        try:
            after = engine.apply(state, action)
        except engine.IllegalAction:
            break  # a plan made in a sampled world cannot go further in this one
        detail = {} if isinstance(action, engine.EndTurn) else move_detail(state, action, after)
        words.append(_imperative(describe(action.to_json(), detail, "You")))
        state = after
    return words


def _imperative(sentence: str) -> str:
    """ "You took the tokens..." as an instruction: "Take the tokens..." """
    verb, _space, rest = sentence.removeprefix("You ").partition(" ")
    return f"{_BASE_FORMS.get(verb, verb).capitalize()} {rest}"


_BASE_FORMS = {"took": "take", "placed": "place", "ended": "end", "chose": "choose"}
