"""The commands the README documents are a contract: each one still parses.

Every ``taut ...`` line of the README's command-line block is run with ``--help`` added,
which parses all its arguments and options (an unknown one fails with exit status 2) and
then prints the command's help instead of playing.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from taut.cli import cli

README = Path(__file__).resolve().parent.parent / "README.md"


def documented_commands() -> list[str]:
    text = README.read_text()
    block = text.split("## The command line", 1)[1].split("```", 2)[1]
    commands = []
    for line in block.splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        line = line.split(" > ")[0]
        if line.startswith("taut "):
            commands.append(line)
    return commands


def test_the_readme_documents_commands() -> None:
    assert len(documented_commands()) >= 20


@pytest.mark.parametrize("command", documented_commands())
def test_documented_command_parses(command: str) -> None:
    args = shlex.split(command)[1:]
    result = CliRunner().invoke(cli, [*args, "--help"])
    assert result.exit_code == 0, (command, result.output)
    assert "Usage:" in result.output


def test_an_unknown_option_is_caught_by_this_check() -> None:
    result = CliRunner().invoke(cli, ["play", "pulling-strings", "--colour", "red", "--help"])
    assert result.exit_code == 2
