"""Signals of the table talk, for features that react to it without the talk knowing them.

`message_posted` is sent once the message is committed (never for a refused or rolled-back one),
with `message`: the games.models.Message, with `game_id`, `author_id`, `position` and `text`.
Web Push, for one, can tell the other players from here (`Seat.talk_muted` says who muted it).
"""

from django.dispatch import Signal

message_posted = Signal()
