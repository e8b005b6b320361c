"""``taut serve --processes N``: several processes on one address need PostgreSQL, and
each process rebuilds the server's settings from the environment."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from taut.cli import cli
from taut.server.web.settings import Settings, settings_from_text, settings_to_text


def test_several_processes_on_sqlite_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--processes", "2", "--data", str(tmp_path)])
    assert result.exit_code == 2
    assert "--processes" in result.output and "PostgreSQL" in result.output
    assert not (tmp_path / "taut.db").exists()  # refused before anything was made


def test_a_process_count_out_of_range_is_refused() -> None:
    result = CliRunner().invoke(cli, ["serve", "--processes", "0"])
    assert result.exit_code == 2 and "--processes" in result.output


def test_settings_reach_each_process_unchanged(tmp_path: Path) -> None:
    settings = Settings(
        database="postgresql+asyncpg://postgres@127.0.0.1/x",
        origins=("https://a.example",),
        computer_workers=3,
        analysis_think=0.25,
        listen=False,
        vendor=tmp_path,
        webhook_loopback=True,
        public_url="https://taut.example",
    )
    assert settings_from_text(settings_to_text(settings)) == settings
    assert settings_from_text(settings_to_text(Settings())) == Settings()
