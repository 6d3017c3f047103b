"""Django's makemessages, which also reads the Jinja2 templates (templates/jinja2/).

Django's extractor understands its own template language only. A Jinja2 template is turned into
Python calls by Jinja's own extractor (`Environment.extract_translations`), each on its line, so
xgettext reads `_()`, `ngettext()`, `pgettext()` and `{% trans %}` blocks with their references.
The site's defaults are set here: the locale at the root, English sources, the folders that hold
no player's words left out, and references by file (so a moved line does not churn the catalog).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.commands import makemessages
from jinja2 import Environment

JINJA_FOLDER = "templates/jinja2/"
# Nothing a player reads is in these.
IGNORED = [".venv", "tests", "bench", "tools", "staticfiles", "var", "node_modules", "docs"]


def jinja_as_python(source: str) -> str:
    """The messages of a Jinja2 template as Python calls on the lines they stand on."""
    env = Environment(extensions=["jinja2.ext.i18n"])
    lines = [""] * (source.count("\n") + 1)
    for lineno, function, message in env.extract_translations(source):
        if isinstance(message, str):
            call = f"gettext({message!r})"
        elif function in ("ngettext", "npgettext"):
            strings = [m for m in message if m is not None]
            if function == "npgettext":
                call = f"npgettext({strings[0]!r}, {strings[1]!r}, {strings[2]!r}, 1)"
            else:
                call = f"ngettext({strings[0]!r}, {strings[1]!r}, 1)"
        elif function == "pgettext":
            call = f"pgettext({message[0]!r}, {message[1]!r})"
        else:
            call = f"gettext({next(m for m in message if m is not None)!r})"
        lines[lineno - 1] += call + "; "
    return "\n".join(lines)


class JinjaAwareBuildFile(makemessages.BuildFile):
    def preprocess(self) -> None:
        if self.domain == "django" and JINJA_FOLDER in Path(self.path).as_posix():
            source = Path(self.path).read_text(encoding="utf-8")
            Path(self.work_path).write_text(jinja_as_python(source), encoding="utf-8")
            return
        super().preprocess()


class Command(makemessages.Command):
    build_file_class = JinjaAwareBuildFile
    # A new phrase comes in untranslated, never as a guess from a similar one (a fuzzy entry
    # would show the wrong words until someone cleared it).
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]

    def write_po_file(self, potfile: str, locale: str) -> None:
        super().write_po_file(potfile, locale)
        # The extraction date changes at every run and says nothing: left out, so an unchanged
        # catalog stays unchanged in the history.
        pofile = Path(potfile).parent / locale / "LC_MESSAGES" / f"{self.domain}.po"
        lines = pofile.read_text(encoding="utf-8").splitlines(keepends=True)
        pofile.write_text(
            "".join(line for line in lines if not line.startswith('"POT-Creation-Date:')),
            encoding="utf-8",
        )

    def handle(self, *args, **options):
        options["ignore_patterns"] = list(options.get("ignore_patterns") or []) + IGNORED
        if options.get("add_location") is None:
            options["add_location"] = "file"
        options["no_obsolete"] = True
        return super().handle(*args, **options)
