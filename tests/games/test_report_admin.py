"""Reports in the admin: staff see what was reported as it was, sort by status and reason, and
act through the list's actions (hide, rename, suspend, lift, close), each recorded on the
report. Every action here is the changelist POST the admin's own form sends."""

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game, Message, Report, ReportAction
from games.services import reports, talk
from tests.answers import answered
from tests.clients import as_user
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db
CHANGELIST = reverse("admin:games_report_changelist")
HTMX = {"HX-Request": "true"}


@pytest.fixture
def staff(db) -> User:
    return UserFactory(username="staff", display_name="Sam Staff", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(staff) -> Client:
    return as_user(staff)


@pytest.fixture
def rude(game, player):
    return talk.post(game_id=game.pk, user=player, text="You play like a potato")


@pytest.fixture
def report(rude, other_player) -> Report:
    return reports.file_report(
        reporter=other_player, kind="message", target_id=rude.pk, reason="abuse", words="Again."
    )


def act(client: Client, action: str, *chosen: Report, **extra):
    data = {"action": action, "_selected_action": [r.pk for r in chosen], "index": 0, **extra}
    return client.post(CHANGELIST, data)


def measures(report: Report) -> list[tuple[str, str, str]]:
    return list(report.actions.values_list("staff__username", "action", "detail"))


# --- What staff see ----------------------------------------------------------------------------


def test_staff_see_the_message_as_it_was_even_once_deleted_and_renamed(
    staff_client, report, rude, game, player
):
    talk.delete(game_id=game.pk, message_id=rude.pk, user=player)
    User.objects.filter(pk=player.pk).update(display_name="Angel")
    page = staff_client.get(reverse("admin:games_report_change", args=[report.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "You play like a potato" in html and "Again." in html
    assert "Alice" in html and "Name: Angel" in html  # then, and now
    assert "The message was deleted by its author." in html
    assert f'href="{game.get_absolute_url()}#talk"' in html
    assert reverse("admin:games_game_change", args=[game.pk]) in html


def test_the_list_filters_open_and_dealt_with_reports_and_reasons(
    staff_client, staff, report, player, other_player
):
    name = reports.file_report(
        reporter=other_player, kind="name", target_id=player.pk, reason="offensive_name", words=""
    )
    reports.close(Report.objects.filter(pk=name.pk), staff=staff)

    def listed(**filters) -> set[int]:
        response = staff_client.get(CHANGELIST, filters)
        return {r.pk for r in response.context["cl"].result_list}

    assert listed() == {report.pk, name.pk}
    assert listed(status="open") == {report.pk}
    assert listed(status="dealt") == {name.pk}
    assert listed(reason="offensive_name") == {name.pk}
    assert listed(kind="message") == {report.pk}


# --- Each measure ------------------------------------------------------------------------------


def test_staff_hide_the_reported_message_and_it_is_recorded(
    staff_client, staff, report, rude, game, other_player, carol
):
    talk_version = Game.objects.get(pk=game.pk).talk_version
    response = act(staff_client, "hide_message", report)
    assert response.status_code == 302
    assert Message.objects.get(pk=rude.pk).hidden_by_staff
    assert Game.objects.get(pk=game.pk).talk_version == talk_version + 1  # open pages redraw
    report.refresh_from_db()
    assert report.dealt_by == staff and report.dealt_at is not None
    assert measures(report) == [("staff", "hide", f"message {rude.pk}")]
    page = as_user(other_player).get(reverse("games:talk", args=[game.pk]), headers=HTMX)
    assert b"potato" not in page.content
    followed = staff_client.get(response.url)
    assert "1 message hidden." in followed.content.decode()


def test_hiding_closes_every_open_report_of_that_message(staff_client, player, other_player, carol):
    game = start_game(player, other_player, carol)
    rude = talk.post(game_id=game.pk, user=player, text="You all play like potatoes")
    bobs, carols = (
        reports.file_report(
            reporter=who, kind="message", target_id=rude.pk, reason="abuse", words=""
        )
        for who in (other_player, carol)
    )
    act(staff_client, "hide_message", bobs)
    carols.refresh_from_db()
    assert not carols.is_open
    assert measures(carols) == [("staff", "hide", f"message {rude.pk}")]


def test_hiding_twice_hides_once_and_says_so(staff_client, report, rude, game):
    act(staff_client, "hide_message", report)
    version = Game.objects.get(pk=game.pk).talk_version
    response = act(staff_client, "hide_message", report)
    assert "0 messages hidden. 1 message had been hidden or deleted already." in (
        staff_client.get(response.url).content.decode()
    )
    assert Game.objects.get(pk=game.pk).talk_version == version


def test_staff_give_a_neutral_name_and_the_player_is_told_by_email(
    staff_client, player, other_player, game, django_capture_on_commit_callbacks
):
    talk.post(game_id=game.pk, user=player, text="hi")
    name = reports.file_report(
        reporter=other_player, kind="name", target_id=player.pk, reason="offensive_name", words=""
    )
    talk_version = Game.objects.get(pk=game.pk).talk_version
    with django_capture_on_commit_callbacks(execute=True):
        act(staff_client, "give_neutral_name", name)
    player.refresh_from_db()
    assert player.display_name == f"Player {player.pk}"
    (email,) = mail.outbox
    assert email.to == [player.email] and "display name was changed" in email.subject
    assert "“Alice” to “Player" in email.alternatives[0][0] and "“Alice” to “Player" in email.body
    assert measures(name) == [("staff", "rename", f"“Alice” renamed “Player {player.pk}”")]
    # The talk is drawn again: the messages show the new name at once.
    assert Game.objects.get(pk=game.pk).talk_version == talk_version + 1
    page = as_user(other_player).get(reverse("games:talk", args=[game.pk]), headers=HTMX)
    assert f"Player {player.pk}" in page.content.decode()


def test_staff_suspend_and_lift_through_the_admin(staff_client, report, player, game):
    alice = as_user(player)  # logged in before the suspension
    response = act(staff_client, "suspend_account", report)
    assert "1 account suspended." in staff_client.get(response.url).content.decode()
    assert User.objects.get(pk=player.pk).is_suspended
    refused = alice.post(reverse("games:talk", args=[game.pk]), {"text": "still here"})
    assert refused.status_code == 403 and b"Your account is suspended" in refused.content
    assert not Message.objects.filter(text="still here").exists()

    act(staff_client, "lift_suspension", report)
    assert not User.objects.get(pk=player.pk).is_suspended
    again = as_user(player).post(reverse("games:talk", args=[game.pk]), {"text": "sorry"})
    assert again.status_code == 302 and Message.objects.filter(text="sorry").exists()
    assert [action for _, action, _ in measures(report)] == ["suspend", "lift"]
    report.refresh_from_db()
    assert not report.is_open  # suspending dealt with it; lifting leaves it so


def test_staff_close_a_report_with_nothing_to_do(staff_client, report, rude):
    act(staff_client, "close_report", report)
    report.refresh_from_db()
    assert not report.is_open and measures(report) == [("staff", "close", "")]
    assert not Message.objects.get(pk=rude.pk).hidden_by_staff


def test_the_buttons_on_a_reports_page_post_the_actions_and_come_back(staff_client, report):
    url = reverse("admin:games_report_change", args=[report.pk])
    html = staff_client.get(url).content.decode()
    for name in ("hide_message", "give_neutral_name", "suspend_account", "close_report"):
        assert f'value="{name}"' in html
    assert 'value="lift_suspension"' not in html  # not suspended
    response = act(staff_client, "close_report", report, _from_report="1")
    assert response.status_code == 302 and response.url == url
    assert 'value="close_report"' not in staff_client.get(url).content.decode()


# --- Who may act -------------------------------------------------------------------------------


def test_a_staff_member_who_may_only_read_reports_cannot_act_on_them(report, rude, player):
    reader = UserFactory(username="reader", is_staff=True)
    reader.user_permissions.add(Permission.objects.get(codename="view_report"))
    client = as_user(reader)
    page = client.get(reverse("admin:games_report_change", args=[report.pk]))
    assert page.status_code == 200 and b"Act on this report" not in page.content
    for action in ("hide_message", "suspend_account", "give_neutral_name", "close_report"):
        act(client, action, report)
    assert not Message.objects.get(pk=rude.pk).hidden_by_staff
    assert not User.objects.get(pk=player.pk).is_suspended
    assert not ReportAction.objects.exists() and Report.objects.get().is_open


def test_a_player_cannot_reach_the_reports(report, other_player):
    response = as_user(other_player).post(
        CHANGELIST, {"action": "suspend_account", "_selected_action": [report.pk], "index": 0}
    )
    assert answered(response) == 302 and "/admin/login/" in response.url
    assert not ReportAction.objects.exists()


def test_the_admin_cannot_add_change_or_delete_a_report(staff_client, report):
    change = reverse("admin:games_report_change", args=[report.pk])
    assert staff_client.post(change, {"reason": "spam"}).status_code == 403
    assert staff_client.get(reverse("admin:games_report_add")).status_code == 403
    delete = reverse("admin:games_report_delete", args=[report.pk])
    assert staff_client.post(delete, {"post": "yes"}).status_code == 403
    assert Report.objects.get().reason == "abuse"
