"""pip install taut: the wheel and the sdist carry everything the browser needs, MediaPipe
Hands with its licence included, and a server installed from the wheel into a fresh virtual
environment, outside the checkout, serves the pages, the recogniser and MediaPipe."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from taut.server.web.settings import PACKAGED_HANDS
from tests.test_server_kit import free_port

ROOT = Path(__file__).resolve().parents[1]


def copy_of_the_checkout(target: Path) -> Path:
    """The files git tracks, and the MediaPipe files ``make vendor`` put in the package."""
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in listed:
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    shutil.copytree(PACKAGED_HANDS, target / PACKAGED_HANDS.relative_to(ROOT))
    return target


def test_the_wheel_installed_elsewhere_serves_signing(tmp_path: Path) -> None:
    if not (PACKAGED_HANDS / "hands.js").is_file():
        pytest.skip("MediaPipe Hands is not in the package (make vendor puts it there)")
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    source = copy_of_the_checkout(tmp_path / "source")
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
        check=True, capture_output=True,
    )  # fmt: skip
    wheel = next(dist.glob("taut-*.whl"))
    sdist = next(dist.glob("taut-*.tar.gz"))
    hands = {p.name for p in PACKAGED_HANDS.iterdir()}
    assert {"hands.js", "hand_landmark_lite.tflite", "LICENSE.txt"} <= hands
    with zipfile.ZipFile(wheel) as z:
        in_wheel = {Path(n).name for n in z.namelist() if "/web/mediapipe/" in n}
        licence = z.read("taut/server/web/mediapipe/LICENSE.txt").decode()
    with tarfile.open(sdist) as t:
        in_sdist = {Path(n).name for n in t.getnames() if "/web/mediapipe/" in n}
    assert in_wheel == hands and in_sdist == hands
    assert "Apache License" in licence and "MediaPipe" in licence

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", f"{wheel}[server]"],
        check=True, capture_output=True,
    )  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(venv / "bin" / "taut"), "serve", "--port", str(port), "--data", "data",
             "--workers", "0"],
            cwd=elsewhere, stdout=out, stderr=out,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            if process.poll() is not None:
                raise AssertionError(log.read_text())
            try:
                urllib.request.urlopen(base + "/", timeout=1).read()
                break
            except OSError:
                time.sleep(0.05)

        def fetched(path: str) -> bytes:
            with urllib.request.urlopen(base + path, timeout=20) as answer:
                assert answer.status == 200, path
                return bytes(answer.read())

        assert b"taut" in fetched("/")
        assert fetched("/static/play/play.js")
        assert fetched("/game-files/pulling-strings/signs.js")
        assert fetched("/game-files/pulling-strings/recogniser.json").startswith(b"{")
        # The pages' drawings of the tables that games send as facts.
        for game in ("pulling-strings", "push-pull", "tug-of-war", "tracks"):
            assert b"export function drawTable" in fetched(f"/game-files/{game}/table.js")
        assert b"export function esc" in fetched("/game-files/page_text.js")
        assert fetched("/vendor/mediapipe/hands.js") == (PACKAGED_HANDS / "hands.js").read_bytes()
        assert fetched("/vendor/mediapipe/hand_landmark_lite.tflite")
        assert "MediaPipe Hands is not installed" not in log.read_text()
    finally:
        process.terminate()
        process.wait(20)
