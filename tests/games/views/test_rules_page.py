"""/rules/: public and cacheable, every section where other pages link to it, every picture with
words, every worked example's figures the engine's for the board the page draws, and linked from
the home page, the header, the new-game form, the game page and the invitation email."""

import html
import re

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from games import clocks, engine, services
from games.engine.interchange import score_json
from games.engine.tokens import LEGAL_STACKS
from games.pictures.boards import describe_stack
from games.presenters.rules_examples import examples
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db

RULES = "/rules/"
SECTIONS = (
    "turn", "stacking", "cards", "trees", "mountains", "fields", "buildings", "river", "islands",
    "end", "spirits", "solo", "site-rules",
)  # fmt: skip
# A hex's words back to a stack: every base of a building scores alike (rules §9.4).
STACK_OF_WORDS = {describe_stack(stack): list(stack) for stack in sorted(LEGAL_STACKS)}
STACK_OF_WORDS["empty"] = []
HEX = re.compile(r'data-cell="([^"]+)"[^>]*><title>([^<]*)</title>')


def _figures(page: str) -> dict[str, str]:
    """Each worked example's <figure>, by its key."""
    found = re.findall(
        r'<figure class="rules-example" data-example="([^"]+)".*?</figure>', page, re.S
    )
    return {
        key: re.search(
            rf'<figure class="rules-example" data-example="{key}".*?</figure>', page, re.S
        )[0]
        for key in found
    }


def _board_drawn(figure: str) -> tuple[dict[str, list[str]], list[str]]:
    """The stacks and cubes the figure's board picture shows, read from each hex's words."""
    stacks, cubes = {}, []
    for cell, title in HEX.findall(figure):
        _where, _, words = html.unescape(title).partition(": ")
        what, *notes = words.split(", ")
        if STACK_OF_WORDS[what]:
            stacks[cell] = STACK_OF_WORDS[what]
        if "animal cube" in notes or "spirit cube" in notes:
            cubes.append(cell)
    return stacks, cubes


def test_a_visitor_reads_it_without_logging_in_and_any_cache_may_keep_it(client):
    response = client.get(RULES)
    assert response.status_code == 200
    assert "public" in response["Cache-Control"] and "max-age=3600" in response["Cache-Control"]
    assert "Cookie" in response["Vary"]
    assert not response.cookies, "a copy shared by every visitor sets no cookie"


def test_a_players_copy_stays_private(client, player):
    client.force_login(player)
    response = client.get(RULES)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert 'href="/rules/" aria-current="page">Rules</a>' in response.content.decode()


def test_it_answers_nothing_but_reading(client):
    assert client.head(RULES).status_code == 200
    assert client.post(RULES).status_code == 405


def test_every_section_has_its_stable_id_and_every_picture_its_words(client):
    page = client.get(RULES).content.decode()
    for section in SECTIONS:
        assert f'id="{section}"' in page
        assert f'href="#{section}"' in page, f"the contents link to #{section}"
    for svg in re.findall(r"<svg[^>]*>", page):
        assert 'aria-label="' in svg or 'aria-hidden="true"' in svg, svg
    assert all("alt=" in img for img in re.findall(r"<img[^>]*>", page))


def test_each_example_shows_the_engines_figures_for_the_board_it_draws(client):
    figures = _figures(client.get(RULES).content.decode())
    assert set(figures) == set(examples())
    for key, example in examples().items():
        figure = figures[key]
        stacks, cubes = _board_drawn(figure)
        score = score_json(
            {
                "side": example.side,
                "stacks": stacks,
                "cube_hexes": cubes,
                "cards": [{"id": c, "cubes_placed": n} for c, n in example.cards],
            }
        )
        shown = re.search(r'class="example-points" data-category="(\w+)">(\d+)<', figure)
        assert shown[1] == example.category
        assert int(shown[2]) == score[example.category], key
        lines = [int(p) for p in re.findall(r'class="line-points"><strong>(\d+)</strong>', figure)]
        assert sum(lines) == score[example.category], key


def test_the_home_page_offers_the_rules_to_a_visitor(client):
    page = client.get(reverse("home")).content.decode()
    assert "How to play" in page and f'href="{RULES}"' in page


def test_the_header_links_to_the_rules_for_visitors_and_players(client, player):
    assert f'<a href="{RULES}" >Rules</a>' in client.get(reverse("login")).content.decode()
    client.force_login(player)
    assert f'<a href="{RULES}" >Rules</a>' in client.get(reverse("games:mine")).content.decode()


def test_the_new_game_form_and_the_game_page_link_to_the_rules(client, player, other_player):
    client.force_login(player)
    assert f'href="{RULES}"' in client.get(reverse("games:new")).content.decode().split("</nav>")[1]
    game = start_game(player, other_player)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'<a href="{RULES}#turn">Rules</a>' in page.split("</nav>", 1)[1]


def test_the_invitation_email_links_to_the_rules_by_the_sites_address(
    client, player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.create_game(
            creator=player, players=2, side="A", spirits=False, emails=["newcomer@example.org"]
        )
    (message,) = mail.outbox
    address = settings.SITE_URL + RULES
    assert f"New to Harmonies? The rules: {address}" in message.body
    html_part = message.alternatives[0][0]
    assert f'href="{address}"' in html_part
    assert client.get(address.removeprefix(settings.SITE_URL)).status_code == 200


def test_the_time_bank_words_allow_only_what_the_writer_accepts(client):
    # With a stand-in for late turns the writer refuses a bank that adds nothing per move; the
    # page once offered "0 to 48 hours" to everyone.
    page = " ".join(html.unescape(client.get(RULES).content.decode()).split())
    assert "adds back 0 to 48 hours, chosen with the game (at least 1 hour when a stand-in" in page
    with pytest.raises(clocks.ClockError):
        clocks.check_clock(clocks.BANK, bank_days=7, increment_hours=0, stand_in=True)
    assert clocks.check_clock(clocks.BANK, bank_days=7, increment_hours=1, stand_in=True)
    assert clocks.check_clock(clocks.BANK, bank_days=7, increment_hours=0, stand_in=False)


def test_the_setting_up_tells_how_a_rematch_seats_its_players(client):
    # games/services/seating.py keeps a rematch's order and passes the first turn on; the page
    # once said every game draws its seats at random.
    page = " ".join(client.get(RULES).content.decode().split())
    assert (
        "A rematch keeps the last game's order round the table and passes the first turn on to "
        "the player who played second." in page
    )


def test_a_turn_may_begin_with_a_card_as_the_engine_allows(client, game):
    # Rules §6.1: the actions come in any order; the page once said only steps 2 to 4 mix, as if
    # the tokens had to be taken before a card.
    assert any(
        isinstance(action, engine.TakeCard) for action in engine.legal_actions(game.engine_state())
    )
    page = " ".join(client.get(RULES).content.decode().split())
    assert "Steps 2 to 4" not in page
    assert "take a card first, then the tokens" in page
