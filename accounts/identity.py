"""How names are compared: one canonical form, a look-alike skeleton, and the names nobody may take.

Pure functions (no database), so that the user model, the forms, the log-in lockout and the
migrations all read a name the same way.

- `canonical_username` is what makes two spellings one account: Unicode NFKC and case folding,
  plus the Turkish dotless i and dotted capital I, which case folding keeps apart from "i".
  PostgreSQL's UPPER() already equated them, so before this a dotless spelling logged in to the
  same account with a failure counter of its own.
- `username_skeleton` goes further and maps characters that merely look alike (Cyrillic and Greek
  letters, 0/o, 1/l/i, "rn"/"m") to one form: a new name whose skeleton is taken is refused, so
  nobody can pose as "alice" with a Cyrillic "a".
"""

from __future__ import annotations

import re
import unicodedata

# Look-alikes, after NFKC and case folding, by the letter they pass for. Small on purpose: the
# common look-alikes from Cyrillic and Greek (written as escapes, to be readable here), and the
# digits and signs people swap in to fake a name. "i" itself reads as "l".
_LOOKALIKES = {
    "a": "\u0430\u03b1\u0251",  # Cyrillic a, Greek alpha, Latin alpha
    "b": "\u0432\u044c\u03b2",  # Cyrillic ve, soft sign, Greek beta
    "c": "\u0441",  # Cyrillic es
    "d": "\u0501",  # Cyrillic komi de
    "e": "\u0435\u0451\u03b5",  # Cyrillic ie, io, Greek epsilon
    "g": "\u0261",  # Latin script g
    "h": "\u04bb\u043d",  # Cyrillic shha, en
    "j": "\u0458",  # Cyrillic je
    "k": "\u043a\u03ba",  # Cyrillic ka, Greek kappa
    "l": "1i|\u0456\u0457\u03b9",  # digit one, i, bar, Cyrillic i, yi, Greek iota
    "m": "\u043c",  # Cyrillic em
    "n": "\u03b7",  # Greek eta
    "o": "0\u043e\u03bf",  # digit zero, Cyrillic o, Greek omicron
    "p": "\u0440\u03c1",  # Cyrillic er, Greek rho
    "q": "\u051b",  # Cyrillic qa
    "s": "5$\u0455",  # digit five, dollar, Cyrillic dze
    "t": "\u0442\u03c4",  # Cyrillic te, Greek tau
    "u": "\u03c5",  # Greek upsilon
    "v": "\u03bd",  # Greek nu
    "w": "\u051d\u03c9",  # Cyrillic we, Greek omega
    "x": "\u0445\u03c7",  # Cyrillic ha, Greek chi
    "y": "\u0443",  # Cyrillic u
    "-": "_.",  # separators read alike
}
CONFUSABLES = str.maketrans({char: latin for latin, chars in _LOOKALIKES.items() for char in chars})
MULTI_CONFUSABLES = (("rn", "m"), ("vv", "w"), ("cl", "d"))

# Names that would pass for the site or its staff, in skeleton form: refused if the name contains
# one of the first, or is exactly one of the second.
_SITE_WORDS_CONTAINED = ("admin", "harmonies", "moderator", "official", "support", "libellud")
_SITE_WORDS_EXACT = (
    "staff",
    "system",
    "root",
    "mod",
    "help",
    "security",
    "webmaster",
    "postmaster",
    "hostmaster",
    "noreply",
    "no-reply",
    "abuse",
    "team",
    "anonymous",
    "null",
    "none",
    "everyone",
)
_BOT_LEVEL_WORDS = ("easy", "medium", "hard")


def canonical_username(name: str) -> str:
    """The one spelling of a username that sign-up, log-in and the lockout compare."""
    text = unicodedata.normalize("NFKC", str(name or "")).strip().casefold()
    # Case folding leaves the dotless i alone and turns the dotted capital I into "i" + a
    # combining dot above.
    text = text.replace("\u0131", "i").replace("i\u0307", "i")
    return unicodedata.normalize("NFKC", text)


def username_skeleton(name: str) -> str:
    """What a name looks like: two names with one skeleton are too easy to mistake."""
    text = canonical_username(name)
    # Drop marks ("é" reads as "e") and then map look-alikes.
    text = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
    for many, one in MULTI_CONFUSABLES:
        text = text.replace(many, one)
    return text.translate(CONFUSABLES)


def _skeletons(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(username_skeleton(word) for word in words)


_BOT_SKELETON = username_skeleton("bot")
_BOT_WORD = re.compile(rf"(^|[^a-z]){_BOT_SKELETON}([^a-z]|$)")
_BOT_LEVELS = re.compile(
    "|".join(
        rf"{_BOT_SKELETON}-?{level}|{level}-?{_BOT_SKELETON}"
        for level in _skeletons(_BOT_LEVEL_WORDS)
    )
)
_SITE_CONTAINED = _skeletons(_SITE_WORDS_CONTAINED)
_SITE_EXACT = set(_skeletons(_SITE_WORDS_EXACT))


def imitates_bot(name: str) -> bool:
    """Whether a name reads as a computer opponent's ("bot-hard-1", "B0T_easy", "Bot7")."""
    skeleton = username_skeleton(name)
    squeezed = re.sub(r"[^a-z]", "", skeleton)
    # "bot" as a word of its own, or followed by digits ("bot7", "bot1" whose skeleton is "botl").
    digits = re.sub(r"[^a-z0-9-]", "-", canonical_username(name).replace("0", "o"))
    return bool(
        _BOT_WORD.search(skeleton)
        or re.search(r"(^|[^a-z])bot([^a-z]|$)", digits)
        or _BOT_LEVELS.search(squeezed)
    )


def imitates_site(name: str) -> bool:
    """Whether a name would pass for the site or its staff ("admin", "Harmonies-Support")."""
    skeleton = username_skeleton(name)
    squeezed = skeleton.replace("-", "")
    return (
        squeezed in _SITE_EXACT
        or skeleton in _SITE_EXACT
        or any(word in squeezed for word in _SITE_CONTAINED)
    )


# Line and paragraph separators, control and format characters (bidi overrides, zero-width).
_FORBIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def has_control_characters(text: str) -> bool:
    """Whether a text holds characters that break lines or reorder what readers see."""
    return any(unicodedata.category(c) in _FORBIDDEN_CATEGORIES for c in text)


# Mail providers that ignore dots in the local part, and the domain each is another name of.
_DOTLESS_DOMAINS = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def normalised_email(address: str) -> str:
    """One mailbox's one spelling, so that sock puppets sharing it can be told apart from people.

    Lower case; a "+tag" in the local part dropped for every domain (most providers deliver
    `me+1@` to `me@`); dots in the local part dropped for Gmail, where `m.e@` is `me@`, and
    googlemail.com read as gmail.com. Only for comparing addresses: mail still goes to the
    address as the player typed it.
    """
    local, at, domain = str(address or "").strip().lower().rpartition("@")
    if not at:
        return domain  # not an address: compared as written
    local = local.partition("+")[0]
    if domain in _DOTLESS_DOMAINS:
        domain = _DOTLESS_DOMAINS[domain]
        local = local.replace(".", "")
    return f"{local}@{domain}"
