"""Pulling Strings: pull string ends to slide, split and gather stacks of disks home."""

from taut.games.pulling_strings.board import CLASSIC_LETTERS, HOMES
from taut.games.pulling_strings.diagram import parse, render
from taut.games.pulling_strings.rules import PullingStrings, PullingStringsState

__all__ = [
    "CLASSIC_LETTERS",
    "HOMES",
    "PullingStrings",
    "PullingStringsState",
    "parse",
    "render",
]
