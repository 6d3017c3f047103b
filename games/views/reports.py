"""Report a line of table talk, a player or a display name to staff.

GET: the form (a page of its own without JavaScript; with htmx, its partial in the page the
"Report" link is on). POST: the report, through games.services.reports, which refuses in words
and stores nothing on bad input. Reports count against reports.RATE per player.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.ratelimits import limited
from games.services import Conflict, GameError, reports
from games.services.reports import Target
from games.views.common import refuse

PAGE = "reports/report.html"
TOO_MANY = (
    "You have sent many reports in a short time: please wait an hour, then send this one again."
)
DRAFT_BACK = 4 * reports.WORDS_MAX  # what is offered back of a refused text, at most


@login_required
@require_http_methods(["GET", "POST"])
def report(request: HttpRequest, kind: str, target_id: int) -> HttpResponse:
    if request.method == "POST" and limited(request, "games.report", "user", reports.RATE):
        return refuse(request, TOO_MANY, 429)
    try:
        target = reports.target_of(reporter=request.user, kind=kind, target_id=target_id)
        if reports.already_reported(request.user, target):
            raise Conflict(reports.ALREADY)
    except GameError as exc:
        return refuse(request, exc.message, exc.status)
    if request.method != "POST":
        return _form(request, target)
    reason, words = request.POST.get("reason", ""), request.POST.get("words", "")
    try:
        reports.file_report(
            reporter=request.user, kind=kind, target_id=target_id, reason=reason, words=words
        )
    except reports.ReportRefused as exc:  # the form is still right to show: say what to change
        return _form(request, target, error=exc.message, reason=reason, words=words, status=400)
    except GameError as exc:
        return refuse(request, exc.message, exc.status)
    if request.htmx:
        return render(request, f"{PAGE}#report-thanks", {"thanks": reports.THANKS})
    messages.success(request, reports.THANKS)
    return redirect(target.back)


def _form(
    request: HttpRequest,
    target: Target,
    *,
    error: str = "",
    reason: str = "",
    words: str = "",
    status: int = 200,
) -> HttpResponse:
    # A refused text is offered back to be corrected, but not at any length (a forged 2 MB post
    # is not echoed) and without its control characters.
    words = "".join(c for c in words[:DRAFT_BACK] if c.isprintable() or c in "\n\t")
    context = {
        "target": target,
        "error": error,
        "reason": reason,
        "words": words,
        "words_max": reports.WORDS_MAX,
    }
    name = f"{PAGE}#report-form" if request.htmx else PAGE
    return render(request, name, context, status=status)
