"""What each chat is sent: one event in words and plain values, written out as Discord (content
and embeds), Slack (text and blocks) or plain JSON (docs/webhooks.md documents its fields).

Only what every seat already sees on the page goes out: names as shown, the game's title and
address, whose turn it is, the table talk (table hooks only), final scores and boards. Never an
email address, a hand, the pouch or the deck, and nobody's words through a player's own hook.
Text is escaped for each chat's markup, and Discord is told to ping nobody, so that a name or a
message cannot mention @everyone or turn into a link.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from django.conf import settings

from games.models import Game
from webhooks.models import Webhook

SITE_NAME = "Harmonies"
# Each chat's limits (Discord: content 2000, embed title 256, description 4096, 10 embeds;
# Slack: a section's text 3000, an image's alt text 2000), well within.
TEXT_CHARS = 1500
TITLE_CHARS = 200
# Discord's limit for an embed field's value, which escaping can double (a post past it is
# refused whole): the players' line is cut to it once escaped.
FIELD_CHARS = 1024


@dataclass(frozen=True)
class Picture:
    """A board at an address the chat fetches (webhooks.pictures signs it)."""

    player: str
    image_url: str
    alt: str


@dataclass(frozen=True)
class Event:
    """One thing that happened, in words (`title`, `text`) and in values."""

    event: str  # "turn", "message", "game_over" or "test"
    title: str
    text: str
    game: dict[str, Any] | None = None  # {"id", "title", "url"}
    players: list[dict[str, Any]] = field(default_factory=list)
    to_move: str = ""
    round: int | None = None
    message: dict[str, str] | None = None  # {"author", "text"}
    boards: list[Picture] = field(default_factory=list)


def game_values(game: Game) -> dict[str, Any]:
    """The game as every payload names it: its id, title and absolute address."""
    return {"id": game.pk, "title": game.title, "url": settings.SITE_URL + game.get_absolute_url()}


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def render(kind: str, event: Event) -> dict[str, Any]:
    """The body posted to a hook of `kind`."""
    if kind == Webhook.Kind.DISCORD:
        return discord(event)
    if kind == Webhook.Kind.SLACK:
        return slack(event)
    return plain_json(event)


def plain_json(event: Event) -> dict[str, Any]:
    values = asdict(event)
    values = {key: value for key, value in values.items() if value not in (None, "", [])}
    return {"site": SITE_NAME, **values}


# --- Discord --------------------------------------------------------------------------------------

_DISCORD_MARKUP = re.compile(r"([\\*_~`|>\[\]()#@<-])")


def discord_escaped(text: str) -> str:
    """Plain text as Discord's markdown shows it: no bold, links, headings or mentions."""
    return _DISCORD_MARKUP.sub(r"\\\1", text)


def discord(event: Event) -> dict[str, Any]:
    embed: dict[str, Any] = {
        "title": _short(event.game["title"] if event.game else event.title, TITLE_CHARS),
        "description": discord_escaped(_short(event.text, TEXT_CHARS)),
    }
    if event.game:
        embed["url"] = event.game["url"]
    if event.players:
        embed["fields"] = [
            {
                "name": "Players",
                "value": _short(discord_escaped(_players_line(event)), FIELD_CHARS),
                "inline": False,
            }
        ]
    embeds = [embed]
    for index, board in enumerate(event.boards[:4]):
        if index == 0:
            embed["image"] = {"url": board.image_url}
        else:  # Discord shows embeds of one address and an image each as one gallery
            link = embed.get("url", board.image_url)
            embeds.append({"url": link, "image": {"url": board.image_url}})
    return {
        "username": SITE_NAME,
        "content": discord_escaped(_short(event.title, TITLE_CHARS)),
        "embeds": embeds,
        "allowed_mentions": {"parse": []},
    }


# --- Slack ----------------------------------------------------------------------------------------


def slack_escaped(text: str) -> str:
    """Slack's three control characters; "<!channel>" and links need them."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack(event: Event) -> dict[str, Any]:
    lines = [f"*{slack_escaped(_short(event.title, TITLE_CHARS))}*"]
    lines.append(slack_escaped(_short(event.text, TEXT_CHARS)))
    if event.players:
        lines.append("Players: " + slack_escaped(_players_line(event)))
    if event.game:
        lines.append(f"<{event.game['url']}|Open the game>")
    blocks: list[dict[str, Any]] = [
        {"type": "section", "text": {"type": "mrkdwn", "text": "\n".join(lines)}}
    ]
    for board in event.boards[:4]:
        blocks.append(
            {
                "type": "image",
                "image_url": board.image_url,
                "alt_text": _short(board.alt, 500),
                "title": {"type": "plain_text", "text": _short(board.player, 100)},
            }
        )
    return {"text": slack_escaped(_short(event.title, TITLE_CHARS)), "blocks": blocks}


def _players_line(event: Event) -> str:
    parts = []
    for player in event.players:
        if "score" in player:
            parts.append(f"{player['rank']}. {player['name']} ({player['score']} points)")
        else:
            parts.append(player["name"])
    return ", ".join(parts)


# --- The test message -----------------------------------------------------------------------------


def test(hook: Webhook) -> dict[str, Any]:
    """The body of "Send a test message" to `hook`."""
    if hook.game_id:
        scope = f"the turns, table talk and end of the game “{hook.game.title}”"
    else:
        scope = f"{hook.owner.public_name}'s turns and the ends of their games"
    event = Event(
        event="test",
        title=f"A test message from {SITE_NAME}",
        text=f"This channel is set up: it will hear {scope}.",
        game=game_values(hook.game) if hook.game_id else None,
    )
    return render(hook.kind, event)
