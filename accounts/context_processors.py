"""Show every time in the viewer's own time zone.

Done where a template is rendered rather than in a middleware, so that responses without a
template (the game poll, answered thousands of times a second) never load the session or user.
"""

from django.http import HttpRequest
from django.utils import timezone


def user_timezone(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        timezone.activate(user.tzinfo)
    else:
        timezone.deactivate()
    return {}
