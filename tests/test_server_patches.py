"""Pictures sent as patches: a patch turns the picture a client holds into the new one
exactly (every game's pictures through random games), is sent only where it is much
shorter, is made once per pair of pictures, and a client that asks for patches makes every
frame whole again; one that did not ask gets whole pictures as before."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from taut.core.forfeit import drawable
from taut.core.registry import games, make, plugin
from taut.server.play import frames, patches
from taut.server.play.frames import FrameParts, boards, with_kept
from tests.test_server_kit import bench, run

#: Each game as the browser plays it.
OPTIONS: dict[str, dict[str, Any]] = {"tug-of-war": {"players": 2}, "tracks": {"size": 6}}


def pictures_of_a_game(name: str, seed: int) -> list[str]:
    """Every picture one seat is shown through a random game, in order (the seat to move
    sees its moves offered, then not)."""
    game = make(name, **OPTIONS.get(name, {}))
    found = plugin(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    for _ in range(80):
        if state.is_terminal():
            break
        view = state.view(0)
        legal = (
            [view.action_to_string(0, a) for a in view.legal_actions(0)]
            if 0 in view.acting_seats()
            else []
        )
        out.append(boards(found, drawable(view), 0, legal)["board"])
        state = state.apply(
            state.sample_chance(rng) if state.is_chance() else state.random_joint(rng)
        )
    return out


@pytest.mark.parametrize("name", games())
def test_a_patch_makes_exactly_the_new_picture(name: str) -> None:
    shown = pictures_of_a_game(name, seed=4)
    assert len(shown) > 3
    sent = shorter = 0
    for old, new in itertools.pairwise(shown):
        made = patches.patch(old, new)
        edited = patches.patch(old, new, edits=True)
        if made is None:
            continue
        sent += 1
        assert edited is not None and len(edited) <= len(made)
        shorter += len(edited) < len(made)
        for change in (json.loads(made), json.loads(edited)):
            assert patches.apply(old, change) == new
        assert len(made) <= patches.WORTH * len(new)
        assert not any(len(op) == 3 for op in json.loads(made)["ops"] if isinstance(op, list))
    assert sent > 0, "no picture of the game was sent as a patch"
    assert shorter > 0, "no patch was made shorter by editing tokens"


def test_a_token_is_edited_where_that_keeps_enough_of_it_and_both_are_ascii() -> None:
    old = (
        '<svg><g transform="translate(98 26)"><rect/></g><text>▶ P0 to move</text>'
        + "<rect/>" * 30
        + "</svg>"
    )
    new = old.replace("translate(98 26)", "translate(54 26)").replace("P0", "P1")
    change = json.loads(patches.patch(old, new, edits=True) or "null")
    # The group's tag is edited: its first 23 characters and its last 6 kept. The text
    # holds a character beyond ASCII (a length JavaScript counts otherwise): put in whole.
    assert change["ops"] == [2, [23, "54", 6], 2, [1, "text>▶ P1 to move"], 32]
    assert patches.apply(old, change) == new
    # A token changed all through is put in whole.
    other = old.replace('g transform="translate(98 26)"', "circle")
    assert [1, "circle>"] in json.loads(patches.patch(old, other, edits=True) or "null")["ops"]


def test_an_edit_that_does_not_fit_the_token_held_is_refused() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        patches.apply("<svg><g>a</g></svg>", {"ops": [1, [3, "x", 3], 2], "tokens": 4})
    with pytest.raises(ValueError, match="does not fit"):
        patches.apply("<svg>", {"ops": [2, [0, "x", 0]], "tokens": 3})


def test_a_patch_is_refused_when_it_does_not_fit() -> None:
    old = "<svg><g>a</g><rect/></svg>"
    with pytest.raises(ValueError, match="does not fit"):
        patches.apply("<svg><g>a</g></svg>", {"ops": [2, [1, "b"], 4], "tokens": 7})
    with pytest.raises(ValueError, match="does not fit"):
        patches.apply("<svg><g>a</g></svg>", {"ops": [2, [1], 2], "tokens": 5})
    with pytest.raises(ValueError, match="does not fit"):
        patches.apply(old, {"ops": [8], "tokens": 9})


def test_a_patch_as_long_as_the_picture_is_not_sent() -> None:
    assert patches.patch("<svg>one</svg>", "<svg>two</svg>") is None


def test_a_pair_of_pictures_is_compared_once(monkeypatch: pytest.MonkeyPatch) -> None:
    old = "<svg>" + "".join(f'<g data-id="p{i}"><rect x="{i}"/></g>' for i in range(50)) + "</svg>"
    new = old.replace('x="7"', 'x="70"')
    calls = []
    made = patches._made
    monkeypatch.setattr(patches, "_made", lambda *pair: calls.append(1) or made(*pair))
    first = patches.patch(old, new)
    assert first is not None and patches.patch(old, new) is first and calls == [1]
    # "", <svg>, then p0 to p6 (three tokens each), p7's <g>: kept; its rect: new.
    assert json.loads(first)["ops"] == [24, [1, 'rect x="70"/>'], 128]


def test_a_frame_for_a_client_that_takes_patches() -> None:
    old = "<svg>" + "".join(f'<g data-id="p{i}"><rect x="{i}"/></g>' for i in range(40)) + "</svg>"
    new = old.replace('x="3"', 'x="30"')
    sent: dict[str, str] = {}
    held: dict[str, str] = {}
    first = FrameParts('{"seq":1}', {"board": json.dumps(old)}, {"board": old})
    whole = json.loads(first.text(sent, held))
    assert whole == {"seq": 1, "board": old} and held == {"board": old}
    second = FrameParts('{"seq":2}', {"board": json.dumps(new)}, {"board": new})
    delta = json.loads(second.text(sent, held))
    assert "board" not in delta and delta["board_patch"]["ops"]
    assert with_kept(whole, delta) == {"seq": 2, "board": new}
    # Without patches (a client that did not ask), the same frame sends the picture whole.
    plain: dict[str, str] = {}
    first.text(plain)
    assert json.loads(second.text(plain)) == {"seq": 2, "board": new}


@pytest.mark.parametrize("takes", [True, "edits"])
@pytest.mark.parametrize("name", games())
def test_every_frame_of_a_client_that_takes_patches_is_whole_again(
    tmp_path: Path, name: str, takes: bool | str
) -> None:
    async def scenario() -> None:
        async with bench(tmp_path, seed=6) as b:
            made = await b.make(name, ["me", "invite"], OPTIONS.get(name, {}))
            players = [await b.join(made.id, seat, patches=takes) for seat in (0, 1)]
            plain = await b.join(made.id, 0)
            await b.play(players, nodes=40)
            await b.quiet()
            patched = [json.loads(t) for t in players[0].recorder.texts]
            assert any("board_patch" in m for m in patched), "no picture came as a patch"
            edited = any(
                len(op) == 3
                for m in patched
                for op in m.get("board_patch", {}).get("ops", [])
                if isinstance(op, list)
            )
            assert edited == (takes == "edits"), "edits go to the clients that take them only"
            if name == "tracks":  # its text grows a line at a time, its moves say one sentence
                assert any("text_patch" in m for m in patched), "no text came as a patch"
                assert any("moves_like" in m for m in patched), "no moves came as a sentence"
            assert any("log_more" in m for m in patched), "no log came as the lines it gained"
            assert not any("board_patch" in json.loads(t) for t in plain.recorder.texts)
            # The frames a patched client makes whole are the frames the plain client got.
            ours = players[0].recorder.frames()
            theirs = {f["seq"]: f for f in plain.recorder.frames()}
            compared = 0
            for frame in ours:
                other = theirs.get(frame["seq"])
                if other is not None and other["move"] == frame["move"]:
                    for member in ("board", "board_narrow", "text", "log", "legal", "moves"):
                        assert frame.get(member) == other.get(member)
                    compared += 1
            assert compared > 5
            later = [len(t) for t in players[0].recorder.texts[1:]]
            whole = [len(t) for t in plain.recorder.texts[1:]]
            assert sum(later) < sum(whole)

    run(scenario())


def test_tokens_dropped_without_others_put_in() -> None:
    old = "<svg>" + "".join(f'<g data-id="p{i}"><rect x="{i}"/></g>' for i in range(40)) + "</svg>"
    new = old.replace('<g data-id="p9"><rect x="9"/></g>', "")
    made = patches.patch(old, new)
    assert made is not None
    change = json.loads(made)
    assert [3] in change["ops"]
    assert patches.apply(old, change) == new


def test_a_changed_log_comes_as_the_lines_it_gained() -> None:
    old = [f"line {i}" for i in range(12)]
    moved = [*old[2:], "line 12", "line 13"]
    assert frames.log_more(old, moved) == {"drop": 2, "add": ["line 12", "line 13"]}
    assert frames.log_more(old, [*old, "more"]) == {"drop": 0, "add": ["more"]}
    assert frames.log_more(old, ["new"]) is None  # nothing kept (a rematch's log)
    assert frames.log_more([], ["first"]) is None
    sent: dict[str, str] = {}
    held: dict[str, Any] = {}
    first = FrameParts('{"seq":1}', {"log": json.dumps(old)}, {}, old)
    whole = json.loads(first.text(sent, held))
    assert whole == {"seq": 1, "log": old}
    second = FrameParts('{"seq":2}', {"log": json.dumps(moved)}, {}, moved)
    delta = json.loads(second.text(sent, held))
    assert delta == {"seq": 2, "log_more": {"drop": 2, "add": ["line 12", "line 13"]}}
    assert with_kept(whole, delta) == {"seq": 2, "log": moved}
    # The same log again is kept; a client that takes no patches gets the log whole.
    assert json.loads(second.text(sent, held)) == {"seq": 2, "kept": ["log"]}
    plain: dict[str, str] = {}
    first.text(plain)
    assert json.loads(second.text(plain)) == {"seq": 2, "log": moved}


def test_moves_said_alike_come_as_one_sentence() -> None:
    from taut.server.play.wire import moves_from, words_like

    legal = ["a1", "b2", "c3"]
    said = [f"place kind 2 on {m}" for m in legal]
    like = words_like(legal, said)
    assert like == "place kind 2 on {move}"
    assert moves_from(like, legal) == [
        {"notation": n, "words": w} for n, w in zip(legal, said, strict=True)
    ]
    # Words that do not all follow one sentence, or name the move twice, are sent as they are.
    assert words_like(legal, [*said[:2], "put kind 2 on c3"]) is None
    assert words_like(["a1"], ["a1 then a1"]) is None
    assert words_like(["pass"], ["{move} pass"]) is None
    assert words_like([], []) is None
    # A frame to a client that takes patches says the sentence; one that does not, the list.
    parts = FrameParts(
        '{"seq":1}',
        {"legal": json.dumps(legal), "moves": json.dumps(moves_from(like, legal))},
        moves_like=like,
    )
    patched = json.loads(parts.text({}, {}))
    assert patched == {"seq": 1, "legal": legal, "moves_like": like}
    assert with_kept(None, patched)["moves"] == moves_from(like, legal)
    assert json.loads(parts.text({}))["moves"] == moves_from(like, legal)
