"""What django-axes counts failed log-ins against: the canonical username, and the address.

Log-in finds an account by its canonical username (`accounts.identity`), so the lockout must count
every spelling of it as one account: counted apart, "ALICE" or a spelling with a dotless i each
had five fresh tries, and a locked account could still be entered under another spelling.

Two limits: AXES_FAILURE_LIMIT failures for one account from one address, and
AXES_ADDRESS_FAILURE_LIMIT failures from one address whatever the account, so that spraying many
usernames from one place is refused too. A locked-out request is refused by the axes backend,
first in AUTHENTICATION_BACKENDS, before any password is hashed: failed log-ins cost the site no
more than a successful one.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest

from .identity import canonical_username


def lockout_username(request: HttpRequest, credentials: dict | None = None) -> str:
    """The canonical form of the username the log-in form was given."""
    given = (credentials or {}).get("username")
    if given is None:
        given = getattr(request, "POST", {}).get("username", "")
    return canonical_username(str(given or ""))


class AccountAndAddressHandler(AxesDatabaseHandler):
    """Axes' database handler with a separate, larger limit for the address alone.

    Axes compares every lockout parameter set against one AXES_FAILURE_LIMIT; here the failures of
    the (username, address) pair are counted as they are, and the address's failures count as a
    lockout once they reach AXES_ADDRESS_FAILURE_LIMIT. AXES_LOCKOUT_PARAMETERS lists the pair
    first and the address second.
    """

    def get_failures(self, request, credentials: dict | None = None) -> int:
        pair, address = (
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        if address >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            return max(pair, settings.AXES_FAILURE_LIMIT)
        return pair

    def reset_user_attempts(self, request, credentials: dict | None = None) -> int:
        """On a successful log-in, forget that account's failures only, not the address's.

        Otherwise whoever sprays usernames from one address could clear the address's count by
        logging in to an account of their own between rounds.
        """
        pair = self.filter_user_attempts(request, credentials)[0]
        count, _ = pair.delete()
        return count
