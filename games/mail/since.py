"""What a "your turn" email tells: every turn since the player's own last one, in the order played.

Turns pass round the table one seat at a time, so in a game of three or four the turns between
two of a player's own are each other player's, once. Each is told by its moves (what stood at its
end: a reset took back what came before it, though not a resignation or a drop logged meanwhile)
and named for how it was played: by its player (or a bot), by a stand-in for a player who left,
by a stand-in because the player's time ran out, or after the player was dropped for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game, Move, Seat, names_in_words
from games.narration import describe
from games.results import SITE_EVENTS

PLAYED, STAND_IN, TIMED_OUT, DROPPED = "played", "stand_in", "timed_out", "dropped"


@dataclass(frozen=True)
class ToldTurn:
    """One other player's turn, as the email tells it."""

    turn: int
    position: int
    name: str
    kind: str
    sentences: tuple[str, ...]


def turns_since_last(game: Game, seats: list[Seat], seat: Seat, turn: int) -> list[ToldTurn]:
    """The turns played since `seat`'s own last one, up to its turn `turn` (none on turn 0)."""
    first = max(0, turn - game.players + 1)
    if first >= turn:
        return []
    names = {s.position: s.user.public_name for s in seats}
    moves = list(game.moves.filter(turn__gte=first, turn__lt=turn).order_by("seq"))
    first_seat = game.engine_state().first_seat
    told = []
    for t in range(first, turn):
        position = (first_seat + t) % game.players
        stood = _standing([m for m in moves if m.turn == t])
        told.append(
            ToldTurn(
                turn=t,
                position=position,
                name=names.get(position) or _("A player"),
                kind=_kind(stood, position),
                sentences=tuple(
                    describe(m.action, m.detail, names.get(m.seat) or _("A player")) for m in stood
                ),
            )
        )
    return told


def _standing(moves: list[Move]) -> list[Move]:
    """The moves that stood at the end of a turn: a reset took back the turn's moves before it,
    not what the site logged meanwhile (someone resigning, the late player being dropped)."""
    resets = [i for i, m in enumerate(moves) if m.action.get("type") == "reset_turn"]
    if not resets:
        return moves
    cut = resets[-1]
    kept = [m for m in moves[:cut] if m.action.get("type") in SITE_EVENTS]
    return kept + moves[cut + 1 :]


def _kind(moves: list[Move], position: int) -> str:
    if any(m.action.get("type") == "drop" and m.seat == position for m in moves):
        return DROPPED
    last = next((m for m in reversed(moves) if m.seat == position), None)
    if last is None or last.user_id is not None or last.detail.get("bot"):
        return PLAYED
    return TIMED_OUT if last.detail.get("timed_out") else STAND_IN


def headline(told: list[ToldTurn]) -> str:
    """What happened since the player's last turn, short enough for a subject or a push:
    "Bob has played", "Alice and Bob have played", "Alice played, Bob's time ran out". In the
    active language: the callers speak the recipient's."""
    if not told:
        return ""
    if all(t.kind == PLAYED for t in told):
        names = names_in_words([t.name for t in told])
        return ngettext("%(names)s has played", "%(names)s have played", len(told)) % {
            "names": names
        }
    if len(told) == 1:
        (only,) = told
        sentence = {
            STAND_IN: _("A stand-in played for %(name)s"),
            TIMED_OUT: _("%(name)s's time ran out, a stand-in played"),
            DROPPED: _("%(name)s ran out of time and was dropped"),
        }[only.kind]
        return sentence % {"name": only.name}
    parts = [
        {
            PLAYED: _("%(name)s played"),
            STAND_IN: _("a stand-in played for %(name)s"),
            TIMED_OUT: _("%(name)s's time ran out"),
            DROPPED: _("%(name)s was dropped"),
        }[t.kind]
        % {"name": t.name}
        for t in told
    ]
    # Translators: the separator between the parts of a list of what happened ("Ann played, Bob
    # was dropped").
    text = _(", ").join(parts)
    return text[:1].upper() + text[1:]
