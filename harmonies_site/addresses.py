"""reverse() and static(), remembered per process: the game page asks for the same addresses on
every look, and its presenter and its Jinja2 templates both ask (issue 16)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.urls import get_script_prefix, get_urlconf, reverse


def url(name: str, *args: Any) -> str:
    """reverse(), remembered: a game page asks for some twenty addresses, the same each time."""
    return _reverse(name, args, get_script_prefix(), get_urlconf())


@lru_cache(maxsize=4096)
def _reverse(name: str, args: tuple, prefix: str, urlconf: str | None) -> str:
    return reverse(name, args=args, urlconf=urlconf)


def static_url(path: str) -> str:
    """static(), remembered: the manifest's hashed names are fixed while a process runs, and the
    game page asks for the same eight files each time (9 us each with the manifest's lookup)."""
    return _static(path, get_script_prefix())


@lru_cache(maxsize=256)
def _static(path: str, prefix: str) -> str:
    return static(path)


@receiver(setting_changed)
def _forget_addresses(*, setting: str, **kwargs: Any) -> None:
    if setting == "ROOT_URLCONF":  # tests swap the URLs
        _reverse.cache_clear()
    if setting in ("STATIC_URL", "STORAGES", "STATIC_ROOT"):
        _static.cache_clear()
