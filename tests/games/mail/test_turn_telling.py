"""In games of three and four, the turn email tells every turn since the player's own last one, in
the order played, and its pictures mark what is new on each board shown."""

import pytest
from django.core import mail

from games import engine, tasks
from games.mail import pictures as mail_pictures
from games.models import Board
from games.narration import describe
from games.services import create_game
from games.services.bots import bots_for
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move
from tests.games.mail.test_pictures import decode_png, inline_images

pytestmark = pytest.mark.django_db


@pytest.fixture
def dave(db):
    return UserFactory(username="dave", display_name="Dave")


def movers(game, turns: int) -> list:
    """Plays `turns` turns, returning who played each, in order."""
    played = []
    for _ in range(turns):
        played.append(user_to_move(game))
        play_turns(game, turns=1)
    return played


def turn_email_to(user):
    (message,) = [m for m in mail.outbox if m.to == [user.email] and "your turn" in m.subject]
    return message


def cells_changed(before: dict | None, after: dict) -> set[str]:
    names = engine.geometry("A").names
    then = before["stacks"] if before else [[] for _ in after["stacks"]]
    return {names[i] for i, stack in enumerate(after["stacks"]) if stack != then[i]}


def board(game, user, turn):
    position = game.seats.get(user=user).position
    return Board.objects.get(game=game, position=position, turn=turn).player


def test_the_third_player_hears_both_turns_in_the_order_they_were_played(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, carol)
    with django_capture_on_commit_callbacks(execute=True):
        first, second = movers(game, 2)
    third = user_to_move(game)
    game.refresh_from_db()
    message = turn_email_to(third)
    a, b = first.public_name, second.public_name
    assert message.subject == f"{a} and {b} have played: your turn in {game.title}"
    body = message.body
    assert f"Since your last turn in {game.title}" in body
    sentences = {
        user: [describe(m.action, m.detail, user.public_name) for m in game.moves.filter(turn=t)]
        for t, user in enumerate((first, second))
    }
    positions = [body.index(s) for s in (f"{a}'s turn:", *sentences[first], f"{b}'s turn:")]
    positions += [body.index(s, positions[-1]) for s in sentences[second]]
    assert positions == sorted(positions)  # Alice's turn, then Bob's, each in its own moves
    html = message.alternatives[0][0]
    assert html.index(f"<strong>{a}</strong>'s turn") < html.index(f"<strong>{b}</strong>'s turn")


def test_the_pictures_show_your_board_then_each_board_that_changed_with_what_is_new_marked(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, carol)
    with django_capture_on_commit_callbacks(execute=True):
        played = movers(game, 4)  # the 4th turn is the first player's second
    second = user_to_move(game)  # their last turn was turn 1
    assert second == played[1]
    message = turn_email_to(second)
    html = message.alternatives[0][0]
    (_, mine), (_, thirds), (_, firsts) = inline_images(message)
    # The third player's first turn: all of it new. The first player's: only their second turn.
    third_board, first_board = board(game, played[2], 2), board(game, played[3], 3)
    assert thirds == mail_pictures.board_png("A", third_board, cells_changed(None, third_board))
    new = cells_changed(board(game, played[0], 0), first_board)
    assert new and new != cells_changed(None, first_board)
    assert firsts == mail_pictures.board_png("A", first_board, new)
    assert mine == mail_pictures.board_png("A", board(game, second, 1))  # as you left it
    alts = [f"{p.public_name}&#x27;s board after their turn" for p in (played[2], played[3])]
    assert html.index("Your board, as you left it") < html.index(alts[0]) < html.index(alts[1])
    assert html.count("New since your last turn, outlined in gold") == 2


def test_in_a_game_of_four_the_email_stays_a_reasonable_size(
    player, other_player, carol, dave, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, carol, dave)
    play_turns(game, turns=4 * 5 - 1)  # late in the game: boards well filled
    with django_capture_on_commit_callbacks(execute=True):
        played = movers(game, 3)
    message = turn_email_to(user_to_move(game))
    images = inline_images(message)
    assert len(images) == 4  # yours, and the three who played since
    for _, png in images:
        assert decode_png(png)[:2] == (600, 648)
    # About 35 kB a board, plus a third for base64: the whole email well under 250 kB.
    assert len(message.message().as_bytes()) < 250_000
    for user in played:
        assert f"{user.public_name}'s turn:" in message.body


def test_against_two_bots_the_player_hears_both_bots_turns(
    player, django_capture_on_commit_callbacks
):
    bots = bots_for(["easy", "easy"])
    with django_capture_on_commit_callbacks(execute=True):
        game = create_game(creator=player, players=3, side="A", spirits=False, bots=bots)
    while user_to_move(game) != player:
        tasks.play_automatic_turn(game.pk, game.engine_state().turn)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=1)
        for _ in range(2):
            tasks.play_automatic_turn(game.pk, game.engine_state().turn)
    game.refresh_from_db()
    message = turn_email_to(player)
    names = [s.user.public_name for s in game.seats.order_by("position") if s.user != player]
    assert "have played: your turn in" in message.subject
    for name in names:
        assert f"{name}'s turn:" in message.body
