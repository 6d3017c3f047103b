"""The score sheet as an HTML table, one column per player and one row per category.

Drawn in Python because two template engines show it: the game page (Jinja2) and the score
sheet (Django templates); one definition keeps them the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from markupsafe import escape

from games.engine import ScoreLine
from games.presenters.help import rules_link

_ROW_CLASS = {"total": ' class="total-row"', "note": ' class="note-row"'}


def _row_class(row: dict[str, Any]) -> str:
    kind = "total" if row.get("total") else "note" if row.get("note") else ""
    return _ROW_CLASS.get(kind, "")


Explanations = list[dict[str, ScoreLine]]


def score_table(
    names: list[str],
    rows: list[dict[str, Any]],
    explanations: Explanations | Callable[[], Explanations] | None = None,
) -> SafeString:
    """`rows` as games.presenters.game.score_rows gives them; `names` in the same column order.
    With `explanations` (games.presenters.help.score_explanations, same columns; or a function
    that makes them, so a page part without the table does not), each category's figure opens to
    say how it adds up. Each value escaped by markupsafe, as on the Jinja2 page: 20 us a table
    (some 60 more with four players' explanations), where Django's format_html_join took 155."""
    if callable(explanations):
        explanations = explanations()
    # Once: a reverse() costs 9 us, and a table of four players has 28 links.
    rules = rules_link("") if explanations else ""
    category = escape(_("Category"))
    head = "".join(f'<th scope="col" class="num">{escape(name)}</th>' for name in names)
    body = "\n".join(
        f'<tr{_row_class(row)}><th scope="row">{escape(row["label"])}</th>'
        + "".join(
            _cell(value, names[column], _line(explanations, column, row), rules)
            for column, value in enumerate(row["values"])
        )
        + "</tr>"
        for row in rows
    )
    return mark_safe(
        '<div class="table-scroll">\n<table>\n  <thead><tr><th scope="col"><span'
        f' class="visually-hidden">{category}</span></th>{head}</tr></thead>\n'
        f"  <tbody>\n{body}\n"
        "  </tbody>\n</table>\n</div>"
    )


def _line(explanations: Explanations | None, column: int, row: dict[str, Any]) -> ScoreLine | None:
    if not explanations or column >= len(explanations):
        return None
    return explanations[column].get(row.get("key", ""))


def _cell(value: Any, name: str, line: ScoreLine | None, rules: str) -> str:
    """A figure; with its explanation, a disclosure that lays the sentence over the table (one
    open at a time), its title the same sentence for a mouse."""
    if line is None:
        return f'<td class="num">{escape(value)}</td>'
    text = escape(line.text)
    adds_up = escape(_(": how it adds up"))
    heading = escape(_("%(name)s, %(category)s:") % {"name": name, "category": line.label})
    link = escape(_("Rules: %(category)s") % {"category": line.label})
    return (
        f'<td class="num"><details class="score-why" name="score-why"><summary title="{text}">'
        f'{escape(value)}<span class="visually-hidden">{adds_up}</span>'
        f'</summary><p class="score-why-text"><strong>'
        f"{heading}"
        f'</strong> {text} <a href="{rules}{line.rules_anchor}">'
        f"{link}</a>"
        "</p></details></td>"
    )
