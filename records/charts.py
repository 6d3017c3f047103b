"""Charts as SVG, drawn on the server from plain values: no JavaScript, no library.

Pure functions (no database, no URL): the presenters (records.chart_data) hand in numbers and
words and get markup back, so a chart is tested like the board pictures are. Every chart is one
`<svg role="img">` named by its own `<title>` and `<desc>` (the summary in words); the figures it
draws are also given as a table beside it by the page (templates/records/_charts_figure.html),
for anyone who cannot see the picture. Every word drawn is escaped: labels carry player names.

The drawing is a viewBox scaled to its container's width (`width="100%"`), sized so its text
is still about 11 px on a 360 px phone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from games.pictures.palette import FILLS, INK_DARK, PAPER_EDGE

__all__ = ["SERIES_COLOURS", "Bar", "Point", "Series", "bar_chart", "line_chart", "nice_ticks"]

# Line and bar colours in the order series take them, from the game's palette; dashes tell the
# lines apart for anyone who does not see the colours (each legend entry draws its own).
SERIES_COLOURS = (FILLS["blue"], FILLS["red"], FILLS["green"], FILLS["brown"])
DASHES = ("", "6 3", "2 3", "8 3 2 3")
MUTED = "#4f5b4f"  # the site's muted ink (static/css/site.css --muted), 7:1 on white

WIDTH = 360
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 34
FONT = 11


@dataclass(frozen=True)
class Point:
    """One point of a line: its value and what its tooltip (`<title>`) says of it."""

    value: float
    label: str


@dataclass(frozen=True)
class Series:
    """One line of a line chart, or one colour of a bar chart (`values` by group, None for a
    group with nothing to show)."""

    name: str
    points: Sequence[Point] = ()
    values: Sequence[float | None] = ()


@dataclass(frozen=True)
class Bar:
    """A group of a bar chart: a label (a scoring category) and its tooltip words per series."""

    label: str
    titles: Sequence[str]


def nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round values from at or below `low` to at or above `high`, about `count` steps apart
    (1, 2 or 5 times a power of ten): the gridlines a reader can add up in their head."""
    if high < low:
        low, high = high, low
    if high == low:
        high = low + 1
    raw = (high - low) / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    steps = math.ceil(round((high - first) / step, 6))
    return [round(first + n * step, 6) for n in range(steps + 1)]


def _number(value: float) -> str:
    """A coordinate or a tick written short (no trailing .0, at most one decimal)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _label(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1000 else _number(value)


def _open(chart_id: str, height: int, title: str, description: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}"'
        f' width="100%" role="img" aria-labelledby="{chart_id}-title {chart_id}-desc"'
        f' font-size="{FONT}" font-family="system-ui, sans-serif" fill="{INK_DARK}">'
        f'<title id="{chart_id}-title">{escape(title)}</title>'
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>'
    )


def _legend(series: Sequence[Series], y: float, kind: str) -> str:
    """The series' names in a row under the plot (wrapping to a second row past two), each
    after a sample of its line or its bar colour."""
    parts = []
    column = (WIDTH - LEFT - RIGHT) / 2
    for index, one in enumerate(series):
        x = LEFT + (index % 2) * column
        row_y = y + (index // 2) * (FONT + 5)
        colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        if kind == "line":
            dash = DASHES[index % len(DASHES)]
            parts.append(
                f'<line x1="{_number(x)}" y1="{_number(row_y - 4)}" x2="{_number(x + 18)}"'
                f' y2="{_number(row_y - 4)}" stroke="{colour}" stroke-width="2.5"'
                + (f' stroke-dasharray="{dash}"' if dash else "")
                + "/>"
            )
        else:
            parts.append(
                f'<rect x="{_number(x)}" y="{_number(row_y - 9)}" width="12" height="10"'
                f' fill="{colour}"/>'
            )
        name = one.name if len(one.name) <= 22 else one.name[:21] + "…"
        parts.append(f'<text x="{_number(x + 23)}" y="{_number(row_y)}">{escape(name)}</text>')
    return "".join(parts)


def _legend_height(series: Sequence[Series]) -> int:
    return math.ceil(len(series) / 2) * (FONT + 5)


def line_chart(
    series: Sequence[Series],
    *,
    chart_id: str,
    title: str,
    description: str,
    x_labels: tuple[str, str] = ("", ""),
    height: int = 200,
) -> str:
    """Lines of points spread evenly from left to right (the n-th game, the n-th turn), on one
    scale from the lowest value to the highest. Each point is a dot with its label as tooltip;
    `x_labels` are written under the first and the last place (a date, "turn 1").

    A line with a single point is just its dot. The legend is drawn when there are two lines
    or more (a single line is named by the title).
    """
    legend = len(series) > 1
    total = height + (_legend_height(series) + 6 if legend else 0)
    values = [p.value for one in series for p in one.points]
    out = [_open(chart_id, total, title, description)]
    if not values:
        return "".join(out) + "</svg>"
    ticks = nice_ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, height - TOP - BOTTOM
    places = max(len(one.points) for one in series)

    def x_of(index: int) -> float:
        return LEFT + (plot_w * index / (places - 1) if places > 1 else plot_w / 2)

    def y_of(value: float) -> float:
        return TOP + plot_h * (1 - (value - low) / (high - low))

    out.append(_grid(ticks, y_of))
    baseline = TOP + plot_h + 14
    first, last = x_labels
    if first:
        out.append(f'<text x="{LEFT}" y="{baseline}">{escape(first)}</text>')
    if last and places > 1:
        out.append(
            f'<text x="{WIDTH - RIGHT}" y="{baseline}" text-anchor="end">{escape(last)}</text>'
        )
    for index, one in enumerate(series):
        colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        dash = DASHES[index % len(DASHES)]
        coords = [(x_of(i), y_of(p.value)) for i, p in enumerate(one.points)]
        out.append(f'<g class="chart-series" data-series="{index}">')
        if len(coords) > 1:
            path = " ".join(f"{_number(x)},{_number(y)}" for x, y in coords)
            out.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5"'
                ' stroke-linejoin="round"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"
            )
        # Dots shrink as they crowd: 200 games on a phone are a line, not a smear of circles.
        radius = 3.5 if places <= 40 else 2
        for (x, y), point in zip(coords, one.points, strict=True):
            out.append(
                f'<circle class="chart-point" cx="{_number(x)}" cy="{_number(y)}"'
                f' r="{radius}" fill="{colour}"><title>{escape(point.label)}</title></circle>'
            )
        out.append("</g>")
    if legend:
        out.append(_legend(series, height + 6, "line"))
    out.append("</svg>")
    return "".join(out)


def _grid(ticks: Sequence[float], y_of) -> str:
    parts = []
    for tick in ticks:
        y = _number(y_of(tick))
        parts.append(
            f'<line x1="{LEFT}" y1="{y}" x2="{WIDTH - RIGHT}" y2="{y}" stroke="{PAPER_EDGE}"'
            ' stroke-width="1"/>'
            f'<text x="{LEFT - 5}" y="{y}" dy="0.35em" text-anchor="end" fill="{MUTED}">'
            f"{_label(tick)}</text>"
        )
    return "".join(parts)


def bar_chart(
    groups: Sequence[Bar],
    series: Sequence[Series],
    *,
    chart_id: str,
    title: str,
    description: str,
) -> str:
    """Horizontal bars, one row per group (its label on the left), one bar per series in the
    row, all from zero on one scale. Rows rather than columns: seven category names side by
    side do not fit a phone, one under another they do. A missing value draws no bar."""
    label_w, row_gap, bar_h = 88, 8, 9
    per_row = len(series) * bar_h + row_gap
    plot_top = TOP
    plot_h = len(groups) * per_row
    height = plot_top + plot_h + 20
    total = height + _legend_height(series) + 6
    out = [_open(chart_id, total, title, description)]
    values = [v for one in series for v in one.values if v is not None]
    high = nice_ticks(0, max(values, default=0) or 1)[-1]
    left, plot_w = label_w + 6, WIDTH - label_w - 6 - RIGHT

    def x_of(value: float) -> float:
        return left + plot_w * value / high

    for tick in nice_ticks(0, high):
        x = _number(x_of(tick))
        out.append(
            f'<line x1="{x}" y1="{plot_top}" x2="{x}" y2="{plot_top + plot_h}"'
            f' stroke="{PAPER_EDGE}" stroke-width="1"/>'
            f'<text x="{x}" y="{plot_top + plot_h + 13}" text-anchor="middle" fill="{MUTED}">'
            f"{_label(tick)}</text>"
        )
    for row, group in enumerate(groups):
        y0 = plot_top + row * per_row + row_gap / 2
        middle = y0 + len(series) * bar_h / 2
        out.append(
            f'<text x="{label_w}" y="{_number(middle)}" dy="0.35em" text-anchor="end">'
            f"{escape(group.label)}</text>"
        )
        for index, one in enumerate(series):
            value = one.values[row] if row < len(one.values) else None
            if value is None:
                continue
            colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
            words = group.titles[index] if index < len(group.titles) else ""
            out.append(
                f'<rect class="chart-bar" x="{left}" y="{_number(y0 + index * bar_h)}"'
                f' width="{_number(max(x_of(value) - left, 0.5))}" height="{bar_h - 1}"'
                f' fill="{colour}"><title>{escape(words)}</title></rect>'
            )
    out.append(_legend(series, height + 6, "bar"))
    out.append("</svg>")
    return "".join(out)
