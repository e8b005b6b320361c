"""Hostile numbers never crash a reader: integers of thousands of digits, indices far out
of range, as values, as keys and as text, in moves, seats, records, positions and puzzles.

Python refuses to turn more than 4,300 digits into an integer with a ValueError of its own;
every reader stops long before (:func:`taut.core.numbers.whole`, bounded patterns), and the
error names what was wrong. Each class is attacked on every game:

* move notation and JSON actions at positions of every kind (decision, simultaneous,
  chance) in several variants;
* seat names;
* records (the golden records of every game) with numbers, numeric strings and keys
  replaced, read by ``replay`` and ``play --resume``;
* positions (``replay --turns --start``), Track Tiles puzzles and answers.

Only exit statuses 0, 1 and 2 are allowed, never a traceback.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import taut
from taut.cli import cli
from taut.core import CHANCE_SEAT
from taut.core.errors import ActionError, TautError
from taut.core.game import Game, State
from taut.core.numbers import whole
from taut.core.registry import plugin

GOLDEN = Path(__file__).parent / "golden"
PAGE = "9" * 5000  # past Python's 4,300-digit limit on reading integers
LONG = "9" * 40  # far out of every range, still readable
TEXTS = [PAGE, LONG, "-" + PAGE, PAGE + "-1", "1-" + PAGE, "a" + PAGE, PAGE + "a",
         f"{PAGE}|{PAGE}", f"1-2@{PAGE}", f"1-2@p1.{PAGE}", f"+{PAGE}", f"{PAGE}=A",
         f"N{PAGE}", "-1", "1e999", "nan"]  # fmt: skip
#: Stands for an integer of 5,000 digits in JSON text (``json.dumps`` cannot write one).
HUGE = "__HUGE_INTEGER__"
VALUES: list[Any] = [10**1000, 2**64, -1, HUGE]
STRINGS = [PAGE, LONG, "-1", HUGE]

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("pulling-strings", {}),
    ("pulling-strings", {"edition": "published", "learning": "strict"}),
    ("push-pull", {}),
    ("push-pull", {"variant": "four"}),
    ("tug-of-war", {}),
    ("tug-of-war", {"players": 4}),
    ("tracks", {"size": 4}),
    ("tracks", {"size": 4, "roll": "each", "first": "random"}),
]


def test_every_game_is_attacked() -> None:
    assert {name for name, _ in VARIANTS} >= set(taut.games())


def test_whole_reads_only_short_ascii_digits() -> None:
    assert whole("17") == 17 and whole("0") == 0
    for text in ("", PAGE, LONG, "-1", "+1", " 1", "١", "1.0", "1e3"):
        assert whole(text) is None, text


def _positions(game: Game, count: int) -> Iterator[State]:
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(count):
        yield state
        if state.is_terminal():
            return
        state = state.apply(state.random_joint(rng))


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=lambda v: str(v))
def test_move_readers_refuse_hostile_numbers(name: str, options: dict[str, Any]) -> None:
    game = plugin(name).game_class(**options)
    seen = 0
    for state in _positions(game, 12):
        if state.is_terminal():
            break
        for seat in state.acting_seats():
            seen += 1
            for text in TEXTS:
                with pytest.raises(ActionError):
                    state.string_to_action(seat, text)
            for data in (10**1000, -(10**1000), PAGE, [PAGE], {PAGE: 1}, 2**64):
                with pytest.raises(ActionError):
                    state.action_from_json(seat, data)
    assert seen >= 5
    for text in (PAGE, LONG, str(10**30)):
        with pytest.raises(TautError):
            game.seat_index(text)
    assert CHANCE_SEAT < 0


def _sites(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """Where a number can be put: integers, strings of digits, and keys."""
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        yield "int", path
    elif isinstance(node, str):
        if node.lstrip("-").isdigit():
            yield "str", path
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _sites(value, (*path, i))
    elif isinstance(node, dict):
        for key, value in node.items():
            yield "key", (*path, key)
            yield from _sites(value, (*path, key))


def _replaced(doc: Any, kind: str, path: tuple[Any, ...], new: Any) -> str:
    doc = copy.deepcopy(doc)
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    if kind == "key":
        items = list(parent.items())
        parent.clear()
        parent.update((str(new) if k == path[-1] else k, v) for k, v in items)
    else:
        parent[path[-1]] = new
    text = json.dumps(doc)
    return text.replace(f'"{HUGE}"', "7" * 5000).replace(HUGE, "7" * 5000)


def _mutants(doc: Any, sample: int, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    sites = list(_sites(doc))
    keys = [s for s in sites if s[0] == "key"]
    numbers = [s for s in sites if s[0] != "key"]
    picked = rng.sample(numbers, min(sample, len(numbers)))
    picked += [s for s in keys if str(s[1][-1]).lstrip("-").isdigit()]
    picked += rng.sample(keys, min(6, len(keys)))
    for kind, path in picked:
        for new in VALUES if kind == "int" else STRINGS:
            yield _replaced(doc, kind, path, new)


def _run(args: list[str]) -> int:
    result = CliRunner().invoke(cli, args)
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), (args, result.output, exc)
    assert result.exit_code in (0, 1, 2), (args, result.output)
    if result.exit_code == 2:
        assert "error" in result.output.lower(), result.output
    return result.exit_code


def _golden() -> list[Path]:
    return sorted(p for p in GOLDEN.glob("*.json"))


@pytest.mark.parametrize("path", _golden(), ids=lambda p: p.stem)
def test_records_with_hostile_numbers_are_refused_cleanly(path: Path, tmp_path: Path) -> None:
    record = json.loads(path.read_text())["record"]
    name = record.get("game") or "tug-of-war"
    target = tmp_path / "record.json"
    refused = 0
    for text in _mutants(record, 8, len(path.name)):
        target.write_text(text)
        refused += _run(["replay", name, str(target)]) == 2
        _run(["play", name, "--resume", str(target), "--seat", "0=random", "--seat", "1=random"])
    assert refused > 0  # the attack reaches the readers


def test_a_record_whose_meta_holds_a_seed_resumes(tmp_path: Path) -> None:
    """Older records kept their seed in "meta": resuming one crashed on the double seed."""
    record = json.loads((GOLDEN / "legacy-pulling-strings.json").read_text())["record"]
    assert record["meta"].get("seed") is not None
    del record["outcome"]
    record["moves"] = record["moves"][:3]
    target = tmp_path / "record.json"
    target.write_text(json.dumps(record))
    code = _run(["play", "pulling-strings", "--resume", str(target), "--x", "random",
                 "--o", "random"])  # fmt: skip
    assert code == 0


@pytest.mark.parametrize(("name", "options"), VARIANTS[::2], ids=lambda v: str(v))
def test_positions_with_hostile_numbers_are_refused_cleanly(
    name: str, options: dict[str, Any]
) -> None:
    game = plugin(name).game_class(**options)
    state = list(_positions(game, 5))[-1]
    flags = [x for k, v in options.items() for x in ("-O", f"{k}={v}")]
    for text in _mutants(state.to_json(), 10, 1):
        _run(["replay", name, *flags, "--turns", "", "--start", text])


def test_puzzles_and_answers_with_hostile_numbers_are_refused_cleanly(tmp_path: Path) -> None:
    made = CliRunner().invoke(cli, ["tracks", "puzzle", "--size", "4", "--seed", "2", "--json"])
    puzzle = json.loads(made.output)
    good = tmp_path / "puzzle.json"
    good.write_text(made.output)
    answer = {"tiles": [[1, 2, 3, 1], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]}
    target = tmp_path / "hostile.json"
    refused = 0
    for text in _mutants(puzzle, 12, 5):
        target.write_text(text)
        refused += _run(["tracks", "solve", str(target)]) == 2
    for text in _mutants(answer, 12, 6):
        target.write_text(text)
        _run(["tracks", "check", str(good), str(target)])
    assert refused > 0
