"""Table talk as stored: who may read, write and mute, which messages show, what is unread.

Talk never touches the game's `version`, so a message cannot make anyone's move stale; it bumps
`talk_version` instead, which open pages poll beside the version (games.models.versions). Who may
read: the game's players; once a public table's game is over, anyone logged in too (as for the
score sheet), and the talk says so to its players from the start. A private table's talk stays
between its players for good: they wrote it for each other, not for the site. Who may write: a
seated player who has not resigned or been dropped, while the game is in progress.

The writes are games.services.talk; what one viewer sees is games.presenters.talk. The emails
read the unread messages from here, below the writer. A player never sees the messages of those
they have blocked (accounts.blocks), wherever messages show: the page, its counts, the emails
(and Web Push, push.deliveries); the author is not told, and everyone else sees them.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, F
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.blocks import blocked_by_query, hidden_authors
from accounts.models import User
from games.models import Game, Message, Seat

MAX_LENGTH = 500
# The author may take a message back while the others have probably not read it yet.
DELETE_WINDOW = timedelta(minutes=5)
SHOWN = 100  # the newest messages on the page; older ones stay in the database
# What the page draws of a message and its author (Conversation.messages, kept in the cache).
TALK_FIELDS = (
    "game", "author", "position", "text", "created_at", "deleted_at", "hidden_by_staff",
    "author__username", "author__display_name",
)  # fmt: skip
EMAILED = 10  # the newest unread ones in an email, with a count of the rest
RATE = "10/m"  # per player, all games together

NOT_PLAYING = gettext_lazy("You are not playing in this game.")
MUTE_OVER = gettext_lazy(
    "The game is over: its table talk can no longer be muted or shown again, only read."
)
GAME_OVER = (Game.Status.FINISHED, Game.Status.CANCELLED)


def may_read(game: Game, user: User, seat: Seat | None) -> bool:
    """The players always; anyone logged in once a public table's game is over."""
    return seat is not None or (
        user.is_authenticated and game.public and game.status == Game.Status.FINISHED
    )


def readers_words(game: Game) -> str:
    """Who can read the talk, told to its players: what they write is never read by surprise."""
    if game.public:
        return _(
            "This table is public: once the game is over, anyone logged in can read this talk."
        )
    return _("Only this game's players can read this talk, also once the game is over.")


def may_post(game: Game, seat: Seat | None) -> bool:
    return seat is not None and game.status == Game.Status.ACTIVE and not seat.left


def may_mute(game: Game, seat: Seat | None) -> bool:
    """Muting is for a game still going on: once it is over no unread marks or emails come of its
    talk, so there is nothing to mute, and its players read it like anyone else."""
    return seat is not None and game.status not in GAME_OVER


def refusal_to_post(game: Game, seat: Seat | None) -> str | None:
    """Why this seat cannot write in this game's talk, in words; None when it can."""
    if seat is None:
        return NOT_PLAYING
    if game.status == Game.Status.FINISHED:
        return _("The game is over: its table talk can be read but no longer written.")
    if game.status != Game.Status.ACTIVE:
        return _("The table talk opens when the game starts.")
    if seat.left:
        return _("You left this game: you can read its table talk but not write in it.")
    return None


def visible_messages():
    """Neither deleted by their author nor hidden by staff."""
    return Message.objects.filter(deleted_at__isnull=True, hidden_by_staff=False)


def visible(game_id: int):
    return visible_messages().filter(game_id=game_id)


def shown_to(messages: list[Message], viewer_id: int | None) -> list[Message]:
    """`messages` less those by players the viewer has blocked."""
    hidden = hidden_authors(viewer_id)
    return [m for m in messages if m.author_id not in hidden] if hidden else messages


def unread_for(seat: Seat) -> tuple[list[Message], int]:
    """The messages an email to this player carries: newer than what they saw, not their own
    nor by anyone they blocked, none if they muted the game. The newest EMAILED, oldest first,
    and how many more there are."""
    if seat.talk_muted:
        return [], 0
    unread = (
        visible(seat.game_id)
        .filter(pk__gt=seat.talk_seen)
        .exclude(author_id=seat.user_id)
        .exclude(author_id__in=blocked_by_query(seat.user_id))
        .select_related("author")
        .order_by("-pk")
    )
    newest = list(unread[: EMAILED + 1])
    more = 0
    if len(newest) > EMAILED:
        more = unread.count() - EMAILED
        newest = newest[:EMAILED]
    return list(reversed(newest)), more


def unread_counts(user: User) -> dict[int, int]:
    """Unread messages per game in progress for My games, in one query (muted games: none,
    and none by players `user` blocked)."""
    rows = (
        visible_messages()
        .filter(
            # One filter() call: the seat joined is the same one for all three conditions.
            game__status=Game.Status.ACTIVE,
            game__seats__user=user,
            game__seats__talk_muted=False,
            pk__gt=F("game__seats__talk_seen"),
        )
        .exclude(author=user)
        .exclude(author_id__in=blocked_by_query(user.pk))
        .values("game_id")
        .annotate(unread=Count("pk"))
    )
    return {row["game_id"]: row["unread"] for row in rows}
