"""The house plan holds: no import circle anywhere in the project, and inside `games/` every import
runs down the layers (docs/developing.md draws them). Beside tests/engine/test_purity.py, an AST
walk: imports written inside functions count too, since they are how a circle hides.

Layers of `games/`, bottom first (a module may import its own layer and those below):
  0 engine/                 the rules, pure Python
  1 models/                 what is stored, and reads of it with no rule of the site
  2 results talk narration presence reminders queue signals clocks:
                            the site's rules over stored rows
  3 pictures/               SVG from plain values
  4 services/ presenters/ templatetags/ forms: the one writer; what a page shows
  5 mail/ jinja             emails; the Jinja2 environment
  6 tasks views/ admin apps context_processors management/: the entry points
  7 urls
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "accounts", "records", "push", "webhooks", "harmonies_site")

LAYERS = {
    "engine": 0,
    "models": 1,
    "results": 2, "talk": 2, "narration": 2, "presence": 2, "reminders": 2, "queue": 2,
    "signals": 2, "clocks": 2,
    "pictures": 3,
    "services": 4, "presenters": 4, "templatetags": 4, "forms": 4,
    "mail": 5, "jinja": 5,
    "tasks": 6, "views": 6, "admin": 6, "apps": 6, "context_processors": 6, "management": 6,
    "urls": 7,
}  # fmt: skip

# What a presenter may use of the writer: reads that decide what a page shows, never a write.
SERVICE_READS = {
    "GameError", "NotFound", "NotAllowed", "is_automatic", "in_seat_order", "timed_out",
    "leaving_ends_game", "may_be_rated", "hint_state", "STAND_IN_POLICY",
    "services", "coaching",  # the modules themselves, whose attributes are checked one by one
}  # fmt: skip


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    _module_name(path): path
    for package in PACKAGES
    for path in (ROOT / package).rglob("*.py")
    if "migrations" not in path.parts
}


def _resolve(name: str) -> str | None:
    """The project module an import names (`games.models.Game` is `games.models`)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> list[tuple[str, str]]:
    """(project module, name imported from it or "") for every import of `module`, at any depth."""
    path = MODULES[module]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(t, "") for alias in node.names if (t := _resolve(alias.name))]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                here = here[: len(here) - node.level + 1]
                base = ".".join([*here, base] if base else here)
            for alias in node.names:
                target = _resolve(f"{base}.{alias.name}") or _resolve(base)
                if target:
                    found.append((target, alias.name))
    return [(target, name) for target, name in found if target != module]


GRAPH = {module: _imports(module) for module in MODULES}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if parts[0] == "games" and len(parts) > 1 else None


def _circles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    edges = {m: {t for t, _ in targets} for m, targets in GRAPH.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return circles


def test_the_walk_sees_the_whole_house():
    assert len(MODULES) > 150
    assert ("games.services.core", "locked") in GRAPH["games.services.turns"]
    assert all(_layer(m) is not None for m in MODULES if m.count(".") >= 1 and m[:6] == "games.")


def test_no_import_circle_anywhere():
    assert _circles() == []


def test_inside_games_imports_run_down_the_layers():
    upward = [
        f"{module} -> {target}"
        for module, targets in GRAPH.items()
        for target, _ in targets
        if (here := _layer(module)) is not None
        and (there := _layer(target)) is not None
        and there > here
    ]
    assert upward == []


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        # The writer names its follow-up tasks (games.queue.enqueue) and never knows who reads.
        ("games.services", (
            "games.tasks", "games.mail", "games.views", "games.presenters", "games.jinja",
        )),
        # Mail reads what it sends from below the writer (games.talk, games.models.social).
        ("games.mail", ("games.services", "games.views", "games.tasks")),
        # The drawings are pure functions of plain values: the sprite's address is an argument,
        # given by games.pictures.sprite, the one module of the layer that knows the site's URLs.
        ("games.pictures", ("django.urls", "games.services", "games.presenters", "games.views")),
        ("games.models", ("games.services", "games.views", "games.presenters", "games.mail")),
    ],
)  # fmt: skip
def test_a_layer_never_imports_what_it_must_not_know(layer, forbidden):
    offenders = []
    for module, path in MODULES.items():
        if module != layer and not module.startswith(layer + "."):
            continue
        if module == "games.pictures.sprite":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            offenders += [
                f"{module} imports {name}"
                for name in names
                if any(name == f or name.startswith(f + ".") for f in forbidden)
            ]
    assert offenders == []


def test_presenters_use_only_the_writers_reads():
    used = defaultdict(set)
    for module, path in MODULES.items():
        if not module.startswith("games.presenters"):
            continue
        for target, name in GRAPH[module]:
            if target.startswith("games.services"):
                used[module].add(name)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("services", "coaching")
            ):
                used[module].add(node.attr)
    writes = {module: sorted(names - SERVICE_READS) for module, names in used.items()}
    assert {module: names for module, names in writes.items() if names} == {}


def _task_names() -> set[str]:
    names = set()
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "shared_task":
                names |= {k.value.value for k in node.keywords if k.arg == "name"}
    return names


def test_every_task_queued_by_name_is_a_registered_task():
    registered = _task_names()
    queued = []
    for module, path in MODULES.items():
        if module == "games.queue":  # enqueue hands its name on to send_now
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = getattr(node, "func", None)
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            if isinstance(node, ast.Call) and name in ("enqueue", "send_now") and node.args:
                first = node.args[0]
                assert isinstance(first, ast.Constant), f"{module}: {name} takes a task's name"
                queued.append(first.value)
    assert len(registered) > 20 and len(queued) > 10
    assert sorted(set(queued) - registered) == []


def test_the_registry_holds_the_names_the_walk_found():
    from harmonies_site.celery import app

    app.loader.import_default_modules()
    assert _task_names() <= set(app.tasks)
