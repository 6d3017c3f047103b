"""The chart drawings: pure functions of plain values, so their markup is checked directly."""

from xml.etree import ElementTree

import pytest

from records.charts import Bar, Point, Series, bar_chart, line_chart, nice_ticks

SVG = "{http://www.w3.org/2000/svg}"


def parsed(markup: str) -> ElementTree.Element:
    return ElementTree.fromstring(markup)


def points(root: ElementTree.Element) -> list[ElementTree.Element]:
    return [c for c in root.iter(f"{SVG}circle") if c.get("class") == "chart-point"]


def a_line(n: int, name: str = "Ann") -> Series:
    return Series(
        name, [Point(1000 + 10 * i, f"day {i}: rating {1000 + 10 * i}") for i in range(n)]
    )


def test_a_line_chart_draws_one_dot_per_point_with_its_words_as_tooltip():
    root = parsed(line_chart([a_line(5)], chart_id="c", title="Rating", description="Up."))
    dots = points(root)
    assert len(dots) == 5
    assert [d.find(f"{SVG}title").text for d in dots][-1] == "day 4: rating 1040"
    assert len(root.findall(f".//{SVG}polyline")) == 1


def test_every_chart_is_an_image_named_by_its_title_and_summary():
    for markup in (
        line_chart([a_line(3)], chart_id="r", title="Rating", description="From 1,000 up."),
        bar_chart(
            [Bar("Trees", ["Ann: 5", "All: 4"])],
            [Series("Ann", values=[5.0]), Series("All players", values=[4.0])],
            chart_id="r",
            title="Averages",
            description="Ann 5, all 4.",
        ),
    ):
        root = parsed(markup)
        assert root.get("role") == "img"
        assert root.get("aria-labelledby") == "r-title r-desc"
        assert root.find(f"{SVG}title").get("id") == "r-title"
        assert root.find(f"{SVG}desc").get("id") == "r-desc"
        assert root.get("width") == "100%" and root.get("viewBox").startswith("0 0 360 ")
        assert "style=" not in markup  # the Content-Security-Policy refuses inline styles


def test_names_and_labels_are_escaped():
    evil = '<script>alert("x")</script> & Co'
    markup = line_chart(
        [a_line(2, evil), a_line(2, "Bob")],
        chart_id="c",
        title=f"{evil}'s points",
        description=evil,
        x_labels=(evil, evil),
    )
    assert "<script>" not in markup
    root = parsed(markup)  # still well-formed XML
    assert root.find(f"{SVG}title").text == f"{evil}'s points"
    bars = bar_chart(
        [Bar(evil, [evil, evil])],
        [Series(evil, values=[1.0]), Series("All", values=[2.0])],
        chart_id="b",
        title=evil,
        description=evil,
    )
    assert "<script>" not in bars
    parsed(bars)


def test_several_lines_get_a_legend_and_a_dash_each():
    root = parsed(
        line_chart([a_line(4, "Ann"), a_line(3, "Bob")], chart_id="c", title="t", description="d")
    )
    assert len(points(root)) == 7
    legend = [t.text for t in root.iter(f"{SVG}text")]
    assert "Ann" in legend and "Bob" in legend
    dashes = [p.get("stroke-dasharray") for p in root.iter(f"{SVG}polyline")]
    assert dashes[0] is None and dashes[1]


def test_a_single_point_is_a_dot_and_no_line():
    root = parsed(line_chart([a_line(1)], chart_id="c", title="t", description="d"))
    assert len(points(root)) == 1 and root.find(f".//{SVG}polyline") is None


def test_nothing_to_draw_is_still_a_named_image():
    root = parsed(line_chart([], chart_id="c", title="Nothing yet", description="No games."))
    assert root.get("role") == "img" and not points(root)


def test_bars_are_one_per_value_and_a_missing_value_draws_none():
    markup = bar_chart(
        [Bar("Trees", ["a", "b"]), Bar("Spirit", ["c", "d"])],
        [Series("Ann", values=[6.0, None]), Series("All players", values=[4.5, 2.0])],
        chart_id="b",
        title="t",
        description="d",
    )
    bars = [r for r in parsed(markup).iter(f"{SVG}rect") if r.get("class") == "chart-bar"]
    assert [b.find(f"{SVG}title").text for b in bars] == ["a", "b", "d"]
    widths = [float(b.get("width")) for b in bars]
    assert widths[0] > widths[1] > widths[2] > 0


def test_a_long_history_draws_smaller_dots():
    root = parsed(line_chart([a_line(200)], chart_id="c", title="t", description="d"))
    assert len(points(root)) == 200
    assert {d.get("r") for d in points(root)} == {"2"}


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (0, 18, [0, 5, 10, 15, 20]),
        (1045, 1138, [1000, 1050, 1100, 1150]),
        (7, 7, [7, 7.5, 8]),
        (0, 0.4, [0, 0.1, 0.2, 0.3, 0.4]),
    ],
)
def test_ticks_are_round_numbers_around_the_values(low, high, expected):
    assert nice_ticks(low, high) == expected


def test_the_ticks_always_reach_past_the_highest_value():
    for low, high in [(926, 1142), (0, 99), (3, 1001), (1.5, 2.25), (0, 1)]:
        ticks = nice_ticks(low, high)
        assert ticks[0] <= low and ticks[-1] >= high and ticks == sorted(ticks)
        assert len(ticks) <= 6
