"""Dealing solitaire puzzles: only winnable ones unless raw, reproducibly, with a count."""

from __future__ import annotations

import pytest

from taut.core.chance import make_rng
from taut.games.tracks.deal import deal, differ_text, tilings_text, unwinnable_text
from taut.games.tracks.solitaire import PuzzleError, generate, needed_differences
from taut.games.tracks.solver import solve


def test_every_deal_can_be_won_and_a_winnable_first_deal_is_kept() -> None:
    redealt = 0
    for seed in range(60):
        raw = deal(None, make_rng(seed), raw=True, cap=1)
        assert raw.deals == 1 and raw.puzzle == generate(None, make_rng(seed))
        kept = deal(None, make_rng(seed), cap=1)
        assert kept.winnable and kept.puzzle.size == raw.puzzle.size
        res = solve(kept.puzzle.size, kept.puzzle.partner(), kept.puzzle.original, cap=1)
        assert res.differs is not None and res.differs >= kept.needed
        if raw.winnable:
            assert kept.puzzle == raw.puzzle and kept.deals == 1
        else:
            redealt += 1
            assert kept.deals > 1
    # About one deal in five needs dealing again (most of them small boards).
    assert 5 <= redealt <= 25


def test_deals_are_reproducible_and_counted_exactly() -> None:
    a = deal(3, make_rng(7))
    b = deal(3, make_rng(7))
    assert (a.puzzle, a.deals, a.result.tiles) == (b.puzzle, b.deals, b.result.tiles)
    p = a.puzzle
    exact = solve(p.size, p.partner(), p.original, cap=None)
    assert (a.result.solutions, a.result.capped) == (exact.solutions, False)
    assert a.result.differs == exact.differs
    assert deal(7, make_rng(1), cap=50).result.capped


def test_the_threshold_sets_what_counts_as_winnable() -> None:
    easy = deal(2, make_rng(14), threshold=0.0)
    assert easy.deals == 1 and easy.needed == 0
    with pytest.raises(PuzzleError, match="no 2x2 board in 5 deals"):
        deal(2, make_rng(1), threshold=1.0, tries=5)
    assert needed_differences(2, 0.25) == 1


def test_what_is_said_about_a_deal() -> None:
    one = deal(2, make_rng(14), raw=True)
    assert tilings_text(one.result) == "1 tiling joins exactly these pairs."
    assert unwinnable_text(one.result, 2) == (
        "No tiling differs from the original in 2 cells (the most is 0): this puzzle cannot be won."
    )
    many = deal(7, make_rng(1), cap=50)
    assert tilings_text(many.result) == "At least 50 tilings join exactly these pairs."
    assert [differ_text(n) for n in (1, 2)] == ["1 cell differs", "2 cells differ"]
