"""Site-wide error views that need more than a template."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused form in the site's own words (Django's default page is for developers)."""
    return render(request, "403_csrf.html", status=403)
