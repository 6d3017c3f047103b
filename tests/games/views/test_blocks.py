"""Block, replayed as the blocked player would try to reach the blocker, request by request.

Alice blocks Bob. Bob then tries every way to her: inviting her by username (the table page,
the new-game form), by her address, by Play again, sitting at her tables (the lobby, the table's
link, a rematch), bringing her to his table by his invitation, adding her as a friend, finding
her in the type-ahead, and writing to her at a table they already share (the page, its talk
fragment and talk page, My games, the turn email). Each time he reads no more than "this player
cannot be invited" (or that he cannot sit here), and his pages look as they did. Then the forms
themselves: bad input and forged posts change nothing, with and without htmx.

Personas: alice (player) blocks; bob (other_player) is blocked; carol plays with them both;
mallory (stranger) forges.
"""

import json
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import Block, Friendship, User
from games import services
from games.models import Game, Invitation
from games.services import talk
from games.services.errors import CANNOT_BE_ADDED, CANNOT_BE_INVITED, NO_SEAT_HERE
from games.views.blocks import STILL_PLAYING
from tests.answers import answered
from tests.clients import as_user
from tests.games.helpers import play_turns, start_game, user_to_move
from tests.games.services.test_rematch import finished

pytestmark = pytest.mark.django_db

ALICES = "alice@example.com"
NOBODYS = "wanderer@example.org"


@pytest.fixture
def blocked(player, other_player, post):
    """Alice has blocked Bob, from his page, as a person would: the page, then the button."""
    alice = as_user(player)
    page = alice.get(reverse("games:block", args=["bob"]))
    assert page.status_code == 200 and "Block Bob?" in page.content.decode()
    done = post(alice, reverse("games:block", args=["bob"]), {"next": "/players/bob/"})
    assert done.status_code == 302 and done.url == "/players/bob/"
    assert Block.objects.filter(blocker=player, blocked=other_player).exists()
    return alice


def table(creator, players: int = 2, **kwargs) -> Game:
    return services.create_game(creator=creator, players=players, side="A", spirits=False, **kwargs)


def mail_to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


def text(response) -> str:
    return response.content.decode()


# --- Invitations -----------------------------------------------------------------------------


def test_a_blocked_player_cannot_invite_the_blocker_from_his_table(
    player, other_player, blocked, post
):
    game = table(other_player)
    mail.outbox.clear()
    response = post(
        as_user(other_player), reverse("games:invite", args=[game.pk]), {"invite": "alice"}
    )
    assert response.status_code == 400
    assert f"{CANNOT_BE_INVITED[:-1]}: Alice." in text(response)
    assert "block" not in text(response).split("<main", 1)[1].lower()
    assert not Invitation.objects.filter(user=player).exists()
    assert mail_to(player) == []


def test_a_blocked_player_cannot_invite_the_blocker_from_the_new_game_form(
    player, other_player, blocked, post
):
    data = {"players": 2, "side": "A", "seat_2": "", "friend_2": "alice"}
    response = post(as_user(other_player), reverse("games:new"), data)
    assert response.status_code == 200
    assert "This player cannot be invited: Alice." in text(response)
    assert not Game.objects.filter(created_by=other_player).exists()


def test_the_blocker_is_reminded_of_her_own_block_when_she_invites_him(
    player, other_player, blocked, post
):
    game = table(player)
    response = post(blocked, reverse("games:invite", args=[game.pk]), {"invite": "bob"})
    assert response.status_code == 400
    assert "You have blocked Bob: unblock them from your profile to invite them." in text(response)
    assert not game.invitations.exists()


def test_inviting_the_blockers_address_looks_like_any_address_and_reaches_nobody(
    player, other_player, blocked, post
):
    """Refusing the address would tell Bob whose it is: it is taken like an address without an
    account, and kept from Alice (no email, not in her games, never claimed by her)."""
    bob = as_user(other_player)
    answers = []
    for address in (ALICES, NOBODYS):
        game = table(other_player)
        mail.outbox.clear()
        response = post(bob, reverse("games:invite", args=[game.pk]), {"invite": address})
        assert response.status_code == 302
        page = text(bob.get(response.url))
        answers.append(
            page.split('class="messages"', 1)[1].split("</div>", 1)[0].replace(address, "X")
        )
        invitation = game.invitations.get()
        assert (invitation.user, invitation.email) == (None, address)
    assert answers[0] == answers[1]
    assert [m for m in mail.outbox if ALICES in m.to] == []
    assert "invites you" not in text(blocked.get(reverse("games:mine")))
    assert services.claim_invitations(User.objects.get(pk=player.pk)) == []


def test_play_again_does_not_invite_the_blocker_and_she_is_not_emailed(player, other_player, post):
    old = finished(other_player, player)
    Block.objects.create(blocker=player, blocked=other_player)
    mail.outbox.clear()
    offered = post(as_user(other_player), reverse("games:again", args=[old.pk]))
    assert offered.status_code == 302
    rematch = Game.objects.get(rematch_of=old)
    assert not rematch.invitations.exists()
    assert mail_to(player) == []


def test_a_blocked_player_cannot_join_the_blockers_rematch(player, other_player, post):
    old = finished(player, other_player)
    Block.objects.create(blocker=player, blocked=other_player)
    post(as_user(player), reverse("games:again", args=[old.pk]))
    rematch = Game.objects.get(rematch_of=old)
    assert not rematch.invitations.exists()  # Alice's offer does not invite Bob either
    response = post(as_user(other_player), reverse("games:again", args=[old.pk]))
    assert answered(response) == 403 and str(NO_SEAT_HERE) in text(response)
    assert not rematch.seats.filter(user=other_player).exists()


# --- Seats -------------------------------------------------------------------------------------


def test_a_blocked_player_cannot_sit_at_the_blockers_table_by_its_link(
    player, other_player, blocked, post
):
    game = table(player)
    bob = as_user(other_player)
    link = bob.get(reverse("games:invitation", args=[game.invite_token]))
    assert link.status_code == 200 and "Take a seat" in text(link)  # the page looks as ever
    response = post(bob, reverse("games:join", args=[game.pk]), {"token": game.invite_token})
    assert response.status_code == 403
    assert str(NO_SEAT_HERE) in text(response) and "block" not in text(response).lower()
    assert not game.seats.filter(user=other_player).exists()


def test_a_blocked_player_does_not_find_the_blockers_public_table_nor_sit_at_it(
    player, other_player, carol, blocked, post
):
    game = table(player, public=True)
    join_form = f'action="{reverse("games:join", args=[game.pk])}"'
    assert join_form not in text(as_user(other_player).get(reverse("games:lobby")))
    assert join_form in text(as_user(carol).get(reverse("games:lobby")))
    response = post(as_user(other_player), reverse("games:join", args=[game.pk]))
    assert response.status_code == 403 and str(NO_SEAT_HERE) in text(response)


def test_the_blocker_is_not_seated_at_his_table_by_his_invitation(player, other_player, post):
    """Bob invited Alice before she blocked him: the invitation is declined without an email to
    him, and neither it, its emailed link nor his table's link seats her."""
    game = table(other_player, players=3)
    mail.outbox.clear()
    post(as_user(other_player), reverse("games:invite", args=[game.pk]), {"invite": "alice"})
    (invitation_email,) = mail_to(player)
    link = re.search(r"/games/invited/([^/\s]+)/", invitation_email.body).group(1)
    alice = as_user(player)
    mail.outbox.clear()
    post(alice, reverse("games:block", args=["bob"]))
    invitation = game.invitations.get(user=player)
    assert invitation.declined_at is not None
    assert mail_to(other_player) == []  # no "Alice declined" email
    assert "invites you" not in text(alice.get(reverse("games:mine")))
    by_link = post(alice, reverse("games:join", args=[game.pk]), {"invitation": link})
    by_table = post(alice, reverse("games:join", args=[game.pk]), {"token": game.invite_token})
    assert by_link.status_code == 403
    assert by_table.status_code == 403 and "You have blocked Bob" in text(by_table)
    assert not game.seats.filter(user=player).exists()


def test_the_blockers_invitation_to_him_is_withdrawn(player, other_player, post):
    game = table(player)
    services.invite(game_id=game.pk, by=player, invitees=[other_player])
    post(as_user(player), reverse("games:block", args=["bob"]))
    assert not game.invitations.exists()
    response = post(as_user(other_player), reverse("games:join", args=[game.pk]))
    assert response.status_code == 403
    assert "block" not in text(response).lower()


def test_a_block_throws_nobody_out_of_a_game_in_progress(player, other_player, post):
    game = start_game(player, other_player)
    post(as_user(player), reverse("games:block", args=["bob"]))
    mover = user_to_move(game)
    play_turns(game, turns=1)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.seats.count() == 2
    assert user_to_move(game) != mover
    talk.post(game_id=game.pk, user=other_player, text="still here")  # he may still write


# --- Friends -----------------------------------------------------------------------------------


def test_a_blocked_player_cannot_add_the_blocker_as_a_friend(player, other_player, blocked, post):
    response = as_user(other_player).post(
        reverse("records:friend_add"), {"username": "alice"}, follow=True
    )
    assert str(CANNOT_BE_ADDED) in text(response)
    assert "block" not in text(response).split('class="messages"', 1)[1][:300].lower()
    assert not Friendship.objects.filter(user=other_player).exists()


def test_blocking_removes_him_from_her_friends_and_her_from_his_type_ahead(
    player, other_player, post
):
    start_game(player, other_player)
    bob_page_before = text(as_user(other_player).get(reverse("records:player", args=["bob"])))
    assert "Alice" in bob_page_before
    post(as_user(player), reverse("games:block", args=["bob"]))
    own = text(as_user(player).get(reverse("records:player", args=["alice"])))
    assert 'href="/players/bob/"' not in own.split('id="friends-h"', 1)[1].split("</section>")[0]
    options = text(as_user(other_player).get(reverse("records:friend_suggest"), {"q": "ali"}))
    assert "alice" not in options
    # His own list is left as it was: a name gone from it would tell him.
    assert Friendship.objects.filter(user=other_player).count() == 0
    bob_page = text(as_user(other_player).get(reverse("records:player", args=["bob"])))
    assert 'href="/players/alice/"' in bob_page


# --- Table talk --------------------------------------------------------------------------------


def test_his_messages_are_hidden_from_her_everywhere_and_shown_to_carol(
    player, other_player, carol, post
):
    game = start_game(player, other_player, carol)
    post(as_user(player), reverse("games:block", args=["bob"]))
    talk.post(game_id=game.pk, user=other_player, text="Can you hear me, Alice?")
    alice, carols = as_user(player), as_user(carol)
    url = game.get_absolute_url()
    talk_url = reverse("games:talk", args=[game.pk])
    for page in (
        alice.get(url),
        alice.get(talk_url),  # the talk page, without JavaScript
        alice.get(talk_url, HTTP_HX_REQUEST="true"),  # the fragment the poll fetches
    ):
        assert page.status_code == 200
        assert "Can you hear me" not in text(page)
    assert 'data-unread="0"' in text(alice.get(talk_url, HTTP_HX_REQUEST="true"))
    assert "1 new message" in text(carols.get(reverse("games:mine")))
    assert "Can you hear me" in text(carols.get(url))
    assert "new message" not in text(alice.get(reverse("games:mine")))


def test_a_block_and_an_unblock_show_at_her_next_look_though_her_blocks_were_kept(
    player, other_player, post
):
    game = start_game(player, other_player)
    talk.post(game_id=game.pk, user=other_player, text="before the block")
    alice, url = as_user(player), game.get_absolute_url()
    assert "before the block" in text(alice.get(url))  # her (empty) blocks are now kept
    post(alice, reverse("games:block", args=["bob"]))
    assert "before the block" not in text(alice.get(url))
    post(alice, reverse("games:unblock"), {"player": other_player.pk})
    assert "before the block" in text(alice.get(url))


def test_his_messages_are_not_in_her_turn_emails_and_are_in_carols(
    player, other_player, carol, post, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, carol)
    post(as_user(player), reverse("games:block", args=["bob"]))
    talk.post(game_id=game.pk, user=other_player, text="Can you hear me, Alice?")
    mail.outbox.clear()
    for _ in range(4):  # each of them is emailed a turn, with the talk they have not read
        with django_capture_on_commit_callbacks(execute=True):
            play_turns(game, turns=1)
    to_alice, to_carol = mail_to(player), mail_to(carol)
    assert to_alice and to_carol
    assert all("Can you hear me" not in m.body for m in to_alice)
    assert any("Can you hear me" in m.body for m in to_carol)


def test_every_message_by_someone_else_offers_block_and_the_confirmation_says_the_games_go_on(
    player, other_player
):
    game = start_game(player, other_player)
    talk.post(game_id=game.pk, user=other_player, text="hello")
    talk.post(game_id=game.pk, user=player, text="hi")
    page = text(as_user(player).get(game.get_absolute_url()))
    expected = reverse("games:block", args=["bob"]) + f"?next=/games/{game.pk}/%23talk"
    assert page.count('class="talk-block-link') == 1
    assert f'href="{expected}"' in page
    confirm = text(as_user(player).get(expected))
    assert STILL_PLAYING in confirm
    assert f'name="next" value="/games/{game.pk}/#talk"' in confirm


def test_a_table_offers_block_beside_the_others_and_the_confirmation_names_it(player, other_player):
    game = table(other_player, players=3, invitees=[player])
    services.join_game(game_id=game.pk, user=player)
    page = text(as_user(player).get(game.get_absolute_url()))
    assert ">Block Bob</a>" in page and ">Block Alice</a>" not in page
    assert "<li>Bob (created the game)</li>" in page  # the list of seats is as it was
    confirm = as_user(player).get(
        reverse("games:block", args=["bob"]), {"next": game.get_absolute_url()}
    )
    assert game.title in text(confirm) and "has not started yet" in text(confirm)
    done = as_user(player).post(
        reverse("games:block", args=["bob"]), {"next": game.get_absolute_url()}, follow=True
    )
    assert "leave it from its page" in text(done)
    assert game.seats.filter(user=player).exists()  # nobody's seat is taken


# --- His pages look as they did ------------------------------------------------------------------


def _same_page(page: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"|"X-CSRFToken": "[^"]+"', "CSRF", page)


def test_nothing_on_his_pages_tells_him(player, other_player):
    game = table(player)
    bob = as_user(other_player)
    pages = [
        reverse("records:player", args=["alice"]),
        reverse("games:invitation", args=[game.invite_token]),
    ]
    before = [_same_page(text(bob.get(url))) for url in pages]
    as_user(player).post(reverse("games:block", args=["bob"]))
    after = [_same_page(text(bob.get(url))) for url in pages]
    assert before == after


# --- Unblocking ---------------------------------------------------------------------------------


def test_unblocking_from_her_profile_lets_him_invite_her_again(player, other_player, blocked, post):
    profile = text(blocked.get(reverse("profile")))
    assert "Blocked players" in profile and 'aria-label="Unblock Bob"' in profile
    response = blocked.post(reverse("games:unblock"), {"player": other_player.pk}, follow=True)
    assert "Bob is unblocked" in text(response)
    assert response.redirect_chain[-1][0] == reverse("profile") + "#blocked"
    assert not Block.objects.exists()
    game = table(other_player)
    invited = post(
        as_user(other_player), reverse("games:invite", args=[game.pk]), {"invite": "alice"}
    )
    assert invited.status_code == 302
    assert game.invitations.filter(user=player).exists()


def test_unblocking_with_htmx_answers_the_list(player, other_player, blocked):
    response = blocked.post(
        reverse("games:unblock"), {"player": other_player.pk}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    body = text(response)
    assert body.lstrip().startswith('<section id="blocked"')
    assert "Bob is unblocked" in body and "You have blocked nobody." in body


def test_blocking_with_htmx_answers_the_card(player, other_player):
    response = as_user(player).post(reverse("games:block", args=["bob"]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert text(response).lstrip().startswith('<div class="card narrow" id="block-card">')
    assert "Bob is blocked" in text(response)
    assert Block.objects.filter(blocker=player, blocked=other_player).exists()


def test_the_player_page_offers_unblock_once_blocked(player, other_player, blocked):
    page = text(blocked.get(reverse("records:player", args=["bob"])))
    assert "Unblock Bob" in page and "Block Bob</a>" not in page
    response = blocked.post(
        reverse("games:unblock"), {"player": other_player.pk, "next": "/players/bob/"}
    )
    assert response.status_code == 302 and response.url == "/players/bob/"
    assert not Block.objects.exists()


# --- Bad input and forged posts -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "status", "words"),
    [
        ("alice", 400, "That is you: you cannot block yourself."),
        ("nobody-at-all", 404, "No player is called nobody-at-all."),
        ("b" * 400, 400, "That is not a username."),
    ],
)
def test_blocking_oneself_or_nobody_is_refused_in_words(player, name, status, words):
    for method in ("get", "post"):
        response = getattr(as_user(player), method)(f"/games/block/{name}/")
        assert answered(response) == status
        assert words in text(response)
    assert not Block.objects.exists()


def test_blocking_a_bot_is_refused_in_words(player):
    bot = User.objects.bots("easy").first()
    response = as_user(player).post(reverse("games:block", args=[bot.username]))
    assert response.status_code == 400
    assert "computer opponent" in text(response)
    assert not Block.objects.exists()


def test_blocking_twice_says_so_and_changes_nothing(player, other_player, blocked):
    first = Block.objects.get()
    for method in ("get", "post"):
        response = getattr(blocked, method)(reverse("games:block", args=["bob"]))
        assert response.status_code == 409
        assert "You have already blocked Bob." in text(response)
    assert list(Block.objects.all()) == [first]


@pytest.mark.parametrize("value", ["", "-1", "1e9", "٣", "9" * 400, "<b>", None])
def test_unblocking_someone_not_blocked_is_refused_in_words(player, other_player, blocked, value):
    data = {} if value is None else {"player": value}
    response = blocked.post(reverse("games:unblock"), data, follow=True)
    assert "That player is not among those you have blocked." in text(response)
    assert Block.objects.count() == 1


def test_a_forged_unblock_for_another_player_changes_nothing(
    player, other_player, stranger, blocked
):
    mallory = as_user(stranger)
    for data in (
        {"player": other_player.pk},
        {"player": other_player.pk, "blocker": player.pk, "user": player.pk},
    ):
        response = mallory.post(reverse("games:unblock"), data, follow=True)
        assert "That player is not among those you have blocked." in text(response)
    assert Block.objects.filter(blocker=player, blocked=other_player).exists()


def test_a_forged_block_blocks_only_for_who_is_logged_in(player, other_player, stranger):
    as_user(stranger).post(reverse("games:block", args=["bob"]), {"blocker": player.pk})
    assert list(Block.objects.values_list("blocker", "blocked")) == [(stranger.pk, other_player.pk)]


def test_another_site_cannot_post_the_forms_for_her(player, other_player, blocked):
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(player)
    assert forged.post(reverse("games:unblock"), {"player": other_player.pk}).status_code == 403
    assert forged.post(reverse("games:block", args=["carol"])).status_code == 403
    assert Block.objects.count() == 1


def test_opening_the_confirmation_page_blocks_nobody_and_a_visitor_is_sent_to_log_in(
    player, other_player, client
):
    assert as_user(player).get(reverse("games:block", args=["bob"])).status_code == 200
    assert not Block.objects.exists()
    response = client.post(reverse("games:block", args=["bob"]))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not Block.objects.exists()


def test_a_next_address_off_the_site_is_ignored(player, other_player):
    response = as_user(player).post(
        reverse("games:block", args=["bob"]), {"next": "//evil.example/"}
    )
    assert response.status_code == 302 and response.url == "/players/bob/"


def test_her_data_file_lists_whom_she_blocked_and_his_never_says_who_blocked_him(
    player, other_player, blocked
):
    def download(user) -> dict:
        response = as_user(user).post(reverse("personal_data"))
        assert response.status_code == 200
        return json.loads(response.content)

    assert [row["username"] for row in download(player)["blocked"]] == ["bob"]
    his = download(other_player)
    assert his["blocked"] == [] and "alice" not in json.dumps(his["blocked"])
