"""The score sheet as an HTML table, one column per player and one row per category.

Drawn in Python because two template engines show it: the game page (Jinja2) and the score
sheet (Django templates); one definition keeps them the same.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

_ROW_CLASS = {"total": ' class="total-row"', "note": ' class="note-row"'}


def _row_class(row: dict[str, Any]) -> SafeString:
    kind = "total" if row.get("total") else "note" if row.get("note") else ""
    return mark_safe(_ROW_CLASS.get(kind, ""))


def score_table(names: list[str], rows: list[dict[str, Any]]) -> SafeString:
    """`rows` as games.presenters.score_rows gives them; `names` in the same column order."""
    head = format_html_join("", '<th scope="col" class="num">{}</th>', ((n,) for n in names))
    body = format_html_join(
        "\n",
        '<tr{}><th scope="row">{}</th>{}</tr>',
        (
            (
                _row_class(row),
                row["label"],
                format_html_join("", '<td class="num">{}</td>', ((v,) for v in row["values"])),
            )
            for row in rows
        ),
    )
    return format_html(
        '<div class="table-scroll">\n<table>\n  <thead><tr><th scope="col"><span'
        ' class="visually-hidden">Category</span></th>{}</tr></thead>\n  <tbody>\n{}\n'
        "  </tbody>\n</table>\n</div>",
        head,
        body,
    )
