"""The site's addresses, and the floor at /bench/floor/ (bench/load/settings.py only)."""

from django.urls import path

from bench.load.floor import floor
from harmonies_site.urls import handler403, handler404
from harmonies_site.urls import urlpatterns as site_urlpatterns

__all__ = ["handler403", "handler404", "urlpatterns"]

urlpatterns = [path("bench/floor/", floor, name="bench_floor"), *site_urlpatterns]
