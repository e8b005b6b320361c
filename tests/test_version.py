"""The version is written once: the package's metadata, ``taut --version`` and the
changelog agree with ``taut.__version__``."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from click.testing import CliRunner

import taut
from taut.cli import cli

ROOT = Path(__file__).parents[1]


def test_the_version_has_one_home() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", taut.__version__)
    assert version("taut") == taut.__version__
    said = CliRunner().invoke(cli, ["--version"])
    assert said.exit_code == 0 and taut.__version__ in said.output


def test_the_changelog_names_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert f"## {taut.__version__}" in text
    assert text.index("## Unreleased") < text.index(f"## {taut.__version__}")
