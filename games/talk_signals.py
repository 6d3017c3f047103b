"""Signals of the table talk, for features that react to it without the talk knowing them.

`message_posted` is sent once the message is committed, with `message` (a games.models.Message,
its game and author loaded as ids). Web Push, for one, can tell the other players from here.
"""

from django.dispatch import Signal

message_posted = Signal()
