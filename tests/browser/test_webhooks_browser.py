"""Chat channels in the browser: one player sends the table's events to a chat, and the other
player's open page says so at once (no reload); the test button and the talk reach a chat on
this machine; the other player removes it, and the first page shows that too. The profile's
channel refuses a bad address in words and takes a good one. axe finds no serious problem on a
phone's width with the channel shown."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_accessibility_browser import serious_problems
from tests.browser.test_play_browser import log_in
from tests.factories import UserFactory
from tests.games.helpers import start_game
from tests.webhooks.receiver import Receiver
from webhooks.models import Webhook
from webhooks.payloads import discord_escaped

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def chat(tmp_path, settings):
    with Receiver(tmp_path) as receiver:
        settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = True  # a chat on this machine
        settings.PUSH_CA_BUNDLE = str(receiver.cert)
        yield receiver


def wait_for_post(chat: Receiver, path: str, count: int, page: Page) -> None:
    for _ in range(100):  # up to 10 s
        if len(chat.to(path)) >= count:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{path} got {len(chat.to(path))} posts, expected {count}")


def test_a_table_channel_is_set_announced_to_every_seat_used_and_removed(
    live_server, new_page, settings, chat, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    ann, bob = UserFactory(display_name="Ann"), UserFactory(display_name="Bob")
    game = start_game(ann, bob)
    url = live_server.url + game.get_absolute_url()
    ann_page, bob_page = new_page(1280, 900), new_page(360, 800)
    for page, user in ((ann_page, ann), (bob_page, bob)):
        log_in(page, live_server.url, user.username)
        page.goto(url)
    expect(bob_page.locator("#channel")).to_contain_text("Send this table's events to a chat")

    # Ann sets it; a typo first, refused in words beside the form.
    channel = ann_page.locator("#channel")
    channel.get_by_text("Send this table's events to a chat").click()
    channel.get_by_label("Discord").check()
    channel.get_by_label("Webhook address").fill("http://chat.example.org/hook")
    channel.get_by_role("button", name="Send events there").click()
    expect(channel.get_by_role("alert")).to_contain_text("must be an https address")
    assert not Webhook.objects.exists()
    channel.get_by_label("Webhook address").fill(chat.url("/discord"))
    channel.get_by_role("button", name="Send events there").click()
    expect(channel).to_contain_text("This table's events go to Discord (set by Ann)")

    # Bob's page says so without a reload, and he is not shown the address.
    bob_channel = bob_page.locator("#channel")
    expect(bob_channel).to_contain_text("This table's events go to Discord (set by Ann)")
    expect(bob_channel.get_by_role("button", name="Send a test message")).to_have_count(0)
    assert "127.0.0.1" not in bob_channel.inner_text()
    assert serious_problems(bob_page) == []
    bob_page.screenshot(path=str(screenshots / "table-channel-360.png"), full_page=True)

    # Ann's test message arrives; her section says it was posted.
    channel.get_by_role("button", name="Send a test message").click()
    expect(channel).to_contain_text("A test message is on its way")
    wait_for_post(chat, "/discord", 1, ann_page)
    assert chat.to("/discord")[0].body["content"] == "A test message from Harmonies"
    ann_page.reload()
    expect(ann_page.locator("#channel")).to_contain_text("Last posted")

    # Bob's word at the table goes to the channel the page announced.
    bob_page.locator("#talk-text").fill("Good luck, Ann!")
    bob_page.locator("#talk-form").get_by_role("button", name="Send").click()
    expect(bob_page.locator("#talk-messages")).to_contain_text("Good luck, Ann!")
    wait_for_post(chat, "/discord", 2, bob_page)
    said = chat.to("/discord")[1].body
    assert said["content"] == discord_escaped(f"Bob in {game.title}")
    assert said["embeds"][0]["description"] == "Good luck, Ann!"

    # Bob removes it; Ann's page shows that without a reload.
    bob_channel.get_by_role("button", name="Remove this table's channel").click()
    expect(bob_channel).to_contain_text("Send this table's events to a chat")
    expect(ann_page.locator("#channel")).to_contain_text("Send this table's events to a chat")
    assert not Webhook.objects.exists()


def test_the_profiles_chat_channel_refuses_a_bad_address_and_tests_a_good_one(
    live_server, new_page, chat, screenshots
):
    ann = UserFactory(display_name="Ann")
    page = new_page(360, 800)
    log_in(page, live_server.url, ann.username)
    page.goto(live_server.url + "/accounts/profile/#chat-channel")
    page.get_by_label("JSON").check()
    page.get_by_label("Webhook address").fill("ftp://chat.example.org/hook")
    page.get_by_role("button", name="Add this channel").click()
    expect(page.locator(".field-invalid")).to_contain_text(
        "The webhook address must be an https address."
    )
    assert not Webhook.objects.exists()
    page.get_by_label("Webhook address").fill(chat.url("/mine"))
    page.get_by_role("button", name="Add this channel").click()
    expect(page.get_by_text("Your turns and the ends of your games now go to JSON")).to_be_visible()
    page.get_by_role("button", name="Send a test message to JSON at 127.0.0.1 …mine").click()
    wait_for_post(chat, "/mine", 1, page)
    body = chat.to("/mine")[0].body
    assert body["event"] == "test" and body["site"] == "Harmonies"
    assert ann.email not in str(body)
    page.goto(live_server.url + "/accounts/profile/#chat-channel")
    expect(page.locator("#chat-channel + p + ul")).to_contain_text("Last posted")
    assert serious_problems(page) == []
    page.locator("#chat-channel").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "chat-channel-360.png"))
