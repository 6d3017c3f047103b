"""Download my data: everything the site keeps about the person, and nothing private of anyone
else's (harmonies_site.personal_data says what is in the file and why)."""

import json
from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessLog
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import Friendship, User, set_away
from games import services
from games.models import Game, Message, Review, Seat
from games.services import reports, talk
from harmonies_site import personal_data
from harmonies_site.personal_data_views import DOWNLOAD_RATE
from push.models import PushDelivery, PushSubscription
from records.models import Rating, SeatResult, Standing
from tests.clients import as_user
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game
from tests.records.helpers import quick_game
from webhooks.models import Webhook

pytestmark = pytest.mark.django_db

DOWNLOAD = reverse("personal_data")
# What the other people hold privately; planted wherever the site stores something, so that
# the file is seen to carry none of it.
BOB_EMAIL = "bob.private@hidden-bob.example"
CAROL_EMAIL = "carol.private@hidden-carol.example"
TYPED_ADDRESS = "dora.newcomer@hidden-dora.example"
BOB_SECRET_TALK = "bob's private remark, planted"
BOB_REVIEW_MARK = "bob's own review, planted"
BOB_SEEN_BOARDS = "bob's boards seen, planted"
ATTACKER_ADDRESS = "203.0.113.77"
PUSH_PATH = "send/alices-secret-endpoint-path"
HOOK_PATH = "1234/alices-secret-channel-token"
PUSH_KEY = "BALICESP256DHKEYPLANTEDFORTHETEST"
PUSH_AUTH = "alices-auth-secret"
ALICE_REPORT_WORDS = "alice's words on a report, planted"
BOB_REPORT_WORDS = "bob's words on a report about alice, planted"


@pytest.fixture
def everything(player, other_player, carol):
    """Alice with one of everything, among Bob's and Carol's secrets."""
    User.objects.filter(pk=other_player.pk).update(email=BOB_EMAIL)
    User.objects.filter(pk=carol.pk).update(email=CAROL_EMAIL)
    other_player.refresh_from_db()
    carol.refresh_from_db()

    finished = quick_game(player, other_player)  # Alice wins: a result, ratings, standings
    mine = finished.seats.get(user=player)
    theirs = finished.seats.get(user=other_player)
    Review.objects.create(
        game=finished, position=mine.position, status=Review.Status.DONE, turns=[{"turn": 1}]
    )
    Review.objects.create(
        game=finished, position=theirs.position, status=Review.Status.DONE, turns=[BOB_REVIEW_MARK]
    )
    Seat.objects.filter(pk=theirs.pk).update(seen_boards=json.dumps(BOB_SEEN_BOARDS))

    running = play_turns(start_game(player, other_player, spirits=True), turns=2)
    talk.post(game_id=running.pk, user=player, text="Good luck, Bob!")
    talk.post(game_id=running.pk, user=other_player, text=BOB_SECRET_TALK)
    # Alice reports Bob's message; Bob reports Alice's (his report is his, not hers).
    reports.file_report(
        reporter=player,
        kind="message",
        target_id=Message.objects.get(text=BOB_SECRET_TALK).pk,
        reason="spam",
        words=ALICE_REPORT_WORDS,
    )
    reports.file_report(
        reporter=other_player,
        kind="message",
        target_id=Message.objects.get(text="Good luck, Bob!").pk,
        reason="spam",
        words=BOB_REPORT_WORDS,
    )

    # A table of Alice's, waiting for Carol (by username) and a newcomer (by address).
    table = services.create_game(
        creator=player,
        players=3,
        side="B",
        spirits=False,
        invitees=[carol],
        emails=[TYPED_ADDRESS],
        name="Alice's table",
    )
    # And one of Carol's, to which Alice is invited.
    invited = services.create_game(
        creator=carol, players=2, side="A", spirits=False, invitees=[player], name="Carol's table"
    )

    Friendship.objects.create(user=player, friend=carol)
    Friendship.objects.create(user=player, friend=other_player, removed_at=timezone.now())
    Friendship.objects.create(user=carol, friend=player)  # Carol's note, not Alice's

    device = PushSubscription.objects.create(
        user=player,
        endpoint=f"https://push.example.net/{PUSH_PATH}",
        p256dh=PUSH_KEY,
        auth=PUSH_AUTH,
        user_agent="Firefox on Android",
    )
    PushDelivery.objects.create(
        subscription=device, kind="turn", key=f"{running.pk}:3", claimed_at=timezone.now()
    )
    Webhook.objects.create(
        owner=player,
        game=running,
        kind="discord",
        url=f"https://discord.com/api/webhooks/{HOOK_PATH}",
    )
    player.renew_calendar_token()
    set_away(player, timezone.localdate() + timedelta(days=3))

    AccessLog.objects.create(
        username="alice", ip_address="198.51.100.5", user_agent="Alice's Firefox"
    )
    AccessAttempt.objects.create(
        username="alice",
        ip_address=ATTACKER_ADDRESS,
        user_agent="guessing script",
        get_data="",
        post_data="",
        failures_since_start=3,
    )
    player.refresh_from_db()
    return {"finished": finished, "running": running, "table": table, "invited": invited}


def download(user) -> dict:
    response = as_user(user).post(DOWNLOAD)
    assert response.status_code == 200
    return json.loads(response.content)


def by_id(data: dict, game: Game) -> dict:
    return next(entry for entry in data["games"] if entry["id"] == game.pk)


def test_the_file_holds_every_section_of_what_the_site_keeps(everything, player):
    data = download(player)

    assert data["format"] == "harmonies-personal-data/1"
    (filed,) = data["reports"]
    assert (filed["kind"], filed["reason"], filed["words"]) == (
        "message",
        "spam",
        ALICE_REPORT_WORDS,
    )
    assert (filed["about"], filed["dealt_with"]) == ("Bob", False)
    account = data["account"]
    assert (account["username"], account["display_name"]) == ("alice", "Alice")
    assert (account["email"], account["email_confirmed"]) == ("alice@example.com", True)
    assert account["email_confirmed_at"] and account["date_joined"]
    assert account["time_zone"] == "UTC"
    assert data["email_settings"]["email_turn"] is True
    assert data["email_settings"]["remind_every_hours"] == 24
    assert data["email_settings"]["quiet_start"] == 22
    assert data["away"]["away_until"] == player.away_until.isoformat()
    assert data["away"]["away_days"]

    # The test client's own log-in is logged too, as any log-in is.
    assert "Alice's Firefox" in [log["browser"] for log in data["log_ins"]["successful"]]
    assert [attempt["failures"] for attempt in data["log_ins"]["failed"]] == [3]

    assert {entry["id"] for entry in data["games"]} == {game.pk for game in everything.values()}
    finished = by_id(data, everything["finished"])
    assert finished["status"] == "finished"
    assert [seat["name"] for seat in finished["seats"]] == [
        seat.user.public_name for seat in everything["finished"].seats.order_by("position")
    ]
    assert finished["your_seat"]["rank"] == 1
    assert finished["your_result"]["place"] == 1
    assert finished["your_result"]["mu_all"] is not None
    assert finished["your_review"]["turns"] == [{"turn": 1}]
    # The site's own export of the game, which the engine replays.
    assert finished["export"]["format"] == "harmonies-game/1"
    assert finished["export"]["seed"] == everything["finished"].seed
    assert len(finished["export"]["actions"]) == everything["finished"].move_count

    running = by_id(data, everything["running"])
    assert running["status"] == "active"
    assert running["settings"]["spirits"] is True
    assert len(running["moves"]["actions"]) == everything["running"].move_count
    assert "export" not in running and running["your_review"] is None

    table = by_id(data, everything["table"])
    assert table["created_by_you"] is True and table["settings"]["side"] == "B"
    invited = by_id(data, everything["invited"])
    assert (invited["created_by"], invited["your_seat"]) == ("Carol", None)

    assert [(m["text"], m["game"]) for m in data["talk"]] == [
        ("Good luck, Bob!", everything["running"].pk)
    ]
    assert [(f["username"], f["removed_at"] is None) for f in data["friends"]] == [
        ("carol", True),
        ("bob", False),
    ]
    sent = data["invitations"]["sent"]
    assert sorted(invitation["to"] for invitation in sent) == ["Carol", "d…@h….example"]
    assert len(data["invitations"]["sent_by_address_at"]) == 1
    assert [(i["from"], i["game"]) for i in data["invitations"]["received"]] == [
        ("Carol", everything["invited"].pk)
    ]

    [device] = data["push_devices"]
    assert (device["device"], device["push_service"]) == ("Firefox on Android", "push.example.net")
    assert [n["kind"] for n in device["notifications"]] == ["turn"]
    [channel] = data["chat_channels"]
    assert (channel["kind"], channel["host"], channel["game"]) == (
        "discord",
        "discord.com",
        everything["running"].pk,
    )
    assert data["calendar_feed"] == {"exists": True}

    assert {(r["pool"], r["scope"]) for r in data["ratings"]} == set(
        Rating.objects.filter(user=player).values_list("pool", "scope")
    )
    assert len(data["standings"]) == Standing.objects.filter(user=player).count() > 0


def test_nothing_private_of_anyone_else_and_no_secret_is_in_the_file(everything, player):
    text = as_user(player).post(DOWNLOAD).content.decode()

    bob = User.objects.get(username="bob")
    running = Game.objects.get(pk=everything["running"].pk)
    planted = {
        "Bob's address": BOB_EMAIL,
        "Carol's address": CAROL_EMAIL,
        "the address Alice typed": TYPED_ADDRESS,
        "Bob's message": BOB_SECRET_TALK,
        "Bob's report about Alice": BOB_REPORT_WORDS,
        "Bob's review": BOB_REVIEW_MARK,
        "Bob's boards seen": BOB_SEEN_BOARDS,
        "a guesser's address": ATTACKER_ADDRESS,
        "Alice's password hash": player.password,
        "Bob's password hash": bob.password,
        "the calendar secret": player.calendar_token,
        "the push endpoint's path": PUSH_PATH,
        "the push key": PUSH_KEY,
        "the push auth secret": PUSH_AUTH,
        "the chat channel's path": HOOK_PATH,
        "the running game's seed": str(running.seed),
        "the running game's pouch": '"pouch"',
    }
    planted |= {
        f"game {game.pk}'s invitation link": game.invite_token for game in Game.objects.all()
    }
    assert [what for what, secret in planted.items() if secret.lower() in text.lower()] == []
    # And no one's address but Alice's own (bots have none).
    addresses = {u.email for u in User.objects.exclude(pk=player.pk) if u.email}
    assert addresses and [a for a in addresses if a in text] == []


def test_every_column_of_the_user_and_the_seat_is_given_or_left_out_for_a_reason():
    """A new column is a decision: in the file, or in a list of what is left out and why."""
    sections = (
        personal_data.ACCOUNT_FIELDS + personal_data.EMAIL_SETTINGS_FIELDS
    ) + personal_data.AWAY_FIELDS
    columns = {f.name for f in User._meta.concrete_fields}
    assert columns - set(sections) - set(personal_data.ACCOUNT_FIELDS_LEFT_OUT) == set()
    assert set(sections) <= columns
    seat_columns = {f.name for f in Seat._meta.concrete_fields}
    given = set(personal_data.SEAT_FIELDS)
    assert seat_columns - given - set(personal_data.SEAT_FIELDS_LEFT_OUT) == set()
    assert given <= seat_columns


def test_the_queries_do_not_grow_with_the_number_of_games(player, other_player, carol):
    quick_game(player, other_player)
    play_turns(start_game(player, other_player), turns=1)
    with CaptureQueriesContext(connection) as few:
        personal_data.personal_data(player)
    for seed in (2, 3, 4):
        quick_game(player, carol, seed=seed)
    play_turns(start_game(player, carol), turns=1)
    Message.objects.create(game=Game.objects.last(), author=player, position=0, text="hello")
    with CaptureQueriesContext(connection) as many:
        personal_data.personal_data(player)
    assert len(many) == len(few) <= 21  # one a section: the plans and chat channels came in 36
    assert SeatResult.objects.filter(user=player).count() == 4


# --- Through the web, as a visitor or another site would try it -------------------------------


def test_the_download_is_a_json_attachment_named_after_the_player_and_the_day(player):
    response = as_user(player).post(DOWNLOAD)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    day = timezone.localdate(timezone=player.tzinfo).isoformat()
    assert (
        response["Content-Disposition"] == f'attachment; filename="harmonies-data-alice-{day}.json"'
    )
    assert "no-store" in response["Cache-Control"]
    assert json.loads(response.content)["account"]["username"] == "alice"


def test_the_profile_offers_the_download(player):
    response = as_user(player).get(reverse("profile"))
    assert f'action="{DOWNLOAD}"' in response.content.decode()


def test_a_visitor_is_sent_to_log_in_and_gets_nothing(client):
    response = client.post(DOWNLOAD)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_a_link_on_another_page_cannot_start_the_download(player):
    """A GET (an image or a link elsewhere) is refused: only the profile's form asks."""
    response = as_user(player).get(DOWNLOAD)
    assert response.status_code == 405
    assert b"alice@example.com" not in response.content


def test_another_site_cannot_post_the_form_for_the_player(player):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    response = browser.post(DOWNLOAD)
    assert response.status_code == 403
    assert b"alice@example.com" not in response.content


def test_a_player_gets_the_file_for_themselves_whoever_they_name(player, other_player):
    response = as_user(player).post(DOWNLOAD, {"user": other_player.pk, "username": "bob"})
    assert json.loads(response.content)["account"]["username"] == "alice"
    assert BOB_EMAIL not in response.content.decode()


def test_a_script_that_downloads_in_a_loop_is_stopped_politely(player):
    allowed = int(DOWNLOAD_RATE.split("/")[0])
    client = as_user(player)
    for _ in range(allowed):
        assert client.post(DOWNLOAD).status_code == 200
    refused = client.post(DOWNLOAD, follow=True)
    assert refused.redirect_chain[-1][0] == reverse("profile") + "#my-data"
    assert "Content-Disposition" not in refused
    assert "Please try again in an hour." in refused.content.decode()
    # Another player's downloads are counted apart.
    assert as_user(UserFactory(username="zoe")).post(DOWNLOAD).status_code == 200


def test_masking_keeps_enough_to_recognise_an_address():
    assert personal_data.masked_address("bob.smith@example.org") == "b…@e….org"
    assert personal_data.masked_address("x@localhost") == "x…@…"
