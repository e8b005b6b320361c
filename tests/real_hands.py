"""Real signers' hands for tests: landmarks of people fingerspelling (``data/signs``) that
the shipped recogniser reads as their letter, in one unit, as a camera would give them."""

from __future__ import annotations

from functools import cache

from taut.games.pulling_strings.signs.classify import classify
from taut.games.pulling_strings.signs.skeleton import Vec
from taut.games.pulling_strings.signs.train import default_data, read_set

#: The signer whose hands the tests sign with.
SIGNER = "real_signer_a.json"


@cache
def _signer(name: str) -> tuple[tuple[str, tuple[Vec, ...]], ...]:
    real = read_set(default_data() / name)
    return tuple((k, tuple(p)) for k, p in zip(real.letters, real.points, strict=True))


def real_hand(letter: str, nth: int = 0, signer: str = SIGNER) -> list[Vec]:
    """The ``nth`` hand of ``signer`` signing ``letter`` (a still letter) that the shipped
    recogniser reads as ``letter``."""
    found = 0
    for said, points in _signer(signer):
        if said == letter and classify(list(points)).letter == letter:
            if found == nth:
                return list(points)
            found += 1
    raise AssertionError(f"{signer} has no hand of {letter} read as {letter} (number {nth})")
