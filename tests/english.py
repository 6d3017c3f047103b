"""Finding English left in a page or an email rendered in French or German.

A list of common English words that are not words of French or German (so not "in", "so", "was",
"will", "die", "on", "a", "points", "place", "score", "cube", "hand", "start", "see", "all"),
looked for as whole words in what a reader sees: the text, and
the attributes read aloud or shown (title, alt, aria-label, placeholder, a button's value).
Player content is not the site's: the test worlds' names and messages are left out by the caller.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

ENGLISH = frozenset(
    """
    the and your you with for from this that these those what when where which while who whose
    have has had are were been being would could should can't don't isn't won't didn't doesn't
    turn turns game games player players board boards take takes taken placed token tokens
    card cards waiting wait waits yet next play played playing sign log friend friends
    invited their they them there here only every each other others left right about before
    again back new old more less least than then tree trees mountain mountains field fields
    building buildings river islands water animals spirit spirits pouch stack empty spaces
    round rounds end ends ended over won lost win wins draw rules lesson hint review watch
    watching history leaderboard rating ratings settings password account delete send save
    saved cancel join leave open close closed finish finished yours we he she his its it's did
    does doing done make made show shows shown seen look looks find found first last one two
    three five seven ten days day hours hour week weeks month today tomorrow yesterday now
    never always because if not yes some any just how why much many few own same
    """.split()  # noqa: SIM905 (a paragraph of words reads better than a list of strings)
)
# Attributes a reader sees or hears.
READ_ATTRIBUTES = ("title", "alt", "aria-label", "placeholder", "aria-description")
# Lists of names that are not words of the site: the time zones ("America/New_York").
NAMES = ("time_zone",)
WORD = re.compile(r"[A-Za-z][A-Za-z']*")


class _Text(HTMLParser):
    """The text of a page as read: no scripts or styles; read attributes included."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("script", "style") or (tag == "select" and values.get("name") in NAMES):
            self._skip += 1
        for name in READ_ATTRIBUTES:
            if values.get(name):
                self.parts.append(values[name] or "")
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.parts.append(values["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "select") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " \n".join(part.strip() for part in parser.parts if part.strip())


def english_in(text: str, *, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Each English word of `text` with a little of what surrounds it, to find it by."""
    found = []
    for match in WORD.finditer(text):
        word = match.group().lower()
        if word in ENGLISH and word not in allowed:
            start, end = max(0, match.start() - 40), min(len(text), match.end() + 40)
            found.append(f"{match.group()!r} in …{' '.join(text[start:end].split())}…")
    return found
