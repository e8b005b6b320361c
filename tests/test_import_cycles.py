"""No modules of taut import each other in a circle, and the import contracts hold.

Two checks of the layering described in docs/api.md ("Layers"):

* The import-time graph of ``src/taut`` has no cycle. An edge ``a -> b`` is an import that
  runs when ``a`` is imported: at module level, in a class body, under ``try`` or a plain
  ``if``; not inside a function (it runs when called) and not under ``if TYPE_CHECKING:``
  (it never runs). ``from p import x`` counts ``p.x`` where ``x`` is a module, else ``p``.
  Any strongly connected component of more than one module fails, printed as a cycle.
  (The implicit import of a package's ``__init__`` before its submodules is not an edge:
  every package that gathers its modules would otherwise be a cycle.)
* ``lint-imports`` keeps the contracts in pyproject.toml (``[tool.importlinter]``), which
  also count imports inside functions; and a contract that is broken is reported as such.
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
import json
import subprocess
import sys
import tomllib
from collections.abc import Container, Mapping
from pathlib import Path
from typing import Any

import pytest

import taut

SRC = Path(taut.__file__).resolve().parent
ROOT = SRC.parents[1]
PYPROJECT = ROOT / "pyproject.toml"

Graph = Mapping[str, Mapping[str, int]]
"""Module -> {imported module: line of the import}."""


def modules_of(package_dir: Path) -> dict[str, tuple[Path, bool]]:
    """Every module under ``package_dir``: dotted name -> (file, is a package)."""
    out = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        out[".".join(parts)] = (path, is_package)
    return out


def import_time_imports(
    tree: ast.Module, module: str, is_package: bool, modules: Container[str]
) -> list[tuple[str, int]]:
    """(module, line) for every import in ``tree`` that runs when it is imported
    (``from p import x`` names ``p.x`` where that is one of ``modules``, else ``p``)."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return  # runs when called, not when imported
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, base] if base else package)
            for alias in node.names:
                name = f"{base}.{alias.name}"
                found.append((name if name in modules else base, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph(package_dir: Path) -> dict[str, dict[str, int]]:
    """The import-time graph between the modules under ``package_dir``."""
    modules = modules_of(package_dir)
    graph: dict[str, dict[str, int]] = {m: {} for m in modules}
    for module, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        for imported, line in import_time_imports(tree, module, is_package, modules):
            if imported in modules and imported != module:
                graph[module].setdefault(imported, line)
    return graph


def components(graph: Graph) -> list[list[str]]:
    """The strongly connected components of ``graph`` (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return out


def cycle_in(graph: Graph, component: list[str]) -> list[str]:
    """A shortest cycle through the first module of ``component``, closed (a -> ... -> a)."""
    start, members = component[0], set(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node]):
                if nxt not in members or nxt in came_from:
                    continue
                came_from[nxt] = node
                if nxt == start:
                    path = [start]
                    while path[-1] != start or len(path) == 1:
                        path.append(came_from[path[-1]])
                    return path[::-1]
                following.append(nxt)
        frontier = following
    raise ValueError(f"{component} is not a cycle")


def cycles(graph: Graph) -> list[list[str]]:
    """One cycle for every strongly connected component of more than one module."""
    return [cycle_in(graph, c) for c in components(graph) if len(c) > 1]


def describe(graph: Graph, cycle: list[str]) -> str:
    """``a -> b (a.py line 3) -> a (b.py line 7)``."""
    steps = [cycle[0]]
    for a, b in itertools.pairwise(cycle):
        steps.append(f"{b} (line {graph[a][b]} of {a})")
    return " -> ".join(steps)


def test_taut_has_no_import_time_cycle() -> None:
    graph = import_graph(SRC)
    assert len(graph) > 100 and graph["taut.core.registry"]  # the whole package was read
    found = [describe(graph, c) for c in cycles(graph)]
    assert not found, "import cycles:\n" + "\n".join(found)


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3, "d": 4}, "d": {}, "e": {"d": 5}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert describe(graph, ["a", "b", "c", "a"]) == (
        "a -> b (line 1 of a) -> c (line 2 of b) -> a (line 3 of c)"
    )
    assert cycles({"a": {"b": 1}, "b": {}}) == []
    two = cycles({"a": {"b": 1}, "b": {"a": 1}, "x": {"y": 1}, "y": {"x": 1}})
    assert two == [["a", "b", "a"], ["x", "y", "x"]] or two == [["x", "y", "x"], ["a", "b", "a"]]


def test_the_graph_holds_import_time_imports_only(tmp_path: Path) -> None:
    """A package written here: which of its imports count, and the cycle they make."""
    package = tmp_path / "pkg"
    package.mkdir()
    files = {
        "__init__.py": "from pkg.a import A\n",
        "a.py": "from pkg import b\nA = 1\n",
        # Only for annotations, and inside a function: neither runs on import.
        "b.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n"
            "    from pkg.a import A\n"
            "def f() -> None:\n"
            "    from pkg import a\n"
        ),
        # A relative import and one in a class body close a cycle between c and d.
        "c.py": "try:\n    from .d import D\nexcept ImportError:\n    D = None\n",
        "d.py": "class D:\n    import pkg.c as c\n",
    }
    for name, text in files.items():
        (package / name).write_text(text)
    graph = import_graph(package)
    assert graph["pkg.b"] == {}
    assert graph["pkg.a"] == {"pkg.b": 1}
    assert cycles(graph) == [["pkg.c", "pkg.d", "pkg.c"]]
    # Moving b's import out of the function makes a second cycle.
    (package / "b.py").write_text("import pkg.a\n")
    assert ["pkg.a", "pkg.b", "pkg.a"] in cycles(import_graph(package))


# -- import-linter ---------------------------------------------------------------------------


#: The ``lint-imports`` command, run by this interpreter (whatever is on the PATH).
LINT_IMPORTS = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def lint_imports(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``lint-imports`` from the project's root (skipped where it cannot run)."""
    if importlib.util.find_spec("importlinter") is None:
        pytest.skip("import-linter is not installed (it is in the `test` extra)")
    if not PYPROJECT.is_file():
        pytest.skip("taut is not run from its source tree: no pyproject.toml")
    return subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "--no-cache", "--no-logo", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def project_config() -> dict[str, Any]:
    """The ``[tool.importlinter]`` table of pyproject.toml."""
    table: dict[str, Any] = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]
    return table


def write_config(path: Path, config: Mapping[str, Any]) -> Path:
    """``config`` as a pyproject-style TOML file (strings, booleans, lists of strings)."""

    def value(v: Any) -> str:
        return str(v).lower() if isinstance(v, bool) else json.dumps(v)

    lines = ["[tool.importlinter]"]
    lines += [f"{k} = {value(v)}" for k, v in config.items() if k != "contracts"]
    for contract in config.get("contracts", []):
        lines += ["", "[[tool.importlinter.contracts]]"]
        lines += [f"{k} = {value(v)}" for k, v in contract.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_contracts_are_kept() -> None:
    if PYPROJECT.is_file():
        assert len(project_config()["contracts"]) >= 4
    proc = lint_imports()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout, proc.stdout


def test_a_broken_contract_is_reported(tmp_path: Path) -> None:
    """A contract the code does not keep (the command line imports the core) fails."""
    config = {
        "root_package": "taut",
        "contracts": [
            {
                "name": "The command line never imports the core",
                "type": "forbidden",
                "source_modules": ["taut.cli"],
                "forbidden_modules": ["taut.core"],
            }
        ],
    }
    proc = lint_imports(str(write_config(tmp_path / "broken.toml", config)))
    assert proc.returncode != 0, proc.stdout
    assert "The command line never imports the core BROKEN" in proc.stdout, proc.stdout


@pytest.mark.parametrize("contract_id", ["rules", "acyclic"])
def test_the_exceptions_of_a_contract_are_needed(tmp_path: Path, contract_id: str) -> None:
    """Without its listed exceptions the contract breaks: it sees them, so it would see a
    new one (and import-linter itself fails on an exception that no longer exists)."""
    if not PYPROJECT.is_file():
        pytest.skip("taut is not run from its source tree: no pyproject.toml")
    config = project_config()
    [contract] = [c for c in config["contracts"] if c.get("id") == contract_id]
    assert contract["ignore_imports"]
    stripped = {k: v for k, v in contract.items() if k != "ignore_imports"}
    path = write_config(tmp_path / "strict.toml", {**config, "contracts": [stripped]})
    proc = lint_imports(str(path))
    assert proc.returncode != 0, proc.stdout
    assert f"{contract['name']} BROKEN" in proc.stdout, proc.stdout
