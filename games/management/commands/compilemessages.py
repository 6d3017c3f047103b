"""Django's compilemessages, which also works on a machine without GNU gettext.

`make run` compiles the catalogs on a fresh machine, where `msgfmt` may be missing: then each
locale/*/LC_MESSAGES/django.po is written as its .mo by polib (pure Python). With msgfmt present
this is Django's own command, which also checks every placeholder.
"""

from __future__ import annotations

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.commands import compilemessages
from django.core.management.utils import find_command


class Command(compilemessages.Command):
    def handle(self, **options):
        if find_command(self.program):
            return super().handle(**options)
        for catalog in sorted(Path(settings.LOCALE_PATHS[0]).glob("*/LC_MESSAGES/django.po")):
            polib.pofile(str(catalog)).save_as_mofile(str(catalog.with_suffix(".mo")))
            if options["verbosity"] > 0:
                self.stdout.write(f"compiled {catalog} with polib (msgfmt not found)")
