"""Every email the site sends about games: three templates per kind and a two-line function.

Templates are `templates/emails/<kind>_subject.txt`, `_body.txt` and `_body.html`. Times are shown
in the recipient's time zone, words in the recipient's language (`accounts.language.speaking`:
the callers build their context inside it too), and each email carries a one-click unsubscribe
link for its kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from email.mime.image import MIMEImage
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from accounts import unsubscribe
from accounts.language import speaking
from accounts.models import User

if TYPE_CHECKING:
    from games.mail.pictures import Picture


def send(
    kind: str, user: User, ctx: dict[str, Any], *, unsubscribe_kind: str | None = None
) -> None:
    """Render and send the three templates of `kind`; the unsubscribe link stops
    `unsubscribe_kind` (the preference this email follows), by default `kind` itself.
    The context's `pictures` (games.mail.pictures.Picture) travel inline with the HTML part,
    shown by `<img src="cid:...">`; the text part keeps the words."""
    pictures: Sequence[Picture] = ctx.get("pictures", ())
    unsubscribe_url = unsubscribe.url_for(user, unsubscribe_kind or kind)
    ctx = {
        **ctx,
        "user": user,
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
        "unsubscribe_url": unsubscribe_url,
        "preferences_url": settings.SITE_URL + reverse("profile") + "#emails",
    }
    with speaking(user), timezone.override(user.tzinfo):
        ctx = with_title(ctx)
        subject = " ".join(render_to_string(f"emails/{kind}_subject.txt", ctx).split())
        text = render_to_string(f"emails/{kind}_body.txt", ctx)
        html = render_to_string(f"emails/{kind}_body.html", ctx)
    headers = {
        "List-Unsubscribe": f"<{unsubscribe_url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    message = EmailMultiAlternatives(subject, text, to=[user.email], headers=headers)
    message.attach_alternative(html, "text/html")
    if pictures:
        # multipart/related around the alternatives, so clients show the images in the HTML
        # part instead of listing them as attachments.
        message.mixed_subtype = "related"
        for picture in pictures:
            image = MIMEImage(picture.png, "png")
            image.add_header("Content-ID", f"<{picture.cid}>")
            image.add_header("Content-Disposition", "inline", filename=f"{picture.cid}.png")
            message.attach(image)
    message.send()


def with_title(ctx: dict[str, Any]) -> dict[str, Any]:
    """`title_html`: the game's title in bold, for the HTML part, so that the text and HTML parts
    share each sentence to translate ("Your game %(title)s is over")."""
    game = ctx.get("game")
    if game is None or "title_html" in ctx:
        return ctx
    return {**ctx, "title_html": format_html("<strong>{}</strong>", game.title)}


def turn(user: User, ctx: dict[str, Any]) -> None:
    send("turn", user, ctx)


def reminder(user: User, ctx: dict[str, Any]) -> None:
    send("reminder", user, ctx)


def digest(user: User, ctx: dict[str, Any]) -> None:
    send("digest", user, ctx)


def game_over(user: User, ctx: dict[str, Any]) -> None:
    send("game_over", user, ctx)


def timeout(user: User, ctx: dict[str, Any]) -> None:
    # Part of the turn emails: the same switch turns both off.
    send("timeout", user, ctx, unsubscribe_kind="turn")
