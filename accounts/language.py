"""Which language a player reads: the one their profile names, else the one their browser asks for.

Visitors get Django's LocaleMiddleware (the language cookie, then Accept-Language). A member's
profile choice then wins on every device, and emails are written in it (`for_user`). `?lang=xx`
on any page is a switch: the links in an invitation email to someone without an account use it,
and for a member it is saved to the profile. An unknown code anywhere falls back to English.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

SUPPORTED = {code for code, _name in settings.LANGUAGES}


def supported(code: str | None) -> str:
    """`code` if the site speaks it (or a variant of it: "de-AT" is German), else English."""
    if not code:
        return settings.LANGUAGE_CODE
    try:
        return translation.get_supported_language_variant(code.strip().lower())
    except LookupError:
        return settings.LANGUAGE_CODE


def for_user(user) -> str:
    """The language to write to `user` in: their profile's, else English (mail has no browser)."""
    return supported(getattr(user, "language", "") or settings.LANGUAGE_CODE)


def speaking(user) -> AbstractContextManager:
    """Everything inside in `user`'s language: emails, pushes, anything sent to one person."""
    return translation.override(for_user(user))


class MemberLanguageMiddleware:
    """`?lang=` switches; the language cookie then carries a member's choice between requests.

    The member's profile is not read here: the poll and the picture sprite, asked for every few
    seconds, would load the session and the user for nothing. The cookie is set to the profile's
    language at log-in, sign-up, on saving the profile and by `?lang=`, and `member_language`
    (a context processor: every page that shows the player anything) puts it right if a device
    still reads another.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = _switch(request)
        if chosen:
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated and user.language != chosen:
                type(user).objects.filter(pk=user.pk).update(language=chosen)
                user.language = chosen
            use(request, chosen)
        response = self.get_response(request)
        language = getattr(request, "remembered_language", None)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            remember(response, language)
        return response


def use(request: HttpRequest, language: str) -> None:
    """Speak `language` for the rest of this request, and keep it in the browser's cookie."""
    translation.activate(language)
    request.LANGUAGE_CODE = language
    request.remembered_language = language


def member_language(request: HttpRequest) -> dict:
    """A member reads their profile's language (a context processor, as the time zone is)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.language:
        language = for_user(user)
        if language != translation.get_language():
            use(request, language)
    return {}


def on_logged_in(sender, request: HttpRequest, user, **kwargs) -> None:
    """Logging in on a device brings the profile's language with it."""
    if request is not None and getattr(user, "language", ""):
        use(request, for_user(user))


def remember(response: HttpResponse, language: str) -> None:
    """The language cookie, so that this browser keeps reading `language` after logging out."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
    )


def _switch(request: HttpRequest) -> str | None:
    """The language `?lang=` names on a GET, if the site speaks it; anything else: no switch."""
    code = request.GET.get("lang", "")[:16].strip().lower() if request.method == "GET" else ""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None
