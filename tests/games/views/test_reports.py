"""Reporting to staff: a talk message, a player, a display name. Each rule is replayed as the
requests a player (or someone forging them) would send; a refused report stores nothing."""

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Message, Report
from games.services import talk
from games.services.reports import THANKS, WORDS_MAX
from tests.answers import answered
from tests.clients import as_user

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def report_url(kind: str, target_id: int) -> str:
    return reverse("games:report", args=[kind, target_id])


def send(user, kind, target_id, reason="abuse", words="", htmx=True):
    return as_user(user).post(
        report_url(kind, target_id),
        {"reason": reason, "words": words},
        headers=HTMX if htmx else {},
    )


@pytest.fixture
def rude(game, player):
    """Alice's message in her game with Bob."""
    return talk.post(game_id=game.pk, user=player, text="You play like a potato")


# --- Reporting ---------------------------------------------------------------------------------


def test_a_player_reports_a_talk_message_and_it_is_kept_as_it_was(rude, game, player, other_player):
    response = send(other_player, "message", rude.pk, words="Third time tonight.")
    assert answered(response) == 200
    assert str(THANKS) in response.content.decode()
    report = Report.objects.get()
    assert (report.kind, report.reason, report.words) == ("message", "abuse", "Third time tonight.")
    assert (report.reporter, report.reported, report.message, report.game) == (
        other_player,
        player,
        rude,
        game,
    )
    assert (report.reported_name, report.reported_username) == ("Alice", "alice")
    assert report.message_text == "You play like a potato" and report.is_open
    # The author takes the message back and changes her name: the report still says what it was.
    talk.delete(game_id=game.pk, message_id=rude.pk, user=player)
    User.objects.filter(pk=player.pk).update(display_name="Angel")
    report.refresh_from_db()
    assert (report.message_text, report.reported_name) == ("You play like a potato", "Alice")


def test_without_javascript_the_form_is_a_page_and_the_thanks_show_on_the_game_page(
    rude, game, other_player
):
    client = as_user(other_player)
    page = client.get(report_url("message", rude.pk)).content.decode()
    assert "Report Alice&#x27;s message" in page and "You play like a potato" in page
    assert page.count('name="reason"') == 3 and "<html" in page
    response = client.post(report_url("message", rude.pk), {"reason": "spam"})
    assert response.status_code == 302
    assert response.url == f"{game.get_absolute_url()}#talk"
    assert str(THANKS) in client.get(response.url).content.decode()
    assert Report.objects.get().reason == "spam"


def test_with_htmx_the_form_is_a_fragment_for_the_page_it_was_asked_from(rude, other_player):
    html = as_user(other_player).get(report_url("message", rude.pk), headers=HTMX).content.decode()
    assert "<html" not in html and 'hx-post="' + report_url("message", rude.pk) in html
    assert "Report Alice&#x27;s message" in html


def test_the_game_page_offers_to_report_the_others_messages_only(game, player, other_player):
    hers = talk.post(game_id=game.pk, user=player, text="Hello Bob")
    his = talk.post(game_id=game.pk, user=other_player, text="Hello Alice")
    page = as_user(other_player).get(game.get_absolute_url()).content.decode()
    assert report_url("message", hers.pk) in page
    assert report_url("message", his.pk) not in page
    assert 'id="talk-report"' in page


def test_the_player_page_offers_to_report_the_player_and_the_name(player, other_player):
    page = reverse("records:player", args=[player.username])
    theirs = as_user(other_player).get(page).content.decode()
    assert report_url("player", player.pk) in theirs and report_url("name", player.pk) in theirs
    own = as_user(player).get(page).content.decode()
    assert report_url("player", player.pk) not in own


def test_a_player_and_a_display_name_are_reported_each_with_its_own_reasons(
    player, other_player, stranger
):
    assert answered(send(other_player, "player", player.pk, reason="cheating")) == 200
    assert answered(send(other_player, "name", player.pk, reason="offensive_name")) == 200
    targets = set(Report.objects.values_list("kind", "target", "reason"))
    assert targets == {
        ("player", f"player:{player.pk}", "cheating"),
        ("name", f"name:{player.pk}", "offensive_name"),
    }
    form = as_user(stranger).get(report_url("name", player.pk)).content.decode()
    assert 'value="offensive_name"' in form and 'value="cheating"' not in form


# --- Refused, and nothing stored ---------------------------------------------------------------


def test_reporting_the_same_thing_twice_is_refused_until_staff_dealt_with_it(rude, other_player):
    assert answered(send(other_player, "message", rude.pk)) == 200
    again = send(other_player, "message", rude.pk, reason="spam")
    assert answered(again) == 409 and "You have already reported this." in again.content.decode()
    form = as_user(other_player).get(report_url("message", rude.pk), headers=HTMX)
    assert "You have already reported this." in form.content.decode()
    assert Report.objects.count() == 1
    Report.objects.update(dealt_at=timezone.now())  # staff closed it: a new one is a new matter
    assert answered(send(other_player, "message", rude.pk)) == 200
    assert Report.objects.count() == 2


def test_a_stranger_cannot_report_or_read_a_message_of_a_game_they_cannot_read(rude, stranger):
    for response in (
        send(stranger, "message", rude.pk),
        as_user(stranger).get(report_url("message", rude.pk)),
    ):
        html = response.content.decode()
        assert answered(response) == 403 and "messages you can read" in html
        assert "potato" not in html
    assert not Report.objects.exists()


def test_a_player_cannot_report_themselves_or_their_own_message(rude, player):
    refusals = {
        ("message", rude.pk): "You cannot report your own message.",
        ("player", player.pk): "You cannot report yourself.",
        ("name", player.pk): "You cannot report yourself.",
    }
    for (kind, target_id), words in refusals.items():
        response = send(player, kind, target_id, reason="other")
        assert answered(response) == 400 and words in response.content.decode()
    assert not Report.objects.exists()


def test_a_bot_cannot_be_reported(player):
    bot = User.objects.bots("easy").first()
    for kind in ("player", "name"):
        response = send(player, kind, bot.pk, reason="other")
        assert answered(response) == 400 and "Computer opponents" in response.content.decode()
    assert not Report.objects.exists()


def test_a_forged_reason_is_refused_and_stores_nothing(rude, other_player):
    # "cheating" and "offensive_name" are reasons, but not ones a message is reported for.
    for reason in ["", "nonsense", "spam'; DROP TABLE games_report; --", "cheating", "ABUSE"]:
        response = send(other_player, "message", rude.pk, reason=reason)
        html = response.content.decode()
        assert answered(response) == 400 and "Choose one of the reasons in the list." in html
    assert not Report.objects.exists()


def test_a_forged_target_of_another_kind_or_of_no_kind_stores_nothing(rude, game, other_player):
    players = set(User.objects.values_list("pk", flat=True))
    messages = set(Message.objects.values_list("pk", flat=True))
    a_players_id = min(players - messages)  # an id that is a player's, sent as a message's
    refusals = [
        (report_url("message", a_players_id), 404, "There is no such message to report."),
        (report_url("game", game.pk), 404, "There is nothing of that kind to report."),
        (report_url("player", 2**70), 404, "There is no such player to report."),
        (report_url("message", 2**70), 404, "There is no such message to report."),
    ]
    for url, status, words in refusals:
        response = as_user(other_player).post(url, {"reason": "other"}, headers=HTMX)
        assert answered(response) == status and words in response.content.decode(), url
    assert not Report.objects.exists()


def test_a_message_no_longer_shown_cannot_be_reported(rude, game, player, other_player):
    talk.hide(Message.objects.filter(pk=rude.pk))
    response = send(other_player, "message", rude.pk)
    assert answered(response) == 404 and "no longer shown" in response.content.decode()
    assert not Report.objects.exists()


def test_words_too_long_or_with_control_characters_are_refused_and_offered_back(rude, other_player):
    long_words = "x" * (WORDS_MAX + 1)
    response = send(other_player, "message", rude.pk, words=long_words)
    html = response.content.decode()
    assert answered(response) == 400 and f"at most {WORDS_MAX:,} characters" in html
    assert long_words in html and 'name="reason" value="abuse" required checked' in html
    response = send(other_player, "message", rude.pk, words="red \x1b[31m alert")
    assert answered(response) == 400 and "control characters" in response.content.decode()
    assert not Report.objects.exists()


def test_reports_are_limited_to_ten_an_hour_per_player(game, player, other_player):
    said = [talk.post(game_id=game.pk, user=player, text=f"rude {n}") for n in range(11)]
    for message in said[:10]:
        assert answered(send(other_player, "message", message.pk)) == 200
    response = send(other_player, "message", said[10].pk)
    assert answered(response) == 429 and "many reports" in response.content.decode()
    assert Report.objects.count() == 10


def test_a_visitor_is_sent_to_log_in(rude):
    response = as_user(None).post(report_url("message", rude.pk), {"reason": "spam"})
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not Report.objects.exists()
