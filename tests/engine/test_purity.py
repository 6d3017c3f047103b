"""The engine is pure: standard library and itself only (no Django, nothing from the site)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))


def imported_modules(path: Path) -> list[str]:
    """Top-level names of absolute imports; relative imports stay inside the package."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_the_engine_has_modules_to_check():
    assert len(MODULES) > 10


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_an_engine_module_imports_only_the_standard_library_and_the_engine(path):
    for name in imported_modules(path):
        top = name.split(".")[0]
        if name == "games.engine" or name.startswith("games.engine."):
            continue
        assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
        assert top != "django"


def test_no_engine_module_imports_dynamically():
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = getattr(func, "id", None) or getattr(func, "attr", None)
                assert name not in ("__import__", "import_module"), path.name
