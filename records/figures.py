"""A finished game's score figures from its stored state, as plain values.

Why apart from the writer: it is pure (no database, no model), so the rebuild can hand it to
worker processes, which is where a rebuild of a long history spends its time (parsing and
scoring, about 1 ms a game), while the database reads, the ratings and the writes stay in one
process and in one order.
"""

from __future__ import annotations

from typing import Any

from games import engine


def seat_figures(state_text: str, ranks: dict[int, int | None], solo_counts: bool) -> dict:
    """Places (the stored ranks, or the engine's ranking when one is missing) and each seat's
    sheet by category, animal cubes, suns (a solo game that counts) and cards taken."""
    state = engine.state_from_json(state_text)
    sheets = engine.score_sheets(state)
    places = dict(ranks)
    if None in places.values():  # not expected after finalize; the engine's ranking is the rule
        places = {p.seat: p.place for p in engine.ranking(state, sheets)}
    seats: dict[int, dict[str, Any]] = {}
    for position in ranks:
        sheet, player = sheets[position], state.players[position]
        seats[position] = {
            "trees": sheet.trees,
            "mountains": sheet.mountains,
            "fields": sheet.fields,
            "buildings": sheet.buildings,
            "water": sheet.water,
            "animals": sheet.animals,
            "spirit": sheet.spirit,
            "total": sheet.total,
            "animal_cubes": engine.animal_cubes(player),
            "suns": engine.suns(state, sheet.total) if solo_counts else None,
            "cards": [card_id for card_id, _ in player.cards] + list(player.completed),
        }
    return {"places": places, "seats": seats}


def seat_figures_of(job: tuple[str, dict[int, int | None], bool]) -> dict:
    """`seat_figures` of one (state, ranks, solo_counts): the shape a process pool maps."""
    return seat_figures(*job)
