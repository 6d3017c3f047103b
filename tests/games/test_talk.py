"""Table talk: who reads and writes, what is refused in words, and how open pages learn of it."""

import html
from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from games import presence, services
from games.models import Game, Message, Seat
from games.services import talk
from games.signals import message_posted
from games.talk import unread_counts, unread_for
from tests.answers import answered
from tests.clients import as_user
from tests.games.helpers import first_legal, play_to_the_end, start_game, user_to_move

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def talk_url(game) -> str:
    return reverse("games:talk", args=[game.pk])


def say(user, game, text, htmx=True):
    return as_user(user).post(talk_url(game), {"text": text}, headers=HTMX if htmx else {})


# --- Writing and reading -------------------------------------------------------------------------


def test_a_player_posts_and_the_other_player_reads_it_marked_new(game, player, other_player):
    response = say(player, game, "Good luck, Bob!")
    assert answered(response) == 200
    assert b"Good luck, Bob!" in response.content
    assert b'id="talk-messages"' in response.content

    first = as_user(other_player).get(talk_url(game), headers=HTMX)
    assert b"Good luck, Bob!" in first.content and b"1 new" in first.content
    again = as_user(other_player).get(talk_url(game), headers=HTMX)
    assert b"1 new" not in again.content  # seen now
    message = Message.objects.get()
    assert (message.author, message.position, message.text) == (
        player,
        game.seats.get(user=player).position,
        "Good luck, Bob!",
    )
    assert Seat.objects.get(game=game, user=other_player).talk_seen == message.pk


def test_the_game_page_shows_the_talk_and_marks_it_seen_once(game, player, other_player):
    talk.post(game_id=game.pk, user=player, text="Hello")
    client = as_user(other_player)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="talk"' in page and "Hello" in page and "1 new" in page
    assert 'href="#talk"' in page  # the phone's action bar leads to it
    seat = Seat.objects.get(game=game, user=other_player)
    assert seat.talk_seen == Message.objects.get().pk
    assert "1 new" not in client.get(game.get_absolute_url()).content.decode()


def test_a_message_does_not_make_a_move_stale(game, player, other_player):
    mover = user_to_move(game)
    version = game.version
    talk.post(game_id=game.pk, user=other_player if mover == player else player, text="Hi")
    game.refresh_from_db()
    assert game.version == version and game.talk_version == 1
    services.play(game_id=game.pk, user=mover, action=first_legal(game), expected_version=version)


def test_a_plain_form_posts_and_lands_back_on_the_talk(game, player):
    response = say(player, game, "Without scripts", htmx=False)
    assert answered(response) == 302
    assert response["Location"] == game.get_absolute_url() + "#talk"
    assert Message.objects.get().text == "Without scripts"


def test_links_are_clickable_escaped_and_kept_from_the_opener(game, player):
    text = "Rules: https://example.org/a?b=1&c=2. Not javascript:alert(1) nor <3 & a<b"
    body = say(player, game, text).content.decode()
    assert (
        '<a href="https://example.org/a?b=1&amp;c=2" rel="nofollow noopener" target="_blank">'
        "https://example.org/a?b=1&amp;c=2</a>." in body
    )
    assert "javascript:alert(1)" in body and 'href="javascript' not in body
    assert "&lt;3 &amp; a&lt;b" in body


def test_a_link_cannot_break_out_of_its_attribute():
    from games.templatetags.talk import talk_text

    html = talk_text('see https://x.org/"onmouseover=alert(1)// and (https://y.org/a_(b))')
    assert 'href="https://x.org/"' in html and "onmouseover" in html
    assert '"onmouseover' not in html.replace('href="https://x.org/"', "")
    assert 'href="https://y.org/a_(b)"' in html


# --- Refused in words, nothing stored -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("x" * 10_000, "at most 500 characters; this one has 10,000"),
        ("x" * 501, "at most 500 characters"),
        ("<script>alert(1)</script>", "without HTML tags"),
        ('<img src=x onerror="alert(1)">', "without HTML tags"),
        # NUL bytes never reach the view: the site refuses them in any form (middleware).
        ("hello\x00world", "a character it cannot have"),
        ("\x00", "a character it cannot have"),
        ("bell\x07", "control characters"),
        ("abc\u202edcba", "control characters"),
        ("", "empty"),
        ("   \n\t ", "empty"),
    ],
)
def test_bad_messages_are_refused_in_words_and_nothing_is_stored(game, player, text, words):
    before = Game.objects.get(pk=game.pk).talk_version
    response = say(player, game, text)
    assert answered(response) == 400
    assert words in response.content.decode()
    if "\x00" not in text:
        assert response["HX-Retarget"] == "#talk-error"
    assert not Message.objects.exists()
    assert Game.objects.get(pk=game.pk).talk_version == before

    plain = say(player, game, text, htmx=False)  # without scripts: the talk page says why
    assert answered(plain) == 400 and words in plain.content.decode()
    assert "\x00" not in plain.content.decode()
    assert not Message.objects.exists()


def test_the_longest_message_and_line_breaks_are_fine(game, player):
    assert answered(say(player, game, "é" * 500)) == 200
    assert answered(say(player, game, "line one\r\nline two\tand a 👨‍👩‍👧")) == 200
    assert Message.objects.last().text == "line one\nline two\tand a 👨‍👩‍👧"


def test_a_stranger_can_neither_read_nor_post(game, stranger):
    talk.post(game_id=game.pk, user=game.created_by, text="secret plans")
    client = as_user(stranger)
    for headers in (HTMX, {}):
        read = client.get(talk_url(game), headers=headers)
        assert answered(read) == 403 and b"secret plans" not in read.content
        assert b"not playing in this game" in read.content
        assert answered(client.post(talk_url(game), {"text": "hi"}, headers=headers)) == 403
    assert Message.objects.count() == 1
    missing = reverse("games:talk", args=[game.pk + 1000])
    assert answered(client.post(missing, {"text": "hi"}, headers=HTMX)) == 404
    assert answered(Client().get(talk_url(game))) == 302  # to log in


def test_a_player_who_resigned_reads_but_cannot_post(player, other_player, stranger):
    game = start_game(player, other_player, stranger)
    services.resign(game_id=game.pk, user=stranger)
    response = say(stranger, game, "bye")
    assert answered(response) == 403 and b"You left this game" in response.content
    assert answered(as_user(stranger).get(talk_url(game), headers=HTMX)) == 200
    assert not Message.objects.exists()


def test_a_finished_public_game_is_read_only_and_open_to_any_player(game, player, stranger):
    # A private table's talk stays its players' (tests/games/test_talk_after_the_game.py).
    Game.objects.filter(pk=game.pk).update(public=True)
    talk.post(game_id=game.pk, user=player, text="Well played")
    play_to_the_end(game)
    response = say(player, game, "one more")
    assert answered(response) == 409 and b"The game is over" in response.content
    spectator = as_user(stranger).get(talk_url(game))
    assert answered(spectator) == 200 and b"Well played" in spectator.content
    assert "Only the game's players write here." in html.unescape(spectator.content.decode())
    assert b"is-new" not in spectator.content  # a spectator has nothing unread
    assert b"since you last looked" not in spectator.content
    assert b"<textarea" not in spectator.content
    assert answered(say(stranger, game, "hi")) == 403
    assert Message.objects.count() == 1


def test_an_open_table_has_no_talk_yet(player, other_player):
    game = services.create_game(creator=player, players=2, side="A", spirits=False)
    response = say(player, game, "anyone?")
    assert answered(response) == 409 and b"when the game starts" in response.content


def test_a_solo_game_has_no_talk(player):
    game = services.create_game(creator=player, players=1, side="A", spirits=False)
    page = as_user(player).get(game.get_absolute_url()).content.decode()
    assert 'id="talk"' not in page and 'id="talk-version"' not in page
    # It still asks whether the game changed: the same player may have it open twice.
    assert f'hx-get="/games/{game.pk}/poll/?v={game.version}&amp;' in page


def test_more_than_ten_messages_a_minute_are_refused(game, player):
    for n in range(10):
        assert answered(say(player, game, f"message {n}")) == 200
    response = say(player, game, "one too many")
    assert answered(response) == 429 and b"too fast" in response.content
    assert Message.objects.count() == 10


# --- Deleting, hiding, muting --------------------------------------------------------------------


def delete_url(message) -> str:
    return reverse("games:talk-delete", args=[message.game_id, message.pk])


def test_the_author_deletes_a_message_within_five_minutes(game, player, other_player):
    message = talk.post(game_id=game.pk, user=player, text="oops")
    assert answered(as_user(other_player).post(delete_url(message), headers=HTMX)) == 403
    response = as_user(player).post(delete_url(message), headers=HTMX)
    assert answered(response) == 200 and b"oops" not in response.content
    assert Message.objects.get().deleted_at is not None
    assert Game.objects.get(pk=game.pk).talk_version == 2  # the others' pages redraw it
    assert answered(as_user(player).post(delete_url(message), headers=HTMX)) == 404


def test_after_five_minutes_a_message_stays(game, player):
    message = talk.post(game_id=game.pk, user=player, text="for the record")
    page = as_user(player).get(talk_url(game), headers=HTMX).content
    assert delete_url(message).encode() in page  # offered while it may be deleted
    with time_machine.travel(timezone.now() + timedelta(minutes=6)):
        response = as_user(player).post(delete_url(message), headers=HTMX)
        assert delete_url(message).encode() not in as_user(player).get(talk_url(game)).content
    assert answered(response) == 409 and b"5 minutes" in response.content
    assert Message.objects.get().deleted_at is None


def test_staff_hide_a_message_in_the_admin(game, player, other_player, admin_client):
    message = talk.post(game_id=game.pk, user=player, text="rude words")
    response = admin_client.post(
        reverse("admin:games_message_changelist"),
        {"action": "hide_messages", "_selected_action": [message.pk]},
    )
    assert answered(response) == 302
    assert Message.objects.get().hidden_by_staff
    assert Game.objects.get(pk=game.pk).talk_version == 2
    page = as_user(other_player).get(talk_url(game), headers=HTMX).content
    assert b"rude words" not in page
    assert admin_client.get(reverse("admin:games_message_changelist")).status_code == 200


def test_a_player_mutes_and_unmutes_a_game(game, player, other_player, stranger):
    talk.post(game_id=game.pk, user=player, text="chatty")
    url = reverse("games:talk-mute", args=[game.pk])
    response = as_user(other_player).post(url, {"muted": "1"}, headers=HTMX)
    assert answered(response) == 200 and b"You muted" in response.content
    assert b"chatty" not in response.content
    seat = Seat.objects.get(game=game, user=other_player)
    assert seat.talk_muted and unread_for(seat) == ([], 0)
    as_user(other_player).post(url, {"muted": "0"})
    seat.refresh_from_db()
    assert not seat.talk_muted
    assert answered(as_user(stranger).post(url, {"muted": "1"})) == 403


def test_a_finished_game_offers_no_mute_and_refuses_one_in_words(game, player, other_player):
    talk.post(game_id=game.pk, user=player, text="Well played")
    url = reverse("games:talk-mute", args=[game.pk])
    assert b"Mute this game" in as_user(other_player).get(talk_url(game)).content
    play_to_the_end(game)
    page = as_user(other_player).get(talk_url(game)).content
    assert b"Well played" in page
    assert url.encode() not in page and b"Mute this game" not in page
    for muted in ("1", "0"):
        response = as_user(other_player).post(url, {"muted": muted})
        assert answered(response) == 409
        assert b"The game is over: its table talk can no longer be muted" in response.content
        htmx = as_user(other_player).post(url, {"muted": muted}, headers=HTMX)
        assert answered(htmx) == 409 and b"can no longer be muted" in htmx.content
    assert not Seat.objects.get(game=game, user=other_player).talk_muted


def test_a_game_muted_while_it_went_on_is_shown_whole_once_it_is_over(game, player, other_player):
    talk.post(game_id=game.pk, user=player, text="Well played")
    talk.set_muted(game_id=game.pk, user=other_player, muted=True)
    assert b"Well played" not in as_user(other_player).get(talk_url(game)).content
    play_to_the_end(game)
    page = as_user(other_player).get(talk_url(game)).content
    assert b"Well played" in page and b"You muted" not in page
    assert b"Show this game" not in page


def test_unread_for_leaves_out_own_deleted_and_seen_messages(game, player, other_player):
    seat = Seat.objects.get(game=game, user=other_player)
    mine = talk.post(game_id=game.pk, user=other_player, text="mine")
    seat.refresh_from_db()
    first = talk.post(game_id=game.pk, user=player, text="first")
    gone = talk.post(game_id=game.pk, user=player, text="gone")
    talk.delete(game_id=game.pk, message_id=gone.pk, user=player)
    for n in range(12):
        talk.post(game_id=game.pk, user=player, text=f"n{n}")
    messages, more = unread_for(seat)
    assert [m.text for m in messages] == [f"n{n}" for n in range(2, 12)]
    assert more == 3  # first, n0, n1
    assert mine not in messages and first not in messages


def test_a_posted_message_is_announced_after_commit(
    game, player, django_capture_on_commit_callbacks
):
    heard = []

    def listener(sender, message, **kwargs):
        heard.append(message.text)

    message_posted.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            talk.post(game_id=game.pk, user=player, text="ping")
        assert heard == []
        for callback in callbacks:
            callback()
        assert heard == ["ping"]
    finally:
        message_posted.disconnect(listener)


# --- The poll ------------------------------------------------------------------------------------


def poll(user, game, **params):
    params.setdefault("p", presence.token_for(game.pk, user.pk))
    return Client().get(reverse("games:poll", args=[game.pk]), params)


def test_the_poll_says_talk_changed_without_touching_the_game(
    game, player, other_player, django_capture_on_commit_callbacks
):
    game.refresh_from_db()
    assert answered(poll(other_player, game, v=game.version, t=game.talk_version)) == 204
    with django_capture_on_commit_callbacks(execute=True):
        talk.post(game_id=game.pk, user=player, text="hi")
    response = poll(other_player, game, v=game.version, t=game.talk_version)
    assert answered(response) == 200 and response["HX-Trigger"] == "talk-changed"
    assert answered(poll(other_player, game, v=game.version, t=game.talk_version + 1)) == 204
    assert answered(poll(other_player, game, v=game.version)) == 204  # an older page: no t


def test_the_page_on_its_own_turn_asks_about_the_game_and_the_talk_and_is_not_looking(game):
    mover = user_to_move(game)
    page = as_user(mover).get(game.get_absolute_url()).content.decode()
    assert f'hx-get="/games/{game.pk}/poll/?v={game.version}&amp;p=' in page
    assert "turn=mine" in page and 'hx-include="#talk-version"' in page
    cache.clear()
    assert answered(poll(mover, game, v=game.version, t=0, turn="mine")) == 204
    assert not presence.is_looking(game.pk, mover.pk)  # the turn email is not held back
    # A page from before "turn=mine" asked about the talk alone on its own turn: still so.
    assert answered(poll(mover, game, t=0)) == 204
    assert not presence.is_looking(game.pk, mover.pk)


def test_the_poll_with_the_talk_costs_one_query_cold_and_none_warm(
    game, other_player, django_assert_max_num_queries
):
    params = {"v": game.version, "t": game.talk_version}
    with django_assert_max_num_queries(1):
        assert answered(poll(other_player, game, **params)) == 204
    with django_assert_max_num_queries(0):
        assert answered(poll(other_player, game, **params)) == 204


def test_the_game_page_reads_the_talk_once_per_talk_version_however_long(
    game, player, other_player, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = as_user(other_player)
    url = game.get_absolute_url()
    client.get(url)
    with CaptureQueriesContext(connection) as quiet:
        client.get(url)
    without_messages = len(quiet.captured_queries)  # now: the connection keeps the last 9,000
    for n in range(30):
        talk.post(game_id=game.pk, user=player, text=f"m{n}")
    client.get(url)  # reads them and marks them seen: one more write, once
    with django_assert_num_queries(without_messages):
        assert b"m29" in client.get(url).content


def test_playing_a_move_reads_no_talk(game, player):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    talk.post(game_id=game.pk, user=player, text="hello")
    game.refresh_from_db()
    mover = user_to_move(game)
    client = as_user(mover)
    data = {**first_legal(game), "version": game.version}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("games:act", args=[game.pk]), data, headers=HTMX)
    assert answered(response) == 200
    assert not [q for q in queries.captured_queries if "games_message" in q["sql"]]


def test_my_games_marks_games_with_unread_messages(game, player, other_player, stranger):
    other = start_game(other_player, stranger)
    talk.post(game_id=game.pk, user=player, text="one")
    talk.post(game_id=game.pk, user=player, text="two")
    talk.post(game_id=other.pk, user=stranger, text="elsewhere")
    talk.post(game_id=other.pk, user=other_player, text="my own")  # seen: it was mine
    page = as_user(other_player).get(reverse("games:mine")).content.decode()
    assert page.count("new message") == 1 and "2 new messages" in page
    assert unread_counts(player) == {}
    as_user(other_player).get(game.get_absolute_url())  # read on the game page
    assert unread_counts(other_player) == {}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*"ab <>&\"'`/:.()=\n", "https://", "http://"])).map("".join))
def test_any_text_comes_out_escaped_and_whole(text):
    import html as html_module
    import re

    from games.templatetags.talk import talk_text

    out = str(talk_text(text))
    anchors = re.compile(r'<a href="([^"]*)" rel="nofollow noopener" target="_blank">([^<]*)</a>')
    for href, shown in anchors.findall(out):
        assert href == shown and href.startswith(("http://", "https://"))
    bare = anchors.sub(lambda m: m.group(2), out)
    assert "<" not in bare and ">" not in bare and '"' not in bare
    assert html_module.unescape(bare) == text


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=600))
def test_whatever_is_typed_is_stored_clean_or_refused_in_words(text):
    import unicodedata

    try:
        clean = talk.clean_text(text)
    except talk.TalkRefused as exc:
        assert exc.status == 400 and exc.message.endswith(".")
        return
    assert 0 < len(clean) <= talk.MAX_LENGTH and clean == clean.strip()
    assert "\x00" not in clean and "\r" not in clean
    assert all(unicodedata.category(c) != "Cc" or c in "\n\t" for c in clean)
    assert not talk._TAG.search(clean)


def test_talk_times_are_in_the_readers_time_zone_like_the_log(game, player, other_player):
    from datetime import UTC, datetime

    import time_machine

    other_player.time_zone = "Asia/Tokyo"  # UTC+9, no summer time
    other_player.save()
    moment = datetime(2026, 12, 3, 10, 30, tzinfo=UTC)
    with time_machine.travel(moment, tick=False):
        talk.post(game_id=game.pk, user=player, text="hello from UTC")
    page = as_user(other_player).get(game.get_absolute_url()).content.decode()
    assert "3 Dec, 19:30" in page and "3 Dec, 10:30" not in page
    fragment = as_user(other_player).get(talk_url(game), headers=HTMX).content.decode()
    assert "3 Dec, 19:30" in fragment
