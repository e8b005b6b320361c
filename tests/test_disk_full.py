"""A full disk or a file-size limit never loses or fakes data.

Each writer is run in a child process under ``RLIMIT_FSIZE`` (what ``ulimit -f`` sets), or
on a tiny tmpfs that is full (mounted by the test where the machine allows it; skipped with
a message otherwise), and must: say so, exit non-zero, leave the previous file intact, and
leave no temporary or truncated file behind. A game in progress goes on and tells the
player its record could not be saved.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taut.core.files import WholeFile, WriteError, write_whole
from taut.core.record_files import read_records

TAUT = [sys.executable, "-c", "from taut.cli import main; main()"]


def run_limited(args: list[str], limit: int | None, cwd: Path, stdin: str = "",
                stdout: Path | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """``taut ARGS`` in a child process whose files may not grow past ``limit`` bytes."""

    def limit_files() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {**os.environ, "NO_COLOR": "1", "TAUT_DATA": str(cwd / "data"), "COLUMNS": "100"}
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(stdout.open("w")) if stdout is not None else subprocess.PIPE
        return subprocess.run(
            [*TAUT, *args], input=stdin, stdout=out, stderr=subprocess.PIPE, text=True,
            cwd=cwd, env=env, preexec_fn=limit_files, timeout=300,
        )  # fmt: skip


def leftovers(folder: Path, keep: set[str]) -> list[str]:
    """Files in ``folder`` other than ``keep`` (temporary files included)."""
    return sorted(p.name for p in folder.iterdir() if p.name not in keep and p.is_file())


# -- the building blocks ----------------------------------------------------------------


def test_write_whole_keeps_the_old_file_when_the_new_one_does_not_fit(tmp_path: Path) -> None:
    code = (
        "import resource, sys\n"
        "from taut.core.files import write_whole, WriteError\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))\n"
        "try:\n"
        f"    write_whole({str(tmp_path / 'f.txt')!r}, 'x' * 5000)\n"
        "except WriteError as exc:\n"
        "    print(exc); sys.exit(7)\n"
    )
    (tmp_path / "f.txt").write_text("old\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 7, done.stderr
    assert "File too large" in done.stdout
    assert (tmp_path / "f.txt").read_text() == "old\n"
    assert leftovers(tmp_path, {"f.txt"}) == []


def test_whole_file_appears_only_when_committed(tmp_path: Path) -> None:
    target = tmp_path / "lines.jsonl"
    target.write_text("old\n")
    with pytest.raises(RuntimeError), WholeFile(target) as out:
        out.write("new\n")
        raise RuntimeError("stopped part way")
    assert target.read_text() == "old\n" and leftovers(tmp_path, {target.name}) == []
    with WholeFile(target) as out:
        out.write("new\n")
    assert target.read_text() == "new\n" and leftovers(tmp_path, {target.name}) == []
    os.chmod(target, 0o640)
    write_whole(target, "again\n")
    assert target.stat().st_mode & 0o777 == 0o640  # the file keeps its mode


def test_write_whole_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match="cannot write"):
        write_whole(tmp_path / "nowhere" / "f.txt", "x")


# -- the commands under a file-size limit -------------------------------------------------


def test_play_record_over_the_limit_goes_on_says_so_and_fails(tmp_path: Path) -> None:
    """The bug: `play --record` under a file-size limit exited 0, saying the record was
    written, while the file held only the start of the game."""
    done = run_limited(
        ["play", "tracks", "--ns", "random", "--we", "random", "--seed", "3",
         "--record", "game.json"],
        limit=600, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout[-500:] + done.stderr
    # Failures go to standard error: output sent to a file or a pipe never hides them.
    assert "cannot be saved" in done.stderr and "The game goes on" in done.stderr
    assert "could not be saved" in done.stderr and "Record written" not in done.stdout
    assert "cannot be saved" not in done.stdout and "could not be saved" not in done.stdout
    assert "won" in done.stdout or "draw" in done.stdout, done.stdout[-300:]  # played out
    # The file holds the last record that fitted, whole: it replays, and it is unfinished.
    (record,) = read_records(tmp_path / "game.json")
    assert isinstance(record, dict) and record.get("result") is None
    check = run_limited(["replay", "tracks", "game.json"], limit=None, cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert leftovers(tmp_path, {"game.json"}) == []


def test_play_record_keeps_the_previous_file_when_nothing_fits(tmp_path: Path) -> None:
    old = "x" * 3000 + "\n"
    (tmp_path / "game.json").write_text(old)
    done = run_limited(
        ["play", "tracks", "--ns", "random", "--we", "random", "--record", "game.json"],
        limit=200, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "nothing was written" in done.stderr and "nothing was written" not in done.stdout
    assert (tmp_path / "game.json").read_text() == old
    assert leftovers(tmp_path, {"game.json"}) == []


def test_selfplay_records_over_the_limit_leave_the_previous_file(tmp_path: Path) -> None:
    (tmp_path / "games.jsonl").write_text("previous\n")
    done = run_limited(
        ["selfplay", "tracks", "--games", "20", "--record", "games.jsonl"],
        limit=4000, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "File too large" in done.stderr and "unchanged" in done.stderr
    assert (tmp_path / "games.jsonl").read_text() == "previous\n"
    assert leftovers(tmp_path, {"games.jsonl"}) == []


def test_a_plot_over_the_limit_leaves_no_broken_picture(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    done = run_limited(
        ["arena", "tracks", "--size", "3", "--agents", "random,greedy", "--games", "2",
         "--workers", "1", "--plot", "out.png"],
        limit=3000, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode != 0
    assert "File too large" in done.stderr
    assert not (tmp_path / "out.png").exists()
    assert leftovers(tmp_path, set()) == []


def test_flashcards_go_on_when_the_progress_cannot_be_saved(tmp_path: Path) -> None:
    progress = tmp_path / "progress.json"
    first = run_limited(
        ["flashcards", "roman", "--progress", str(progress), "--cards", "2", "--seed", "1"],
        limit=None, cwd=tmp_path, stdin="1\n" * 10,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    before = progress.read_text()
    done = run_limited(
        ["flashcards", "roman", "--progress", str(progress), "--cards", "3", "--seed", "2"],
        limit=len(before) // 2, cwd=tmp_path, stdin="1\n" * 10,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "was not saved" in done.stderr and "go on" in done.stderr
    assert "was not saved" not in done.stdout
    assert "Summary" in done.stdout  # the sitting went on to its end
    assert progress.read_text() == before
    assert leftovers(tmp_path, {"progress.json"}) == []


def test_output_redirected_over_the_limit_is_an_error(tmp_path: Path) -> None:
    done = run_limited(["games"], limit=300, cwd=tmp_path, stdout=tmp_path / "out.txt")
    assert done.returncode == 1
    assert "could not be written" in done.stderr and "Traceback" not in done.stderr
    big = run_limited(
        ["tracks", "puzzle", "--size", "7", "--seed", "2"], limit=200, cwd=tmp_path,
        stdout=tmp_path / "puzzle.txt",
    )  # fmt: skip
    assert big.returncode == 1 and "could not be written" in big.stderr


# -- a full file system ---------------------------------------------------------------------


@pytest.fixture
def tiny_fs(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs mounted for the test (root only; skipped where mounting is not
    allowed)."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root and mount(8): full-disk tests skipped")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)],
                          capture_output=True, text=True)  # fmt: skip
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({made.stderr.strip()}): full-disk tests skipped")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> None:
    """Fill the file system of ``folder`` to the last byte."""
    with (folder / "ballast").open("ab", buffering=0) as out:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while True:
                    out.write(b"\0" * size)


def test_play_record_on_a_full_disk(tiny_fs: Path, tmp_path: Path) -> None:
    fill(tiny_fs)
    done = run_limited(
        ["play", "pulling-strings", "--x", "random", "--o", "random",
         "--record", str(tiny_fs / "game.json")],
        limit=None, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "No space left" in done.stderr and "could not be saved" in done.stderr
    assert "error" not in done.stdout
    assert leftovers(tiny_fs, {"ballast"}) == []


def test_server_refuses_a_read_only_database(tiny_fs: Path, tmp_path: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_fs)], check=True)
    done = run_limited(["serve", "--data", str(tiny_fs), "--port", "1"], limit=None, cwd=tmp_path)
    assert done.returncode == 1
    assert "cannot keep games in the database" in done.stderr
    assert "Traceback" not in done.stderr


def stored(client: Any, game_id: str) -> list[Any]:
    """Every stored event of a game."""
    found: list[Any] = client.portal.call(client.app.state.store.events_after, game_id, -1)
    return found


def test_server_move_on_a_full_disk_changes_nothing_and_can_be_retried(tiny_fs: Path) -> None:
    pytest.importorskip("fastapi")
    from tests.test_server_kit import app_client, new_game, socket_of, token_of

    with app_client(tiny_fs) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        tokens = [token_of(link) for link in made["links"].values()]
        before = stored(client, made["id"])
        with (
            socket_of(client, made["id"], tokens[0]) as ns,
            socket_of(client, made["id"], tokens[1]) as we,
        ):
            mover = ns if ns.frame and ns.frame["legal"] else we
            frame = mover.state(lambda f: f["legal"])
            message = {"type": "move", "move": frame["move"], "action": frame["legal"][0]}
            fill(tiny_fs)
            mover.send(ref=1, **message)
            answer = mover.answer(1)
            assert answer["type"] == "error", answer
            assert "could not save" in answer["message"]
            assert stored(client, made["id"]) == before
            (tiny_fs / "ballast").unlink()
            mover.send(ref=2, **message)
            assert mover.answer(2)["type"] == "ack"
        assert len(stored(client, made["id"])) > len(before)
