"""The Track Tiles package's modules import each other without a cycle.

Every import statement counts, also those inside functions; only imports under
``if TYPE_CHECKING:`` are left out (they never run). The rules stay below rendering,
commands and everything outside the game.
"""

from __future__ import annotations

import ast
from pathlib import Path

import taut.games.tracks as tracks_package

PACKAGE = "taut.games.tracks"
ROOT = Path(tracks_package.__file__).parent


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(tree: ast.AST) -> set[str]:
    """Every module named by an import statement, outside ``if TYPE_CHECKING:`` blocks."""
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for stmt in node.orelse:
                visit(stmt)
            return
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            out.add(node.module)
            # "from taut.games.tracks import render" names a module, not an attribute.
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def module_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports."""
    files = {
        (package if f.stem == "__init__" else f"{package}.{f.stem}"): f
        for f in sorted(root.glob("*.py"))
    }
    return {
        name: {m for m in _imported(ast.parse(path.read_text())) if m in files and m != name}
        for name, path in files.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := walk(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)) is not None:
            return found
    return None


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_function_level_imports_count_and_type_checking_ones_do_not() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from x.hidden import A\n"
        "def f():\n    from x.inner import B\n    import x.other\n"
    )
    assert _imported(tree) == {
        "typing",
        "typing.TYPE_CHECKING",
        "x.inner",
        "x.inner.B",
        "x.other",
    }


def test_the_package_has_no_import_cycle() -> None:
    graph = module_graph(ROOT, PACKAGE)
    assert f"{PACKAGE}.rules" in graph and f"{PACKAGE}.cells" in graph
    assert find_cycle(graph) is None, find_cycle(graph)


def test_no_module_imports_the_package_itself() -> None:
    # The package's __init__ imports the modules, so importing it from one of them would
    # close a cycle at import time.
    graph = module_graph(ROOT, PACKAGE)
    assert [name for name, deps in graph.items() if PACKAGE in deps] == []


def test_rules_import_neither_rendering_nor_commands() -> None:
    upper = {"render", "narrate", "presenter", "commands", "terminal", "plugin", "observation"}
    below_rules = {"cells", "tiles", "paths", "heuristic"}
    graph = module_graph(ROOT, PACKAGE)
    for name in ("rules", *below_rules):
        deps = {d.rsplit(".", 1)[1] for d in graph[f"{PACKAGE}.{name}"]}
        assert not deps & upper, (name, deps)
    text = (ROOT / "rules.py").read_text()
    for outside in ("taut.cli", "taut.agents", "taut.interop", "click", "rich"):
        assert f"import {outside}" not in text and f"from {outside}" not in text
