"""WSGI entry point (gunicorn harmonies_site.wsgi; the Procfile preloads it, see warmup)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")
application = get_wsgi_application()

from harmonies_site.warmup import warm  # noqa: E402  (Django must be set up first)

warm()
