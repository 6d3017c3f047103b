"""`make run` and production install requirements.txt alone: every package the site's own code
imports must come from it (or from what it pulls in), not from the test tools that happen to be
installed beside it. Jinja2 once came only through Flask, a test tool's dependency, and a fresh
clone's `make run` failed on its first migrate."""

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE_CODE = ["accounts", "games", "harmonies_site", "push", "records", "manage.py"]


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _requires(name: str) -> list[str]:
    try:
        return metadata.requires(name) or []
    except metadata.PackageNotFoundError:  # required on another platform only (colorama)
        return []


def served_distributions() -> set[str]:
    """The distributions requirements.txt names, and everything they require, transitively."""
    lines = (ROOT / "requirements.txt").read_text().splitlines()
    pending = [_name(line) for line in lines if line.strip() and not line.startswith("#")]
    # Extras asked for by name (celery[redis]) pull in what their extra requires.
    for line in lines:
        if match := re.match(r"([\w.-]+)\[([\w,]+)\]", line):
            for requirement in _requires(match[1]):
                if any(f'extra == "{extra}"' in requirement for extra in match[2].split(",")):
                    pending.append(_name(requirement))
    found: set[str] = set()
    while pending:
        name = pending.pop()
        if name not in found:
            found.add(name)
            pending += [_name(r) for r in _requires(name) if "extra ==" not in r]
    return found


def imported_top_level_modules() -> set[str]:
    modules: set[str] = set()
    for entry in SITE_CODE:
        path = ROOT / entry
        files = [path] if path.is_file() else path.rglob("*.py")
        for file in files:
            for node in ast.walk(ast.parse(file.read_text())):
                if isinstance(node, ast.Import):
                    modules.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules.add(node.module.split(".")[0])
    local = {p.name for p in ROOT.iterdir() if p.is_dir()} | {"manage"}
    return {m for m in modules if m not in sys.stdlib_module_names and m not in local}


def test_every_package_the_site_imports_is_in_requirements_txt():
    served = served_distributions()
    by_module = metadata.packages_distributions()
    missing = {
        module: by_module.get(module, ["(not installed)"])
        for module in imported_top_level_modules()
        if not {_name(d) for d in by_module.get(module, [])} & served
    }
    assert missing == {}, f"imported by the site but not served by requirements.txt: {missing}"
