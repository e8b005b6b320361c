"""The solitaire solver against brute force, the path tracer, and itself (SAT vs DP)."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from functools import cache

import pytest

from taut.games.tracks.paths import matching
from taut.games.tracks.solitaire import (
    Puzzle,
    PuzzleError,
    check_answer,
    generate,
    pairs_of,
    puzzle_from_json,
    puzzle_from_text,
    realises,
    tiles_from_text,
)
from taut.games.tracks.solver import FrontierSolver, max_difference_sat, sat_available, solve

needs_sat = pytest.mark.skipif(not sat_available(), reason="python-sat is not installed")


@cache
def tilings_by_pairing(size: int) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    """Every full tiling of a small board, grouped by the pairing its paths make."""
    groups: dict[tuple[int, ...], list[tuple[int, ...]]] = defaultdict(list)
    for tiles in itertools.product((1, 2, 3), repeat=size * size):
        m = matching(tiles, size)
        groups[tuple(u for u in m if u is not None)].append(tiles)
    return dict(groups)


def brute_best(tilings: list[tuple[int, ...]], original: tuple[int, ...]) -> int:
    return max(sum(a != b for a, b in zip(t, original, strict=True)) for t in tilings)


def test_3x3_has_19683_tilings() -> None:
    groups = tilings_by_pairing(3)
    assert sum(len(v) for v in groups.values()) == 3**9


@pytest.mark.parametrize("size", [2, 3])
def test_counts_agree_with_brute_force(size: int) -> None:
    groups = tilings_by_pairing(size)
    for partner, tilings in sorted(groups.items()):
        count, capped = FrontierSolver(size, partner).count(None)
        assert (count, capped) == (len(tilings), False)
        if len(tilings) > 3:
            assert FrontierSolver(size, partner).count(3) == (3, True)


@pytest.mark.parametrize("size", [2, 3])
@pytest.mark.parametrize("method", ["dp", pytest.param("sat", marks=needs_sat)])
def test_maximum_difference_agrees_with_brute_force(size: int, method: str) -> None:
    groups = tilings_by_pairing(size)
    items = sorted(groups.items())
    rng = random.Random(11)
    if size == 3 and method == "sat":
        items = rng.sample(items, 800)  # every pairing with the frontier passes
    for partner, tilings in items:
        original = rng.choice(tilings)
        res = solve(size, partner, original, cap=None, method=method)
        best = brute_best(tilings, original)
        assert res.solutions == len(tilings)
        if best == 0:
            assert res.tiles is None and res.differs == 0
        else:
            assert res.tiles is not None and res.differs == best
            # Re-checked by the independent tracer.
            assert tuple(matching(res.tiles, size)) == partner
            assert sum(a != b for a, b in zip(res.tiles, original, strict=True)) == best


@pytest.mark.parametrize("size", [4, 5])
def test_sat_and_frontier_passes_agree(size: int) -> None:
    if not sat_available():
        pytest.skip("python-sat is not installed")
    for seed in range(4):
        puzzle = generate(size, random.Random(seed))
        assert puzzle.original is not None
        partner = puzzle.partner()
        dp_tiles, dp_best = FrontierSolver(size, partner).max_difference(puzzle.original)
        sat_tiles, sat_best = max_difference_sat(size, partner, puzzle.original)
        assert dp_best == sat_best
        for tiles in (dp_tiles, sat_tiles):
            assert tiles is not None and realises(puzzle, tiles)


@pytest.mark.parametrize("size", [2, 4, 6, 7])
def test_solver_answers_recheck_with_the_tracer(size: int) -> None:
    for seed in range(2):
        puzzle = generate(size, random.Random(100 + seed))
        res = solve(puzzle.size, puzzle.partner(), puzzle.original)
        assert res.solutions >= 1  # the original is one
        if res.tiles is not None:
            assert realises(puzzle, res.tiles)
            report = check_answer(puzzle, res.tiles)
            assert not report.problems and report.differs == res.differs


def test_puzzle_without_original_gets_some_tiling() -> None:
    puzzle = generate(5, random.Random(3))
    bare = Puzzle(puzzle.size, puzzle.pairs)
    for method in ("dp", "auto"):
        res = solve(bare.size, bare.partner(), None, method=method)
        assert res.tiles is not None and res.differs is None and realises(bare, res.tiles)


def test_impossible_pairing_has_no_tiling() -> None:
    # Most pairings of the eight units of a 2x2 board are made by no tiling: take the first
    # such pairing found by brute force and check that the solver finds nothing either.
    made = set(tilings_by_pairing(2))
    units = list(range(8))
    for perm in itertools.permutations(units[1:]):
        partner = [0] * 8
        pairs = [(0, perm[0])] + [(perm[i], perm[i + 1]) for i in range(1, 7, 2)]
        for a, b in pairs:
            partner[a], partner[b] = b, a
        if tuple(partner) not in made:
            break
    res = solve(2, partner, None)
    assert res.solutions == 0 and res.tiles is None


def test_generated_puzzles_label_clockwise_and_round_trip() -> None:
    puzzle = generate(None, random.Random(2))
    assert 2 <= puzzle.size <= 7
    assert puzzle.original is not None
    assert pairs_of(puzzle.original, puzzle.size) == puzzle.pairs
    assert puzzle_from_json(puzzle.to_json()) == puzzle
    # The first label is on N0.
    assert puzzle.pairs[0][0] == 0


MALFORMED = [
    ("[1, 2]", "JSON object"),
    ("{not json", "not valid JSON"),
    ('{"size": 1, "pairs": []}', "'size' must be 2..12"),
    ('{"size": "3", "pairs": []}', "'size' must be an integer"),
    ('{"size": 2, "pairs": {}}', "'pairs' must be a list"),
    ('{"size": 2, "pairs": [[["N", 0], ["N", 0]]]}', "to itself"),
    ('{"size": 2, "pairs": [[["N", 0], ["X", 1]]]}', "side 'X'"),
    ('{"size": 2, "pairs": [[["N", 0], ["S", 2]]]}', "S2 is off the 2x2 board"),
    ('{"size": 2, "pairs": [[["N", 0], ["S", -1]]]}', "off the 2x2 board"),
    ('{"size": 2, "pairs": [[["N", 0], ["S", 1.5]]]}', "not an integer"),
    ('{"size": 2, "pairs": [[["N", 0]]]}', "not a list of two units"),
    ('{"size": 2, "pairs": [[["N", 0], ["S", 0]], [["S", 0], ["E", 1]]]}', "S0 is in two pairs"),
    ('{"size": 2, "pairs": [[["N", 0], ["S", 0]]]}', "N1, E0, E1, S1, W0, W1 are in no pair"),
    ('{"size": 2, "pairs": [], "colour": 1}', "unknown puzzle field"),
]


@pytest.mark.parametrize(("text", "why"), MALFORMED)
def test_malformed_puzzles_are_refused(text: str, why: str) -> None:
    with pytest.raises(PuzzleError, match=why.replace("(", r"\(")):
        puzzle_from_text(text)


def test_original_must_realise_the_pairs_and_be_well_formed() -> None:
    good = generate(3, random.Random(1)).to_json()
    bad = dict(good, original=[[1, 1, 1], [1, 1, 1], [1, 1, 9]])
    with pytest.raises(PuzzleError, match="row 3, column 3"):
        puzzle_from_json(bad)
    wrong = dict(good, original=[[3, 3, 3]] * 3)
    if puzzle_from_json(good).original != (3,) * 9:
        with pytest.raises(PuzzleError, match="does not realise"):
            puzzle_from_json(wrong)


def test_answers_in_every_format() -> None:
    assert tiles_from_text('{"tiles": [[1, 2], [3, 1]]}', 2) == (1, 2, 3, 1)
    assert tiles_from_text("[[1, 2], [3, 1]]", 2) == (1, 2, 3, 1)
    assert tiles_from_text("12\n3 1\n", 2) == (1, 2, 3, 1)
    for text, why in [
        ("12\n34", "not a kind"),
        ("12", "2 rows"),
        ('{"tiles": null}', "no tiles"),
        ("{oops", "not valid JSON"),
        ("123\n12", "must hold 2 kinds"),
    ]:
        with pytest.raises(PuzzleError, match=why):
            tiles_from_text(text, 2)


def test_check_lists_what_is_wrong() -> None:
    puzzle = puzzle_from_text(
        '{"size": 2, "pairs": [["N0", "S0"], ["N1", "S1"], ["W0", "E0"], ["W1", "E1"]],'
        ' "original": [[3, 3], [3, 3]]}'
    )
    report = check_answer(puzzle, (1, 1, 1, 1))
    assert not report.solved and len(report.problems) == 4
    assert (
        "pair A (N0-S0): the path from N0 runs through a1 and leaves at W0" in (report.problems[0])
    )
    same = check_answer(puzzle, (3, 3, 3, 3))
    assert not same.problems and same.differs == 0 and not same.solved
    assert check_answer(puzzle, (3, 3, 3, 3), threshold=0.0).solved
