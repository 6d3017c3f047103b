"""What the site stores about a game. The engine state is the board; the move log plus the seed is
the source of truth (`manage.py verify_games` replays every game and compares).

The state is kept as the engine's canonical JSON text (not a JSONField), so it stays byte-identical
to what the engine wrote and replays can be compared byte for byte.
"""

from .game import Card, Game, GameQuerySet, Seat, english_names, names_in_words, new_invite_token
from .history import Board, Move, Review
from .plans import NOTES_LIMIT, Plan
from .reports import Report, ReportAction
from .social import INVITATION_LIFETIME, AddressInvitationSent, Invitation, Message
from .weekly import WeeklyDeal

__all__ = [
    "INVITATION_LIFETIME",
    "NOTES_LIMIT",
    "AddressInvitationSent",
    "Board",
    "Card",
    "Game",
    "GameQuerySet",
    "Invitation",
    "Message",
    "Move",
    "Plan",
    "Report",
    "ReportAction",
    "Review",
    "Seat",
    "WeeklyDeal",
    "english_names",
    "names_in_words",
    "new_invite_token",
]
