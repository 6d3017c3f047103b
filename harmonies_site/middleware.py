"""Requests the site cannot serve are refused in words: before any view when the database could
never answer them, after the view when it answered with a bare status."""

from collections.abc import Callable

from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from harmonies_site.views import refusal_fragment


class RejectNulBytesMiddleware:
    """PostgreSQL cannot store or compare text with a NUL byte, so a NUL anywhere in the path or
    the query string (a forged link, a fuzzer) would reach a query and fail with a 500.

    A cookie with a NUL (`sessionid="abcdefgh\\000"`: a quoted cookie may spell one in octal) is
    dropped rather than refused: the browser would send it again with every request, so a refusal
    would lock its owner out until they cleared their cookies. Without it they are a visitor."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for name, value in list(request.COOKIES.items()):
            if "\x00" in name or "\x00" in value:
                del request.COOKIES[name]
        if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
            return HttpResponseBadRequest(_("This address contains a character it cannot have."))
        if request.method == "POST" and any(
            "\x00" in value for _name, values in request.POST.lists() for value in values
        ):
            return HttpResponseBadRequest(_("This form contains a character it cannot have."))
        return self.get_response(request)


class ExplainMethodNotAllowedMiddleware:
    """Django's require_GET and require_POST answer 405 with an empty body, and so does whitenoise
    for other methods on /static/; say what the address takes instead (an escaped HTML fragment
    to htmx, the site's error page to a browser). The Allow header stays."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # whitenoise answers other methods on /static/ with an empty streamed 405 (no .content).
        if response.status_code != 405 or (not response.streaming and response.content):
            return response
        methods = response.get("Allow", "").replace(" ", "").split(",")
        allowed = [m for m in methods if m and m not in ("HEAD", "OPTIONS")]  # not for people
        if allowed:
            message = _("This address does not take %(method)s requests; it takes %(allowed)s.") % {
                "method": request.method,
                "allowed": get_text_list(allowed, _("and")),
            }
        else:
            message = _("This address does not take %(method)s requests.") % {
                "method": request.method
            }
        if request.headers.get("HX-Request") == "true":
            explained = refusal_fragment(message, status=405)
        else:
            if request.method == "GET" and "POST" in allowed:  # a form's address, opened as a page
                message = _("This address only receives forms sent from the site's own pages.")
            explained = render(request, "405.html", {"message": message}, status=405)
        explained["Allow"] = response.get("Allow", "")
        return explained


class PrivatePagesMiddleware:
    """`Cache-Control: private, no-store` on every answer to a logged-in player: a shared proxy
    or the browser's back button must not keep someone's games, hand or email address.

    Who is logged in is read from the session, and only when the view loaded it: the poll does
    not (its token names the viewer), and what it answers says nothing private. Static files
    (whitenoise answers before this) and visitors' pages keep their caching."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is not None and session.accessed and SESSION_KEY in session:
            response["Cache-Control"] = "private, no-store"
        return response


class HtmxRefusalsMiddleware:
    """A refusal in words answers htmx with 200, its status in `X-Refused-Status`.

    htmx swaps a refusal into the page like any answer (the pages' htmx-config), but the browser
    logs every 4xx as a failed request on its console, and a player's page meets ordinary
    refusals all evening ("It is not your turn", a stale page, a double click): they are answers,
    not failures. A page asked for without htmx keeps its real status, and so does an empty one
    (nothing to show). Outside the views, so the CSRF, method and NUL-byte refusals follow too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            400 <= response.status_code < 500
            and request.headers.get("HX-Request") == "true"
            and not response.streaming
            and response.content
        ):
            response[REFUSED_HEADER] = str(response.status_code)
            response.status_code = 200
        return response


REFUSED_HEADER = "X-Refused-Status"
