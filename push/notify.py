"""What the rest of the site calls to have players' devices notified; each call queues a push
task (after the current transaction commits) when Web Push is configured, and never raises."""

from games.queue import enqueue
from push.sender import enabled


def turn_started(game_id: int, turn: int) -> None:
    """The player to move on `turn` gets "your turn" (unless looking at the game, or away)."""
    if enabled():
        enqueue("push.push_turn", game_id, turn)


def game_finished(game_id: int) -> None:
    """Every player of a finalized game gets their place and score."""
    if enabled():
        enqueue("push.push_game_over", game_id)


def message_posted(game_id: int, message_id: int, author_id: int, text: str) -> None:
    """A message at the table: the game's other seated players get it, once per message. Meant
    for the table-talk signal that fires on commit; the text is shortened for the notification."""
    if enabled():
        enqueue("push.push_message", game_id, message_id, author_id, text[:1000])
