"""No import cycle among the app's own modules (companion/ and views/).

Every import counts, wherever it is written: at the top of a module, inside a function (a "late"
import that only hides a cycle from Python's start-up order) and under `if TYPE_CHECKING:` (a
type named across modules is a dependency all the same). A cycle means two modules that cannot be
understood, tested or changed apart; issue 17 removed the last ones (i18n <-> games through the
Règlement board's problem texts, history <-> room through the log check, views/app <-> every
screen through the session type).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "views")


def module_files() -> dict[str, Path]:
    """{dotted module name: its file} of every module of the packages."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of `modules` that `name` imports, anywhere in its file: `from a.b import c`
    counts as a.b.c when that is a module, else a.b; `import a.b.c` as a.b.c (its packages run
    too, but their own imports are theirs)."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from its package (a package's own __init__ is its package)
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, base] if base else package)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for target in targets:
            while target and target not in modules:  # `import companion.room.x` is companion.room's
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
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


def describe(graph: dict[str, set[str]], component: list[str]) -> str:
    members = set(component)
    return "; ".join(f"{m} -> {', '.join(sorted(graph[m] & members))}" for m in component)


def test_the_graph_is_read() -> None:
    """The parser sees each kind of import (else an empty graph would pass): a top-level one, a
    late one inside a function, and one under TYPE_CHECKING."""
    graph = import_graph()
    assert "companion.engine" in graph["companion.room"]  # top level
    assert "companion.games" in graph["companion.i18n"]  # inside all_messages()
    assert "views.session" in graph["views.board"]  # under TYPE_CHECKING
    assert "views.board" in graph["views.app"]


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"f"}, "f": {"e"}, "g": set()}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["e", "f"]]


def test_no_import_cycle() -> None:
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles: " + " | ".join(describe(graph, c) for c in found)
