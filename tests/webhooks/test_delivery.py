"""Events reach a chat on this machine over HTTPS, once each: every turn and the talk to a table's
channel, a player's own turns to theirs, the end with the final boards to both; retries with
backoff on 429 and server errors, up to a last attempt whose failure is shown beside the hook."""

import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from celery.exceptions import Retry
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from accounts.models import Block
from games import presence, services
from games import tasks as game_tasks
from games.models import Game, Message
from games.services import weekly
from tests.games.helpers import play_to_the_end, play_turns, start_game, user_to_move
from tests.webhooks.receiver import Answer
from webhooks import events, hooks, payloads, posting, sender
from webhooks import tasks as webhook_tasks
from webhooks.models import Delivery, Webhook
from webhooks.payloads import discord_escaped
from webhooks.pictures import board_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks):
    """Runs `action` and then what it queued after the commit (tasks run in-process in tests,
    and those they queue in turn), as a worker would."""

    def run(action):
        with django_capture_on_commit_callbacks(execute=True):
            return action()

    return run


def like_a_worker(delivery_id: int) -> int:
    """Runs the post as a worker does, again after each retry it asks for (tests propagate the
    retry instead of scheduling it); returns how many retries it took."""
    retries = 0
    while True:
        try:
            webhook_tasks.deliver.apply((delivery_id,), retries=retries, throw=True)
        except Retry:
            retries += 1
            assert retries <= posting.MAX_RETRIES, "retried past the last attempt"
            continue
        return retries


def table_hook(chat, game, owner, kind="json", path="/table") -> Webhook:
    return hooks.add_table_hook(owner, game.pk, kind, chat.url(path))


def own_hook(chat, owner, kind="json", path="/own") -> Webhook:
    return hooks.add_player_hook(owner, kind, chat.url(path))


def test_the_webhook_tasks_run_on_the_mail_queue():
    assert settings.CELERY_TASK_ROUTES["webhooks.*"] == {"queue": "mail"}
    assert webhook_tasks.deliver.max_retries == posting.MAX_RETRIES == 5


# --- Your turn ------------------------------------------------------------------------------------


def test_a_tables_channel_hears_every_turn_naming_the_player(
    local_chat, game, player, after_commit
):
    table_hook(local_chat, game, player, kind="discord")
    movers = []
    for _ in range(3):
        after_commit(lambda: play_turns(game, 1))
        movers.append(user_to_move(game).public_name)
    posts = local_chat.to("/table")
    assert [post.body["content"] for post in posts] == [
        discord_escaped(f"{name}'s turn in {game.title}") for name in movers
    ]
    body = posts[0].body
    assert body["allowed_mentions"] == {"parse": []}  # nobody is ever pinged
    assert body["embeds"][0]["url"] == settings.SITE_URL + game.get_absolute_url()
    assert body["username"] == "Harmonies"
    assert Delivery.objects.filter(status=Delivery.Status.SENT).count() == 3


def test_a_players_own_channel_hears_only_their_own_turns(
    local_chat, game, player, other_player, after_commit
):
    own_hook(local_chat, player)
    own_hook(local_chat, other_player, path="/other")
    for _ in range(4):
        after_commit(lambda: play_turns(game, 1))
    mine, theirs = local_chat.to("/own"), local_chat.to("/other")
    assert len(mine) == len(theirs) == 2
    assert {post.body["to_move"] for post in mine} == {player.public_name}
    assert mine[0].body["title"] == f"Your turn in {game.title}"
    assert mine[0].body["event"] == "turn" and mine[0].body["game"]["id"] == game.pk
    assert "message" not in mine[0].body


def test_a_players_own_turn_waits_while_they_look_at_the_game(local_chat, game):
    mover = user_to_move(game)
    own_hook(local_chat, mover)
    turn = game.engine_state().turn
    presence.mark_present(game.pk, mover.pk)
    assert events.announce_turn(game.pk, turn) == []
    assert not Delivery.objects.exists()  # nothing recorded: the sweep or their return asks again
    cache.clear()  # they left the page
    (_delivery_id,) = events.announce_turn(game.pk, turn)
    assert events.announce_turn(game.pk, turn) == []  # announced once


def test_a_task_run_twice_posts_once(local_chat, game, player, after_commit):
    table_hook(local_chat, game, player)
    turn = game.engine_state().turn
    after_commit(lambda: game_tasks.notify_turn(game.pk, turn))
    after_commit(lambda: game_tasks.notify_turn(game.pk, turn))  # the email task's retry
    (delivery,) = Delivery.objects.all()
    webhook_tasks.deliver(delivery.pk)  # a redelivered post
    assert len(local_chat.to("/table")) == 1


def test_a_guided_game_and_a_stale_turn_are_never_told(local_chat, game, player):
    table_hook(local_chat, game, player)
    turn = game.engine_state().turn
    assert events.announce_turn(game.pk, turn + 1) == []  # not this turn
    if hasattr(Game, "guided"):
        Game.objects.filter(pk=game.pk).update(guided=True)
        assert events.announce_turn(game.pk, turn) == []
    assert not local_chat.received


def test_a_turn_played_for_a_player_who_left_is_not_told(local_chat, player, other_player, carol):
    game = start_game(player, other_player, carol)
    table_hook(local_chat, game, player)
    mover = game.seats.get(position=game.current_seat)
    type(mover).objects.filter(pk=mover.pk).update(resigned_at=game.started_at)
    assert events.announce_turn(game.pk, game.engine_state().turn) == []


# --- Table talk -----------------------------------------------------------------------------------


def test_the_table_talk_goes_to_the_tables_channel_only(
    local_chat, game, player, other_player, after_commit
):
    table_hook(local_chat, game, player, kind="slack")
    own_hook(local_chat, player)
    after_commit(
        lambda: services.talk.post(game_id=game.pk, user=other_player, text="@here & a <3 b>")
    )
    (post,) = local_chat.to("/table")
    text = post.body["blocks"][0]["text"]["text"]
    assert "@here &amp; a &lt;3 b&gt;" in text  # Slack shows it as written
    assert post.body["text"] == f"{other_player.public_name} in {game.title}"
    assert local_chat.to("/own") == []  # a player's own channel never carries anyone's words


def test_a_message_the_owner_blocked_never_leaves_through_their_hook(
    local_chat, game, player, other_player, after_commit
):
    table_hook(local_chat, game, player)
    Block.objects.create(blocker=player, blocked=other_player)
    message = after_commit(
        lambda: services.talk.post(game_id=game.pk, user=other_player, text="hello")
    )
    assert events.announce_message(message.pk) == []
    assert local_chat.received == []


@pytest.mark.parametrize("taken_back", ["deleted", "hidden", "blocked"])
def test_a_message_taken_back_while_its_post_waits_is_never_posted(
    local_chat, game, player, other_player, taken_back
):
    """The post may wait minutes for a retry; what the page no longer shows by then (deleted by
    its author, hidden by staff, or its author blocked by the channel's owner) does not go."""
    table_hook(local_chat, game, player)
    message = services.talk.post(game_id=game.pk, user=other_player, text="I take it back")
    (delivery_id,) = events.announce_message(message.pk)
    local_chat.answers["/table"] = [503]
    assert posting.post_once(delivery_id, retries=0).outcome == "retry"
    if taken_back == "deleted":
        services.talk.delete(game_id=game.pk, message_id=message.pk, user=other_player)
    elif taken_back == "hidden":
        services.talk.hide(Message.objects.filter(pk=message.pk))
    else:
        Block.objects.create(blocker=player, blocked=other_player)
    assert posting.post_once(delivery_id, retries=1).outcome == "dropped"
    assert len(local_chat.to("/table")) == 1  # the attempt before, which the chat refused
    assert not Delivery.objects.filter(pk=delivery_id).exists()
    assert not Webhook.objects.get(game=game).failing  # not the chat's failure


# --- Game over ------------------------------------------------------------------------------------


def test_the_end_goes_with_the_final_boards_as_pictures(
    local_chat, client, player, other_player, after_commit
):
    game = play_to_the_end(start_game(player, other_player))
    own_hook(local_chat, other_player, kind="discord", path="/own")
    Webhook.objects.create(owner=player, game=game, kind="json", url=local_chat.url("/table"))
    after_commit(lambda: game_tasks.finalize_game(game.pk))
    (table,) = local_chat.to("/table")
    body = table.body
    assert body["event"] == "game_over" and body["title"] == f"Game over: {game.title}"
    assert [p["rank"] for p in body["players"]] == sorted(p["rank"] for p in body["players"])
    assert {p["name"] for p in body["players"]} == {player.public_name, other_player.public_name}
    assert len(body["boards"]) == 2
    for board in body["boards"]:
        picture = client.get(board["image_url"].removeprefix(settings.SITE_URL))
        assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
        assert picture.content[:8] == b"\x89PNG\r\n\x1a\n"
        assert board["alt"].startswith(board["player"] + "'s final board")
    (own,) = local_chat.to("/own")
    assert [e["image"]["url"] for e in own.body["embeds"]] == [
        b["image_url"] for b in body["boards"]
    ]
    everything = json.dumps([body, own.body])
    assert player.email not in everything and other_player.email not in everything


def test_a_board_picture_address_cannot_be_guessed_or_changed(client, game):
    from webhooks.pictures import board_url

    good = board_url(game.pk, 0).removeprefix(settings.SITE_URL)
    assert client.get(good).status_code == 404  # not finished: no picture yet
    token = good.split("/")[-1].removesuffix(".png")
    for forged in (token[:-1] + ("A" if token[-1] != "A" else "B"), "x" * 500, "WzEsMF0"):
        assert client.get(reverse("webhooks:board", args=[forged])).status_code == 404


def test_a_game_of_the_open_deal_of_the_week_goes_without_its_board(
    local_chat, client, player, after_commit
):
    """Its board shows the week's pouch order: posted to a chat, or at its picture's address,
    it would give the deal away to everyone yet to play it. The score is no secret."""
    wednesday = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)
    with time_machine.travel(wednesday, tick=True):
        game = weekly.play_weekly(user=player, week="2026-11-30")
        game = play_to_the_end(game)
        own_hook(local_chat, player, kind="discord", path="/own")
        after_commit(lambda: game_tasks.finalize_game(game.pk))
        (own,) = local_chat.to("/own")
        assert own.body["embeds"][0]["title"] == game.title
        assert "image" not in json.dumps(own.body)
        picture = board_url(game.pk, 0).removeprefix(settings.SITE_URL)
        assert client.get(picture).status_code == 404
    with time_machine.travel(wednesday + timedelta(days=7), tick=True):  # the week has closed
        assert client.get(picture).status_code == 200


def test_four_long_names_stay_within_discords_field_limit():
    """Discord refuses a whole post whose embed field passes 1,024 characters; a username may
    be 150 characters of markup that escaping doubles."""
    name = "_" * 150
    event = payloads.Event(
        event="game_over",
        title="Game over: a long table",
        text="",
        players=[{"name": name, "rank": r, "score": 100 + r} for r in range(1, 5)],
    )
    (field,) = payloads.discord(event)["embeds"][0]["fields"]
    assert len(field["value"]) <= 1024 and field["value"].startswith("1. " + "\\_" * 150)


# --- Retries --------------------------------------------------------------------------------------


@pytest.fixture
def queued(monkeypatch):
    """What the hooks queue, kept for the test to run like a worker."""
    names = []
    monkeypatch.setattr("webhooks.hooks.enqueue", lambda *args: names.append(args))
    return names


def test_a_failing_chat_is_tried_again_until_it_takes_the_post(local_chat, player, queued):
    hook = own_hook(local_chat, player)
    local_chat.answers["/own"] = [503, Answer(429, (("Retry-After", "1"),)), 204]
    delivery = hooks.send_test(player, hook.pk)
    assert queued == [("webhooks.deliver", delivery.pk)]
    assert like_a_worker(delivery.pk) == 2
    assert len(local_chat.to("/own")) == 3
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts) == (Delivery.Status.SENT, 3)
    hook.refresh_from_db()
    assert hook.last_ok_at is not None and not hook.failing
    assert local_chat.to("/own")[0].body["event"] == "test"


def test_a_chat_that_keeps_failing_is_given_up_and_the_profile_says_why(
    local_chat, client, player, queued
):
    hook = own_hook(local_chat, player)
    local_chat.answers["/own"] = [502] * 10
    delivery = hooks.send_test(player, hook.pk)
    assert like_a_worker(delivery.pk) == posting.MAX_RETRIES
    webhook_tasks.deliver(delivery.pk)  # a late redelivery finds it finished
    assert len(local_chat.to("/own")) == posting.MAX_RETRIES + 1
    delivery = Delivery.objects.get()
    assert delivery.status == Delivery.Status.FAILED
    hook.refresh_from_db()
    assert hook.failing and hook.last_error.startswith("Gave up after 6 attempts.")
    client.force_login(player)
    page = client.get(reverse("profile")).content.decode()
    assert "Last post failed" in page and "The chat answered 502" in page


def test_a_refusal_is_final(local_chat, player, queued):
    hook = own_hook(local_chat, player)
    local_chat.answers["/own"] = [Answer(404, body=b'{"message": "Unknown Webhook"}')]
    assert like_a_worker(hooks.send_test(player, hook.pk).pk) == 0
    assert len(local_chat.to("/own")) == 1
    delivery = Delivery.objects.get()
    assert delivery.status == Delivery.Status.REFUSED
    assert delivery.error == 'The chat answered 404: {"message": "Unknown Webhook"}'


def test_the_wait_a_chat_asks_for_is_respected(local_chat, player, queued):
    hook = own_hook(local_chat, player)
    local_chat.answers["/own"] = [
        Answer(429, (("Retry-After", "120"),)),
        Answer(429, (("Content-Type", "application/json"),), b'{"retry_after": 300.5}'),
    ]
    delivery = hooks.send_test(player, hook.pk)
    first = posting.post_once(delivery.pk, retries=0)
    assert first.outcome == "retry" and first.countdown >= 120
    second = posting.post_once(delivery.pk, retries=1)
    assert second.outcome == "retry" and second.countdown >= 301
    assert 30 <= posting.backoff(0) <= 60 and posting.backoff(10) <= posting.BACKOFF_MAX
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.PENDING and delivery.claimed_at is None


def posted_in_time(url: str, seconds: float) -> sender.Outcome:
    """sender.post, which must be over within `seconds` (else the test fails, the post going on
    in its thread until the receiver stops)."""
    outcome = []
    thread = threading.Thread(target=lambda: outcome.append(sender.post(url, {"text": "hi"})))
    thread.start()
    thread.join(seconds)
    assert outcome, f"the post still waits for the chat's answer after {seconds} s"
    return outcome[0]


def test_an_endless_answer_is_read_no_further_than_its_first_words(local_chat):
    """A receiver answering without end would fill the worker's memory, and hold the queue of
    every email, if its answer were read to its end."""
    local_chat.answers["/own"] = [Answer(502, drip=64 * 1024, pause=0.01)]
    outcome = posted_in_time(local_chat.url("/own"), 10)
    assert outcome.retry and outcome.error.startswith("The chat answered 502: xxxx")
    assert len(outcome.error) <= sender.ERROR_CHARS
    assert local_chat.dripped < 50 * 1024 * 1024


def test_an_answer_in_an_unknown_charset_is_read_all_the_same(local_chat):
    local_chat.answers["/own"] = [
        Answer(400, (("Content-Type", "text/plain; charset=no-such-codec"),), b"bad \xff request")
    ]
    outcome = sender.post(local_chat.url("/own"), {"text": "hi"})
    assert not outcome.retry and outcome.error == "The chat answered 400: bad \ufffd request"


def test_an_answer_dripped_slowly_holds_the_worker_for_seconds_only(local_chat, monkeypatch):
    monkeypatch.setattr(sender, "ANSWER_SECONDS", 1)
    local_chat.answers["/own"] = [Answer(200, drip=1, pause=0.1)]
    assert posted_in_time(local_chat.url("/own"), 8).ok  # it arrived: no second post


def test_an_address_that_turned_private_is_never_posted_to(local_chat, player, settings):
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = False
    hook = Webhook.objects.create(owner=player, kind="json", url="https://127.0.0.1/own")
    delivery = Delivery.objects.create(hook=hook, key="test:1", payload={"text": "hi"})
    assert posting.post_once(delivery.pk, retries=0).outcome == "refused"
    assert local_chat.received == []
    delivery.refresh_from_db()
    assert "public internet" in delivery.error
