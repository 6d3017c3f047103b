"""The rules page: public, the same for every visitor, and kept by browsers and shared caches."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from games.presenters.rules import rules_page

# The page changes only with a deployment: an hour in a cache is a fair wait for new words.
MAX_AGE = 60 * 60


@require_safe
@cache_control(public=True, max_age=MAX_AGE)
def rules(request: HttpRequest) -> HttpResponse:
    """How to play, for a friend who arrives from an invitation and has never played.

    A visitor's copy carries no CSRF token (the page has no form for them), so it sets no cookie
    and one copy serves every visitor; a player's copy has the header's log-out form and is made
    private by harmonies_site.middleware.PrivatePagesMiddleware, like every page they see."""
    context = dict(rules_page())
    if not request.user.is_authenticated:
        context["csrf_token"] = ""
    response = render(request, "games/rules.html", context)
    # One copy per language: the browser's, or the language cookie a `?lang=` switch set.
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
