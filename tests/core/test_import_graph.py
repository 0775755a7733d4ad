"""The layers of the house, checked from the source: every ``import`` (module level or
inside a function, ``TYPE_CHECKING`` blocks included) is an arrow between two files.

- ``dataset_scripts/core`` is the bottom layer: it imports nothing else of the project;
- ``dataset_scripts`` never imports ``evaluators`` (the evaluators and the CLI sit on top);
- ``metrics/`` modules and their Space apps are self-contained: of the project they
  import only ``evaluators.metric_math`` (the formulas, the ``evaluate`` glue and the
  page builder), and ``evaluators.metric_math`` imports nothing else of the project;
- no circle of imports between files anywhere in the three packages.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("dataset_scripts", "evaluators")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def imported_names(path: Path, module: str, known: set[str] | None = None) -> Iterable[str]:
    """Every module name ``path`` imports (absolute, relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_package else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # ``from package import submodule`` is an arrow to the submodule only (the
            # package's __init__ runs first for any submodule import; it is not an arrow)
            submodules = [f"{prefix}.{alias.name}" for alias in node.names]
            yield from submodules
            if known is None or not all(name in known for name in submodules):
                yield prefix


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name in imported_names(path, module, set(modules)):
            if name in modules and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(project_modules())


def test_the_walk_sees_imports(graph):
    # a walk that found nothing would pass every rule below
    assert "dataset_scripts.core.errors" in graph["evaluators.data"] or any(
        t.startswith("dataset_scripts.core") for t in graph["evaluators.data"]
    )
    assert "dataset_scripts.core.schema" in graph["dataset_scripts.core.schemas"]
    assert sum(len(t) for t in graph.values()) > 300


def test_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_core_is_the_bottom_layer(graph):
    bad = {
        (module, target)
        for module, targets in graph.items()
        if module.startswith("dataset_scripts.core")
        for target in targets
        if not target.startswith("dataset_scripts.core")
    }
    assert not bad, f"dataset_scripts/core imports upward: {sorted(bad)}"


def test_dataset_scripts_never_import_evaluators(graph):
    bad = {
        (module, target)
        for module, targets in graph.items()
        if module.startswith("dataset_scripts")
        for target in targets
        if target.startswith("evaluators")
    }
    assert not bad, f"dataset_scripts imports evaluators: {sorted(bad)}"


def test_metric_modules_are_self_contained():
    allowed = ("evaluators.metric_math",)
    paths = sorted((ROOT / "metrics").glob("*/*.py"))
    assert len(paths) >= 14
    for path in paths:
        for name in imported_names(path, path.stem):
            top = name.split(".")[0]
            assert top != "dataset_scripts", f"{path.relative_to(ROOT)} imports {name}"
            if top == "evaluators":
                assert name.startswith(allowed), f"{path.relative_to(ROOT)} imports {name}"


def test_metric_math_imports_nothing_else_of_the_project():
    for path in sorted((ROOT / "evaluators" / "metric_math").glob("*.py")):
        module = "evaluators.metric_math." + path.stem
        for name in imported_names(path, module):
            if name.split(".")[0] in ("evaluators", "dataset_scripts"):
                assert name.startswith("evaluators.metric_math"), f"{path.name} imports {name}"


def test_no_import_circles(graph):
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)
