"""Bob reports a rude line Alice wrote in their game's talk; a staff member opens the report in
the admin, sees the message as it was, and hides it: both players' open game pages drop it by
themselves at the next poll. Then staff suspend Alice: her next action is refused in words, and
she cannot log back in."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from accounts.models import User
from games.models import Message, Report
from tests.browser.test_play_browser import log_in
from tests.browser.test_talk_browser import say
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RUDE = "You all play like potatoes"


def test_bob_reports_alices_message_staff_hide_it_and_suspend_her(
    live_server, new_page, settings, screenshots
):
    settings.GAME_POLL_SECONDS = 1
    base = live_server.url
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    UserFactory(username="sam", display_name="Sam", is_staff=True, is_superuser=True)
    game = start_game(alice, bob)
    alice_page, bob_page, staff_page = new_page(), new_page(), new_page()
    for page, user in ((alice_page, alice), (bob_page, bob)):
        log_in(page, base, user.username)
        page.goto(base + game.get_absolute_url())

    # Alice writes; Bob's page shows it by itself, and he reports it from the message.
    say(alice_page, RUDE)
    line = bob_page.locator("#talk-messages .talk-message", has_text=RUDE)
    expect(line).to_be_visible(timeout=10_000)
    line.get_by_role("link", name="Report this message by Alice").click()
    form = bob_page.locator("#talk-report form")
    expect(form).to_contain_text(RUDE)
    form.get_by_label("Abuse or harassment").check()
    form.get_by_label("Anything staff should know").fill("Third time this week.")
    form.get_by_role("button", name="Send the report").click()
    expect(bob_page.locator("#talk-report")).to_have_text("Thank you: staff will look at it.")
    bob_page.screenshot(path=str(screenshots / "report-thanks.png"), full_page=True)
    # Once is enough: a second click says so where the form would be, not under the talk box.
    line.get_by_role("link", name="Report this message by Alice").click()
    expect(bob_page.locator("#talk-report")).to_have_text("You have already reported this.")
    expect(bob_page.locator("#talk-error")).to_be_empty()
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason) == (bob, alice, "abuse")

    # Staff find it among the open reports and open it: the message as it was, who wrote it.
    log_in(staff_page, base, "sam")
    staff_page.goto(base + reverse("admin:games_report_changelist") + "?status=open")
    staff_page.locator("#result_list tbody a").first.click()
    content = staff_page.locator("#content")
    expect(content).to_contain_text(RUDE)
    expect(content).to_contain_text("Third time this week.")
    expect(content).to_contain_text("alice")
    staff_page.get_by_role("button", name="Hide the reported message").click()
    expect(staff_page.locator(".messagelist")).to_contain_text("1 message hidden.")
    expect(content).to_contain_text("The message is hidden by staff.")
    staff_page.screenshot(path=str(screenshots / "report-admin.png"), full_page=True)

    # Both open game pages drop it at their next poll, without a reload.
    for page in (bob_page, alice_page):
        expect(page.locator("#talk-messages")).not_to_contain_text(RUDE, timeout=10_000)
    assert Message.objects.get(text=RUDE).hidden_by_staff

    # Staff suspend Alice from the same page; her next action is refused in words.
    staff_page.get_by_role("button", name="Suspend the account").click()
    expect(staff_page.locator(".messagelist")).to_contain_text("1 account suspended.")
    alice_page.locator("#talk-text").fill("Still here?")
    alice_page.locator("#talk-form").get_by_role("button", name="Send").click()
    expect(alice_page.locator("#main")).to_contain_text("Your account is suspended")
    expect(alice_page.locator("#game")).to_have_count(0)  # in place of the page: no more polls
    alice_page.screenshot(path=str(screenshots / "report-suspended.png"), full_page=True)
    assert not Message.objects.filter(text="Still here?").exists()
    assert User.objects.get(pk=alice.pk).is_suspended
    recorded = list(report.actions.values_list("staff__username", "action"))
    assert recorded == [("sam", "hide"), ("sam", "suspend")]

    # She is logged out, and the log-in form says why it will not let her in.
    log_in(alice_page, base, "alice")
    expect(alice_page.locator("main")).to_contain_text("This account has been suspended")
