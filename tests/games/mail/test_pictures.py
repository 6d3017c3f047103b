"""The boards in the turn and game-over emails: inline PNG pictures, cached, and optional."""

import logging
import re
import struct
import zlib

import pytest
from django.core import mail

from games import engine
from games.mail import pictures as mail_pictures
from games.models import Board
from tests.games.helpers import play_to_the_end, play_turns, user_to_move

pytestmark = pytest.mark.django_db


def decode_png(png: bytes) -> tuple[int, int, bytes]:
    """Width, height and raw scanlines of an 8-bit RGBA PNG, checking every chunk's CRC: the
    bytes are a picture a mail client can show, not just something with a PNG header."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, idat = 8, [], b""
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert zlib.crc32(kind + data) == crc, kind
        chunks.append((kind, data))
        idat += data if kind == b"IDAT" else b""
        at += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, colour_type = struct.unpack(">IIBB", chunks[0][1][:10])
    assert (depth, colour_type) == (8, 6)
    raw = zlib.decompress(idat)
    assert len(raw) == height * (1 + 4 * width)  # a filter byte and RGBA pixels per row
    return width, height, raw


def inline_images(message):
    """(Content-ID, PNG bytes) of the message's image parts, as a mail client receives them."""
    parsed = message.message()
    return [
        (part["Content-ID"].strip("<>"), part.get_payload(decode=True))
        for part in parsed.walk()
        if part.get_content_type() == "image/png"
    ]


def turn_email(game, django_capture_on_commit_callbacks, turns=1):
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=turns)
    (message,) = [m for m in mail.outbox if "your turn" in m.subject]
    return message


def test_a_turn_email_shows_both_boards_as_inline_pictures_of_the_right_size(
    game, django_capture_on_commit_callbacks
):
    mover = user_to_move(game)
    message = turn_email(game, django_capture_on_commit_callbacks)
    assert message.message().get_content_type() == "multipart/related"
    images = inline_images(message)
    assert len(images) == 2
    html = message.alternatives[0][0]
    for cid, png in images:
        width, height, _ = decode_png(png)
        # Side A's board is 328 x 354.41 units, drawn 600 pixels wide.
        assert (width, height) == (600, round(354.41 * 600 / 328))
        assert f'src="cid:{cid}"' in html
        assert len(png) < 60_000  # about 35 kB for a full board
    assert 'alt="Your board, as you left it"' in html
    assert f'alt="{mover.public_name}&#x27;s board after their turn"' in html
    # The text part keeps the words and mentions no picture.
    assert "cid:" not in message.body and "has ended their turn" in message.body


def placed_hexes(player: dict) -> set[str]:
    names = engine.geometry("A").names
    return {names[i] for i, stack in enumerate(player["stacks"]) if stack}


def test_the_mover_s_picture_is_their_board_after_the_turn_with_what_is_new_outlined(
    game, django_capture_on_commit_callbacks
):
    message = turn_email(game, django_capture_on_commit_callbacks)
    board = Board.objects.get(game=game, turn=0)
    (_, mine), (_, theirs) = inline_images(message)
    new = placed_hexes(board.player)  # their first turn: every token on it is new
    assert new and theirs == mail_pictures.board_png(game.side, board.player, new)
    assert theirs != mail_pictures.board_png(game.side, board.player)
    assert theirs != mine  # the recipient's board is still empty
    assert "New since your last turn, outlined in gold: 3 tokens" in message.alternatives[0][0]


def test_before_the_first_move_there_is_no_picture(game):
    seat = game.seats.get(position=game.current_seat)
    assert mail_pictures.turn_pictures(game, seat, [], []) == []  # every board is still empty


def test_each_board_state_is_drawn_once(game, monkeypatch):
    drawn = []
    render = mail_pictures._render
    monkeypatch.setattr(mail_pictures, "_render", lambda *board: drawn.append(1) or render(*board))
    board = {"side": "A", "player": game.engine_state().players[0].to_json()}
    first = mail_pictures.board_png(board["side"], board["player"])
    again = mail_pictures.board_png(board["side"], board["player"])
    assert first == again and len(drawn) == 1


def test_when_drawing_fails_the_email_goes_out_without_pictures(
    game, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    def broken(*board):
        raise ValueError("no fonts today")

    monkeypatch.setattr(mail_pictures, "_render", broken)
    with caplog.at_level(logging.ERROR, logger="games.mail.pictures"):
        message = turn_email(game, django_capture_on_commit_callbacks)
    assert inline_images(message) == [] and message.attachments == []
    assert "cid:" not in message.alternatives[0][0]
    assert "has ended their turn" in message.body
    assert "Drawing the boards of game" in caplog.text


def game_over_messages(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(game, seed=5)
    seats = {s.user.email: s for s in game.seats.select_related("user")}
    return [(seats[m.to[0]], m) for m in mail.outbox if " is over" in m.subject]


def test_game_over_emails_show_the_final_board_and_the_winner_s(
    game, django_capture_on_commit_callbacks
):
    sent = game_over_messages(game, django_capture_on_commit_callbacks)
    assert len(sent) == 2
    # The game's seed is drawn at random, so the two may tie: then the first seat is the winner.
    winner = min((seat for seat, _ in sent), key=lambda s: (s.rank, s.position))
    for seat, message in sent:
        html = message.alternatives[0][0]
        images = inline_images(message)
        assert 'alt="Your final board"' in html
        if seat == winner:
            assert len(images) == 1  # the winner sees their own board once
        else:
            assert len(images) == 2 and 'alt="The winner ' in html
        for cid, png in images:
            assert decode_png(png)[:2] == (600, 648)
            assert re.search(rf'<img src="cid:{re.escape(cid)}"', html)
