"""What django-axes counts failed log-ins against: the canonical username, and the address.

Log-in finds an account by its canonical username (`accounts.identity`), so the lockout must count
every spelling of it as one account: counted apart, "ALICE" or a spelling with a dotless i each
had five fresh tries, and a locked account could still be entered under another spelling.

Two limits, of different strength:

- AXES_FAILURE_LIMIT failures for one account from one address lock that pair out. A locked pair
  is refused by the axes backend, first in AUTHENTICATION_BACKENDS, before any password is hashed,
  even the right one.
- AXES_ADDRESS_FAILURE_LIMIT failures from one address, whatever the accounts, throttle the
  address: its wrong passwords are refused with the lockout page, but the password is still
  checked, and a right one logs in. Behind a proxy (or a school's, an office's network) many
  players share one address, and refusing them all because someone sprayed usernames from there
  locked the whole site out.

A throttled attempt costs one password hash, as any log-in does; only a locked pair skips it.
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

    Axes compares every lockout parameter set against one AXES_FAILURE_LIMIT, and asks the same
    `get_failures` before the password is checked (`is_locked`, from the backend) and after it
    was found wrong (`user_login_failed`). Here the first asks about the (username, address)
    pair only, and the second also counts the address's failures as a lockout once they reach
    AXES_ADDRESS_FAILURE_LIMIT. AXES_LOCKOUT_PARAMETERS lists the pair first and the address
    second.
    """

    def _pair_and_address_failures(
        self, request: HttpRequest, credentials: dict | None
    ) -> tuple[int, int]:
        pair, address = (
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        return pair, address

    def is_locked(self, request: HttpRequest, credentials: dict | None = None) -> bool:
        """Before any password is hashed: refused only when this account is locked from here."""
        if not settings.AXES_LOCK_OUT_AT_FAILURE:
            return False
        pair, _address = self._pair_and_address_failures(request, credentials)
        return pair >= settings.AXES_FAILURE_LIMIT

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        """After a wrong password: the pair's failures, or the limit once the address is over its
        own, so that axes shows the lockout page for this wrong password (and only for it)."""
        pair, address = self._pair_and_address_failures(request, credentials)
        if pair < settings.AXES_FAILURE_LIMIT and address >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            # The lockout page says that the right password still works from here.
            request.login_throttled_by_address = True
            return settings.AXES_FAILURE_LIMIT
        return pair

    def reset_user_attempts(self, request, credentials: dict | None = None) -> int:
        """On a successful log-in, forget that account's failures only, not the address's.

        Otherwise whoever sprays usernames from one address could clear the address's count by
        logging in to an account of their own between rounds.
        """
        pair = self.filter_user_attempts(request, credentials)[0]
        count, _ = pair.delete()
        return count
