"""Golden records of real games replay to exactly the positions they had when recorded.

Each file under ``tests/golden/`` holds a record (as written by ``taut play``, ``selfplay``
or ``arena``, including records in the formats that came before the current one), the
number of positions along the game, a SHA-256 digest of every position's JSON in order,
and the final position. ``tests/golden/README.md`` says how they were made.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from taut.core.record import GameRecord

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def digest_positions(record: GameRecord) -> tuple[int, str, object]:
    """How many positions a replay passes, their digest and the last one's JSON."""
    h = hashlib.sha256()
    count = 0
    last: object = None
    for _, state in record.positions():
        last = state.to_json()
        h.update(json.dumps(last, sort_keys=True).encode())
        h.update(b"\n")
        count += 1
    return count, h.hexdigest(), last


def test_there_are_golden_records_of_every_kind() -> None:
    names = {p.name for p in FILES}
    assert any(n.startswith("legacy-") for n in names)
    assert any(not n.startswith("legacy-") for n in names)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_record_replays_to_the_same_positions(path: Path) -> None:
    golden = json.loads(path.read_text())
    record = GameRecord.from_json(golden["record"])
    count, digest, final = digest_positions(record)
    assert count == golden["positions"]
    assert final == golden["final"]
    assert digest == golden["positions_sha256"]
