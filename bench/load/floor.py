"""The floor of the load bench: the least any logged-in page does.

The bench reports each scenario's server CPU as a multiple of this view's, measured in the same
run by the same workers, so the figures hold from one day (or machine) to the next while absolute
milliseconds do not. It does what every logged-in page must: the middleware reads the session
and the user, one small query runs (the navigation's count of games waiting for this player, as
on every page), and a small template of its own renders (a stylesheet, a link, the CSRF token of
the log-out form). Served only under bench/load/settings.py.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.context_processors import waiting_count


@login_required
def floor(request: HttpRequest) -> HttpResponse:
    return render(request, "bench/floor.html", {"waiting": waiting_count(request.user)})
