"""How live signing to the camera is in headless Chromium: frames a second and milliseconds a
frame of MediaPipe Hands as the page runs it, for each tracker setting, and the recogniser's
own cost.

A ``taut serve`` runs in this process; Chromium (Debian's, through Playwright) opens the
calibration page with Chromium's fake camera (a moving test pattern: no hand, so the
tracker looks for a palm in every frame, its costliest case) and signs to it for
``--seconds`` after a warm-up. The page's own counters (``globalThis.__tautCamera``, kept
by ``camera.js``) give the frames read and the tracker's time. Settings: the landmark
model (0 lite, 1 full) and the camera's picture size, asked through the page's address
(``?camera-model=&camera-size=``). Ratios are to the setting the page used before (full
model, 640x480). The classifier's cost is measured in the same page on real hands.

Run: ``.venv/bin/python benchmarks/signs_camera.py [--seconds S] [--json]`` (needs
``make vendor`` and Chromium).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

#: (model complexity, width, height), the old default first.
SETTINGS = ((1, 640, 480), (0, 640, 480), (1, 320, 240), (0, 320, 240))
CHROMIUM = Path("/usr/bin/chromium")


def serve(folder: Path) -> tuple[str, Any]:
    """A server on a free port (stopped by setting ``should_exit``)."""
    import uvicorn

    from taut.server.web.app import create_app
    from taut.server.web.settings import Settings

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(Settings(database=f"sqlite+aiosqlite:///{folder / 'taut.db'}"))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def measure(
    browser: Any, base: str, setting: tuple[int, int, int], seconds: float
) -> dict[str, Any]:
    """Frames a second and tracker milliseconds a frame for one setting."""
    model, width, height = setting
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    page.goto(f"{base}/calibrate?camera-model={model}&camera-size={width}x{height}")
    page.locator("#cal-start").click()
    page.wait_for_function(
        "() => globalThis.__tautCamera && globalThis.__tautCamera.frames >= 3", timeout=120_000
    )
    page.wait_for_timeout(3000)  # warm-up: the model's first frames are slow
    first = page.evaluate("() => ({...globalThis.__tautCamera, now: performance.now()})")
    page.wait_for_timeout(seconds * 1000)
    last = page.evaluate("() => ({...globalThis.__tautCamera, now: performance.now()})")
    size = page.evaluate(
        "() => [document.getElementById('cal-video').videoWidth,"
        " document.getElementById('cal-video').videoHeight]"
    )
    page.close()
    frames = last["frames"] - first["frames"]
    return {
        "model": "lite" if model == 0 else "full",
        "asked": f"{width}x{height}",
        "got": f"{size[0]}x{size[1]}",
        "fps": frames / ((last["now"] - first["now"]) / 1000),
        "ms": (last["ms"] - first["ms"]) / max(1, frames),
    }


def classify_cost(browser: Any, base: str) -> float:
    """Milliseconds the browser's recogniser takes for one hand (real hands, averaged)."""
    from taut.games.pulling_strings.signs.train import default_data, read_set

    hands = read_set(default_data() / "real_signer_a.json").points[::20]
    page = browser.new_page()
    page.goto(f"{base}/calibrate")
    page.add_script_tag(url=f"{base}/game-files/pulling-strings/signs.js")
    ms: float = page.evaluate(
        """async ([url, hands]) => {
            const model = await (await fetch(url)).json();
            for (const h of hands) TautSigns.classify(model, h);
            const start = performance.now();
            let n = 0;
            while (performance.now() - start < 2000) {
              for (const h of hands) { TautSigns.classify(model, h); n++; }
            }
            return (performance.now() - start) / n;
        }""",
        [f"{base}/game-files/pulling-strings/recogniser.json", hands],
    )
    page.close()
    return ms


def main() -> None:
    """Measure every setting and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from taut.server.web.settings import mediapipe_folder

    if mediapipe_folder(None) is None or not CHROMIUM.exists():
        sys.exit("needs MediaPipe Hands (make vendor) and Chromium (make browser)")
    import tempfile

    folder = Path(tempfile.mkdtemp())
    base, server = serve(folder)
    rows = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=str(CHROMIUM),
                args=["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"],
            )
            for setting in SETTINGS:
                rows.append(measure(browser, base, setting, args.seconds))
                if not args.json:
                    r = rows[-1]
                    ratio = r["fps"] / rows[0]["fps"]
                    print(
                        f"{r['model']:4} {r['asked']:>8} (camera gave {r['got']:>8}): "
                        f"{r['fps']:5.2f} frames a second, {r['ms']:6.1f} ms a frame "
                        f"(x{ratio:.2f} the frames of full 640x480)",
                        flush=True,
                    )
            cost = classify_cost(browser, base)
            browser.close()
    finally:
        server.should_exit = True
    result = {"settings": rows, "classify_ms": cost, "cores": os.cpu_count()}
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"the recogniser: {cost:.3f} ms a hand")


if __name__ == "__main__":
    main()
