"""WSGI entry point (gunicorn harmonies_site.wsgi; the Procfile preloads it, see warmup)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harmonies_site.settings")
application = get_wsgi_application()

import sys  # noqa: E402

from harmonies_site.checks import report_at_start  # noqa: E402  (Django must be set up first)
from harmonies_site.warmup import warm  # noqa: E402

report_at_start(sys.stderr)  # gunicorn runs no system check: a wrong shape says so here
warm()
# What is loaded by now lives as long as the process: the garbage collector's full passes need
# not scan it again (some 165,000 objects; in every worker forked from here too).
gc.collect()
gc.freeze()
