"""The drawings' side of the fingerspelling recogniser: the hand model read from the
drawings, the shipped templates, the template features' invariances, synthetic hands of
every letter read by the templates, and J and Z read from motion on top of the learnt
recogniser (whose own tests are in ``test_signs_learnt.py``)."""

from __future__ import annotations

import math
import random
import string
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taut.games.pulling_strings.handshape_poses import POSES
from taut.games.pulling_strings.signs import synth
from taut.games.pulling_strings.signs.classify import (
    Recognition,
    classify,
    classify_frames,
    motion_frames,
)
from taut.games.pulling_strings.signs.features import FEATURES, features, mirror, palm_side
from taut.games.pulling_strings.signs.model import (
    MOTION_LETTERS,
    STATIC_LETTERS,
    hand_spec,
    letter_points,
    path_joints,
)
from taut.games.pulling_strings.signs.skeleton import FingerJoints, Vec, skeleton
from taut.games.pulling_strings.signs.templates import build, dumps, load, shipped_path


def templates_say(points: list[Vec], handedness: str | None = None) -> Recognition:
    """What the drawings' templates alone read in one frame."""
    return motion_frames([points], handedness, load())


def values(letter: str) -> dict[str, float]:
    """The features of ``letter``'s drawn handshape."""
    return dict(zip(FEATURES, features(letter_points(letter)), strict=True))


def test_the_shipped_templates_are_what_the_generator_makes() -> None:
    assert shipped_path().read_text(encoding="utf-8") == dumps(build()), (
        "templates.json is stale: run python -m taut.games.pulling_strings.signs.templates"
    )


def test_the_templates_cover_every_letter() -> None:
    model = load()
    assert sorted(model["letters"]) == list(string.ascii_uppercase)
    assert model["static"] == [ch for ch in string.ascii_uppercase if ch not in "JZ"]
    assert sorted(model["motion"]) == ["J", "Z"] == sorted(MOTION_LETTERS)
    for template in model["letters"].values():
        assert len(template["mean"]) == len(template["tol"]) == len(FEATURES)
        assert all(t > 0 for t in template["tol"])


@pytest.mark.parametrize("letter", list(string.ascii_uppercase))
def test_the_model_follows_the_drawn_finger_states(letter: str) -> None:
    v = values(letter)
    for name in ("index", "middle", "ring", "little"):
        finger = POSES[letter].finger(name)
        if POSES[letter].view == "side":
            continue
        if finger.state == "straight" and finger.reach == 1.0:
            assert abs(v[f"{name}.knuckle"]) < 0.05 and v[f"{name}.bend"] < 0.05
        if finger.state == "curled":
            assert v[f"{name}.knuckle"] > 0.8 and v[f"{name}.bend"] > 0.8


def test_the_model_reads_touches_views_and_motion_from_the_drawings() -> None:
    # The fingertips the drawings put on the thumb tip touch it; no others do.
    assert hand_spec("D").contacts == ("middle",)
    assert hand_spec("F").contacts == ("index",)
    assert set(hand_spec("O").contacts) == {"index", "middle"}
    assert hand_spec("C").contacts == ()
    assert values("F")["index.to_thumb"] < 0.2 < values("W")["index.to_thumb"]
    assert values("O")["index.to_thumb"] < 0.2 < values("C")["index.to_thumb"]
    # Seen from the back and pointing sideways or down.
    assert values("G")["hand.facing"] < -0.9 < 0.9 < values("L")["hand.facing"]
    assert values("U")["hand.direction"] < 0.1 < 0.9 < values("H")["hand.direction"]
    assert values("Q")["hand.direction"] > 1.5
    # Crossed, together, spread.
    assert values("R")["gap.index_middle"] < 0 < values("U")["gap.index_middle"]
    assert values("V")["gap.index_middle"] > values("U")["gap.index_middle"] + 0.3
    # The thumb: beside the fist (A), across it (S), between the fingers (T, N, M).
    across = {k: values(k)["thumb.across"] for k in "ASTNM"}
    assert across["A"] > across["T"] > across["S"] > across["M"]
    assert across["N"] > across["M"]
    # The X's index rises straight, then hooks; the T's is folded down the palm.
    mcp, pip, dip = path_joints(POSES["X"].index.d)
    assert mcp == 0 and pip + dip > 150
    assert path_joints(POSES["T"].index.d) == (85.0, 100.0, 70.0)


def rotated(points: list[Vec], degrees: float) -> list[Vec]:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return [(x * c - y * s, x * s + y * c, z) for x, y, z in points]


def test_the_features_ignore_place_and_size_and_the_hand_angles_ignore_turns() -> None:
    hand = synth.hand("K", random.Random(1), synth.LOW, left=False)
    base = features(hand)
    moved = features([(3 * x + 5, 3 * y - 2, 3 * z) for x, y, z in hand])
    assert moved == pytest.approx(base, abs=1e-9)
    turned = dict(zip(FEATURES, features(rotated(hand, 40)), strict=True))
    for name, value in zip(FEATURES, base, strict=True):
        if name not in ("hand.direction",):
            assert turned[name] == pytest.approx(value, abs=1e-9), name
    assert turned["hand.direction"] != pytest.approx(base[FEATURES.index("hand.direction")])


def test_a_left_hand_is_a_mirrored_right_hand() -> None:
    rng = random.Random(2)
    for letter in STATIC_LETTERS:
        right = synth.hand(letter, rng, synth.LOW, left=False)
        left = mirror(right)
        assert palm_side(right) > 0 > palm_side(left)
        said = templates_say(right, "right")
        assert templates_say(left, "left") == said
        assert templates_say(left) == said
        # The learnt recogniser reads a hand and its mirror image alike, whatever it is told.
        learnt = classify(right)
        assert classify(left) == learnt == classify(left, "right")


@pytest.mark.parametrize("letter", STATIC_LETTERS)
def test_synthetic_hands_of_every_letter_are_recognised(letter: str) -> None:
    rng = random.Random(f"signs-{letter}")
    right = 0
    for k in range(12):
        # Both hands, turned up to 25 degrees either way, at every size and place.
        hand = synth.hand(letter, rng, synth.LOW, left=k % 2 == 1)
        right += templates_say(hand).letter == letter
    assert right >= 11


@pytest.mark.parametrize("letter", ["A", "B", "G", "L", "O", "V", "Y"])
@pytest.mark.parametrize("turn", [-25.0, 25.0])
def test_a_hand_turned_25_degrees_is_recognised(letter: str, turn: float) -> None:
    points, spec = synth.posed(letter, random.Random(3), synth.Noise(0, 0, 0, 0, 0, 0, 0, 0, 0))
    where = synth.Placement(turn, 0.0, 0.0, False, 0.02, (0.5, 0.5))
    hand = synth.place(points, spec.view, spec.turn, where)
    assert templates_say(hand).letter == letter
    assert templates_say(mirror(hand), "left").letter == letter


def test_scores_are_ranked_and_sum_to_at_most_one() -> None:
    rng = random.Random(4)
    for letter in STATIC_LETTERS:
        result = classify(synth.hand(letter, rng, synth.HIGH))
        scores = [p for _, p in result.top]
        assert scores == sorted(scores, reverse=True)
        assert all(0 <= p <= 1 for p in scores) and sum(scores) <= 1 + 1e-12
        assert len(result.top) == 5 and "J" not in dict(result.top)


def test_a_random_hand_is_not_sure() -> None:
    rng = random.Random(5)
    unsure = sum(classify(synth.garbage(rng)).letter is None for _ in range(100))
    assert unsure >= 95


def test_a_hand_with_no_palm_is_not_sure() -> None:
    flat: list[Vec] = [(0.5, 0.5, 0.0)] * 21
    assert classify(flat).letter is None
    assert classify(flat).top == []


def test_a_wrong_handedness_name_is_an_error() -> None:
    hand = synth.hand("A", random.Random(6))
    with pytest.raises(ValueError, match="left, right"):
        classify(hand, "both")
    with pytest.raises(ValueError, match="at least one frame"):
        classify_frames([])


@pytest.mark.parametrize("letter", ["J", "Z"])
@pytest.mark.parametrize("noise", ["low", "high"])
def test_j_and_z_are_recognised_by_their_motion(letter: str, noise: str) -> None:
    rng = random.Random(f"motion-{letter}-{noise}")
    right = 0
    for k in range(10):
        frames = synth.sequence(
            letter, rng, synth.LEVELS[noise], rng.randint(6, 30), left=k % 2 == 0
        )
        right += classify_frames(frames).letter == letter
    assert right >= 9


@pytest.mark.parametrize("letter", ["I", "D", "S", "Y"])
def test_a_still_sequence_is_not_j_or_z(letter: str) -> None:
    rng = random.Random(f"still-{letter}")
    for _ in range(10):
        frames = synth.sequence(letter, rng, synth.HIGH, rng.randint(6, 30))
        assert motion_frames(frames, None, load()).letter == letter
        assert classify_frames(frames).letter not in ("J", "Z")


def test_the_wrong_motion_is_not_j_or_z() -> None:
    rng = random.Random(7)
    # The J's handshape drawing the Z's path, the Z's drawing the J's: neither letter.
    said = [
        classify_frames(synth.sequence(letter, rng, synth.LOW, path=other)).letter
        for letter, other in (("J", "Z"), ("Z", "J"))
        for _ in range(10)
    ]
    assert sum(s in ("J", "Z") for s in said) <= 1
    # One frame of a J is an I: J needs its motion.
    assert templates_say(synth.sequence("J", rng, synth.LOW)[0]).letter == "I"
    assert classify(synth.sequence("J", rng, synth.LOW)[0]).letter in ("I", None)


hands = st.tuples(st.sampled_from(STATIC_LETTERS), st.integers(0, 10_000), st.booleans()).map(
    lambda t: synth.hand(t[0], random.Random(t[1]), synth.HIGH, left=t[2])
)


@settings(max_examples=60, deadline=None)
@given(
    hand=hands,
    dx=st.floats(-1000, 1000),
    dy=st.floats(-1000, 1000),
    dz=st.floats(-10, 10),
    scale=st.floats(0.01, 1000),
)
def test_moving_and_scaling_a_hand_never_changes_the_answer(
    hand: list[Vec], dx: float, dy: float, dz: float, scale: float
) -> None:
    before = classify(hand)
    after = classify([(x * scale + dx, y * scale + dy, z * scale + dz) for x, y, z in hand])
    assert after.letter == before.letter
    assert [k for k, _ in after.top[:2]] == [k for k, _ in before.top[:2]]
    assert [p for _, p in after.top] == pytest.approx([p for _, p in before.top], abs=1e-6)


def test_an_open_hand_is_not_a_letter() -> None:
    # The "5": every finger straight and spread, the thumb out. B is the nearest template
    # (its thumb folded), but not near enough; the learnt recogniser is not sure either.
    rng = random.Random(8)
    spread = {"index": 15.0, "middle": 0.0, "ring": -15.0, "little": -30.0}
    five = replace(
        hand_spec("L"), fingers={k: FingerJoints(0.0, 0.0, 0.0, lean) for k, lean in spread.items()}
    )
    for _ in range(10):
        where = synth.random_placement(rng, synth.LOW)
        hand = synth.place(skeleton(five), "front", 0.0, where)
        assert classify(hand).letter is None
        result = templates_say(hand)
        assert result.letter is None
        assert result.top[0][0] == "B"
