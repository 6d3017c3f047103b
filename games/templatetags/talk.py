"""The table talk's one filter: a message as HTML, escaped, with its web addresses as links."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Only http(s) addresses become links: no javascript:, data: or mailto:. The address ends at a
# space or at a character that cannot be in one unescaped.
_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
# Punctuation that ends a sentence rather than the address: "see https://x.org/a." links /a.
_TRAILING = ".,;:!?)]}'\""


def _split_trailing(url: str) -> tuple[str, str]:
    end = len(url)
    while end and url[end - 1] in _TRAILING:
        # Keep a closing parenthesis that closes one opened in the address (Wikipedia titles).
        if url[end - 1] == ")" and url[:end].count("(") >= url[:end].count(")"):
            break
        end -= 1
    return url[:end], url[end:]


@register.filter(is_safe=True)
def talk_text(text: str) -> SafeString:
    """Every character escaped; http(s) addresses wrapped in links that do not pass the page's
    rank or a handle on it to the site they open."""
    parts, last = [], 0
    for match in _URL.finditer(text):
        url, rest = _split_trailing(match.group(0))
        if not url.split("://", 1)[1]:
            continue  # a bare "https://" is text
        parts.append(escape(text[last : match.start()]))
        href = escape(url)
        parts.append(f'<a href="{href}" rel="nofollow noopener" target="_blank">{href}</a>')
        parts.append(escape(rest))
        last = match.end()
    parts.append(escape(text[last:]))
    return mark_safe("".join(parts))
