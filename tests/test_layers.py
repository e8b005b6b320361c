"""The layers keep to their places: shared code never names a game, games have no cycles.

* Nothing under ``src/taut/`` outside ``src/taut/games/`` names a registered game (its
  name, its title, its package) or imports a game package: the shared layers read plugins.
* Inside each game package the modules import each other without a cycle (imports inside
  functions count; only ``if TYPE_CHECKING:`` imports, which never run, are left out).
* Rules modules import no rendering, command line, agents, adapters or server.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import taut
from taut.core.registry import plugin

SRC = Path(taut.__file__).resolve().parent
GAMES = SRC / "games"


def _packages() -> dict[str, str]:
    """Registered games' packages under taut.games: package name -> game name."""
    out = {}
    for name in taut.games():
        module = plugin(name).game_class.__module__
        if module.startswith("taut.games."):
            out[module.split(".")[2]] = name
    return out


def _words() -> list[re.Pattern[str]]:
    patterns = []
    for package, name in _packages().items():
        title = plugin(name).title
        patterns.append(re.compile(re.escape(title)))
        patterns.append(
            re.compile(
                rf"\b{re.escape(package)}\b"
                if "_" in package
                else rf"games\.{re.escape(package)}\b"
            )
        )
        if "-" in name:
            patterns.append(re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])"))
        else:  # a plain word ("tracks") counts only as a quoted name
            patterns.append(re.compile(rf"[\"']{re.escape(name)}[\"']"))
    return patterns


def _imports(tree: ast.AST, module: str) -> list[str]:
    """Modules imported anywhere in ``tree`` except under ``if TYPE_CHECKING:``."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")[: -node.level]
                base = ".".join([*parts, base] if base else parts)
            found.append(base)
            found.extend(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


SHARED = sorted(p for p in SRC.rglob("*.py") if GAMES not in p.parents)


@pytest.mark.parametrize("path", SHARED, ids=lambda p: str(p.relative_to(SRC)))
def test_shared_code_names_no_game(path: Path) -> None:
    text = path.read_text()
    for pattern in _words():
        match = pattern.search(text)
        assert match is None, f"{path.relative_to(SRC)} names a game: {match.group()!r}"
    packages = {f"taut.games.{p}" for p in _packages()}
    for imported in _imports(ast.parse(text), _module_name(path)):
        hit = [p for p in packages if imported == p or imported.startswith(p + ".")]
        assert not hit, f"{path.relative_to(SRC)} imports the game package {hit[0]}"


def test_the_check_catches_a_game_name(tmp_path: Path) -> None:
    """The patterns find what they must (so the test above can fail)."""
    words = _words()
    samples = [
        "make('push-pull')",
        "Tug of War",
        "from taut.games.tug_of_war import x",
        'name = "tracks"',
    ]
    for sample in samples:
        assert any(p.search(sample) for p in words), sample
    assert not any(p.search("the tracks of a path") for p in words)


def _graph(package: Path) -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in package.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for imported in _imports(ast.parse(path.read_text()), module):
            if imported in modules and imported != module:
                graph[module].add(imported)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


@pytest.mark.parametrize("package", sorted(_packages()))
def test_game_package_has_no_import_cycle(package: str) -> None:
    graph = _graph(GAMES / package)
    # The package's __init__ may gather its modules for users; a module importing the
    # package itself would close a cycle through it, and is counted.
    cycle = _cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_check_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


FORBIDDEN_FOR_RULES = ("taut.cli", "taut.agents", "taut.interop", "taut.server", "taut.arena")


@pytest.mark.parametrize("package", sorted(_packages()))
def test_rules_import_no_front_end(package: str) -> None:
    rules = GAMES / package / "rules.py"
    imported = _imports(ast.parse(rules.read_text()), f"taut.games.{package}.rules")
    bad = [
        m
        for m in imported
        if m.startswith(FORBIDDEN_FOR_RULES) or "render" in m or "diagram" in m or "commands" in m
    ]
    assert not bad, f"{rules.relative_to(SRC)} imports {bad}"
