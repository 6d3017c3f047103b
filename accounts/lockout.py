"""The username django-axes counts failed log-ins against.

Log-in accepts a username in any case (`User.objects.get_by_natural_key` is case-insensitive), so
the lockout must count "alice", "Alice" and "ALICE" as one account: counted apart, each spelling
had its own five tries, and a locked account could still be logged into as "ALICE".
"""

from __future__ import annotations

import unicodedata

from django.http import HttpRequest


def lockout_username(request: HttpRequest, credentials: dict | None = None) -> str:
    """The username as the log-in form reads it (NFKC, stripped), case-folded."""
    given = (credentials or {}).get("username")
    if given is None:
        given = getattr(request, "POST", {}).get("username", "")
    return unicodedata.normalize("NFKC", str(given or "")).strip().casefold()
