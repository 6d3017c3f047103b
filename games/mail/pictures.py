"""Boards as PNG pictures for the emails, drawn from the same SVG as the game page.

Mail clients show no SVG and fetch nothing from the site, so each board is rasterised (resvg) in
the worker that sends the email and attached inline (`cid:`). A board's picture depends only on
the board, so it is cached per board state: the digest of the side and the stored player JSON
(`games.models.Board.player`), plus the drawing's version. Pictures are a bonus: if anything
fails, the caller gets none, the failure is logged and the email goes out with its words.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import resvg_py
from django.core.cache import cache
from django.utils.translation import gettext as _

from games import engine
from games.models import Board, Game, Seat
from games.pictures.boards import board_svg
from games.pictures.palette import PAPER

if TYPE_CHECKING:
    from games.mail.since import ToldTurn
    from games.presenters.recap import Recap

logger = logging.getLogger(__name__)

# 600 device pixels shown 300 CSS pixels wide: sharp on a phone (2x) and a sixth of its width
# spare on the narrowest one. Shapes are drawn without anti-aliasing (text keeps it): at twice
# the density their edges still look smooth, and a board weighs 35 kB instead of 120 kB.
# Bump DRAWING when the board's drawing changes: the cached pictures are then left to expire.
PIXELS_WIDE = 600
SHOWN_WIDE = 300
DRAWING = 1
CACHE_SECONDS = 14 * 24 * 3600


@dataclass(frozen=True)
class Picture:
    """One inline image: `cid` is its Content-ID (without brackets), `alt` says it in words, and
    `note` (if any) what is new on it."""

    cid: str
    alt: str
    png: bytes
    width: int
    height: int
    note: str = ""


def board_png(side: str, player: dict[str, Any], fresh: Collection[str] = ()) -> bytes:
    """The PNG of one board (the engine's player JSON), the hexes in `fresh` outlined in gold as
    the page marks what is new; from the cache when drawn before."""
    key = f"mailpic:{DRAWING}:{PIXELS_WIDE}:{_digest(side, player, fresh)}"
    png = cache.get(key)
    if png is None:
        png = _render(side, player, fresh)
        cache.set(key, png, CACHE_SECONDS)
    return png


def _digest(side: str, player: dict[str, Any], fresh: Collection[str] = ()) -> str:
    marked = [sorted(fresh)] if fresh else []  # an unmarked board keeps the key it always had
    text = json.dumps([side, player, *marked], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _render(side: str, player: dict[str, Any], fresh: Collection[str] = ()) -> bytes:
    state = engine.PlayerState.from_json(player)
    names = engine.geometry(side).names
    stacks = {names[i]: stack for i, stack in enumerate(state.stacks) if stack}
    cubes = [names[i] for i in range(len(names)) if state.cube_mask >> i & 1]
    # board_svg draws everything inline (no sprite symbols), as a picture leaving the site must.
    svg = board_svg(side, stacks, cubes, fresh=fresh)
    png = resvg_py.svg_to_bytes(
        svg_string=str(svg), width=PIXELS_WIDE, background=PAPER, shape_rendering="optimize_speed"
    )
    return bytes(png)


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (IHDR comes first)."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def latest_boards(game: Game, positions: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Each seat's latest stored board (the engine's player JSON), one query; a seat that has
    not ended a turn yet (or a game older than the stored boards) reads the game's state."""
    wanted = set(positions)
    boards: dict[int, dict[str, Any]] = {}
    rows = Board.objects.filter(game=game, position__in=wanted).order_by("-move_seq")
    for position, player in rows.values_list("position", "player"):
        boards.setdefault(position, player)
    missing = wanted - set(boards)
    if missing:
        state = game.engine_state()
        boards.update({p: state.players[p].to_json() for p in missing})
    return boards


def turn_pictures(
    game: Game, seat: Seat, told: Sequence[ToldTurn], recaps: Sequence[Recap]
) -> list[Picture]:
    """The turn email's pictures: the recipient's board as they left it, then the board of each
    player who played since, in the order they played, what is new on it since the recipient's
    own last turn outlined in gold (`recaps`, as the page marks "since your last visit"). A board
    on which nothing changed is left out; none at all before the first move."""
    if not told:
        return []
    changed = {r.position: r for r in recaps}
    shown = [Shown(seat.position, _("Your board, as you left it"))]
    for turn in told:
        new = changed.pop(turn.position, None)
        if new is None or turn.position == seat.position:
            continue
        shown.append(
            Shown(
                turn.position,
                _("%(name)s's board after their turn") % {"name": turn.name},
                new.cells,
                _("New since your last turn, outlined in gold: %(what)s.") % {"what": new.sentence},
            )
        )
    return board_pictures(game, shown)


def game_over_pictures(game: Game, seats: list[Seat], seat: Seat) -> list[Picture]:
    """The game-over email's pictures: the recipient's final board, then the winner's (the first
    of the winners after a tie) unless the recipient is the one."""
    shown = [Shown(seat.position, _("Your final board"))]
    winner = min(seats, key=lambda s: (s.rank or len(seats) + 1, s.position))
    if winner.pk != seat.pk:
        alt = _("The winner %(name)s's final board") % {"name": winner.user.public_name}
        shown.append(Shown(winner.position, alt))
    return board_pictures(game, shown, final=True)


@dataclass(frozen=True)
class Shown:
    """A board to show: whose (`position`), said in words, with its `fresh` hexes marked."""

    position: int
    alt: str
    fresh: Collection[str] = ()
    note: str = ""


def board_pictures(game: Game, shown: list[Shown], *, final: bool = False) -> list[Picture]:
    """Pictures of the boards `shown`, in order: the latest stored boards, or with `final` the
    boards of the game's final state (what the final scores were counted from). None at all if
    drawing fails (logged), so the email still goes out."""
    try:
        if final:
            state = game.engine_state()
            boards = {s.position: state.players[s.position].to_json() for s in shown}
        else:
            boards = latest_boards(game, [s.position for s in shown])
        pictures = []
        for board in shown:
            player = boards[board.position]
            png = board_png(game.side, player, board.fresh)
            width, height = png_size(png)
            digest = _digest(game.side, player, board.fresh)[:12]
            pictures.append(
                Picture(
                    cid=f"board-{game.pk}-{board.position}-{digest}",
                    alt=board.alt,
                    png=png,
                    width=SHOWN_WIDE,
                    height=round(height * SHOWN_WIDE / width),
                    note=board.note,
                )
            )
        return pictures
    except Exception:
        logger.exception("Drawing the boards of game %s for an email failed", game.pk)
        return []
