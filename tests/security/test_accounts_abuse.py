"""Issue 12, accounts: squatted bots, look-alike names, log-in spraying, resets and email changes.

Each test fails on the code before the fix: the finding it names is in its first comment.
"""

import pytest
from django.apps import apps
from django.contrib.auth.backends import ModelBackend
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.forms import SignUpForm
from accounts.models import User
from games.models import Game
from games.services.bots import bots_for
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

SIGN_UP = {
    "display_name": "",
    "email": "someone@example.com",
    "time_zone": "UTC",
    "password1": "a-long-and-lovely-passphrase",
    "password2": "a-long-and-lovely-passphrase",
}
LOCKED = b"Too many failed log-ins"


def sign_up(**fields):
    return Client().post(reverse("signup"), {**SIGN_UP, **fields})


def log_in(username: str, password: str, ip: str = "10.0.0.1"):
    return Client(REMOTE_ADDR=ip).post(
        reverse("login"), {"username": username, "password": password}
    )


def humans() -> int:
    return User.objects.filter(bot_level="").count()


# --- Bots are accounts of their own kind (12.1) ---------------------------------------------------


def test_the_migration_made_three_bots_of_each_level_that_cannot_log_in(db):
    for level in ("easy", "medium", "hard"):
        bots = list(User.objects.bots(level))
        assert len(bots) == 3
        assert all(not bot.has_usable_password() and not bot.can_play_rated for bot in bots)


def test_a_player_who_took_a_bots_name_is_never_seated_as_the_bot(player):
    # 12.1: bots were found by username, so whoever signed up as "bot-hard-1" sat in for the bot.
    User.objects.filter(bot_level="hard").delete()
    squatter = UserFactory(username="bot-hard-1")
    [bot] = bots_for(["hard"])
    assert bot.pk != squatter.pk and bot.is_bot
    assert bot.username != "bot-hard-1"
    squatter.refresh_from_db()
    assert not squatter.is_bot


def test_a_bot_name_taken_in_capitals_does_not_break_new_game(client, player):
    # 12.1: with "BOT-MEDIUM-1" taken, creating "bot-medium-1" on first use was a 500.
    User.objects.filter(bot_level="medium").delete()
    UserFactory(username="BOT-MEDIUM-1")
    client.force_login(player)
    response = client.post(
        reverse("games:new"), {"players": 2, "side": "A", "seat_2": "medium", "invite": ""}
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert sorted(s.user.bot_level for s in game.seats.select_related("user")) == ["", "medium"]


def test_a_bot_cannot_log_in_even_with_a_password(db):
    # 12.1: a bot with a password (set by mistake in the admin) could be logged into.
    bot = User.objects.bots("easy").first()
    bot.set_password(PASSWORD)
    bot.save()
    response = log_in(bot.username, PASSWORD)
    assert response.status_code == 200
    assert "_auth_user_id" not in response.client.session


def test_the_bot_migration_keeps_squatters_human_and_confirms_existing_players(db):
    # 12.1/12.3: an existing database keeps its bots, gets the missing ones, and a player who
    # signed up under a bot's name is not turned into one.
    from importlib import import_module

    migration = import_module("accounts.migrations.0007_bots_and_confirmed_players")
    User.objects.filter(bot_level__in=["easy", "hard"]).delete()
    old_bot = UserFactory(username="bot-hard-1", bot_level="hard", email_confirmed_at=None)
    squatter = UserFactory(username="bot-easy-1", email_confirmed_at=None)
    migration.forwards(apps, None)
    squatter.refresh_from_db()
    assert not squatter.is_bot and squatter.email_confirmed_at is not None
    assert User.objects.bots("hard").first() == old_bot
    easy = list(User.objects.bots("easy"))
    assert len(easy) == 3 and squatter not in easy
    assert all(bot.email_confirmed_at is None for bot in User.objects.filter(bot_level="hard"))
    assert User.objects.bots("hard").count() == 3


# --- Names in one canonical form (12.1, 12.6) -----------------------------------------------------


@pytest.mark.parametrize(
    "name", ["bot-hard-1", "BOT-MEDIUM-1", "bot-hard-7", "b0t_easy", "Bot4", "hardbot", "easy.bot"]
)
def test_names_that_imitate_a_bot_are_refused(db, name):
    # 12.1: sign-up did not reserve the bots' pattern.
    response = sign_up(username=name)
    assert b"kept for the bots" in response.content
    assert humans() == 0


@pytest.mark.parametrize(
    "name", ["admin", "Administrator", "harmonies", "Support", "staff", "SYSTEM"]
)
def test_names_that_imitate_the_site_are_refused(db, name):
    response = sign_up(username=name)
    assert b"kept for the site" in response.content
    assert humans() == 0


@pytest.mark.parametrize("name", ["al\u0131ce", "AL\u0130CE", "\u0430lice", "a1ice", "ALlCE"])
def test_spellings_and_look_alikes_of_an_existing_name_are_refused(player, name):
    # 12.6: a dotless i, a Cyrillic a or a digit 1 passed for "alice".
    response = sign_up(username=name)
    assert response.status_code == 200
    assert b"taken" in response.content or b"looks too much like" in response.content
    assert humans() == 1


def test_a_dotless_i_spelling_shares_the_lockout_counter(player, settings):
    # 12.6: the dotless-i spelling of "alice" had its own fresh failure counter.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in("al\u0131ce", "wrong")
    response = log_in("alice", PASSWORD)
    assert response.status_code == 429 and LOCKED in response.content


def test_every_canonical_spelling_logs_in_to_the_one_account(player):
    for name in ("al\u0131ce", "AL\u0130CE", "ALICE"):
        response = log_in(name, PASSWORD)
        assert response.status_code == 302, name
        assert response.client.session["_auth_user_id"] == str(player.pk)


@pytest.mark.parametrize(
    "display_name",
    [
        "Alice\nBob wins",
        "Alice\r\nPS",
        "Eve\u2028Bob",
        "Eve\u202egnp",
        "tab\there",
        "Pip (easy bot)",
    ],
)
def test_display_names_with_line_breaks_control_characters_or_a_bot_look_are_refused(
    client, player, display_name
):
    # 12.8: a line break rewrote other players' plain-text emails; "(easy bot)" posed as a bot.
    response = sign_up(username="newcomer", display_name=display_name)
    assert response.status_code == 200 and humans() == 1
    client.force_login(player)
    form = {"display_name": display_name, "email": player.email, "time_zone": "UTC"}
    response = client.post(reverse("profile"), form)
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.display_name == "Alice"


def test_concurrent_sign_ups_of_one_name_get_a_form_error_not_a_500(db, monkeypatch):
    # 12.7: the second of two simultaneous sign-ups hit the unique constraint: a 500.
    save = SignUpForm.save

    def other_sign_up_first(form, commit=True):
        UserFactory(username="NEWCOMER")  # inserted between the form's check and this save
        return save(form, commit)

    monkeypatch.setattr(SignUpForm, "save", other_sign_up_first)
    response = sign_up(username="newcomer")
    assert response.status_code == 200
    assert b"That username is taken" in response.content
    assert not User.objects.filter(username="newcomer").exists()


def test_a_raw_constraint_name_is_never_shown(db):
    # 12.9: a spelling that only the database constraint caught showed "Constraint ... violated".
    UserFactory(username="stra\u00dfe")
    response = sign_up(username="STRASSE")
    assert b"Constraint" not in response.content
    assert b"taken" in response.content


# --- Log-in throttled per address (12.5) ----------------------------------------------------------


def test_spraying_usernames_from_one_address_is_refused(db, settings):
    # 12.5: 40 usernames sprayed from one address were never refused.
    settings.AXES_ADDRESS_FAILURE_LIMIT = 6
    weak = UserFactory(username="weakling")
    statuses = [log_in(f"victim{n}", "password1").status_code for n in range(6)]
    assert statuses == [200] * 5 + [429]
    assert log_in("victim9", "password1").status_code == 429  # and so is every further wrong one
    # The right password of an account not itself locked still logs in: refusing it locked out
    # everyone who shares the address (a proxy, an office).
    assert log_in("weakling", PASSWORD).client.session["_auth_user_id"] == str(weak.pk)


def test_a_locked_out_account_is_refused_before_any_password_is_hashed(
    player, settings, monkeypatch
):
    # 12.5: failed log-ins pushed everyone's latency up: each one hashed a password.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in("alice", "wrong")
    calls = []
    authenticate = ModelBackend.authenticate

    def counting(self, *args, **kwargs):
        calls.append(1)
        return authenticate(self, *args, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counting)
    for password in ("wrong", "also-wrong", PASSWORD):
        assert log_in("alice", password).status_code == 429
    assert calls == []


def test_logging_in_to_ones_own_account_does_not_clear_the_address_count(db, settings):
    settings.AXES_ADDRESS_FAILURE_LIMIT = 4
    UserFactory(username="sprayer")
    for n in range(3):
        log_in(f"victim{n}", "wrong")
    assert log_in("sprayer", PASSWORD).status_code == 302
    assert log_in("victim9", "wrong").status_code == 429


# --- Resets and email changes (12.7, 12.8) --------------------------------------------------------


def test_a_password_reset_while_the_cache_is_unreachable_is_not_a_500(player, settings):
    # 12.7: the reset limit's cache call raised when Redis was down: a 500.
    settings.CACHES = {
        "default": {
            "BACKEND": "harmonies_site.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 0.5},
        }
    }
    response = Client().post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1


def test_changing_the_email_needs_the_current_password(client, player):
    # 12.8: the address could be changed with the session alone.
    client.force_login(player)
    form = {"display_name": "Alice", "email": "thief@example.com", "time_zone": "UTC"}
    for password in ("", "wrong"):
        response = client.post(reverse("profile"), {**form, "current_password": password})
        assert b"Enter your current password to change your email address" in response.content
    player.refresh_from_db()
    assert player.email == "alice@example.com" and player.email_confirmed_at is not None


def test_a_changed_email_tells_the_old_address_and_must_be_confirmed(
    client, player, django_capture_on_commit_callbacks
):
    client.force_login(player)
    form = {
        "display_name": "Alice",
        "email": "alice@new.example",
        "time_zone": "UTC",
        "current_password": PASSWORD,
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("profile"), form)
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.email == "alice@new.example"
    assert player.email_confirmed_at is None and not player.can_play_rated
    notice, confirm = sorted(mail.outbox, key=lambda m: m.to != ["alice@example.com"])
    assert notice.to == ["alice@example.com"] and "was changed" in notice.subject
    assert confirm.to == ["alice@new.example"] and "/accounts/confirm/" in confirm.body


def test_the_display_name_alone_changes_without_the_password(client, player):
    client.force_login(player)
    form = {"display_name": "Alice L.", "email": "ALICE@example.com", "time_zone": "UTC"}
    assert client.post(reverse("profile"), form).status_code == 302
    player.refresh_from_db()
    assert player.display_name == "Alice L." and player.email_confirmed_at is not None
