"""Site-wide error views that need more than a template, and the CSP violation reports."""

import json
import logging

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

logger = logging.getLogger("harmonies_site.csp")

REPORT_MAX_BYTES = 10_000  # a real report is well under 1 KB; anything larger is not read


def refusal_fragment(message: str, status: int) -> HttpResponse:
    """A refusal for htmx, which inserts what it receives as HTML: the message escaped, in the
    same paragraph the pages use for a refusal, never the raw text (it may echo a forged input)."""
    html = format_html('<p class="message message-error" role="alert">{}</p>', message)
    return HttpResponse(html, status=status, content_type="text/html; charset=utf-8")


def _from_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused form in the site's own words (Django's default page is for developers)."""
    if _from_htmx(request):
        return refusal_fragment(
            _(
                "Please try again: this form was sent from a page that is too old, or from "
                "another site, so nothing was changed. Reload the page and try once more."
            ),
            403,
        )
    return render(request, "403_csrf.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 page, or for htmx (which swaps a refusal into the page) a fragment."""
    if _from_htmx(request):
        return refusal_fragment(_("Nothing here: this does not exist, or no longer does."), 404)
    return defaults.page_not_found(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 403 page, or for htmx a fragment."""
    if _from_htmx(request):
        return refusal_fragment(_("Not allowed: you do not have access to this page."), 403)
    return defaults.permission_denied(request, exception)


def _text(value: object, limit: int) -> str:
    """A report field as logged: browsers send strings; anything else (a forged nested list,
    whose str() would recurse as deep as it is nested) is logged as nothing. At most `limit`
    characters, and logged with %r: a line break or another control character in a forged
    report shows escaped ('\\n'), so it cannot start a log line of its own."""
    return value[:limit] if isinstance(value, str) else ""


@csrf_exempt  # browsers send reports without cookies or tokens
@require_POST
def csp_report(request: HttpRequest) -> HttpResponse:
    """Logs a browser's Content-Security-Policy violation report, so a page that breaks the
    policy in production shows in the logs. Junk is answered 400 in words and logged nowhere."""
    if len(request.body) > REPORT_MAX_BYTES:  # Django refuses bodies over 2.5 MB before this
        return HttpResponse("This report is too large.", status=413, content_type="text/plain")
    try:
        report = json.loads(request.body or b"null")["csp-report"]
        blocked = _text(report.get("blocked-uri"), 200)
        directive = _text(report.get("violated-directive"), 100)
        page = _text(report.get("document-uri"), 200)
    # RecursionError: a body of 10,000 nested brackets is small but too deep for the decoder.
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return HttpResponse(
            "This is not a CSP violation report.", status=400, content_type="text/plain"
        )
    logger.warning("CSP violation on %r: %r blocked %r", page, directive, blocked)
    return HttpResponse(status=204)
