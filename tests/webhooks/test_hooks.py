"""Setting, testing and removing chat channels: what is stored, and every refusal in words with
nothing stored (a private or loopback address, http://, a garbage address, another player's
table or hook, too many)."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.models import Game
from tests.games.helpers import start_game
from webhooks import channels
from webhooks.hooks import MAX_HOOKS_PER_PLAYER
from webhooks.models import Delivery, Webhook

pytestmark = pytest.mark.django_db

DISCORD = "https://discord.com/api/webhooks/1234/secret-token"


def add_own(client, url: str, kind: str = "discord"):
    return client.post(reverse("webhooks:channels"), {"kind": kind, "url": url})


def add_table(client, game, url: str, kind: str = "slack", **headers):
    return client.post(
        reverse("webhooks:table", args=[game.pk]), {"kind": kind, "url": url}, **headers
    )


@pytest.fixture
def public_dns(monkeypatch):
    """Every host name resolves to a public address (no network in tests)."""
    import socket

    def fake(host, port, *args, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("162.159.135.232", port))]

    monkeypatch.setattr(socket, "getaddrinfo", fake)


def test_a_player_sets_a_channel_for_all_their_tables(client, player, public_dns):
    client.force_login(player)
    response = add_own(client, DISCORD)
    assert response.status_code == 302
    assert response["Location"].endswith("/accounts/profile/#chat-channel")
    hook = Webhook.objects.get()
    assert (hook.owner, hook.game, hook.kind, hook.url) == (player, None, "discord", DISCORD)
    profile = client.get(reverse("profile"))
    assert "Discord at discord.com …oken" in profile.content.decode()
    assert "secret-token" not in profile.content.decode()  # the address is a secret


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://discord.com/api/webhooks/1/x", "must be an https address"),
        ("https://127.0.0.1/hook", "must be on the public internet"),
        ("https://10.1.2.3/hook", "must be on the public internet"),
        ("https://[::1]/hook", "must be on the public internet"),
        ("https://169.254.169.254/latest", "must be on the public internet"),
        ("https://0x7f.1/hook", "The host of the webhook address is not written as a name or"),
        ("https://discord.com:8443/hook", "must use the standard https port"),
        ("https://user:pw@discord.com/hook", "without a user or password"),
        ("not an address at all", "is not a valid address"),
        ("discord.com/api/webhooks/1/x", "must be an https address"),
        ("https://", "must name a host"),
        ("https://exa mple.com/", "is not a valid address"),
        ("", "This field is required."),
        ("https://discord.com/" + "x" * 1000, "Ensure this value has at most 1000 characters"),
    ],
)
def test_a_bad_address_is_refused_in_words_and_nothing_is_stored(client, player, url, reason):
    client.force_login(player)
    response = add_own(client, url)
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not Webhook.objects.exists()


def test_a_host_that_resolves_to_a_private_address_is_refused(client, player, monkeypatch):
    import socket

    monkeypatch.setattr(
        socket, "getaddrinfo", lambda *a, **k: [(2, 1, 6, "", ("192.168.1.10", 443))]
    )
    client.force_login(player)
    response = add_own(client, "https://chat.example.org/hook")
    assert response.status_code == 400
    assert "The webhook address must be on the public internet." in response.content.decode()
    assert not Webhook.objects.exists()


def test_an_unknown_chat_is_refused(client, player, public_dns):
    client.force_login(player)
    response = add_own(client, DISCORD, kind="irc")
    assert response.status_code == 400
    assert not Webhook.objects.exists()


def test_the_same_address_twice_is_refused(client, player, public_dns):
    client.force_login(player)
    add_own(client, DISCORD)
    response = add_own(client, DISCORD)
    assert response.status_code == 409
    assert "already go to this address" in response.content.decode()
    assert Webhook.objects.count() == 1


def test_a_player_keeps_a_few_channels_at_most(client, player, public_dns):
    client.force_login(player)
    for n in range(MAX_HOOKS_PER_PLAYER):
        assert add_own(client, f"{DISCORD}{n}").status_code == 302
    response = add_own(client, f"{DISCORD}-one-more")
    assert response.status_code == 409
    assert "the most there can be: remove one to add another" in response.content.decode()
    assert Webhook.objects.count() == MAX_HOOKS_PER_PLAYER


def test_it_requires_a_log_in(client):
    response = add_own(client, DISCORD)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Webhook.objects.exists()


# --- A table's channel ----------------------------------------------------------------------------


def test_a_seated_player_sets_the_tables_channel_and_every_seat_is_told(
    client, game, player, other_player, public_dns
):
    talk_version = game.talk_version
    client.force_login(player)
    response = add_table(client, game, "https://hooks.slack.com/services/T/B/X")
    assert response.status_code == 302
    hook = Webhook.objects.get()
    assert (hook.owner, hook.game, hook.kind) == (player, game, "slack")
    game.refresh_from_db()
    assert game.talk_version == talk_version + 1  # every open page redraws the talk and channel
    client.force_login(other_player)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "This table's events go to Slack</strong> (set by " + player.public_name in page
    assert "hooks.slack.com" not in page  # only its owner sees even the host


def test_the_talk_does_not_say_only_the_players_read_it_when_a_channel_sends_it_out(
    client, game, player, other_player, public_dns
):
    """Beside the Send button, "Only this game's players can read this talk" would be untrue:
    every message also goes to the table's chat."""
    client.force_login(player)
    add_table(client, game, "https://hooks.slack.com/services/T/B/X")
    client.force_login(other_player)
    said = f"Every message also goes to Slack, the table's channel set by {player.public_name}."
    talk = reverse("games:talk", args=[game.pk])
    for answer in (
        client.get(game.get_absolute_url()),
        client.get(talk),
        client.get(talk, headers={"HX-Request": "true"}),  # the messages, drawn again
    ):
        html = answer.content.decode()
        assert said in html.split('id="talk-messages"', 1)[1]
    client.force_login(player)
    hook = Webhook.objects.get()
    client.post(reverse("webhooks:remove", args=[hook.pk]))
    assert "Every message also goes to" not in client.get(game.get_absolute_url()).content.decode()


def test_a_stranger_cannot_set_another_tables_channel(client, game, stranger, public_dns):
    client.force_login(stranger)
    response = add_table(client, game, DISCORD)
    assert response.status_code == 403
    assert "You are not playing in this game." in response.content.decode()
    assert not Webhook.objects.exists()


def test_a_missing_game_is_refused(client, player):
    client.force_login(player)
    response = client.post(
        reverse("webhooks:table", args=[987654]), {"kind": "json", "url": DISCORD}
    )
    assert response.status_code == 404
    assert not Webhook.objects.exists()


def test_a_table_has_one_channel(client, game, player, other_player, public_dns):
    client.force_login(player)
    add_table(client, game, DISCORD)
    client.force_login(other_player)
    response = add_table(client, game, DISCORD + "2", HTTP_HX_REQUEST="true")
    assert response["X-Refused-Status"] == "409"
    assert "This table already has a channel: remove it first." in response.content.decode()
    assert Webhook.objects.count() == 1


def test_a_bad_table_address_is_refused_for_htmx_in_the_section(client, game, player):
    client.force_login(player)
    response = add_table(client, game, "http://example.com/x", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response["X-Refused-Status"] == "400"
    assert 'id="channel"' in body and "must be an https address" in body
    assert 'value="http://example.com/x"' in body  # what was typed stays
    assert not Webhook.objects.exists()


def test_a_solo_or_finished_game_has_no_table_channel(client, player, public_dns):
    solo = start_game(player)
    client.force_login(player)
    assert add_table(client, solo, DISCORD).status_code == 302  # back to the page, refused
    assert not Webhook.objects.exists()
    other = start_game(player, player.__class__.objects.create(username="zed"))
    Game.objects.filter(pk=other.pk).update(status=Game.Status.FINISHED)
    response = add_table(client, other, DISCORD, HTTP_HX_REQUEST="true")
    assert "This game is over" in response.content.decode()
    assert not Webhook.objects.exists()


def test_any_seated_player_may_remove_the_tables_channel_a_stranger_may_not(
    client, game, player, other_player, stranger, public_dns
):
    client.force_login(player)
    add_table(client, game, DISCORD)
    hook = Webhook.objects.get()
    client.force_login(stranger)
    response = client.post(reverse("webhooks:remove", args=[hook.pk]))
    assert response.status_code == 302 and Webhook.objects.filter(pk=hook.pk).exists()
    client.force_login(other_player)
    response = client.post(reverse("webhooks:remove", args=[hook.pk]), HTTP_HX_REQUEST="true")
    assert "Send this table's events to a chat" in response.content.decode()
    assert not Webhook.objects.exists()
    assert channels.table_summary(game.pk) is None


def test_nobody_removes_or_tests_another_players_own_channel(
    client, player, other_player, public_dns
):
    client.force_login(player)
    add_own(client, DISCORD)
    hook = Webhook.objects.get()
    client.force_login(other_player)
    for name in ("webhooks:remove", "webhooks:test"):
        response = client.post(reverse(name, args=[hook.pk]), HTTP_HX_REQUEST="true")
        assert response["X-Refused-Status"] == "404"
    assert Webhook.objects.filter(pk=hook.pk).exists()
    assert not Delivery.objects.exists()


def test_the_test_button_is_rate_limited(client, player, public_dns, monkeypatch):
    monkeypatch.setattr("webhooks.views.TEST_RATE", "2/h")
    monkeypatch.setattr("webhooks.hooks.enqueue", lambda *args: None)
    client.force_login(player)
    add_own(client, DISCORD)
    hook = Webhook.objects.get()
    for _ in range(2):
        client.post(reverse("webhooks:test", args=[hook.pk]))
    response = client.post(reverse("webhooks:test", args=[hook.pk]), follow=True)
    assert "Too many attempts" in response.content.decode()
    assert Delivery.objects.count() == 2


def test_other_methods_are_refused(client, player):
    client.force_login(player)
    assert client.get(reverse("webhooks:remove", args=[1])).status_code == 405
    assert client.get(reverse("webhooks:test", args=[1])).status_code == 405


def test_a_cold_cache_costs_the_page_no_query_the_section_asks_for_itself(
    client, game, player, other_player, public_dns
):
    client.force_login(player)
    add_table(client, game, DISCORD)
    cache.clear()  # a restart, or a table nobody looked at for a day
    client.force_login(other_player)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'hx-trigger="load, talk-changed from:body"' in page
    assert "This table's events go to" not in page
    section = client.get(reverse("webhooks:table", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert "This table's events go to Slack</strong> (set by" in section.content.decode()
    page = client.get(game.get_absolute_url()).content.decode()
    assert "This table's events go to Slack</strong>" in page  # kept: drawn with the page


def test_a_stranger_gets_no_section(client, game, stranger):
    client.force_login(stranger)
    response = client.get(reverse("webhooks:table", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert response["X-Refused-Status"] == "403"
    assert 'id="channel"' not in response.content.decode()


def test_a_deleted_account_takes_its_channels_with_it(client, game, player, public_dns):
    from games.services.closing import close_account

    client.force_login(player)
    add_own(client, DISCORD)
    add_table(client, game, DISCORD)
    assert Webhook.objects.count() == 2
    close_account(user=player)
    assert not Webhook.objects.exists()
    assert channels.table_summary(game.pk) is None


def test_staff_never_see_a_hooks_address(admin_client, player):
    hook = Webhook.objects.create(owner=player, kind="json", url="https://example.org/se/cret")
    delivery = Delivery.objects.create(hook=hook, key="test:1", payload={"text": "hi"})
    for name, args in (
        ("admin:webhooks_webhook_changelist", []),
        ("admin:webhooks_webhook_change", [hook.pk]),
        ("admin:webhooks_delivery_change", [delivery.pk]),
    ):
        page = admin_client.get(reverse(name, args=args))
        assert page.status_code == 200
        assert "se/cret" not in page.content.decode()


def test_without_javascript_each_button_leads_back_to_its_page(client, game, player, public_dns):
    client.force_login(player)
    add_table(client, game, DISCORD)
    hook = Webhook.objects.get()
    from_profile = client.post(reverse("webhooks:test", args=[hook.pk]))
    assert from_profile["Location"].endswith("/accounts/profile/#chat-channel")
    from_game = client.post(reverse("webhooks:remove", args=[hook.pk]), {"back": "game"})
    assert from_game["Location"] == game.get_absolute_url() + "#channel"
    page = client.get(from_game["Location"]).content.decode()
    assert "no longer go to Slack." in page


def test_a_double_click_on_remove_keeps_the_section_and_says_why(client, game, player, public_dns):
    client.force_login(player)
    add_table(client, game, DISCORD)
    hook = Webhook.objects.get()
    fields = {"back": "game", "game": game.pk}
    client.post(reverse("webhooks:remove", args=[hook.pk]), fields, HTTP_HX_REQUEST="true")
    again = client.post(reverse("webhooks:remove", args=[hook.pk]), fields, HTTP_HX_REQUEST="true")
    body = again.content.decode()
    assert again["X-Refused-Status"] == "404"
    assert 'id="channel"' in body and "There is no such chat channel" in body
    assert "Send this table's events to a chat" in body
