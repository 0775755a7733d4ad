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


# ------------------------------------------------------------------ folders and layers
#
# A *room* is a top-level module of ``evaluators`` (``evaluators.api``) or one of its
# sub-packages (``evaluators.tasks``), ``dataset_scripts.core``, or another sub-package or
# module of ``dataset_scripts``. Rooms stand on layers, bottom first; a room imports rooms
# of its own layer or below (function-level imports count: a loop closed inside a function
# is still a loop), and no loop runs between rooms.

LAYERS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (name, frozenset(rooms.split()))
    for name, rooms in (
        ("core: schemas, specs, errors, raw I/O", "dataset_scripts.core"),
        ("dataset builders, sources and the registry", "dataset_scripts.*"),
        (
            "formulas and plumbing",
            "evaluators evaluators.metric_math evaluators.console evaluators.paths "
            "evaluators.tabular",
        ),
        (
            "records, data, encoders, caches, views",
            "evaluators.records evaluators.data evaluators.cache evaluators.encoders "
            "evaluators.metric_loading evaluators.metric_cache evaluators.downloads "
            "evaluators.views",
        ),
        ("task evaluators", "evaluators.tasks evaluators.dataset_check"),
        ("the run", "evaluators.run"),
        (
            "families and their reports, Ray",
            "evaluators.steb_scores evaluators.arb evaluators.detect evaluators.valla "
            "evaluators.styledisc evaluators.report evaluators.distributed",
        ),
        (
            "benchmarks",
            "evaluators.benchmarks evaluators.benchmark_folders evaluators.demo",
        ),
        ("comparison and the results venue", "evaluators.compare evaluators.results"),
        (
            "entry points below the CLI",
            "evaluators.leaderboard evaluators.api evaluators.nano evaluators.publish "
            "evaluators.training",
        ),
        ("the command line", "evaluators.cli"),
    )
)

#: imports from a lower layer to a higher one that are allowed, each with its reason
#: ((importing room, imported room): why). Keep it short: an entry is a debt.
ALLOWED_UPWARD: dict[tuple[str, str], str] = {}


def room_of(module: str) -> str:
    parts = module.split(".")
    if parts[0] == "dataset_scripts":
        return "dataset_scripts.core" if parts[1:2] == ["core"] else ".".join(parts[:2])
    return ".".join(parts[:2])


def room_graph(graph: dict[str, set[str]]) -> dict[str, dict[str, set[tuple[str, str]]]]:
    """room -> {imported room: {(module, imported module), ...}} (arrows between rooms)."""
    rooms: dict[str, dict[str, set[tuple[str, str]]]] = {}
    for module, targets in graph.items():
        source = rooms.setdefault(room_of(module), {})
        for target in targets:
            if room_of(target) != room_of(module):
                source.setdefault(room_of(target), set()).add((module, target))
    return rooms


def layer_of(room: str) -> int | None:
    """The layer a room stands on (``dataset_scripts.*``: every room of ``dataset_scripts``
    but its core), or None when LAYERS does not place it."""
    for index, (_, rooms) in enumerate(LAYERS):
        if room in rooms:
            return index
        builders = room == "dataset_scripts" or room.startswith("dataset_scripts.")
        if builders and room != "dataset_scripts.core" and "dataset_scripts.*" in rooms:
            return index
    return None


def upward(rooms: dict[str, dict[str, set[tuple[str, str]]]]) -> list[str]:
    found = []
    for source, targets in sorted(rooms.items()):
        for target, arrows in sorted(targets.items()):
            low, high = layer_of(source), layer_of(target)
            if low is None or high is None or high <= low or (source, target) in ALLOWED_UPWARD:
                continue
            example = ", ".join(f"{a} -> {b}" for a, b in sorted(arrows)[:3])
            found.append(f"{source} (layer {low}) imports {target} (layer {high}): {example}")
    return found


@pytest.fixture(scope="module")
def rooms(graph) -> dict[str, dict[str, set[tuple[str, str]]]]:
    return room_graph(graph)


def test_every_room_stands_on_a_layer(rooms):
    unplaced = sorted(r for r in rooms if layer_of(r) is None)
    assert not unplaced, f"rooms on no layer (add them to LAYERS): {unplaced}"
    assert "evaluators.cli" in rooms and "evaluators.run" in rooms and len(rooms) > 25


def test_no_loop_between_rooms(rooms):
    found = circles({room: set(targets) for room, targets in rooms.items()})
    lines = []
    for circle in found:
        members = set(circle)
        for source in circle:
            for target, arrows in sorted(rooms[source].items()):
                if target in members:
                    a, b = sorted(arrows)[0]
                    lines.append(f"  {source} -> {target} ({a} imports {b})")
    assert not found, "rooms importing each other in a loop:\n" + "\n".join(lines)


def test_no_room_imports_a_higher_layer(rooms):
    found = upward(rooms)
    assert not found, "imports from a lower layer to a higher one:\n" + "\n".join(found)


def test_allowed_upward_imports_still_exist(rooms):
    # an allowance nobody needs any more is removed, not kept as a silent licence
    stale = [pair for pair in ALLOWED_UPWARD if pair[1] not in rooms.get(pair[0], {})]
    assert not stale, f"allowed upward imports that no longer exist: {stale}"


def test_the_room_rules_catch_a_folder_loop_and_an_upward_import():
    # a loop that only closes between folders (no file-level circle) and an import from
    # the task layer up to the CLI, on a made-up graph
    graph = {
        "evaluators.tasks.pairs": {"evaluators.results.table"},
        "evaluators.results.table": {"evaluators.tasks.facts"},
        "evaluators.tasks.facts": set(),
        "evaluators.tasks.base": {"evaluators.cli.options"},
        "evaluators.cli.options": set(),
    }
    assert circles(graph) == []
    rooms = room_graph(graph)
    assert circles({r: set(t) for r, t in rooms.items()}) == [
        ["evaluators.results", "evaluators.tasks"]
    ]
    assert any(
        line.startswith("evaluators.tasks (layer 4) imports evaluators.cli")
        for line in upward(rooms)
    )
    assert room_of("dataset_scripts.steb.pan_av") == "dataset_scripts.steb"
    assert layer_of("dataset_scripts.core") == 0 and layer_of("dataset_scripts.registry") == 1
