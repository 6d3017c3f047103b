"""The engine's words in the reader's language, without the engine knowing of Django.

The engine writes English and marks every phrase a player reads: `_("...")`, `ngettext(...)`,
`pgettext(context, "...")`, and `gettext_noop("...")` for a constant translated where it is used.
Alone (a script, a test, a bot), the engine reads English. The site installs Django's translation
functions at start-up (games.apps), so each phrase comes out in the language active for the
request or the email; `manage.py makemessages` finds the marks as it finds any other.
"""

from __future__ import annotations

from collections.abc import Callable


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _no_context(context: str, message: str) -> str:
    return message


_gettext: Callable[[str], str] = str
_ngettext: Callable[[str, str, int], str] = _english_plural
_pgettext: Callable[[str, str], str] = _no_context


def install(
    gettext: Callable[[str], str],
    ngettext: Callable[[str, str, int], str],
    pgettext: Callable[[str, str], str],
) -> None:
    """Route the engine's words through a translator (the site's, at start-up)."""
    global _gettext, _ngettext, _pgettext
    _gettext, _ngettext, _pgettext = gettext, ngettext, pgettext


def _(message: str) -> str:
    """`message` in the reader's language."""
    return _gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a phrase for `n` in the reader's language (languages count differently)."""
    return _ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the reader's language, where one English word has two meanings."""
    return _pgettext(context, message)


def gettext_noop(message: str) -> str:
    """Marks a constant for translation; `_()` translates it where it is shown."""
    return message
