"""Template context shared by every page."""

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.encoding import escape_uri_path

from accounts.language import member_language
from accounts.next_page import local_path

# Pages whose address is no place to come back to after logging in.
NO_RETURN = {"home", "logout", "password_reset", "password_reset_done", "password_reset_confirm"}


def site(request: HttpRequest) -> dict:
    member_language(request)  # a member's profile language first: <html lang> and the switch
    return {
        "SITE_NAME": settings.SITE_NAME,
        "return_to": _return_to(request),
        "LANGUAGE_CODE": translation.get_language() or settings.LANGUAGE_CODE,
        "language_links": language_links(request),
    }


def language_links(request: HttpRequest) -> list[dict]:
    """The footer's switch: each language named in itself, a link to this page with `?lang=`
    (accounts.language.MemberLanguageMiddleware saves it); other query parameters are left out."""
    current = translation.get_language() or settings.LANGUAGE_CODE
    return [
        {
            "code": code,
            "name": name,
            "url": f"{escape_uri_path(request.path)}?lang={code}",
            "current": code == current,
        }
        for code, name in settings.LANGUAGES
    ]


def _return_to(request: HttpRequest) -> str:
    """Where the header's Log in and Sign up bring a visitor back to: the page they are on (an
    invitation, a score sheet), or on the log-in and sign-up pages the `next` those carry."""
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated:
        return ""
    match = getattr(request, "resolver_match", None)
    name = match.url_name if match else ""
    if name in ("login", "signup"):
        return local_path(request, request.GET.get("next", ""))
    if name in NO_RETURN or name == "":
        return ""
    return request.get_full_path()
