"""What signing to the camera needs from the server: the recogniser served through the
plugins' file hook, MediaPipe Hands from the vendor folder (never from elsewhere), and pages
that load nothing from another site."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from taut.cli.serve import serve
from taut.core.plugin import GamePlugin
from taut.core.registry import games, plugin
from taut.games.pulling_strings.rules import PullingStrings
from taut.server.web.settings import default_vendor, mediapipe_folder
from tests.test_server_kit import app_client, new_game

LEARNING = {"edition": "published", "learning": "strict", "seed": 8}
#: Where a page or script could name another site.
EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)
STATIC = Path(__file__).parents[1] / "src" / "taut" / "server" / "web" / "static"


def test_the_plugin_hook_serves_the_recogniser_and_its_templates(tmp_path: Path) -> None:
    found = plugin("pulling-strings")
    files = found.static_files()
    # The recogniser and its model, beside the page's drawing of the board.
    assert set(files) == {"signs.js", "recogniser.json", "table.js"}
    with app_client(tmp_path) as client:
        script = client.get("/game-files/pulling-strings/signs.js")
        assert script.status_code == 200
        assert script.text == files["signs.js"].read_text()
        assert "TautSigns" in script.text
        model = client.get("/game-files/pulling-strings/recogniser.json")
        assert model.status_code == 200
        assert json.loads(model.text) == json.loads(files["recogniser.json"].read_text())
        missing = client.get("/game-files/pulling-strings/rules.py")
        assert missing.status_code == 404
        assert "no file called rules.py" in missing.json()["detail"]
        assert client.get("/game-files/no-such-game/signs.js").status_code == 404
        # Only the named files: nothing else of the package can be reached by a path.
        assert client.get("/game-files/pulling-strings/..%2Fplugin.py").status_code == 404


def test_only_games_that_offer_signing_say_so() -> None:
    found = plugin("pulling-strings")
    asl = found.camera_signing(PullingStrings(**LEARNING))
    assert asl is not None and asl.slot == "answer" and asl.right_slot == "end"
    assert set((asl.recogniser, asl.model)) <= set(found.static_files())
    assert found.camera_signing(PullingStrings()) is None
    assert found.camera_signing(PullingStrings(**LEARNING, tiles="roman")) is None
    for name in games():
        if name != "pulling-strings":
            other = plugin(name)
            assert other.camera_signing(other.game_class()) is None
    assert GamePlugin.static_files(found) == {}


def test_the_game_page_offers_the_camera_only_where_the_game_does(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        learning = new_game(client, "pulling-strings", ["me", "easy"], LEARNING)
        page = client.get(f"/g/{learning['id']}").text
        assert 'id="camera-start"' in page
        assert 'data-recogniser="/game-files/pulling-strings/signs.js"' in page
        plain = new_game(client, "pulling-strings", ["me", "easy"])
        assert 'id="camera-start"' not in client.get(f"/g/{plain['id']}").text


def test_no_page_or_script_loads_anything_from_another_site(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "easy"], LEARNING)
        paths = ["/", "/lobby", "/verify", f"/g/{made['id']}", f"/replay/{made['id']}"]
        for name in games():
            paths += [f"/rules/{name}", f"/new/{name}"]
        for path in paths:
            response = client.get(path)
            assert response.status_code == 200, path
            assert not EXTERNAL.search(response.text), f"{path} loads from another site"
        scripts = [*STATIC.rglob("*.js"), *plugin("pulling-strings").static_files().values()]
        for script in scripts:
            text = script.read_text()
            # SVG's namespace is a name, not an address that is fetched.
            text = text.replace("http://www.w3.org/2000/svg", "")
            assert "http://" not in text and "https://" not in text, script.name


def test_without_mediapipe_the_vendor_route_says_how_to_install_it(tmp_path: Path) -> None:
    empty = tmp_path / "vendor"
    empty.mkdir()
    assert mediapipe_folder(empty) is None
    with app_client(tmp_path, vendor=empty) as client:
        response = client.get("/vendor/mediapipe/hands.js")
        assert response.status_code == 404
        assert "make vendor" in response.json()["error"]


def test_the_vendor_route_serves_mediapipe_hands_when_installed(tmp_path: Path) -> None:
    hands = mediapipe_folder(None)
    if hands is None:
        pytest.skip(f"MediaPipe Hands is not installed in {default_vendor()} (make vendor)")
    with app_client(tmp_path) as client:
        script = client.get("/vendor/mediapipe/hands.js")
        assert script.status_code == 200
        assert script.content == (hands / "hands.js").read_bytes()
        wasm = client.get("/vendor/mediapipe/hands_solution_simd_wasm_bin.wasm")
        assert wasm.status_code == 200 and wasm.content[:4] == b"\0asm"
        assert client.get("/vendor/mediapipe/hand_landmark_full.tflite").status_code == 200
    # The package folder itself is accepted too.
    (tmp_path / "again").mkdir()
    with app_client(tmp_path / "again", vendor=hands) as client:
        assert client.get("/vendor/mediapipe/hands.js").status_code == 200


def test_serve_refuses_a_vendor_folder_without_mediapipe(tmp_path: Path) -> None:
    result = CliRunner().invoke(serve, ["--vendor", str(tmp_path), "--data", str(tmp_path)])
    assert result.exit_code == 2
    assert "no MediaPipe Hands there" in result.output
