"""One account cannot flood the bot queue, the lobby or a player's My games (issue 12.4 and 12.8).

Caps: at most 10 games in progress with a computer opponent, 5 tables waiting for players and 50
invitations waiting for an answer per player; the lobby shows a few tables per creator; My games
shows invitations and past games a page at a time.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Game, Invitation, Seat
from games.services import invitations
from games.views.lists import INVITATIONS_PAGE, LOBBY_PER_CREATOR
from tests.clients import as_user
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_sixty_bot_tables_from_one_account_are_refused_past_the_cap(player):
    client = as_user(player)
    answers = [
        client.post(reverse("games:new"), {"players": 2, "side": "A", "seat_2": "hard"})
        for _ in range(60)
    ]
    created = [a for a in answers if a.status_code == 302]
    refused = [a for a in answers if a.status_code == 200]
    assert len(created) == services.MAX_BOT_GAMES == 10
    assert len(refused) == 50
    assert b"You already have 10 games in progress against computer opponents" in (
        refused[0].content
    )
    assert Game.objects.filter(created_by=player).count() == 10


def test_a_finished_bot_game_frees_its_place(player):
    from games.services.bots import bots_for

    games = [
        services.create_game(
            creator=player, players=2, side="A", spirits=False, bots=bots_for(["easy"])
        )
        for _ in range(services.MAX_BOT_GAMES)
    ]
    with pytest.raises(services.Conflict, match="computer opponents"):
        services.create_game(
            creator=player, players=2, side="A", spirits=False, bots=bots_for(["easy"])
        )
    Game.objects.filter(pk=games[0].pk).update(status=Game.Status.FINISHED)
    services.create_game(
        creator=player, players=2, side="A", spirits=False, bots=bots_for(["easy"])
    )
    # A game with friends only is never capped this way.
    services.create_game(creator=player, players=1, side="A", spirits=False)


def test_at_most_five_tables_wait_for_players(player):
    for _ in range(services.MAX_OPEN_TABLES):
        services.create_game(creator=player, players=2, side="A", spirits=False, public=True)
    response = as_user(player).post(
        reverse("games:new"), {"players": 2, "side": "A", "public": "on"}
    )
    assert response.status_code == 200
    assert b"You already have 5 tables waiting for players" in response.content
    assert Game.objects.filter(created_by=player).count() == 5
    # A solo game starts at once: it waits for nobody.
    services.create_game(creator=player, players=1, side="A", spirits=False)


def test_pending_invitations_are_capped(player, monkeypatch, settings):
    monkeypatch.setattr(invitations, "MAX_PENDING_INVITATIONS", 4)
    # Six addresses in a day: over a new account's daily cap, which has tests of its own.
    settings.ADDRESS_INVITATIONS_PER_DAY_NEW = 10
    services.create_game(
        creator=player, players=4, side="A", spirits=False, emails=["a@x.org", "b@x.org"]
    )
    game = services.create_game(
        creator=player, players=4, side="A", spirits=False, emails=["c@x.org", "d@x.org"]
    )
    with pytest.raises(services.Conflict, match="at most 4 can wait at once"):
        services.invite(game_id=game.pk, by=player, emails=["e@x.org"])
    with pytest.raises(services.Conflict, match="at most 4"):
        services.create_game(creator=player, players=2, side="A", spirits=False, emails=["f@x.org"])
    assert Invitation.objects.count() == 4
    # An answer frees a place.
    Invitation.objects.filter(email="a@x.org").update(declined_at=game.created_at)
    services.invite(game_id=game.pk, by=player, emails=["e@x.org"])


def test_one_creator_cannot_push_every_other_table_off_the_lobby(player, other_player, stranger):
    flooder = UserFactory(username="flooder")
    # Tables left from before the cap, newest of all: still only a few are shown.
    for _ in range(50):
        game = Game.objects.create(created_by=flooder, players=2, public=True)
        Seat.objects.create(game=game, user=flooder)
    others = [
        services.create_game(creator=other_player, players=2, side="A", spirits=False, public=True)
        for _ in range(2)
    ]
    Game.objects.filter(created_by=flooder).update(created_at=others[-1].created_at)
    page = as_user(stranger).get(reverse("games:lobby"))
    tables_shown = page.context["tables"]
    by_flooder = [g for g in tables_shown if g.created_by_id == flooder.pk]
    assert len(by_flooder) == LOBBY_PER_CREATOR
    assert {g.pk for g in others} <= {g.pk for g in tables_shown}


def test_four_hundred_invitations_do_not_bloat_my_games(player, other_player):
    creators = UserFactory.create_batch(10)
    games = Game.objects.bulk_create(
        Game(created_by=creators[n % 10], players=2, invite_token=f"t{n}") for n in range(400)
    )
    Seat.objects.bulk_create(Seat(game=g, user=g.created_by) for g in games)
    Invitation.objects.bulk_create(
        Invitation(game=g, user=other_player, invited_by=g.created_by) for g in games
    )
    client = as_user(other_player)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("games:mine"))
    assert page.status_code == 200
    assert page.content.count(b"invites you to ") == INVITATIONS_PAGE
    assert len(page.content) < 60_000
    assert len(queries) < 15
    last = client.get(reverse("games:mine") + "?invitations=20")
    assert last.content.count(b"invites you to ") == 400 - 19 * INVITATIONS_PAGE
    assert b"Page 20 of 20" in last.content


def test_finished_games_are_paginated(player, other_player):
    games = Game.objects.bulk_create(
        Game(created_by=player, players=2, status=Game.Status.FINISHED, invite_token=f"f{n}")
        for n in range(45)
    )
    Seat.objects.bulk_create(Seat(game=g, user=player) for g in games)
    client = as_user(player)
    first = client.get(reverse("games:mine"))
    assert len(first.context["finished"].object_list) == 30
    second = client.get(reverse("games:mine") + "?page=2")
    assert len(second.context["finished"].object_list) == 15
    junk = client.get(reverse("games:mine") + "?page=abc&invitations=-1")
    assert junk.status_code == 200


def _race(user, url: str, data: dict, clients: int) -> list[int]:
    """`clients` tabs of one player post the same form at once; their status codes."""
    import threading

    barrier, statuses = threading.Barrier(clients), []

    def post() -> None:
        client = as_user(user)
        try:
            barrier.wait(timeout=30)
            statuses.append(client.post(url, data).status_code)
        except Exception as exc:  # a crash in the view counts as a server error
            statuses.append(599)
            raise exc
        finally:
            connection.close()

    threads = [threading.Thread(target=post, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_tabs_cannot_pass_the_bot_game_cap():
    player = UserFactory()
    data = {"players": 2, "side": "A", "seat_2": "easy"}
    statuses = _race(player, reverse("games:new"), data, clients=16)
    assert sorted(set(statuses)) == [200, 302]
    assert statuses.count(302) == services.MAX_BOT_GAMES
    assert Game.objects.filter(created_by=player).count() == services.MAX_BOT_GAMES


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_tabs_invite_one_friend_once():
    player, friend = UserFactory(), UserFactory(username="friend")
    game = services.create_game(creator=player, players=3, side="A", spirits=False)
    statuses = _race(player, reverse("games:invite", args=[game.pk]), {"invite": "Friend"}, 8)
    assert sorted(statuses) == [302] + [400] * 7
    assert game.invitations.get().user == friend
