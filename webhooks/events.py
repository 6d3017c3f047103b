"""Which hooks hear which event, each recorded once as a Delivery with the body it will post.

- Your turn: a table's hook hears every turn, naming the player; a player's own hook hears only
  their own turns, and not while they look at the game or are away (as their turn email waits:
  the missed-turn sweep and their return ask again, and nothing was recorded meanwhile).
- A message: only a table's hook, which every seat is shown on the page; never one by a player
  the hook's owner has blocked, nor one deleted or hidden before it went.
- Game over: the table's hook and every player's own hook, with the final boards as pictures
  (none while the game's deal of the week is open: its board would give the deal away).

No event of a guided first game, of a bot's turn, or of a turn played for an absent player goes
anywhere. Recording is idempotent (a unique row per hook and event), so a task or sweep that runs
again queues nothing new; a row that no worker ever took (the broker was down) is queued again.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.blocks import has_blocked
from accounts.models import User
from games import presence
from games.models import Game, Message, Seat
from games.narration import end_words, round_of
from games.services import is_automatic
from webhooks import payloads, pictures
from webhooks.models import Delivery, Webhook
from webhooks.payloads import Event, Picture

# A delivery recorded this long ago and never taken by a worker was lost with its queueing.
LOST_AFTER = timedelta(minutes=15)
# Deliveries are kept this long for the record (and against a late second announcement).
KEEP = timedelta(days=14)


def _untouched(game: Game) -> bool:
    return getattr(game, "guided", False)


def record(hook: Webhook, key: str, event: Event) -> int | None:
    """The id of a new delivery of `event` to `hook` (to be queued), or None if it was recorded
    before; a lost one is handed out again."""
    try:
        with transaction.atomic():
            delivery = Delivery.objects.create(
                hook=hook, key=key, payload=payloads.render(hook.kind, event)
            )
        return delivery.pk
    except IntegrityError:
        lost = Delivery.objects.filter(
            hook=hook,
            key=key,
            status=Delivery.Status.PENDING,
            attempts=0,
            claimed_at__isnull=True,
            created_at__lt=timezone.now() - LOST_AFTER,
        )
        return lost.values_list("pk", flat=True).first()


def _table_hook(game: Game) -> Webhook | None:
    hook = Webhook.objects.filter(game=game).select_related("owner").first()
    return hook if hook is not None and hook.owner.reachable else None


def _own_hooks(user_ids: list[int]) -> list[Webhook]:
    return list(
        Webhook.objects.filter(game__isnull=True, owner_id__in=user_ids)
        .select_related("owner")
        .order_by("pk")
    )


def _seat_names(seats: list[Seat]) -> list[dict]:
    return [{"name": s.user.public_name, "position": s.position} for s in seats]


# --- Your turn ------------------------------------------------------------------------------------


def announce_turn(game_id: int, turn: int) -> list[int]:
    """Deliveries of "whose turn it is" for the engine's turn `turn`."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is None or _untouched(game) or game.solo or game.engine_state().turn != turn:
        return []  # over, solo or already played: the news would be stale
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.position)
    seat = next(s for s in seats if s.position == game.current_seat)
    if is_automatic(seat):
        return []  # a bot's turn, or one played for a player who left
    name, title = seat.user.public_name, game.title
    round_number = round_of(turn + 1, game.players)
    values = {
        "game": payloads.game_values(game),
        "players": _seat_names(seats),
        "to_move": name,
        "round": round_number,
    }
    key = f"turn:{game.pk}:{turn}"
    made = []
    table = _table_hook(game)
    if table is not None:
        event = Event(
            event="turn",
            title=f"{name}'s turn in {title}",
            text=f"Round {round_number}: it is {name}'s turn.",
            **values,
        )
        made.append(record(table, key, event))
    user = seat.user
    own = _own_hooks([user.pk]) if user.reachable else []
    if own and not _waiting_for(user, game):
        event = Event(
            event="turn",
            title=f"Your turn in {title}",
            text=f"Round {round_number}: it is your turn, {name}.",
            **values,
        )
        made += [record(hook, key, event) for hook in own]
    return [pk for pk in made if pk]


def _waiting_for(user: User, game: Game) -> bool:
    """The player's own news waits while they are away or looking at the game."""
    return user.is_away_at(timezone.now()) or presence.is_looking(game.pk, user.pk)


# --- Table talk -----------------------------------------------------------------------------------


def announce_message(message_id: int) -> list[int]:
    """The delivery of one message at the table to the table's hook, if it may hear it."""
    message = (
        Message.objects.filter(pk=message_id, deleted_at__isnull=True, hidden_by_staff=False)
        .select_related("game", "author")
        .first()
    )
    if message is None or message.author is None or _untouched(message.game):
        return []
    game = message.game
    hook = _table_hook(game)
    if hook is None or has_blocked(hook.owner, message.author):
        return []  # what a block hides from the owner never goes through their hook
    author = message.author.public_name
    event = Event(
        event="message",
        title=f"{author} in {game.title}",
        text=message.text,
        game=payloads.game_values(game),
        message={"author": author, "text": message.text},
    )
    pk = record(hook, f"message:{message.pk}", event)
    return [pk] if pk else []


# --- Game over ------------------------------------------------------------------------------------


def announce_game_over(game_id: int) -> list[int]:
    """Deliveries of a finalized game's result, with every final board, to the table's hook and
    each player's own hooks."""
    game = Game.objects.finalized().filter(pk=game_id).first()
    if game is None or _untouched(game):
        return []
    prune()
    seats = sorted(game.seats.select_related("user"), key=lambda s: (s.rank or 99, s.position))
    ranking = [
        f"{s.rank}. {s.user.public_name}: {s.final_score} point{'' if s.final_score == 1 else 's'}"
        for s in seats
    ]
    event = Event(
        event="game_over",
        title=f"Game over: {game.title}",
        text=" ".join([end_words(game, seats), *[line + "." for line in ranking]]),
        game=payloads.game_values(game),
        players=[
            {
                "name": s.user.public_name,
                "position": s.position,
                "rank": s.rank,
                "score": s.final_score,
            }
            for s in seats
        ],
        boards=[]
        if pictures.kept_secret(game)
        else [
            Picture(
                player=s.user.public_name,
                image_url=pictures.board_url(game.pk, s.position),
                alt=f"{s.user.public_name}'s final board, {s.final_score} points",
            )
            for s in sorted(seats, key=lambda s: s.position)
        ],
    )
    key = f"over:{game.pk}"
    hooks = []
    table = _table_hook(game)
    if table is not None:
        hooks.append(table)
    people = [s.user_id for s in seats if s.user.reachable]
    hooks += _own_hooks(people)
    made = [record(hook, key, event) for hook in hooks]
    return [pk for pk in made if pk]


def prune() -> int:
    """Forget deliveries old enough that no task or sweep will announce their event again."""
    deleted, _ = Delivery.objects.filter(created_at__lt=timezone.now() - KEEP).delete()
    return deleted
