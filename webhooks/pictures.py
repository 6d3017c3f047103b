"""The final boards of a game as PNG, at addresses that Discord and Slack fetch on their own.

The address carries the game and seat signed with the site's secret (django.core.signing), so it
cannot be guessed or changed to another board; it shows only a finished game's final board, the
same picture the game-over email attaches (games.mail.pictures, cached per board), and a game of
the deal of the week's only once that week has closed.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse

from games.mail.pictures import board_png
from games.models import Game

SALT = "webhooks.board"
MAX_TOKEN_CHARS = 120


def board_url(game_id: int, position: int) -> str:
    token = signing.dumps([game_id, position], salt=SALT)
    return settings.SITE_URL + reverse("webhooks:board", args=[token])


def unsigned(token: str) -> tuple[int, int] | None:
    """(game id, position) the token was signed for, or None for anything else."""
    if len(token) > MAX_TOKEN_CHARS:
        return None
    try:
        value = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return None
    return value[0], value[1]


def kept_secret(game: Game) -> bool:
    """Whether the game's boards are still a secret from whoever holds a picture's address: a
    game of the deal of the week shows the deal's pouch order until its week closes (the score
    sheet's own rule, WeeklyDeal.revealed_to, for a viewer nobody knows)."""
    return game.weekly_deal_id is not None and game.weekly_deal.is_open()


def final_board_png(game_id: int, position: int) -> bytes | None:
    """The PNG of seat `position`'s final board, or None unless the game is finished (and its
    deal of the week, if any, closed)."""
    game = Game.objects.finalized().filter(pk=game_id).first()
    if game is None or getattr(game, "guided", False) or kept_secret(game):
        return None
    state = game.engine_state()
    if not 0 <= position < len(state.players):
        return None
    return board_png(game.side, state.players[position].to_json())
