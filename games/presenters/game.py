"""Everything the game page shows, computed once per request from the stored state.

The page never sees the engine state itself, only `engine.view_for` (no hidden orders) plus the
answers the engine gives about legal moves, so nothing secret can leak into the HTML.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import tzinfo
from functools import cached_property, partial
from typing import Any

from django.conf import settings
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from markupsafe import Markup, escape

from games import engine, presence, results, services
from games.models import Game, Move, Seat, recent_moves
from games.narration import COLOUR_WORDS, cell_words, describe, end_words, seat_mark
from games.pictures.boards import board_svg
from games.pictures.sprite import sprite_url
from games.presenters import plans, shared_parts
from games.presenters.clocks import clock_line
from games.presenters.guide import guide_panel
from games.presenters.help import reminder_open, score_explanations
from games.presenters.recap import Recap
from games.presenters.talk import Conversation
from games.services import coaching
from harmonies_site.addresses import url

LOG_LENGTH = recent_moves.KEPT  # the newest moves on the game page; the whole log has a page
CATEGORIES = [
    ("trees", gettext_lazy("Trees")),
    ("mountains", gettext_lazy("Mountains")),
    ("fields", gettext_lazy("Fields")),
    ("buildings", gettext_lazy("Buildings")),
    ("water", gettext_lazy("Water")),
    ("animals", gettext_lazy("Animal cards")),
    ("spirit", gettext_lazy("Nature's Spirit")),
]


@dataclass
class PlayerPanel:
    seat: Seat
    name: str
    view: dict[str, Any]
    sheet: engine.ScoreSheet
    is_me: bool
    is_current: bool
    cube_options: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    draw_board: Callable[[], str] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def board(self) -> str:
        """Drawn when a template shows it: a move's answer often leaves this board alone."""
        return self.draw_board() if self.draw_board is not None else ""


def _hx(url: str, **values: Any) -> dict[str, str]:
    return {"hx-post": url, "hx-vals": json.dumps(values), "hx-target": "#notice"}


def game_page(
    game: Game,
    seats: list[Seat],
    viewer_seat: Seat | None,
    *,
    token: str | None = None,
    card: str | None = None,
    log: list[dict[str, Any]] | None = None,
    recaps: list[Recap] = (),
    others_shown: bool = True,
) -> dict[str, Any]:
    """The template context for a started game as `viewer_seat` (None: a spectator) sees it.
    `log` replaces the newest moves read from the database (an answer that adds one entry);
    `recaps` say what the other players did since the viewer last looked; without
    `others_shown` (an answer whose fragments leave the other boards alone) they are not drawn."""
    state = game.engine_state()
    # Over when the game's status says so (an early end leaves the engine's state unfinished).
    finished = game.status == Game.Status.FINISHED
    me = viewer_seat.position if viewer_seat else None
    view = engine.view_for(state, me)
    act_url = url("games:act", game.pk)  # remembered per process: reverse() took 50 us
    i_left = viewer_seat is not None and viewer_seat.left
    my_turn = me is not None and me == state.current_seat and not finished and not i_left
    sheets = game.score_sheets()
    by_position = {s.position: s for s in seats}
    legal = engine.legal_actions(state) if my_turn else []
    takeable_spaces = {a.space for a in legal if isinstance(a, engine.TakeTokens)}
    takeable_cards = {a.card_id for a in legal if isinstance(a, engine.TakeCard)}
    spirit_choices = [a.card_id for a in legal if isinstance(a, engine.ChooseSpirit)]
    discardable = [a.discard for a in legal if isinstance(a, engine.EndTurn) and a.discard]

    if token not in view["hand"] or not my_turn:
        token = None
    panels = []
    for position, pview in enumerate(view["players"]):
        seat = by_position[position]
        panels.append(
            PlayerPanel(
                seat=seat,
                name=seat.user.public_name,
                view=pview,
                sheet=sheets[position],
                is_me=position == me,
                is_current=position == state.current_seat and not finished,
            )
        )
    mine = panels[me] if me is not None else None

    targets: dict[str, dict[str, str]] = {}
    habitat: set[str] = set()
    if mine is not None:
        mine.cube_options = engine.cube_options(state, me) if my_turn else {}
        if card not in mine.cube_options:
            card = None
        if token:
            for cell in engine.token_targets(state, token):
                targets[cell] = {
                    **_hx(act_url, type="place_token", colour=token, cell=cell),
                    "aria-label": _("Place %(token)s in %(hex)s")
                    % {"token": COLOUR_WORDS[token], "hex": cell_words(cell)},
                }
        elif card:
            name = _(engine.card(card).name)
            for cell, cells in mine.cube_options[card].items():
                habitat.update(cells)
                targets[cell] = {
                    **_hx(act_url, type="place_cube", card_id=card, cell=cell),
                    "aria-label": _("Place a %(card)s cube in %(hex)s")
                    % {"card": name, "hex": cell_words(cell)},
                }
    columns = sorted(panels, key=lambda panel: not panel.is_me)
    names = engine.geometry(game.side).names
    fresh = {recap.position: recap.cells for recap in recaps}
    # Solo and unrated games only: in a game that may be rated the players are on their own,
    # and a lesson has its guide (coaching refuses both).
    hint_allowed = my_turn and not game.guided and not coaching.may_be_rated(game, seats)
    hint, hint_asked = coaching.hint_state(game.pk, game.version) if hint_allowed else (None, False)
    marks = Marks(targets, habitat, fresh, set(hint.get("cells", ())) if hint else set())
    for panel in panels:
        if panel.is_me or others_shown:
            panel.draw_board = partial(_board_picture, game, panel, names, marks)
    # The viewer's own plan (None for anyone else); on their turn its hexes are outlined.
    plan = plans.for_page(game, viewer_seat, state, view, my_turn=my_turn)
    if plan is not None and my_turn and plan.pencilled_cells:
        mine.draw_board = plans.outlined(mine.draw_board, plan.pencilled_cells)

    return {
        "game": game,
        "act_url": act_url,
        "poll_seconds": settings.AUTOMATIC_TURN_POLL_SECONDS
        if services.is_automatic(by_position[state.current_seat]) and not finished
        else settings.GAME_POLL_SECONDS,
        "presence_token": presence.token_for(game.pk, viewer_seat.user_id) if viewer_seat else "",
        "state_view": view,
        "panels": panels,
        "mine": mine,
        "others": [p for p in panels if not p.is_me],
        "my_turn": my_turn,
        "deadline": game.turn_deadline,
        # The clock's own words: a turn's time or the mover's bank, counted as the clock counts.
        "clock_line": clock_line(game, by_position[state.current_seat], viewer_seat)
        if not finished
        else "",
        "timed_out": services.timed_out(game) and not my_turn,
        "i_resigned": i_left,
        "i_left_words": _left_words(viewer_seat) if i_left else "",
        "resign_ends_game": viewer_seat is not None
        and services.leaving_ends_game(seats, viewer_seat),
        "current_name": by_position[state.current_seat].user.public_name,
        "current_away": by_position[state.current_seat].user.away_label,
        "selected_token": token,
        "selected_card": card,
        "targets": sorted(targets),
        "takeable_spaces": takeable_spaces,
        "takeable_cards": takeable_cards,
        "spirit_choices": spirit_choices,
        "discardable": discardable,
        "categories": CATEGORIES,
        # The viewer's own column first, then the others in turn order.
        "score_rows": score_rows(
            [p.sheet for p in columns], [p.view["animal_cubes"] for p in columns]
        ),
        "player_names": [p.name for p in columns],
        # How each figure of the score table adds up (worked out when the table is drawn), and
        # whether the turn reminder starts open (games.presenters.help: at most one query).
        "score_help": partial(
            score_explanations, game.side, [p.view for p in columns], [p.sheet for p in columns]
        ),
        "turn_reminder_open": viewer_seat is not None
        and not finished
        and reminder_open(viewer_seat.user),
        "finished": finished,
        "ranking": final_ranking(game, seats, [p.view["animal_cubes"] for p in panels])
        if finished
        else [],
        "end_words": end_words(game, seats) if finished else "",
        "counting": results.counting_sentence(game, seats) if finished else "",
        "ranking_rule": results.RANKING_RULE,
        "suns": engine.suns(state, sheets[0].total) if game.solo else None,
        "log": _log(game, by_position, tz=_viewer_tz(viewer_seat)) if log is None else log,
        "log_limit": LOG_LENGTH,
        "recaps": recaps,
        "hint_allowed": hint_allowed,
        "hint": hint,
        "hint_asked": hint_asked,
        # The guided first game's guide (None for every other game).
        "guide": guide_panel(game, viewer_seat),
        "plan": plan,
        # The table's watch links, for its players only (the token is their secret to share).
        "watch_link": _absolute(url("games:watch-link", game.pk, game.watch_token))
        if viewer_seat is not None and game.watch_token
        else "",
        "open_watch_link": _absolute(url("games:watch", game.pk)) if viewer_seat else "",
        # A watcher's page (games.views.watching) sets these: what it polls and redraws from.
        "watching": False,
        "page_url": url("games:detail", game.pk),
        "watch_poll_token": "",
        # Read only if the page draws the talk: a move's fragments leave it alone.
        "talk": Conversation(game, viewer_seat, viewer_seat.user_id if viewer_seat else None),
    }


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


@dataclass(frozen=True)
class Marks:
    """What the viewer's own boards show beyond the stacks: the targets of their selection and
    a card's habitat, the hexes of the hard bot's hint (their board), and what is new since their
    last look (the others' boards, by position)."""

    targets: dict[str, dict[str, str]]
    habitat: set[str]
    fresh: dict[int, set[str]]
    suggested: set[str]


def _board_picture(game: Game, panel: PlayerPanel, names: tuple[str, ...], marks: Marks) -> str:
    """A panel's board. One with the viewer's own marks is theirs alone; a plain one is the same
    for every viewer of this version of the game, and kept (games.presenters.shared_parts)."""
    own_targets = marks.targets if panel.is_me else None
    own_habitat = marks.habitat if panel.is_me else ()
    suggested = marks.suggested if panel.is_me else ()
    new_cells = () if panel.is_me else marks.fresh.get(panel.seat.position, ())
    title = _("%(name)s's board") % {"name": panel.name}

    def draw() -> str:
        return board_svg(
            game.side,
            panel.view["stacks"],
            panel.view["cube_hexes"],
            targets=own_targets,
            habitat=own_habitat,
            emphasis=[names[i] for i in panel.sheet.river_path],
            fresh=new_cells,
            suggested=suggested,
            title=title,
            compact=not panel.is_me,
            sprite=sprite_url(),
        )

    if own_targets or own_habitat or new_cells or suggested:
        return draw()
    return shared_parts.board_picture(game, panel.seat.position, (title, not panel.is_me), draw)


def score_rows(sheets: list, animal_cubes: list[int]) -> list[dict[str, Any]]:
    """The score sheet's rows, one value per player: anything with the category attributes
    (an engine ScoreSheet, a stored result) will do."""
    # Every row has every key: a key missing from a dict costs the template a dir() per lookup.
    rows = [
        {
            "key": key,  # the category, which its explanation is filed under (presenters.help)
            "label": str(label),
            "values": [getattr(sheet, key) for sheet in sheets],
            "total": False,
        }
        for key, label in CATEGORIES
    ]
    rows.append(
        {
            "key": "total",
            "label": _("Total"),
            "values": [sheet.total for sheet in sheets],
            "total": True,
        }
    )
    rows.append(
        {
            "key": "animal_cubes",
            "label": _("Animal cubes placed (tie-break)"),
            "values": animal_cubes,
            "note": True,
        }
    )
    for row in rows:
        row.setdefault("note", False)
    return rows


def final_ranking(
    game: Game, seats: list[Seat], animal_cubes: list[int] | None = None
) -> list[dict[str, Any]]:
    """The ranking the writer stored when the game ended (never the engine's): place, name,
    score, whether the place is shared, a mark for players who left or ran out of time, and
    whether the line is the winner's (first in a game not abandoned, and still at the table)."""
    per_place: dict[int, int] = {}
    for seat in seats:
        per_place[seat.rank] = per_place.get(seat.rank, 0) + 1
    return [
        {
            "place": seat.rank,
            "name": seat.user.public_name,
            "total": seat.final_score,
            "shared": per_place[seat.rank] > 1,
            "mark": seat_mark(seat),
            "standing": results.standing(seat),
            "won": results.is_winner(game, seat),
            "is_bot": seat.user.is_bot,
            "animal_cubes": animal_cubes[seat.position] if animal_cubes else None,
        }
        for seat in sorted(seats, key=lambda s: (s.rank or 0, s.position or 0))
    ]


def _left_words(seat: Seat) -> str:
    if seat.resigned_at is not None:
        return _("You resigned from this game: a stand-in plays your turns.")
    return _("You were dropped from this game when your turn's time ran out.")


def _viewer_tz(seat: Seat | None) -> tzinfo:
    """The viewer's own time zone: the page is drawn for them, whoever the process served last."""
    return seat.user.tzinfo if seat is not None else timezone.get_current_timezone()


def _log(game: Game, by_position: dict[int, Seat], limit: int | None = LOG_LENGTH, *, tz) -> list:
    """The move log in words, newest first; the newest moves are shared by every viewer."""

    def read() -> list[recent_moves.Row]:
        kept = recent_moves.newest(game, limit) if limit is not None else None
        if kept is not None:
            return kept  # from the game row: no query
        moves = Move.objects.filter(game=game).order_by("-seq")[:limit]
        return list(moves.values_list("seq", "seat", "turn", "action", "detail", "created_at"))

    def entries() -> list[dict[str, Any]]:
        return [_log_entry(by_position, *row, tz=tz) for row in read()]

    if limit is None:
        return entries()
    names = tuple(seat.user.public_name for seat in by_position.values())  # in seat order
    return shared_parts.log_entries(game, limit, str(tz), names, entries)


def log_entry(move: Move, seats: list[Seat], viewer: Seat | None) -> dict[str, Any]:
    """One move as the log shows it to `viewer`."""
    by_position = {s.position: s for s in seats}
    return _log_entry(
        by_position,
        move.seq,
        move.seat,
        move.turn,
        move.action,
        move.detail,
        move.created_at,
        tz=_viewer_tz(viewer),
    )


def _log_entry(by_position, seq, position, turn, action, detail, created_at, *, tz) -> dict:
    """Times are formatted here, once per entry: three template date filters per entry cost a
    third of the page's rendering time. The entry's HTML too: the page prints 25 entries, kept
    with the log (games.presenters.shared_parts), so a viewer after the first reads them
    ready-made."""
    at = timezone.localtime(created_at, tz)
    text = describe(action, detail, _seat_name(by_position, position))
    # Django's own formatting: the month's name in the active language (strftime's is English).
    iso, title, clock = at.isoformat(), dateformat.format(at, "d M Y, H:i"), at.strftime("%H:%M")
    # Each value escaped by markupsafe, as the Jinja page escaped them: 4.7 us an entry, where
    # Markup.format (the same escaping through string.Formatter) takes 15.5.
    html = Markup(
        f'<li value="{seq}"><time datetime="{escape(iso)}" title="{escape(title)}">'
        f"{escape(clock)}</time> {escape(text)}</li>"
    )
    return {
        "seq": seq,
        "turn": turn,
        "text": text,
        "iso": iso,
        "title": title,
        "clock": clock,
        "html": html,
    }


def _seat_name(by_position: dict[int, Seat], position: int) -> str:
    seat = by_position.get(position)
    return seat.user.public_name if seat else _("Seat %(number)s") % {"number": position + 1}


def full_log(game: Game, seats: list[Seat], viewer: Seat | None) -> list:
    return _log(game, {s.position: s for s in seats}, limit=None, tz=_viewer_tz(viewer))
