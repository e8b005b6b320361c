"""How a server runs: its settings, handed to every process as JSON text, and where the
browser's third-party files (MediaPipe Hands) are found."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taut.server.play.analysis import ANALYSIS_THINK

HERE = Path(__file__).parent


@dataclass
class Settings:
    """How the server runs."""

    database: str = "sqlite+aiosqlite:///taut.db"
    """A SQLAlchemy URL: ``sqlite+aiosqlite:///PATH`` or ``postgresql+asyncpg://...``."""
    origins: tuple[str, ...] = ()
    """Origins allowed to open a WebSocket besides the server's own."""
    computer_workers: int = 2
    """Processes choosing the computer's moves (0: threads)."""
    analysis_think: float = ANALYSIS_THINK
    """Seconds of search per judged move when a finished game is analysed."""
    listen: bool = True
    """On PostgreSQL, listen for other processes' events."""
    vendor: Path | None = None
    """The folder ``make vendor`` fills (``npm install --prefix DIR @mediapipe/hands``), or
    the ``@mediapipe/hands`` package folder itself; None: :func:`default_vendor`."""
    webhook_loopback: bool = False
    """Whether players' webhooks may go to this machine (a loopback address)."""
    public_url: str = ""
    """The server's address as players reach it (``https://host``), for links sent out."""
    extra: dict[str, Any] = field(default_factory=dict)


#: The environment variable that hands each server process its settings (``taut serve
#: --processes``).
SETTINGS_VARIABLE = "TAUT_SERVE_SETTINGS"


def settings_to_text(settings: Settings) -> str:
    """``settings`` as JSON text, for processes started apart."""
    return json.dumps(
        {
            "database": settings.database,
            "origins": list(settings.origins),
            "computer_workers": settings.computer_workers,
            "analysis_think": settings.analysis_think,
            "listen": settings.listen,
            "vendor": None if settings.vendor is None else str(settings.vendor),
            "webhook_loopback": settings.webhook_loopback,
            "public_url": settings.public_url,
        }
    )


def settings_from_text(text: str) -> Settings:
    """The settings :func:`settings_to_text` wrote."""
    data = json.loads(text)
    return Settings(
        database=str(data["database"]),
        origins=tuple(data["origins"]),
        computer_workers=int(data["computer_workers"]),
        analysis_think=float(data["analysis_think"]),
        listen=bool(data["listen"]),
        vendor=None if data["vendor"] is None else Path(data["vendor"]),
        webhook_loopback=bool(data["webhook_loopback"]),
        public_url=str(data["public_url"]),
    )


#: Where ``make vendor`` installs the browser's third-party packages, from the repository.
VENDOR = Path("build") / "vendor"
#: The MediaPipe Hands package inside a vendor folder.
HANDS_PACKAGE = Path("node_modules") / "@mediapipe" / "hands"


def default_vendor() -> Path:
    """The vendor folder: ``build/vendor`` of the current folder where it exists, else that
    of the repository this package runs from."""
    here = Path.cwd() / VENDOR
    return here if here.is_dir() else HERE.parents[3] / VENDOR


#: MediaPipe Hands inside the package: ``make vendor`` copies it there, so that a wheel
#: built afterwards carries it (with its licence).
PACKAGED_HANDS = HERE / "mediapipe"


def mediapipe_folder(vendor: Path | None) -> Path | None:
    """The folder of MediaPipe Hands (the one holding ``hands.js``) in ``vendor`` (None: the
    package's own copy, else :func:`default_vendor`), or None when it is not there."""
    if vendor is None and (PACKAGED_HANDS / "hands.js").is_file():
        return PACKAGED_HANDS
    vendor = default_vendor() if vendor is None else vendor
    for folder in (vendor, vendor / HANDS_PACKAGE):
        if (folder / "hands.js").is_file():
            return folder
    return None
