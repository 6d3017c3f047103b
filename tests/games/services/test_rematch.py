"""Play again: one click by A opens the table, one click by B starts it, with the same settings."""

import pytest
from django.core import mail
from django.urls import reverse

from games import services
from games.models import Game
from games.services.bots import bots_for
from tests.clients import as_user
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db


def finished(creator, *others, **settings) -> Game:
    """A game with these settings that ended because its people resigned, creator first."""
    bots = list(settings.get("bots", ()))
    game = services.create_game(
        creator=creator, players=1 + len(others) + len(bots), side=settings.get("side", "B"),
        spirits=settings.get("spirits", True), invitees=others,
        turn_limit_days=settings.get("turn_limit_days", 3),
        on_timeout=settings.get("on_timeout", Game.OnTimeout.DROP), bots=bots,
    )  # fmt: skip
    for user in others:
        services.join_game(game_id=game.pk, user=user)
    for user in (creator, *others):
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            services.resign(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def turn_order(game: Game) -> list[str]:
    """Usernames in playing order, from the first player round the table."""
    game.refresh_from_db()
    first = game.engine_state().first_seat
    seats = sorted(game.seats.select_related("user"), key=lambda s: (s.position - first) % 3)
    return [s.user.username for s in seats]


def test_one_click_by_each_player_starts_a_game_with_the_same_settings(player, other_player):
    old = finished(player, other_player)
    rematch = services.play_again(game_id=old.pk, user=player)
    assert rematch.status == Game.Status.OPEN and rematch.rematch_of == old
    assert rematch.invitations.get().user == other_player
    joined = services.play_again(game_id=old.pk, user=other_player)
    assert joined.pk == rematch.pk
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ACTIVE
    for field in ("players", "side", "spirits", "turn_limit_days", "on_timeout", "name"):
        assert getattr(rematch, field) == getattr(old, field)
    assert rematch.public is False
    assert {s.user for s in rematch.seats.all()} == {player, other_player}


def test_a_second_click_or_both_players_clicking_make_one_table(player, other_player):
    old = finished(player, other_player)
    first = services.play_again(game_id=old.pk, user=player)
    again = services.play_again(game_id=old.pk, user=player)
    assert first.pk == again.pk
    assert Game.objects.filter(rematch_of=old).count() == 1
    assert Game.objects.count() == 2


def test_the_first_turn_passes_to_the_next_player_round_the_table(player, other_player, carol):
    old = start_game(player, other_player, carol)
    services.resign(game_id=old.pk, user=player)
    services.resign(game_id=old.pk, user=other_player)
    old.refresh_from_db()
    assert old.status == Game.Status.FINISHED
    before = turn_order(old)
    rematch = services.play_again(game_id=old.pk, user=carol)
    services.play_again(game_id=old.pk, user=player)
    services.play_again(game_id=old.pk, user=other_player)
    assert turn_order(rematch) == before[1:] + before[:1]
    rematch.refresh_from_db()
    assert rematch.engine_state().current_seat == rematch.engine_state().first_seat


def test_the_invitation_is_emailed_to_the_others(
    player, other_player, django_capture_on_commit_callbacks
):
    old = finished(player, other_player)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.play_again(game_id=old.pk, user=other_player)
    assert [m.to for m in mail.outbox] == [[player.email]]
    assert mail.outbox[0].subject.startswith(f"Bob wants a rematch of {old.title}")
    assert "It is a rematch of" in mail.outbox[0].body


def test_a_declined_rematch_can_still_be_joined_by_a_player_of_the_old_game(player, other_player):
    old = finished(player, other_player)
    rematch = services.play_again(game_id=old.pk, user=player)
    services.decline_invitation(game_id=rematch.pk, user=other_player)
    services.play_again(game_id=old.pk, user=other_player)
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ACTIVE


def test_a_cancelled_rematch_gives_way_to_a_new_one(player, other_player):
    old = finished(player, other_player)
    first = services.play_again(game_id=old.pk, user=player)
    services.cancel_game(game_id=first.pk, user=player)
    second = services.play_again(game_id=old.pk, user=other_player)
    assert second.pk != first.pk and second.rematch_of == old
    assert second.created_by == other_player


def test_bots_are_seated_again_and_a_solo_game_starts_at_once(player, other_player):
    bot = bots_for(["hard"])[0]
    old = finished(player, other_player, bots=[bot])
    rematch = services.play_again(game_id=old.pk, user=other_player)
    assert set(rematch.seats.values_list("user", flat=True)) == {other_player.pk, bot.pk}
    solo = services.create_game(creator=player, players=1, side="A", spirits=False)
    services.resign(game_id=solo.pk, user=player)
    again = services.play_again(game_id=solo.pk, user=player)
    assert again.status == Game.Status.ACTIVE and again.players == 1
    assert services.play_again(game_id=solo.pk, user=player).pk == again.pk


def test_strangers_and_unfinished_games_are_refused_in_words(player, other_player, stranger):
    old = finished(player, other_player)
    with pytest.raises(services.NotAllowed, match="Only the players"):
        services.play_again(game_id=old.pk, user=stranger)
    active = start_game(player, other_player)
    with pytest.raises(services.Conflict, match="not over yet"):
        services.play_again(game_id=active.pk, user=player)
    with pytest.raises(services.NotFound):
        services.play_again(game_id=987654, user=player)
    assert not Game.objects.filter(rematch_of__isnull=False).exists()


def test_the_rematch_respects_the_cap_on_open_tables(player, other_player):
    old = finished(player, other_player)
    for _ in range(services.MAX_OPEN_TABLES):
        services.create_game(creator=player, players=2, side="A", spirits=False)
    with pytest.raises(services.Conflict, match="tables waiting"):
        services.play_again(game_id=old.pk, user=player)
    assert not Game.objects.filter(rematch_of=old).exists()


# --- The finished page ------------------------------------------------------------------------


def test_the_finished_page_offers_play_again_then_join_the_rematch(player, other_player):
    old = finished(player, other_player)
    page = as_user(player).get(reverse("games:detail", args=[old.pk]))
    assert "Play again" in page.content.decode()
    response = as_user(player).post(reverse("games:again", args=[old.pk]))
    rematch = Game.objects.get(rematch_of=old)
    assert response.status_code == 302 and response.url == rematch.get_absolute_url()
    assert "Go to the rematch" in as_user(player).get(old.get_absolute_url()).content.decode()
    table = as_user(other_player).get(rematch.get_absolute_url()).content.decode()
    assert f'A rematch of <a href="/games/{old.pk}/sheet/">{old.title}</a>' in table
    page = as_user(other_player).get(old.get_absolute_url()).content.decode()
    assert "Join the rematch" in page and "Play again" not in page
    response = as_user(other_player).post(reverse("games:again", args=[old.pk]))
    assert response.url == rematch.get_absolute_url()
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ACTIVE


def test_strangers_get_no_offer_and_a_403(player, other_player, stranger):
    old = finished(player, other_player)
    response = as_user(stranger).post(reverse("games:again", args=[old.pk]))
    assert response.status_code == 403
    assert "Only the players" in response.content.decode()
    assert as_user(stranger).get(reverse("games:again", args=[old.pk])).status_code == 405
    assert not Game.objects.filter(rematch_of=old).exists()
