"""Where a form sends the visitor next: only a path on this site, whatever was posted."""

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def local_path(request: HttpRequest, candidate: object) -> str:
    """`candidate` if it is a path on this site ("/games/12/"), else "". A bare word ("-1",
    "x") is refused too: `redirect()` would read it as a view name and fail, and a relative
    path would land somewhere unplanned."""
    if not isinstance(candidate, str) or not candidate.startswith("/"):
        return ""
    allowed = url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return candidate if allowed else ""


def next_path(request: HttpRequest) -> str:
    """`next` from the form or the address, as `local_path` allows it."""
    return local_path(request, request.POST.get("next") or request.GET.get("next") or "")
