"""How a finished game's result is decided and whether it counts, in one place.

The writer calls these in the transaction that ends a game and stores what they say (every seat's
place, and why the game counts for nothing if it does not); every page, list, email and the
records then read those stored values, so the sheet, the game page, the profile, History and the
emails can never disagree about a result or its reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.identity import normalised_email
from games import engine
from games.models import Game, Move, Seat, names_in_words
from games.models.history import SITE_EVENTS

# A game counts (wins, ratings, records, suns) only if every person at the table played at least
# this many turns of their own; a game ended early before that is abandoned (docs, rules).
MIN_OWN_TURNS = 3


def played_enough(seats: Iterable[Seat]) -> bool:
    """Whether every person (bots aside) played MIN_OWN_TURNS turns of their own: the one rule
    behind abandoned games and behind which games move ratings, wins and leaderboards."""
    return not short_of_turns(seats)


def short_of_turns(seats: Iterable[Seat]) -> list[Seat]:
    """The people (bots aside) who played fewer than MIN_OWN_TURNS turns of their own."""
    return [
        seat
        for seat in seats
        if not seat.user.is_bot and (seat.own_turns is None or seat.own_turns < MIN_OWN_TURNS)
    ]


def own_turns(game: Game) -> dict[int, int]:
    """Turns in which each seat's player made a move themselves (not a bot, not a stand-in)."""
    rows = (
        Move.objects.filter(game=game, user__isnull=False)
        .exclude(action__type__in=sorted(SITE_EVENTS))
        .order_by()  # no default ordering columns in the DISTINCT
        .values_list("seat", "turn")
        .distinct()
    )
    counts: dict[int, int] = {}
    for position, _turn in rows:
        counts[position] = counts.get(position, 0) + 1
    return counts


# --- Places -------------------------------------------------------------------------------------

# The three groups of a final ranking, best first (the words are the sheet's and the page's).
IN_TIME, TIMED_OUT, LEFT = 2, 1, 0
RANKING_RULE = gettext_lazy(
    "Players who played every turn in time rank first, by score (ties broken by animal cubes "
    "placed; equal on both, the place is shared). Then those whose time ran out on a turn (a "
    "stand-in played it) but who stayed to the end, by score in the same way. Last, those who "
    "resigned or were dropped, the latest to leave first."
)


def standing(seat: Seat) -> int:
    """Which group of the ranking a seat belongs to (IN_TIME, TIMED_OUT or LEFT)."""
    if seat.left:
        return LEFT
    return TIMED_OUT if seat.timed_out_at is not None else IN_TIME


def is_winner(game: Game, seat: Seat) -> bool:
    """Whether the game's page and its score sheet call this seat the winner: first, in a game
    with others that was not abandoned, and still at the table. Whether the game counts for
    ratings and records is told apart (`counting_sentence`): an unrated game still has a winner."""
    abandoned = game.end_reason == Game.EndReason.ABANDONED
    return seat.rank == 1 and not abandoned and not seat.left and not game.solo


def placing(state: engine.GameState, seats: list[Seat]) -> dict[int, int]:
    """Each position's final place: by group (in time, timed out but stayed, left); within the
    first two by score then animal cubes, within the last the latest to leave first. Equal keys
    share a place. When everyone ran out of time once, the score decides among them all."""
    by_position = {seat.position: seat for seat in seats}
    key = {}
    for p in engine.ranking(state):
        seat = by_position.get(p.seat)
        group = standing(seat) if seat is not None else IN_TIME
        if group == LEFT:
            left = min(t for t in (seat.resigned_at, seat.dropped_at) if t)
            key[p.seat] = (group, left.timestamp(), 0)
        else:
            key[p.seat] = (group, p.total, p.animal_cubes)
    return {seat: 1 + sum(1 for k in key.values() if k > mine) for seat, mine in key.items()}


# --- Whether the game counts --------------------------------------------------------------------


# Reasons decided before the game ends (when it starts, or by a hint taken during play): the
# end keeps them, so that nothing a player does to their account afterwards can change them.
DECIDED_IN_PLAY = frozenset(
    {Game.Uncounted.UNCONFIRMED, Game.Uncounted.SAME_ADDRESS, Game.Uncounted.HINTED}
)


def starting_reason(seats: list[Seat]) -> str:
    """Why a game that is starting can never count, from its players' addresses; "" when it can.

    Decided once, when the game starts, and stored on the game (`Game.uncounted`): whether a game
    is rated is then fixed for its whole length. A player who changes (and so unconfirms) their
    address during a rated game can neither unlock the hard bot's hints nor void the result, and
    confirming an address during an unrated game does not make it count. Every person at the
    table needs a confirmed address (issue 12: no farming with throwaway accounts), and no two
    may share one once normalised (`me+1@` and `me+2@` are one mailbox: sock puppets)."""
    people = [seat.user for seat in seats if not seat.user.is_bot]
    if not all(user.can_play_rated for user in people):
        return Game.Uncounted.UNCONFIRMED
    mailboxes = {normalised_email(user.email) for user in people}
    if len(mailboxes) < len(people):
        return Game.Uncounted.SAME_ADDRESS
    return Game.Uncounted.COUNTS


def uncounted_reason(game: Game, seats: list[Seat]) -> str:
    """Why a game that just ended counts for no wins, ratings or records, as a code stored on the
    game (`Game.Uncounted`); "" when it counts. Seats carry their own turns and users. What was
    decided during play (`starting_reason`, a hint) stays; the accounts' state now is not read.
    A guided first game is a lesson, however it ended: it never counts."""
    if game.guided:
        return Game.Uncounted.GUIDED
    if game.end_reason == Game.EndReason.ABANDONED:
        return Game.Uncounted.ABANDONED
    if game.solo and any(seat.left for seat in seats):
        return Game.Uncounted.SOLO_RESIGNED
    if game.uncounted in DECIDED_IN_PLAY:
        return game.uncounted
    if not played_enough(seats):
        return Game.Uncounted.FEW_TURNS
    return Game.Uncounted.COUNTS


def counts(game: Game) -> bool:
    """Whether a finished game moves ratings, wins and leaderboards, as stored when it ended."""
    return game.uncounted == Game.Uncounted.COUNTS


def uncounted_words(game: Game, seats: list[Seat] | None = None) -> str:
    """The stored reason in a player's words, "" when the game counts: "it was abandoned before
    everyone had played 3 turns of their own". `seats` (with users) name who played too few."""
    reason = game.uncounted
    turns = {"turns": MIN_OWN_TURNS}
    if reason == Game.Uncounted.COUNTS:
        return ""
    if reason == Game.Uncounted.ABANDONED:
        if game.solo:
            return _("it was abandoned before %(turns)s turns were played") % turns
        return _("it was abandoned before everyone had played %(turns)s turns of their own") % turns
    if reason == Game.Uncounted.SOLO_RESIGNED:
        return _("a resigned solo game counts for nothing")
    if reason == Game.Uncounted.UNCONFIRMED:
        if game.solo:
            # Decided when the game starts since games 0018, when it ended before: words for both.
            return _("the player's email address was not confirmed")
        return _("not every player at the table had confirmed their email address")
    if reason == Game.Uncounted.SAME_ADDRESS:
        return _("two players at the table shared one email address")
    if reason == Game.Uncounted.HINTED:
        return _("a hint from the hard bot was taken during it")
    if reason == Game.Uncounted.GUIDED:
        return _("it was a guided first game, a lesson")
    short = short_of_turns(seats or [])
    if short:
        names = names_in_words([seat.user.public_name for seat in short])
        return ngettext(
            "%(names)s was short of %(turns)s turns of their own",
            "%(names)s were short of %(turns)s turns of their own",
            len(short),
        ) % {"names": names, **turns}
    return _("a player at the table played fewer than %(turns)s turns of their own") % turns


def counting_sentence(game: Game, seats: list[Seat] | None = None) -> str:
    """One sentence for the sheet, the game page and the emails: "" when the game counts."""
    words = uncounted_words(game, seats)
    if not words:
        return ""
    return _("This game counts for no wins, ratings or records: %(reason)s.") % {"reason": words}


def _and(names: list[Any]) -> str:
    names = [str(n) for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
