"""The guided first game's pages: the offers, starting and resuming, the guide beside the board
(whole, and after an htmx move), finishing the lesson, and the refusals."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import guide as lessons
from tests.accounts.test_signup import GOOD
from tests.answers import answered
from tests.clients import as_user
from tests.games.helpers import play_to_the_end, start_game
from tests.games.services.test_guide import LESSON_LINE

pytestmark = pytest.mark.django_db

OFFER = "New to Harmonies? Learn it in five minutes"


def act(client, game, **fields):
    game.refresh_from_db()
    return client.post(reverse("games:act", args=[game.pk]), {"version": game.version, **fields})


def page(client, game) -> str:
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert answered(response) == 200
    return response.content.decode()


def test_my_games_offers_the_lesson_to_a_new_player(player):
    html = as_user(player).get(reverse("games:mine")).content.decode()
    assert OFFER in html and "Start the guided game" in html


def test_my_games_offers_to_resume_the_lesson_in_progress(player):
    game = lessons.start_guided_game(player)
    html = as_user(player).get(reverse("games:mine")).content.decode()
    assert "Resume the guided game" in html and game.get_absolute_url() in html
    assert "Guided first game" in html  # listed as such among the games in play


def test_my_games_offers_nothing_once_a_real_game_is_played(player, other_player):
    play_to_the_end(start_game(player, other_player))
    html = as_user(player).get(reverse("games:mine")).content.decode()
    assert OFFER not in html


def test_visitors_are_offered_it_on_the_home_page(client):
    html = client.get(reverse("home")).content.decode()
    assert OFFER in html and f"next={reverse('games:guide')}" in html


def test_the_invitation_page_offers_it_to_a_newcomer(player):
    from games import services

    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, emails=["new@example.com"]
    )
    invitation = game.invitations.get()
    from games.models.social import invitation_token

    html = Client().get(reverse("games:invited", args=[invitation_token(invitation)]))
    text = html.content.decode()
    assert "Learn it in five minutes" in text
    assert "next=%2Fgames%2Fguide%2F" in text


def test_signing_up_from_the_offer_lands_on_the_offer(client):
    response = client.post(
        reverse("signup") + "?next=" + reverse("games:guide"),
        {**GOOD, "next": reverse("games:guide")},
        follow=True,
    )
    assert answered(response) == 200
    assert OFFER in response.content.decode()


def test_starting_twice_resumes_the_same_game(player):
    client = as_user(player)
    first = client.post(reverse("games:guide"))
    second = client.post(reverse("games:guide"))
    game = Game.objects.get(guided=True)
    assert first["Location"] == second["Location"] == game.get_absolute_url()
    assert client.get(reverse("games:guide"))["Location"] == game.get_absolute_url()


def test_the_guide_is_beside_the_board_with_its_first_step(player):
    game = lessons.start_guided_game(player)
    html = page(as_user(player), game)
    assert 'id="guide"' in html and 'data-guide-target="central"' in html
    assert "Now: Take a space." in html and "step 1 of 7" in html
    # Before the board's column in the page: read first, shown first on a phone.
    assert html.index('id="guide"') < html.index('id="central"')
    assert "Resign from this game" not in html  # a lesson is finished, not resigned


def test_an_htmx_move_brings_the_next_step(player):
    game = lessons.start_guided_game(player)
    response = as_user(player).post(
        reverse("games:act", args=[game.pk]),
        {"version": game.version, **LESSON_LINE[0]},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    swapped = set(re.findall(r'id="([\w-]+)"[^>]*hx-swap-oob="true"', html))
    assert "guide" in swapped
    assert 'data-guide-target="hand"' in html and "Now: Place a token." in html
    assert "put the brown token down first" in html


def test_without_javascript_every_step_is_text_and_posts(player):
    client = as_user(player)
    game = lessons.start_guided_game(player)
    titles = []
    for action in LESSON_LINE:
        assert answered(act(client, game, **action)) == 302
        titles.append(re.search(r"Now: ([^.<]+)\.", page(client, game)).group(1))
    assert titles == [
        "Place a token",
        "Stack a token",
        "Take an animal card",
        "Place an animal cube",
        "Place an animal cube",
        "End your turn",
        "Read the scores",
    ]
    html = page(client, game)
    assert "Finish the lesson" in html and 'data-guide-target="scores"' in html


def test_a_step_done_out_of_order_is_told(player):
    client = as_user(player)
    game = lessons.start_guided_game(player)
    act(client, game, **LESSON_LINE[3])  # the card first
    html = page(client, game)
    assert "Now: Take a space." in html
    assert "Done ahead of the lesson's order: take an animal card." in html


def test_finishing_the_lesson_explains_the_sheet(player):
    client = as_user(player)
    game = lessons.start_guided_game(player)
    for action in LESSON_LINE:
        act(client, game, **action)
    game.refresh_from_db()
    response = client.post(reverse("games:guide-finish", args=[game.pk]), {"version": game.version})
    assert response["Location"].endswith(f"/games/{game.pk}/#guide")
    html = page(client, game)
    assert "Your score sheet, line by line" in html
    assert "Trees: 4 points" in html and "Start a real game" in html
    assert "it was a guided first game" in html  # the counting sentence of the final panel
    assert reverse("games:new") in html


def test_the_lesson_can_be_ended_at_any_step(player):
    client = as_user(player)
    game = lessons.start_guided_game(player)
    assert "end the lesson now" in page(client, game)
    client.post(reverse("games:guide-finish", args=[game.pk]), {"version": game.version})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == Game.EndReason.ENDED
    html = page(client, game)
    assert "Your score sheet, line by line" in html
    assert "The game ended early; the board was scored as it stood." in html  # one board


def test_a_stale_finish_says_so_and_changes_nothing(player):
    client = as_user(player)
    game = lessons.start_guided_game(player)
    stale = game.version
    act(client, game, **LESSON_LINE[0])
    response = client.post(
        reverse("games:guide-finish", args=[game.pk]), {"version": stale}, follow=True
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    html = response.content.decode()
    assert "The board changed since your page was drawn" in html
    assert "Now: Place a token." in html


def test_finishing_twice_says_it_is_over(player):
    client = as_user(player)
    game = lessons.start_guided_game(player)
    client.post(reverse("games:guide-finish", args=[game.pk]), {"version": game.version})
    response = client.post(
        reverse("games:guide-finish", args=[game.pk]), {"version": game.version}, follow=True
    )
    assert "already over" in response.content.decode()


def test_a_stranger_can_neither_see_nor_finish_the_lesson(player, stranger):
    game = lessons.start_guided_game(player)
    client = as_user(stranger)
    assert answered(client.get(reverse("games:detail", args=[game.pk]))) == 403
    response = client.post(reverse("games:guide-finish", args=[game.pk]), {"version": game.version})
    assert answered(response) == 403
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


@pytest.mark.parametrize("version", ["", "x", "99999999999999999999", "-1"])
def test_forged_finishes_change_nothing(player, version):
    game = lessons.start_guided_game(player)
    response = as_user(player).post(
        reverse("games:guide-finish", args=[game.pk]), {"version": version}
    )
    assert answered(response) in (302, 409)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_anonymous_visitors_are_sent_to_log_in(player):
    game = lessons.start_guided_game(player)
    assert answered(Client().post(reverse("games:guide"))) == 302
    assert answered(Client().post(reverse("games:guide-finish", args=[game.pk]))) == 302
    assert not Game.objects.filter(guided=True).exclude(pk=game.pk).exists()


def test_no_guide_on_a_real_solo_game(player):
    from games import services

    game = services.create_game(creator=player, players=1, side="A", spirits=False)
    assert 'id="guide"' not in page(as_user(player), game)


def test_a_forged_hint_in_a_lesson_is_refused_and_it_stays_a_lesson(player):
    """The page offers no hint in a lesson (the guide is its help): a forged request gets none,
    and the lesson stays GUIDED, never HINTED."""
    from django.core.cache import cache

    from games.services import coaching

    client = as_user(player)
    game = lessons.start_guided_game(player)
    assert "Ask the hard bot for a hint" not in page(client, game)
    url = reverse("games:hint", args=[game.pk])
    assert answered(client.post(url)) == 403
    assert answered(client.post(url, headers={"HX-Request": "true"})) == 403
    assert answered(client.get(url)) == 403
    game.refresh_from_db()
    assert game.uncounted == Game.Uncounted.GUIDED
    assert cache.get(coaching.hint_key(game.pk, game.version)) is None
    assert "The hard bot would" not in page(client, game)


def test_play_again_after_the_lesson_takes_the_lesson_again(player):
    """Not a real solo game named "Guided first game" without its guide: the lesson again."""
    client = as_user(player)
    game = lessons.start_guided_game(player)
    client.post(reverse("games:guide-finish", args=[game.pk]), {"version": game.version})
    html = page(client, game)
    assert "Take the lesson again" in html and "A new solo game" not in html
    response = client.post(reverse("games:again", args=[game.pk]))
    again = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == again.get_absolute_url()
    assert again.guided and again.uncounted == Game.Uncounted.GUIDED
    assert again.seed == lessons.GUIDE_SEED and again.rematch_of_id is None
    assert "Now: Take a space." in page(client, again)
    # Clicked again on the old page: the lesson in progress, not a third game.
    assert client.post(reverse("games:again", args=[game.pk]))["Location"] == response["Location"]
    assert Game.objects.count() == 2


def test_the_finished_lesson_says_where_an_invitation_waits(player):
    """A newcomer who came from an invitation learns first: the sheet's end sends them back to
    the table they were invited to, not only to a new game of their own."""
    client = as_user(player)
    game = lessons.start_guided_game(player)
    client.post(reverse("games:guide-finish", args=[game.pk]), {"version": game.version})
    assert "the invitation waits for you in" in page(client, game)


def test_without_javascript_the_stack_step_names_the_hex_to_choose(player):
    """The list of hexes names them by column and row: the guide says which one holds the token
    to stack on, as the highlighted board does with JavaScript."""
    client = as_user(player)
    game = lessons.start_guided_game(player)
    for action in LESSON_LINE[:2]:  # space 1, then the brown token on column 3, 3rd from the top
        act(client, game, **action)
    html = page(client, game)
    assert "Now: Stack a token." in html
    assert "your brown token in column 3, 3rd from the top" in html


def test_a_forged_resignation_leaves_the_lesson_as_it_was(player):
    """The page offers no Resign in a lesson (it is ended with the guide's button, as ended, not
    abandoned): a forged one is refused and changes nothing."""
    client = as_user(player)
    game = lessons.start_guided_game(player)
    version = game.version
    response = client.post(reverse("games:resign", args=[game.pk]), {"version": version})
    assert answered(response) == 409
    game.refresh_from_db()
    seat = game.seats.get()
    assert game.status == Game.Status.ACTIVE and game.version == version
    assert seat.resigned_at is None and not game.moves.exists()
