"""Settings for the load bench's gunicorn only: the site's settings plus the floor page.

bench/load/run.py serves the site with DJANGO_SETTINGS_MODULE=bench.load.settings, so the floor
(bench/load/floor.py) runs in the same processes as the pages it is compared with, behind the
same middleware. Production and the tests never load this module.
"""

from harmonies_site.settings import *  # noqa: F403
from harmonies_site.settings import BASE_DIR, TEMPLATES

ROOT_URLCONF = "bench.load.urls"
# A new list and dict: the site's own TEMPLATES (imported above by reference) stay as they are.
TEMPLATES = [
    {**TEMPLATES[0], "DIRS": [*TEMPLATES[0]["DIRS"], BASE_DIR / "bench/load/templates"]},
    *TEMPLATES[1:],
]
