"""The Tug of War package: its modules in layers without an import cycle, its plugin's
hooks, and its terminal presentation (moves, score sheet, forced moves, the table)."""

from __future__ import annotations

import ast
import io
import random
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.text import Text

import taut
import taut.games.tug_of_war as package
from taut.agents import RandomAgent
from taut.arena.match import play_match
from taut.cli.table import HumanAgent, TerminalTable
from taut.core.game import State
from taut.core.observation import build_layout, header_fields
from taut.core.presenter import Block, Rule
from taut.core.registry import plugin_of
from taut.core.terms import CHANCE_SEAT
from taut.games.tug_of_war import TugOfWar, TugState, position
from taut.games.tug_of_war.plugin import NOMINAL_ROUNDS, plugin
from taut.games.tug_of_war.presenter import TugPresenter
from taut.games.tug_of_war.state import DRAWING

PACKAGE = Path(package.__file__).parent
PREFIX = "taut.games.tug_of_war"

#: Each module's layer: a module may import only modules of lower layers.
LAYERS = {
    "tiles": 0,
    "scoring": 0,
    "presentation": 0,
    "tutorial": 0,
    "model": 1,
    "transitions": 2,
    "notation": 3,
    "view": 3,
    "position": 3,
    "render": 3,
    "heuristic": 3,
    "determinize": 3,
    "fast": 3,
    "record_check": 3,
    "record_writer": 3,
    "state": 4,
    "rules": 5,
    "record": 6,
    "presenter": 6,
    "observation": 6,
    "svg_pieces": 3,
    "svg_bonus": 4,
    "svg_sheet": 4,
    "svg_choices": 4,
    "svg_hand": 5,
    "table_data": 5,
    "svg": 6,
    "plugin": 7,
    "__init__": 8,
}


def _game(**options: object) -> TugOfWar:
    game = taut.make("tug-of-war", **options)
    assert isinstance(game, TugOfWar)
    return game


# -- layers ---------------------------------------------------------------------------------


def _imports(path: Path) -> set[str]:
    """The package's modules that ``path`` imports, anywhere but under ``if TYPE_CHECKING:``
    (``from taut.games.tug_of_war import x`` counts as importing the package itself)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            if name == PREFIX:
                found.add("__init__")
            elif name.startswith(PREFIX + "."):
                found.add(name.split(".")[3])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return found


def _graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p) for p in sorted(PACKAGE.glob("*.py"))}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt in stack:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in done:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        if node not in done:
            found = visit(node)
            if found:
                return found
    return None


def test_the_package_has_no_import_cycle() -> None:
    graph = _graph()
    assert {"model", "transitions", "state", "rules", "plugin"} <= set(graph)
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_check_can_fail(tmp_path: Path) -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from taut.games.tug_of_war.rules import TugOfWar\n"
        "def f():\n    from taut.games.tug_of_war import render\n"
        "    import taut.games.tug_of_war.state as s\n"
    )
    assert _imports(module) == {"__init__", "state"}


def test_every_module_imports_only_lower_layers() -> None:
    graph = _graph()
    assert set(graph) == set(LAYERS), "a module without a layer"
    for module, imported in graph.items():
        for other in imported:
            assert LAYERS[other] < LAYERS[module], f"{module} imports {other}"
    files = {p.stem: len(p.read_text().splitlines()) for p in PACKAGE.glob("*.py")}
    assert max(files.values()) <= 500, files


# -- plugin hooks ---------------------------------------------------------------------------


def _dealt(game: TugOfWar, seed: int = 1) -> TugState:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance():
        state = state.apply(state.random_joint(rng))
    assert isinstance(state, TugState)
    return state


def test_the_plugin_is_registered_with_its_facts() -> None:
    game = _game(players=3)
    assert plugin_of(game) is plugin
    assert plugin.seats_possible() == (2, 8)
    assert plugin.verb == "plays" and not plugin.draw_by_agreement
    assert plugin.summary and plugin.rules_text()
    legend = " ".join(plugin.legend(game))
    assert "3-5@1.0" in legend and "+50 wins" in legend
    assert "after 4 rounds" in " ".join(plugin.legend(_game(end="rounds", rounds=4)))


def test_render_narrate_and_help() -> None:
    game = _game(players=3)
    state = _dealt(game)
    seat = state.current
    view = state.view(seat)
    text = plugin.render(view)
    assert text == str(view) and f"Your hand (P{seat})" in text
    assert plugin.render(view, markup=True).count("\\[") == 0  # digits never open a tag
    tug_help = plugin.move_help(view, seat)
    assert tug_help is not None and "tile@train.end" in tug_help
    legal = " ".join(view.action_to_string(seat, a) for a in view.legal_actions(seat))
    assert tug_help.endswith(f"Legal: {legal}")
    # A draw is told without the tile; the deal shows once complete.
    rng = random.Random(3)
    state = _game(players=3, end="rounds", rounds=3).new_initial_state()
    told: list[str] = []
    draws = 0
    while not state.is_terminal():
        joint = state.random_joint(rng)
        after = state.apply(joint)
        lines = plugin.narrate(state, joint, after)
        told.extend(lines)
        if state.phase == DRAWING:
            assert lines == [f"{state.seat_name(state.current)} draws a tile."]
            draws += 1
        state = after
    assert told[0].startswith("Round 1 dealt.") and draws > 0


def test_bonus_help_says_how_to_give_a_share() -> None:
    game = _game(players=3)
    state = position(
        game,
        starters=[(3, 5), (2, 6), (1, 4)],
        hands=[[(5, 1)], [(6, 6), (3, 3)], [(4, 2), (0, 0)]],
        current=0,
    )
    state = state.apply(state.string_to_action(0, "5-1@0.1"))
    text = plugin.move_help(state.view(0), 0)
    assert text is not None and "P1 loses" in text and "-24@1" in text


def test_stats_and_game_length() -> None:
    game = _game(players=3, end="rounds", rounds=2)
    result = play_match(game, [RandomAgent()] * 3, seed=1)
    final = result.state
    assert isinstance(final, TugState)
    assert plugin.seat_stats(final) == {"final score": list(final.scores)}
    data = result.record.to_json()
    assert isinstance(data, dict)
    assert plugin.game_stats(final) == {"rounds": len(data["rounds"])}
    two = _game(players=2)  # 28 tiles: 28 + 56 + 2 * 29 + 2 per round
    assert plugin.max_game_length(two) == 144 * NOMINAL_ROUNDS
    assert plugin.max_game_length(_game(players=8)) > plugin.max_game_length(two)


def test_the_observer_fills_a_seat_view_only() -> None:
    game = _game(players=3)
    observer = plugin.observer()
    layout = build_layout([*header_fields(game), *observer.fields(game)])
    names = [f.name for f in layout.fields]
    assert names[3:6] == ["phase", "round", "in_game"] and names[-1] == "bonus_blocked"
    assert layout.size == 7 + 6 + 1 + 6 * 3 + 1 + 28 * 2 + 3 * 2 * 7 + 3 * 28 + 3 + 1 + 4 * 3 + 3
    state = _dealt(game)
    for seat in range(3):
        out = np.zeros(layout.size, dtype=np.float32)
        observer.fill(game, state.view(seat), seat, out, layout)
        hand = out[layout.slice("hand")]
        own = state.hands[seat]
        assert own is not None
        assert set(np.flatnonzero(hand)) == set(own)
        assert out[layout.start("phase") + 1] == 1.0  # turn
        assert list(out[layout.slice("hand_sizes")]) == list(state.sizes)


# -- the presenter --------------------------------------------------------------------------


def _lines(blocks: list[Block]) -> list[str]:
    """The text of the blocks as printed, line by line (markup read, styles dropped)."""
    out: list[str] = []
    for block in blocks:
        assert not isinstance(block, Rule)
        out.extend(Text.from_markup(block).plain.splitlines())
    return out


def test_moves_are_told_and_a_score_sheet_follows_every_round() -> None:
    game = _game(players=3, end="rounds", rounds=2)
    presenter = plugin.presenter(game)
    assert isinstance(presenter, TugPresenter)
    shown: list[list[str]] = []
    told: list[str] = []

    def observe(before: State, joint: dict[int, int], after: State) -> None:
        assert not presenter.redraw(before, joint, after)
        told.extend(plugin.narrate(before, joint, after))
        shown.append(_lines(presenter.after(before, joint, after, None)))

    final = play_match(game, [RandomAgent()] * 3, seed=4, observer=observe).state
    assert isinstance(final, TugState)
    sheets = [
        lines[lines.index("Score sheet:") + 1 :] for lines in shown if "Score sheet:" in lines
    ]
    assert len(sheets) == final.round
    head = sheets[0][0]
    assert head.split()[:4] == ["round", "P0", "P1", "P2"] and "how the round ended" in head
    assert sheets[0][1].split()[0] == "1" and "bonus" in sheets[0][1]
    # Every sheet holds every round so far; the last one ends with the final scores.
    assert [len(sheet) - 1 for sheet in sheets] == list(range(1, final.round + 1))
    last = sheets[-1][-1].split()
    assert [int(v) for v in last[1:4]] == list(final.scores)
    # Only public lines: the moves as narrated (a drawn tile never named), no board.
    everything = [line for lines in shown for line in lines]
    assert not any("Your hand" in line or "Hand (" in line for line in everything)
    assert any(line.endswith("draws a tile.") for line in everything)
    assert list(presenter.log) == told[-len(presenter.log) :] and len(presenter.log) == 8
    assert "Game over" in "\n".join(_lines(presenter.summary(final)))


def _stuck() -> TugState:
    """P0 to play (5-1 fits one place, 3-3 another); P1 holds 0-0 only and must draw."""
    return position(
        _game(players=2),
        starters=[(3, 5), (2, 6)],
        hands=[[(5, 1), (3, 3)], [(0, 0)]],
        boneyard=[(4, 4)],
        current=0,
    )


def test_forced_moves_are_the_only_legal_ones() -> None:
    state = _stuck()
    presenter = plugin.presenter(state.game)
    assert presenter.forced(state.view(0), 0) is None  # a real choice
    after = state.apply(state.string_to_action(0, "5-1@0.1"))
    assert presenter.forced(after.view(1), 1) == state.game.DRAW
    drew = after.apply(state.game.DRAW).apply({CHANCE_SEAT: state.game.dominoes.oriented(4, 4)})
    # The drawn 4-4 fits nowhere: the pass is forced too.
    assert presenter.forced(drew.view(1), 1) == state.game.PASS


def test_prompt_and_screen_show_the_seat_s_table() -> None:
    state = _stuck()
    presenter = plugin.presenter(state.game)
    prompt = _lines(presenter.prompt(state.view(0), 0))
    assert "Your hand (P0): 1-5 3-3   [12 pips]" in prompt
    assert prompt[-1] == "You can play: 5-1@0.1 3-3@0.0"
    assert not any("Recent moves" in line for line in prompt)
    after = state.apply(state.string_to_action(0, "5-1@0.1"))
    presenter.after(state, {0: state.string_to_action(0, "5-1@0.1")}, after, None)
    screen = _lines(presenter.screen(after.view(1), 1))
    assert screen[0] == "Recent moves:" and "P0 plays 1-5" in screen[1]
    assert "Your hand (P1): 0-0   [0 pips]" in screen and "Your hand (P0)" not in "\n".join(screen)
    assert screen[-1] == "You can play: draw"


def test_a_human_at_the_table_retries_until_legal_and_forced_moves_are_made() -> None:
    state = _stuck()
    presenter = plugin.presenter(state.game)
    answers = iter(["bogus", "draw", "0-0@0.0", "5-1@0.1"])
    shown = io.StringIO()
    table = TerminalTable(
        Console(file=shown, width=120), presenter, 1, read_line=lambda prompt, hidden: next(answers)
    )
    human = HumanAgent(table)
    view = state.view(0)
    assert view.action_to_string(0, human.act(view, 0, random.Random(0))) == "5-1@0.1"
    text = shown.getvalue()
    assert "not a Tug of War action" in text
    assert "can play, so may not draw" in text
    assert "does not hold 0-0" in text
    # P1 cannot play and must draw: no question is asked.
    after = state.apply(state.string_to_action(0, "5-1@0.1")).view(1)
    assert after.action_to_string(1, human.act(after, 1, random.Random(0))) == "draw"
    assert "P1: draw (the only move)." in shown.getvalue()
