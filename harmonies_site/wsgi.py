"""WSGI entry point (gunicorn harmonies_site.wsgi; the Procfile preloads it, see warmup)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")
application = get_wsgi_application()

from harmonies_site.warmup import warm  # noqa: E402  (Django must be set up first)

warm()
# What is loaded by now lives as long as the process: the garbage collector's full passes need
# not scan it again (some 165,000 objects; in every worker forked from here too).
gc.collect()
gc.freeze()
