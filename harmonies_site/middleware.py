"""Requests the database could never answer are refused before any view sees them."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest


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
