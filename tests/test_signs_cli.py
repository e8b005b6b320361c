"""``taut signs recognize``: answers per hand in text and JSON, and bad input refused with
exit status 2 and a message naming what is wrong."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from taut.cli import cli
from taut.games.pulling_strings.signs import synth
from taut.games.pulling_strings.signs.classify import classify, classify_frames, square_up
from taut.games.pulling_strings.signs.features import mirror
from tests.real_hands import real_hand
from tests.test_import_time import command_imports, heavy_among


def run(tmp_path: Path, data: Any, *args: str, raw: str | None = None) -> Any:
    """``taut signs recognize`` on a file holding ``data`` (or the text ``raw``)."""
    path = tmp_path / "hands.json"
    path.write_text(raw if raw is not None else json.dumps(data))
    return CliRunner().invoke(cli, ["signs", "recognize", str(path), *args])


def test_every_hand_is_answered_in_order(tmp_path: Path) -> None:
    rng = random.Random(1)
    a, l_right = real_hand("A"), real_hand("L")
    j = synth.sequence("J", rng)
    data = {
        "hands": [
            {"landmarks": a, "id": "ignored"},
            {"landmarks": mirror(l_right), "handedness": "Left"},
            {"frames": j},
            {"landmarks": synth.garbage(rng)},
        ],
        "camera": "ignored too",
    }
    result = run(tmp_path, data, "--json")
    assert result.exit_code == 0, result.output
    answers = json.loads(result.output)
    assert [x["letter"] for x in answers] == ["A", "L", "J", None]
    expected = classify(a).to_json()
    assert answers[0]["top"] == [[k, round(p, 6)] for k, p in expected["top"]]
    assert answers[2]["top"][0][0] == "J" == classify_frames(j).letter
    text = run(tmp_path, data)
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert lines[0].startswith("hand 1: A  (A 0.")
    assert lines[1].startswith("hand 2: L  (L ")
    assert lines[2].startswith("hand 3: J  (J ")
    assert lines[3].startswith("hand 4: not sure  (")


def test_standard_input_and_no_hands(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["signs", "recognize", "-", "--json"], input='{"hands": []}')
    assert result.exit_code == 0 and json.loads(result.output) == []
    assert run(tmp_path, {"hands": []}).output == "no hands\n"


def _hand() -> list[list[float]]:
    return [list(p) for p in synth.hand("B", random.Random(2))]


def _with(index: int, value: Any) -> dict[str, Any]:
    points: list[Any] = _hand()
    points[index] = value
    return {"hands": [{"landmarks": points}]}


BAD: list[tuple[str, Any, str | None, str]] = [
    ("not json", None, "hands: [", "not valid JSON"),
    ("nan", None, '{"hands": [{"landmarks": [[NaN, 0, 0]]}]}', "NaN"),
    ("no hands key", {"hand": []}, None, 'list "hands"'),
    ("a list", [1, 2], None, 'list "hands"'),
    ("hand not object", {"hands": [3]}, None, "hand 1 must be an object"),
    ("no landmarks", {"hands": [{"points": []}]}, None, 'either "landmarks" or "frames"'),
    ("both", {"hands": [{"landmarks": [], "frames": []}]}, None, 'either "landmarks" or "frames"'),
    ("20 points", {"hands": [{"landmarks": _hand()[:20]}]}, None, "21 points [x, y, z], not 20"),
    ("a string", _with(3, ["0.5", 0.1, 0.0]), None, "point 3 x must be a number"),
    ("a bool", _with(4, [0.5, True, 0.0]), None, "point 4 y must be a number"),
    ("two numbers", _with(5, [0.5, 0.1]), None, "point 5 must be a list of three numbers"),
    ("huge", _with(6, [1e300, 0.1, 0.0]), None, "point 6 x is 1e+300"),
    ("overflow", None, '{"hands": [{"landmarks": [[1e999, 0, 0]]}]}', "21 points"),
    ("no frames", {"hands": [{"frames": []}]}, None, "frames must be a list of 1 to 1000"),
    ("bad frame", {"hands": [{"frames": [_hand(), [[0, 0, 0]]]}]}, None, "hand 1 frame 2 must be"),
    ("handedness", {"hands": [{"landmarks": _hand(), "handedness": 1}]}, None, '"left" or'),
]


@pytest.mark.parametrize(("data", "raw", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_is_refused(tmp_path: Path, data: Any, raw: str | None, message: str) -> None:
    result = run(tmp_path, data, raw=raw)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_a_huge_number_in_a_full_hand_is_refused(tmp_path: Path) -> None:
    text = json.dumps(_with(0, [0.5, 0.5, 0.0])).replace("0.5, 0.5, 0.0", "1e999, 0.5, 0.0", 1)
    result = run(tmp_path, None, raw=text)
    assert result.exit_code == 2
    assert "point 0 x is inf" in result.output


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["signs", "recognize", str(tmp_path / "none.json")])
    assert result.exit_code == 2
    assert "cannot read" in result.output


def test_the_command_is_listed_and_light() -> None:
    assert "signs" in CliRunner().invoke(cli, ["--help"]).output
    modules = command_imports("signs", "recognize", "--help")
    assert heavy_among(modules) == []
    # The recogniser itself is loaded only when a file is read.
    assert "taut.games.pulling_strings.signs.classify" not in modules


def test_landmarks_normalised_to_a_wide_image_are_put_in_one_unit(tmp_path: Path) -> None:
    hands = [real_hand(letter) for letter in "VKYQ"]
    k = 1280 / 720
    # As MediaPipe gives them for a 1280 x 720 image: x and z as fractions of the width.
    squeezed = [[(x / k, y, z / k) for x, y, z in h] for h in hands]
    data = {"hands": [{"landmarks": h} for h in squeezed], "image": {"width": 1280, "height": 720}}
    said = json.loads(run(tmp_path, data, "--json").output)
    assert [s["letter"] for s in said] == [classify(h).letter for h in hands] == list("VKYQ")
    assert classify(square_up(squeezed[0], 1280, 720)).letter == "V"
    for bad in (
        {"width": 0, "height": 720},
        {"width": 1280},
        [1280, 720],
        {"width": "1", "height": 2},
    ):
        result = run(tmp_path, {**data, "image": bad})
        assert result.exit_code == 2
        assert '"image" must be' in result.output
