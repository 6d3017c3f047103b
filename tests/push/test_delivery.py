"""Web Push for real: a local HTTPS push service receives each encrypted POST, and the test
decrypts it with the browser's private key and checks the VAPID signature, as a browser and a
push service would. Also: once per device, 404/410 delete the device, other errors retry."""

import random
import signal
from datetime import date, timedelta

import pytest
import time_machine
from celery.exceptions import Retry
from django.utils import timezone

from accounts.models import User
from games import presence, services, tasks
from games.models import Game
from push import deliveries, notify, sender
from push.models import PushDelivery, PushSubscription
from push.sender import PushFailed
from tests.games.helpers import (
    play_one_action,
    play_to_the_end,
    play_turns,
    start_game,
    user_to_move,
)
from tests.push.conftest import SUBJECT
from tests.push.service import Drip, verify_vapid

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("push_on")]


@pytest.fixture
def game(player, other_player):
    """A game on its second turn: the first player has played."""
    game = start_game(player, other_player)
    return play_turns(game, turns=1)


def turn_of(game: Game) -> int:
    game.refresh_from_db()
    return game.engine_state().turn


def test_the_player_to_move_gets_an_encrypted_signed_push(game, device, push_service, vapid):
    mover = user_to_move(game)
    before = game.seats.exclude(user=mover).get().user
    subscription, browser = device(mover)

    # Midday: at night the player's quiet hours (22:00-07:00) would make it silent.
    with time_machine.travel(timezone.now().replace(hour=12, minute=0), tick=False):
        assert deliveries.send_turn(game.pk, turn_of(game)) == 1

    (received,) = push_service.received
    assert browser.decrypt(received.body) == {
        "title": f"Your turn in {game.title}",
        "body": f"{before.public_name} has played.",
        "url": f"/games/{game.pk}/",
        "tag": f"game-{game.pk}",
        "silent": False,
    }
    claims = verify_vapid(received.headers["authorization"], vapid, push_service.origin)
    assert claims["sub"] == SUBJECT
    assert received.headers["content-encoding"] == "aes128gcm"
    assert received.headers["ttl"] == str(12 * 3600)
    subscription.refresh_from_db()
    assert subscription.last_ok_at is not None


def test_each_device_of_the_player_gets_it_and_only_that_player(game, device, push_service):
    mover = user_to_move(game)
    (_, phone), (_, laptop) = device(mover), device(mover)
    device(game.seats.exclude(user=mover).get().user)
    assert deliveries.send_turn(game.pk, turn_of(game)) == 2
    bodies = sorted(r.body for r in push_service.received)
    assert len(bodies) == 2
    titles = set()
    for body in bodies:  # each is readable by exactly one of the two browsers
        for browser in (phone, laptop):
            try:
                titles.add(browser.decrypt(body)["title"])
            except Exception:
                continue
    assert titles == {f"Your turn in {game.title}"}


def test_running_it_twice_pushes_once(game, device, push_service):
    device(user_to_move(game))
    turn = turn_of(game)
    assert deliveries.send_turn(game.pk, turn) == 1
    assert deliveries.send_turn(game.pk, turn) == 0
    tasks.notify_turn(game.pk, turn)  # the email task (a retry, the sweep) queues the push again
    assert len(push_service.received) == 1


def test_a_410_deletes_the_subscription(game, device, push_service):
    subscription, _ = device(user_to_move(game), path="/expired")
    push_service.answers["/expired"] = 410
    assert deliveries.send_turn(game.pk, turn_of(game)) == 0
    assert len(push_service.to("/expired")) == 1
    assert not PushSubscription.objects.filter(pk=subscription.pk).exists()
    assert not PushDelivery.objects.exists()


def test_a_404_deletes_the_subscription_too(game, device, push_service):
    subscription, _ = device(user_to_move(game), path="/unknown")
    push_service.answers["/unknown"] = 404
    assert deliveries.send_turn(game.pk, turn_of(game)) == 0
    assert not PushSubscription.objects.filter(pk=subscription.pk).exists()


def test_a_failing_push_service_gives_the_claim_back_and_the_retry_sends_once(
    game, device, push_service
):
    mover = user_to_move(game)
    (_, _), (flaky, broken) = device(mover, path="/ok"), device(mover, path="/flaky")
    push_service.answers["/flaky"] = 503
    turn = turn_of(game)
    with pytest.raises(PushFailed):
        deliveries.send_turn(game.pk, turn)
    assert PushSubscription.objects.filter(pk=flaky.pk).exists()  # kept: only unavailable
    push_service.answers["/flaky"] = 201
    assert deliveries.send_turn(game.pk, turn) == 1  # the retry: the flaky device only
    assert len(push_service.to("/ok")) == 1
    assert len(push_service.to("/flaky")) == 2
    assert broken.decrypt(push_service.to("/flaky")[-1].body)["title"].startswith("Your turn")
    assert deliveries.send_turn(game.pk, turn) == 0


def test_the_task_asks_for_a_retry_when_the_push_service_is_busy(game, device, push_service):
    device(user_to_move(game), path="/busy")
    push_service.answers["/busy"] = 429
    with pytest.raises(Retry):  # Celery schedules the task again (1, 2, 4... minutes later)
        tasks_module().push_turn.apply(args=[game.pk, turn_of(game)], throw=True)
    assert len(push_service.to("/busy")) == 1
    assert not PushDelivery.objects.exists()  # the claim is free for the retry


def tasks_module():
    from push import tasks as push_tasks

    return push_tasks


def test_a_refusal_other_than_gone_is_final_for_that_push(game, device, push_service):
    subscription, _ = device(user_to_move(game), path="/bad")
    push_service.answers["/bad"] = 400
    turn = turn_of(game)
    assert deliveries.send_turn(game.pk, turn) == 0
    assert PushDelivery.objects.get().outcome == "refused"
    assert deliveries.send_turn(game.pk, turn) == 0
    assert len(push_service.to("/bad")) == 1
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()


def test_a_claim_left_by_a_worker_that_died_is_taken_again_later(game, device, push_service):
    subscription, _ = device(user_to_move(game))
    turn = turn_of(game)
    PushDelivery.objects.create(
        subscription=subscription, kind="turn", key=f"{game.pk}:{turn}", claimed_at=timezone.now()
    )
    assert deliveries.send_turn(game.pk, turn) == 0  # someone is sending it
    PushDelivery.objects.update(claimed_at=timezone.now() - timedelta(minutes=6))
    assert deliveries.send_turn(game.pk, turn) == 1
    assert len(push_service.received) == 1


def test_no_push_to_a_player_looking_at_the_game_and_none_later(game, device, push_service):
    mover = user_to_move(game)
    device(mover)
    presence.mark_present(game.pk, mover.pk)
    turn = turn_of(game)
    assert deliveries.send_turn(game.pk, turn) == 0
    assert PushDelivery.objects.get().outcome == "watching"
    presence.mark_present(game.pk, mover.pk, at=timezone.now() - timedelta(minutes=3))
    assert deliveries.send_turn(game.pk, turn) == 0  # the held email's sweep asks again: no
    assert push_service.received == []


def test_no_push_while_away(game, device, push_service):
    mover = user_to_move(game)
    device(mover)
    User.objects.filter(pk=mover.pk).update(away_until=date.today() + timedelta(days=3))
    assert deliveries.send_turn(game.pk, turn_of(game)) == 0
    assert PushDelivery.objects.get().outcome == "away"
    assert push_service.received == []


def test_no_push_to_a_suspended_player(game, device, push_service):
    """A suspended account cannot act on its turn: its games go on by their time limits."""
    mover = user_to_move(game)
    device(mover)
    User.objects.filter(pk=mover.pk).update(suspended_at=timezone.now())
    assert deliveries.send_turn(game.pk, turn_of(game)) == 0
    assert push_service.received == []


def test_the_push_goes_even_with_turn_emails_off(game, device, push_service):
    mover = user_to_move(game)
    User.objects.filter(pk=mover.pk).update(email_turn=False)
    device(mover)
    assert deliveries.send_turn(game.pk, turn_of(game)) == 1


def test_during_quiet_hours_it_arrives_silently(game, device, push_service):
    mover = user_to_move(game)
    _, browser = device(mover)
    with time_machine.travel(timezone.now().replace(hour=23, minute=30), tick=False):
        assert deliveries.send_turn(game.pk, turn_of(game)) == 1  # quiet 22:00-07:00 (UTC)
    assert browser.decrypt(push_service.received[0].body)["silent"] is True


def test_a_stale_turn_sends_nothing(game, device, push_service):
    device(user_to_move(game))
    assert deliveries.send_turn(game.pk, turn_of(game) - 1) == 0
    assert push_service.received == []


def test_ending_a_turn_pushes_through_the_email_task(
    player, other_player, device, push_service, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player)
    waiting = game.seats.exclude(user=user_to_move(game)).get().user
    _, browser = device(waiting)
    rng = random.Random(3)
    first = turn_of(game)
    while turn_of(game) == first:
        with django_capture_on_commit_callbacks(execute=True):
            play_one_action(game, rng)
    (received,) = push_service.received  # one per turn, not one per token
    assert browser.decrypt(received.body)["title"] == f"Your turn in {game.title}"


def test_every_player_gets_the_result_once(player, other_player, device, push_service):
    game = play_to_the_end(start_game(player, other_player), seed=5)
    assert services.finalize(game.pk) is True
    browsers = {user.pk: device(user)[1] for user in (player, other_player)}
    assert deliveries.send_game_over(game.pk) == 2
    assert deliveries.send_game_over(game.pk) == 0
    game.refresh_from_db()
    for seat in game.seats.select_related("user"):
        (received,) = push_service.to(
            f"/wpush/{seat.user.username}-{1 if seat.user == player else 2}"
        )
        payload = browsers[seat.user_id].decrypt(received.body)
        assert payload["title"] == f"Game over: {game.title}"
        place = {1: "1st", 2: "2nd"}[seat.rank]
        assert payload["body"] == f"You placed {place} with {seat.final_score} points."


def test_the_game_over_task_queues_the_push(
    player, other_player, device, push_service, django_capture_on_commit_callbacks
):
    game = play_to_the_end(start_game(player, other_player), seed=5)
    services.finalize(game.pk)
    device(player)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.notify_game_over(game.pk)
    assert len(push_service.received) == 1


def test_a_message_goes_to_the_other_players_once(
    player, other_player, stranger, device, push_service, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, stranger)
    device(player)
    _, bob = device(other_player)
    device(stranger)
    presence.mark_present(game.pk, stranger.pk)  # reading the table: no push
    long_text = "Nice   move!\n" + "x" * 300

    with django_capture_on_commit_callbacks(execute=True):
        notify.message_posted(game.pk, 41, player.pk, long_text)
        notify.message_posted(game.pk, 41, player.pk, long_text)  # the hook fired twice

    (received,) = push_service.received
    payload = bob.decrypt(received.body)
    assert payload["title"] == f"Alice in {game.title}"
    assert payload["body"].startswith("Nice move! xxx")
    assert len(payload["body"]) == deliveries.MESSAGE_CHARS and payload["body"].endswith("…")
    assert payload["tag"] == f"game-{game.pk}-talk"
    with django_capture_on_commit_callbacks(execute=True):
        notify.message_posted(game.pk, 42, other_player.pk, "Thanks")
    assert len(push_service.received) == 2  # to Alice; Mallory still looking


def test_a_stranger_cannot_push_to_a_table(player, other_player, stranger, device, push_service):
    game = start_game(player, other_player)
    device(player)
    assert deliveries.send_message(game.pk, 7, stranger.pk, "hello") == 0
    assert push_service.received == []


def test_old_claims_are_pruned(game, device):
    subscription, _ = device(user_to_move(game))
    PushDelivery.objects.create(
        subscription=subscription, kind="turn", key="1:1",
        claimed_at=timezone.now() - timedelta(days=3), done_at=timezone.now(),
    )  # fmt: skip
    PushDelivery.objects.create(
        subscription=subscription, kind="turn", key="1:2", claimed_at=timezone.now()
    )
    assert tasks_module().prune_deliveries() == 1
    assert PushDelivery.objects.count() == 1


def test_the_first_turn_push_skips_the_player_whose_join_took_them_to_the_game(
    player, other_player, device, push_service, django_capture_on_commit_callbacks
):
    device(player)
    device(other_player)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(player, other_player)  # Bob's join starts it: he is on its page
    first = user_to_move(game)
    outcome = PushDelivery.objects.get(kind="turn").outcome
    if first == other_player:
        assert (outcome, push_service.received) == ("watching", [])
    else:
        assert outcome == "sent" and len(push_service.to("/wpush/alice-1")) == 1


def test_without_keys_nothing_is_queued(
    game, device, push_service, django_capture_on_commit_callbacks
):
    from django.test import override_settings

    device(user_to_move(game))
    with (
        override_settings(VAPID_PRIVATE_KEY=""),
        django_capture_on_commit_callbacks(execute=True) as queued,
    ):
        notify.turn_started(game.pk, turn_of(game))
        notify.game_finished(game.pk)
        notify.message_posted(game.pk, 1, game.created_by_id, "hi")
        tasks.notify_turn(game.pk, turn_of(game))
    assert queued == []
    assert push_service.received == []
    assert not PushDelivery.objects.exists()


def test_a_device_whose_host_turned_private_is_deleted_but_a_dns_outage_is_retried(
    game, device, push_service, monkeypatch
):
    import socket

    from django.test import override_settings

    subscription, _ = device(user_to_move(game))
    PushSubscription.objects.filter(pk=subscription.pk).update(
        endpoint="https://push.example.net/wpush/1"
    )
    turn = turn_of(game)

    def no_answer(*args, **kwargs):
        raise socket.gaierror("Temporary failure in name resolution")

    def rebound(host, port, *args, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.8", port))]

    with override_settings(PUSH_ALLOW_PRIVATE_ENDPOINTS=False):
        monkeypatch.setattr(socket, "getaddrinfo", no_answer)
        with pytest.raises(PushFailed):
            deliveries.send_turn(game.pk, turn)
        assert PushSubscription.objects.filter(pk=subscription.pk).exists()
        monkeypatch.setattr(socket, "getaddrinfo", rebound)
        assert deliveries.send_turn(game.pk, turn) == 0
    assert not PushSubscription.objects.filter(pk=subscription.pk).exists()
    assert push_service.received == []


@pytest.fixture
def dns(monkeypatch):
    """A resolver that answers each lookup of a host name with the next of `answers` (the last
    one repeated; an exception is raised), and leaves IP addresses to the real one; `asked` lists
    the names looked up."""
    import ipaddress
    import socket

    real = socket.getaddrinfo

    class FakeDns:
        def __init__(self) -> None:
            self.asked: list[str] = []
            self.answers: list = []

        def getaddrinfo(self, host, port, *args, **kwargs):
            try:
                ipaddress.ip_address(host)
                return real(host, port, *args, **kwargs)  # an address: no DNS lookup
            except ValueError:
                pass
            self.asked.append(host)
            answer = self.answers[min(len(self.asked), len(self.answers)) - 1]
            if isinstance(answer, Exception):
                raise answer
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in answer]

    fake = FakeDns()
    monkeypatch.setattr(socket, "getaddrinfo", fake.getaddrinfo)
    return fake


def test_a_host_that_rebinds_to_loopback_after_the_check_gets_no_connection_there(
    game, device, dns, monkeypatch
):
    """DNS rebinding: the attacker's name server answers a public address to the check and
    127.0.0.1 to any later lookup; the push must go to the address that was checked."""
    import socket

    from django.test import override_settings

    subscription, _ = device(user_to_move(game))
    PushSubscription.objects.filter(pk=subscription.pk).update(
        endpoint="https://rebind.example/wpush/1"
    )
    dns.answers = [["93.184.216.34"], ["127.0.0.1"]]
    connected = []

    def connect(sock, address):
        connected.append(address[:2])
        raise ConnectionRefusedError("no network in tests")

    monkeypatch.setattr(socket.socket, "connect", connect)
    with override_settings(PUSH_ALLOW_PRIVATE_ENDPOINTS=False), pytest.raises(PushFailed):
        deliveries.send_turn(game.pk, turn_of(game))
    assert connected == [("93.184.216.34", 443)]
    assert dns.asked == ["rebind.example"]  # once per push


def test_the_push_goes_to_the_checked_address_but_still_names_the_host(
    game, device, push_service, dns
):
    port = push_service.server.server_address[1]
    subscription, browser = device(user_to_move(game))
    PushSubscription.objects.filter(pk=subscription.pk).update(
        endpoint=f"https://localhost:{port}/pinned"
    )
    dns.answers = [["127.0.0.1"], OSError("a second lookup would be answered by the attacker")]
    assert deliveries.send_turn(game.pk, turn_of(game)) == 1
    (received,) = push_service.to("/pinned")
    assert received.headers["host"] == f"localhost:{port}"
    assert push_service.server_names == ["localhost"]  # TLS checked the host's certificate
    assert browser.decrypt(received.body)["title"].startswith("Your turn")
    assert dns.asked == ["localhost"]


def test_an_address_that_refuses_the_connection_gives_way_to_the_next_checked_one(
    game, device, push_service, dns
):
    port = push_service.server.server_address[1]
    subscription, _ = device(user_to_move(game))
    PushSubscription.objects.filter(pk=subscription.pk).update(
        endpoint=f"https://localhost:{port}/second"
    )
    dns.answers = [["127.0.0.2", "127.0.0.1"]]  # nothing listens on 127.0.0.2
    assert deliveries.send_turn(game.pk, turn_of(game)) == 1
    assert len(push_service.to("/second")) == 1


def test_table_talk_pushes_to_the_others_but_not_to_who_muted_it(
    player, other_player, stranger, device, push_service, django_capture_on_commit_callbacks
):
    """The talk's on-commit signal is wired to the push: a real post reaches the others' devices,
    except the author's and a player's who muted this game's talk."""
    from games.services import talk

    game = start_game(player, other_player, stranger)
    device(player)
    _, bob = device(other_player)
    device(stranger)
    talk.set_muted(game_id=game.pk, user=stranger, muted=True)
    with django_capture_on_commit_callbacks(execute=True):
        talk.post(game_id=game.pk, user=player, text="Good luck, both of you")
    (received,) = push_service.received
    payload = bob.decrypt(received.body)
    assert payload["body"] == "Good luck, both of you"
    assert payload["title"] == f"Alice in {game.title}"


def test_in_a_game_of_three_the_push_tells_both_turns_since_yours_like_the_email(
    player, other_player, stranger, device, push_service
):
    game = start_game(player, other_player, stranger)
    first = user_to_move(game)
    play_turns(game, turns=1)
    second = user_to_move(game)
    play_turns(game, turns=1)
    third = user_to_move(game)
    _, browser = device(third)
    assert deliveries.send_turn(game.pk, turn_of(game)) == 1
    (received,) = push_service.received
    body = browser.decrypt(received.body)["body"]
    assert body == f"{first.public_name} and {second.public_name} have played."


class StillWaiting(Exception):
    pass


def pushed_in_time(game: Game, seconds: float) -> int:
    """The turn's push, which fails the test if it still waits for the answer after `seconds`
    (an alarm interrupts the read: a push that waited for ever would hold the test too)."""

    def too_long(*_) -> None:
        raise StillWaiting(f"the push still waits for the push service's answer after {seconds} s")

    before = signal.signal(signal.SIGALRM, too_long)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return deliveries.send_turn(game.pk, turn_of(game))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def test_an_endless_answer_is_read_no_further_than_its_first_bytes(game, device, push_service):
    """A push endpoint answering without end would fill the worker's memory, and hold the queue
    of every email, if its answer were read to its end: the push fails and is tried again."""
    subscription, _ = device(user_to_move(game), path="/endless")
    push_service.answers["/endless"] = Drip(500, 64 * 1024, 0.01)
    with pytest.raises(PushFailed, match="answered 500"):
        pushed_in_time(game, 10)
    assert push_service.dripped < 50 * 1024 * 1024
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()
    assert not PushDelivery.objects.exists()  # the claim given back: the retry sends it


def test_an_answer_dripped_slowly_holds_the_worker_for_seconds_only(
    game, device, push_service, monkeypatch
):
    monkeypatch.setattr(sender, "ANSWER_SECONDS", 1)
    device(user_to_move(game), path="/slow")
    push_service.answers["/slow"] = Drip(503, 1, 0.1)
    with pytest.raises(PushFailed, match="answered 503"):
        pushed_in_time(game, 8)
    assert not PushDelivery.objects.exists()
    push_service.answers["/slow"] = 201  # a push service that answers as it should
    assert pushed_in_time(game, 8) == 1
    assert PushDelivery.objects.get().outcome == "sent"
