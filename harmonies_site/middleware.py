"""Requests the site cannot serve are refused in words: before any view when the database could
never answer them, after the view when it answered with a bare status."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render


class RejectNulBytesMiddleware:
    """PostgreSQL cannot store or compare text with a NUL byte, so a NUL anywhere in the path or
    the query string (a forged link, a fuzzer) would reach a query and fail with a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
            return HttpResponseBadRequest("This address contains a character it cannot have.")
        if request.method == "POST" and any(
            "\x00" in value for _, values in request.POST.lists() for value in values
        ):
            return HttpResponseBadRequest("This form contains a character it cannot have.")
        return self.get_response(request)


class ExplainMethodNotAllowedMiddleware:
    """Django's require_GET and require_POST answer 405 with an empty body; say what the address
    takes instead (plain text to htmx, the site's error page to a browser). The Allow header
    stays."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        methods = response.get("Allow", "").replace(" ", "").split(",")
        allowed = [m for m in methods if m and m not in ("HEAD", "OPTIONS")]  # not for people
        message = f"This address does not take {request.method} requests"
        message += f"; it takes {' and '.join(allowed)}." if allowed else "."
        if request.headers.get("HX-Request") == "true":
            explained = HttpResponse(message, status=405, content_type="text/plain; charset=utf-8")
        else:
            if request.method == "GET" and "POST" in allowed:  # a form's address, opened as a page
                message = "This address only receives forms sent from the site's own pages."
            explained = render(request, "405.html", {"message": message}, status=405)
        explained["Allow"] = response.get("Allow", "")
        return explained
