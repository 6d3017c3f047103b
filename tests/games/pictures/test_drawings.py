"""The SVG pictures: boards, token chips and cards are well-formed, complete and escaped."""

import json
import xml.etree.ElementTree as ET

import pytest
from django.utils.safestring import SafeString

from games.engine import ANIMAL_CARD_IDS, SPIRIT_CARD_IDS, card, geometry
from games.pictures.boards import board_svg, describe_stack
from games.pictures.cards import card_svg, describe_pattern
from games.pictures.palette import COLOUR_WORDS
from games.pictures.sprite import sprite_url
from games.pictures.tokens import token_svg

NS = {"svg": "http://www.w3.org/2000/svg"}

STACKS = {
    "0,0": ["blue"],
    "1,0": ["brown", "green"],
    "2,1": ["gray", "gray"],
    "3,0": ["gray", "gray", "gray"],
    "4,1": ["gray", "red"],
    "1,2": ["brown", "brown"],
}


SPRITE = sprite_url()  # the site's pages draw with their sprite; None draws standalone


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def hexes(root: ET.Element) -> list[ET.Element]:
    return root.findall("svg:g[@data-cell]", NS)


def hex_at(root: ET.Element, cell: str) -> ET.Element:
    (found,) = [g for g in hexes(root) if g.get("data-cell") == cell]
    return found


def title_of(element: ET.Element) -> str:
    return element.find("svg:title", NS).text


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


# Boards


@pytest.mark.parametrize(("side", "count"), [("A", 23), ("B", 25)])
def test_it_draws_every_hex_of_the_side_in_geometry_order(side, count):
    root = parse(board_svg(side, {}, ()))
    assert [g.get("data-cell") for g in hexes(root)] == list(geometry(side).names)
    assert len(hexes(root)) == count
    assert {"board", f"board-{side}"} <= classes(root)


def test_it_returns_a_safe_string_that_scales_with_its_viewbox():
    svg = board_svg("A", STACKS, ())
    assert isinstance(svg, SafeString)
    root = parse(svg)
    assert root.get("viewBox").startswith("0 0 ")
    assert "style" not in root.attrib


def test_odd_columns_sit_half_a_hex_lower():
    root = parse(board_svg("A", {}, ()))

    def top_y(cell):
        points = hex_at(root, cell).find("svg:polygon", NS).get("points").split()
        return min(float(p.split(",")[1]) for p in points)

    assert top_y("1,0") > top_y("0,0") == top_y("2,0")
    assert top_y("1,0") < top_y("0,1")


def test_a_stack_shows_each_token_its_top_glyph_and_its_height():
    root = parse(board_svg("A", STACKS, ()))
    tree = hex_at(root, "1,0")
    tokens = tree.findall("svg:g[@class]", NS)
    assert [t.get("class") for t in tokens if "token" in t.get("class")] == [
        "token token-brown",
        "token token-green",
    ]
    assert len(tree.findall("svg:g[@class='glyph']", NS)) == 1
    badge = tree.find("svg:g[@class='height-badge']", NS)
    assert badge.find("svg:text", NS).text == "2"
    assert hex_at(root, "0,0").find("svg:g[@class='height-badge']", NS) is None


def test_tokens_are_round_discs_and_a_lone_red_is_no_building():
    root = parse(board_svg("A", {"0,0": ["red"], "1,0": ["gray", "red"]}, ()))
    lone, building = hex_at(root, "0,0"), hex_at(root, "1,0")

    assert lone.find("svg:g[@class='token token-red']/svg:circle", NS) is not None

    def shapes(cell):
        glyph = cell.find("svg:g[@class='glyph']", NS)
        return [part.get("d") for part in glyph.iter() if part.get("d")]

    assert shapes(lone) != shapes(building)
    assert title_of(lone).endswith("lone red token")
    assert title_of(building).endswith("building")


def test_empty_hexes_are_marked_and_draw_no_token():
    root = parse(board_svg("A", STACKS, ()))
    empty = hex_at(root, "4,4")
    assert "hex-empty" in classes(empty)
    assert not [p for p in empty.iter() if "token" in p.get("class", "")]


def test_titles_describe_the_stack_and_the_cube():
    root = parse(board_svg("A", STACKS, {"2,1", "3,0"}, spirit_hex="3,0"))
    assert title_of(hex_at(root, "1,0")) == "column 2, 1st from the top: tree of height 2"
    assert (
        title_of(hex_at(root, "2,1"))
        == "column 3, 2nd from the top: mountain of height 2, animal cube"
    )
    assert (
        title_of(hex_at(root, "3,0"))
        == "column 4, 1st from the top: mountain of height 3, spirit cube"
    )
    assert title_of(hex_at(root, "4,1")) == "column 5, 2nd from the top: building"
    assert title_of(hex_at(root, "1,2")) == "column 2, 3rd from the top: trunk of 2"
    assert title_of(hex_at(root, "4,4")) == "column 5, 5th from the top: empty"


def test_the_spirit_cube_is_drawn_differently_from_animal_cubes():
    root = parse(board_svg("A", STACKS, {"2,1", "3,0"}, spirit_hex="3,0"))
    assert hex_at(root, "2,1").find("svg:g[@class='cube cube-animal']", NS) is not None
    assert hex_at(root, "3,0").find("svg:g[@class='cube cube-spirit']", NS) is not None
    cubes = [g for g in root.iter() if g.get("class", "").startswith("cube ")]
    assert len(cubes) == 2


def test_targets_become_focusable_buttons_with_their_attributes_escaped():
    vals = json.dumps({"type": "place_token", "cell": "4,4", "colour": "blue", "version": "7"})
    svg = board_svg(
        "A",
        STACKS,
        (),
        targets={"4,4": {"hx-post": "/games/1/act", "hx-vals": vals, "aria-label": "Place <b>"}},
    )
    assert "&quot;place_token&quot;" in svg
    assert "Place &lt;b&gt;" in svg
    target = hex_at(parse(svg), "4,4")
    assert "hex-target" in classes(target)
    assert target.get("role") == "button"
    assert target.get("tabindex") == "0"
    assert json.loads(target.get("hx-vals")) == json.loads(vals)
    assert target.get("hx-post") == "/games/1/act"
    assert target.find("svg:polygon[@class='hex-ring hex-ring-target']", NS) is not None
    other = hex_at(parse(svg), "4,3")
    assert other.get("role") == "img"
    assert other.get("tabindex") is None


def test_a_target_without_a_label_is_named_by_its_description():
    target = hex_at(parse(board_svg("A", STACKS, (), targets={"0,0": {"hx-post": "/x"}})), "0,0")
    assert target.get("aria-label") == "column 1, 1st from the top: water"


@pytest.mark.parametrize("name", ["onclick", "hx-on:click", "Data-X", "a b", 'x"y', "role", ""])
def test_it_refuses_attribute_names_that_are_not_plain(name):
    with pytest.raises(ValueError, match="attribute name"):
        board_svg("A", {}, (), targets={"0,0": {name: "1"}})


def test_habitat_and_emphasis_cells_are_outlined():
    root = parse(board_svg("A", STACKS, (), habitat={"0,0", "1,0"}, emphasis={"2,1"}))
    assert "hex-habitat" in classes(hex_at(root, "1,0"))
    ring = hex_at(root, "1,0").find("svg:polygon[@class='hex-ring hex-ring-habitat']", NS)
    assert ring is not None
    assert "hex-emphasis" in classes(hex_at(root, "2,1"))
    assert "hex-habitat" not in classes(hex_at(root, "2,1"))


def test_the_hexes_of_a_hint_are_outlined_and_named_beside_a_target():
    root = parse(
        board_svg("A", STACKS, (), suggested={"1,0", "2,1"}, targets={"1,0": {"hx-post": "/x"}})
    )
    for cell in ("1,0", "2,1"):
        group = hex_at(root, cell)
        assert "hex-suggested" in classes(group)
        assert group.find("svg:polygon[@class='hex-ring hex-ring-hint']", NS) is not None
        assert "in the hard bot's hint" in group.find("svg:title", NS).text
    assert "hex-target" in classes(hex_at(root, "1,0"))  # still a button
    assert "hex-suggested" not in classes(hex_at(root, "0,0"))


def test_the_title_and_compact_flag_reach_the_root():
    root = parse(board_svg("B", {}, (), title='Alice\'s "board" <script>', compact=True))
    assert root.get("aria-label") == 'Alice\'s "board" <script>'
    assert "board-compact" in classes(root)


def test_no_user_text_reaches_the_markup_unescaped():
    svg = board_svg(
        "A", {}, (), title="<script>alert(1)</script>", targets={"0,0": {"aria-label": "<i>"}}
    )
    assert "<script>" not in svg
    assert "<i>" not in svg


@pytest.mark.parametrize(
    "kwargs",
    [
        {"stacks": {"9,9": ["blue"]}},
        {"cube_hexes": {"0,5"}},
        {"targets": {"x": {}}},
        {"habitat": {"<b>"}},
        {"suggested": {"8,8"}},
        {"spirit_hex": "7,0"},
    ],
)
def test_it_refuses_cells_that_are_not_on_the_board(kwargs):
    args = {"stacks": {}, "cube_hexes": ()} | kwargs
    with pytest.raises(ValueError, match="no cell"):
        board_svg("A", args.pop("stacks"), args.pop("cube_hexes"), **args)


def test_it_refuses_colours_that_are_not_tokens():
    with pytest.raises(ValueError, match="not a token colour"):
        board_svg("A", {"0,0": ['red" onload="x']}, ())
    with pytest.raises(ValueError, match="not a token colour"):
        token_svg("purple")


# Describing stacks


@pytest.mark.parametrize(
    ("stack", "words"),
    [
        ((), "empty"),
        (("blue",), "water"),
        (("yellow",), "field"),
        (("green",), "tree of height 1"),
        (("brown", "brown", "green"), "tree of height 3"),
        (("gray",), "mountain of height 1"),
        (("gray", "gray", "gray"), "mountain of height 3"),
        (("red", "red"), "building"),
        (("brown", "red"), "building"),
        (("brown",), "trunk of 1"),
        (("brown", "brown"), "trunk of 2"),
        (("red",), "lone red token"),
        (("blue", "blue"), "stack of blue, blue (not a legal stack)"),
    ],
)
def test_describe_stack_names_what_a_stack_is(stack, words):
    assert describe_stack(list(stack)) == words


# Token chips


@pytest.mark.parametrize("colour", list(COLOUR_WORDS))
def test_a_token_chip_names_its_landscape_and_colour(colour):
    root = parse(token_svg(colour))
    assert root.get("role") == "img"
    assert root.get("aria-label") == f"{COLOUR_WORDS[colour]} ({colour})"
    assert root.get("width") == "28"
    assert root.find("svg:g[@class='glyph']", NS) is not None


def test_a_token_chip_takes_a_size_and_an_escaped_label():
    svg = token_svg("blue", size=48, label='Take "blue" <now>', sprite=SPRITE)
    root = parse(svg)
    assert root.get("width") == "48"
    assert root.get("aria-label") == 'Take "blue" <now>'
    assert "<now>" not in svg


# Cards


def slots(root: ET.Element, state: str) -> list[ET.Element]:
    return root.findall(f".//svg:g[@class='track-slot track-slot-{state}']", NS)


@pytest.mark.parametrize("card_id", ANIMAL_CARD_IDS + SPIRIT_CARD_IDS)
def test_every_card_renders_its_name_and_pattern(card_id):
    c = card(card_id)
    root = parse(card_svg(card_id))
    assert root.get("role") == "img"
    assert root.get("data-card") == card_id
    assert c.name in root.get("aria-label")
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert c.name in texts
    pattern = root.find(".//svg:g[@class='card-pattern']", NS)
    assert len(pattern.findall("svg:polygon[@fill='#efe7d4']", NS)) == len(c.pattern)
    assert len(pattern.findall(".//svg:g[@class='cube cube-animal']", NS)) == 1


@pytest.mark.parametrize("card_id", ANIMAL_CARD_IDS)
def test_a_card_in_the_display_has_every_slot_covered(card_id):
    root = parse(card_svg(card_id, sprite=SPRITE))
    assert len(slots(root, "covered")) == card(card_id).cube_count
    assert slots(root, "current") == []


@pytest.mark.parametrize("on_card", [0, 1, 2, 3, 4, 5])
def test_the_track_shows_the_cubes_left_on_the_card(on_card):
    root = parse(card_svg("animal_05", cubes_on_card=on_card, sprite=SPRITE))  # Frog: 15/10/6/4/2
    assert len(slots(root, "covered")) == on_card
    values = [
        s.find("svg:text", NS).text for s in root.iter() if "track-slot" in s.get("class", "")
    ]
    assert values == ["15", "10", "6", "4", "2"]
    covered = [s.find("svg:text", NS).text for s in slots(root, "covered")]
    assert covered == values[:on_card]  # cubes leave from the bottom
    current = slots(root, "current")
    assert [s.find("svg:text", NS).text for s in current] == values[on_card : on_card + 1]


def test_a_card_summary_says_what_it_needs_and_is_worth():
    root = parse(card_svg("animal_05", cubes_on_card=3, sprite=SPRITE))
    summary = "Frog: water next to a tree of height 1; 2 of 5 cubes placed; worth 4"
    assert root.get("aria-label") == summary
    assert title_of(root) == summary


def test_a_completed_card_shows_no_cubes_and_its_full_value():
    root = parse(card_svg("animal_05", completed=True, sprite=SPRITE))
    assert "game-card-completed" in classes(root)
    assert slots(root, "covered") == []
    assert root.get("aria-label").endswith("completed; worth 15")


def test_a_spirit_card_says_it_is_a_spirit_and_how_it_scores():
    c = card("spirit_lion")
    root = parse(card_svg("spirit_lion"))
    assert "game-card-spirit" in classes(root)
    assert c.scoring_text in title_of(root)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "SPIRIT" in texts
    assert root.find(".//svg:g[@class='cube cube-spirit']", NS) is not None
    placed = parse(card_svg("spirit_lion", cubes_on_card=0, sprite=SPRITE))
    assert placed.find(".//svg:g[@class='cube cube-spirit']", NS) is None
    assert placed.find(".//svg:g[@class='card-done']", NS) is not None


def test_describe_pattern_lists_the_cube_hex_first():
    assert describe_pattern("animal_05") == "water next to a tree of height 1"
    assert describe_pattern("animal_01") == ("water with water and a tree of height 3 (line)")


# The sprite: what every page repeats is drawn once and used by reference


def test_a_card_on_a_page_uses_its_face_from_the_sprite_and_draws_only_its_cubes():
    root = parse(card_svg("animal_05", cubes_on_card=3, sprite=SPRITE))
    use = root.find("svg:use", NS)
    assert use.get("href") == f"{sprite_url()}#card-animal_05"
    assert root.find(".//svg:g[@class='card-pattern']", NS) is None
    assert len(slots(root, "covered")) == 3
    assert len(card_svg("animal_05", sprite=SPRITE)) < len(card_svg("animal_05")) / 2


def test_the_sprite_holds_every_card_face_token_and_the_cube():
    from games.pictures.sprite import sprite

    root = parse(sprite()[0])
    ids = {symbol.get("id") for symbol in root.findall("svg:symbol", NS)}
    assert {f"card-{c}" for c in ANIMAL_CARD_IDS + SPIRIT_CARD_IDS} <= ids
    assert {f"token-{colour}" for colour in COLOUR_WORDS} | {"cube"} <= ids


@pytest.mark.parametrize("card_id", ANIMAL_CARD_IDS + SPIRIT_CARD_IDS)
def test_every_card_shows_its_animal(card_id):
    root = parse(card_svg(card_id))
    figure = root.find(".//svg:svg[@class='card-figure']", NS)
    assert figure is not None and figure.get("aria-hidden") == "true"
    assert len(list(figure)) > 0
