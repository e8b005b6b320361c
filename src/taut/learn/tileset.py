"""Tile sets: pairs of faces, one shown on the board and one a player must produce.

A learning game (and the flash cards) works on a :class:`TileSet`: each tile has a face
the board shows (a letter, a number, a hiragana) and another face the player gives back
(a handshape, a Roman numeral, a katakana). A face has the text a keyboard can type, an
accessible name, and where it is a picture, a one-sentence description and an SVG drawing.
Games publish their tile sets through their plugin (:meth:`GamePlugin.tile_sets`), so the
shared layers (flash cards in the terminal and the browser) never name one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field


def fold(text: str) -> str:
    """``text`` as compared when a player types a face: trimmed, NFKC, case-folded."""
    return unicodedata.normalize("NFKC", text).strip().casefold()


@dataclass(frozen=True)
class Face:
    """One face of a tile.

    ``text`` is what a keyboard can type and what records hold (``K``, ``VII``, ``カ``);
    ``name`` is its accessible name; ``description`` says in one sentence what a picture
    shows (empty for plain text faces); ``svg`` is the picture (None for text faces);
    ``aliases`` are other spellings a player may type (the romaji of a kana).
    """

    text: str
    name: str
    description: str = ""
    svg: str | None = None
    aliases: tuple[str, ...] = ()

    @property
    def is_picture(self) -> bool:
        """True when the face is a drawing (a handshape) rather than text."""
        return self.svg is not None

    def spellings(self) -> tuple[str, ...]:
        """Every folded spelling that names this face."""
        return (fold(self.text), *(fold(a) for a in self.aliases))


@dataclass(frozen=True)
class Tile:
    """A tile: the face on the board and the face a player must give for it."""

    board: Face
    other: Face


@dataclass(frozen=True)
class TileSet:
    """A named list of tiles with distinct faces on each side.

    ``board_kind`` and ``other_kind`` name the two sides for people ("letter",
    "handshape"); ``summary`` says in a phrase what the set holds; ``picker`` is how a
    player gives an other face at a keyboard: ``"type"`` (the face's text or an alias)
    or ``"describe"`` (choose among the descriptions, for pictures).
    """

    name: str
    title: str
    board_kind: str
    other_kind: str
    tiles: tuple[Tile, ...]
    summary: str = ""
    #: What a player's answers are called in a summary ("signs", "numerals").
    answer_noun: str = "answers"
    #: Words to spell with the board faces (upper case), for word practice; empty when the
    #: set has none.
    words: tuple[str, ...] = field(default=(), repr=False)
    #: ``(recogniser, model)``: files of the game's ``static_files`` that read the other
    #: faces from a camera in the browser (as in ``CameraSigning``); empty when none do.
    sign_files: tuple[str, ...] = ()
    _board_index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    _other_index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for side, index in (("board", self._board_index), ("other", self._other_index)):
            for i, tile in enumerate(self.tiles):
                face = tile.board if side == "board" else tile.other
                for spelling in face.spellings():
                    if index.setdefault(spelling, i) != i:
                        raise ValueError(
                            f"tile set {self.name!r}: {side} face spelling {spelling!r} "
                            "names two tiles"
                        )

    def __len__(self) -> int:
        return len(self.tiles)

    @property
    def picker(self) -> str:
        """``describe`` when the other faces are pictures, else ``type``."""
        return "describe" if self.tiles and self.tiles[0].other.is_picture else "type"

    def board_faces(self) -> list[str]:
        """The board faces' texts, in tile order."""
        return [t.board.text for t in self.tiles]

    def other_faces(self) -> list[str]:
        """The other faces' texts, in tile order."""
        return [t.other.text for t in self.tiles]

    def find_board(self, text: str) -> int | None:
        """The tile whose board face ``text`` names (any case, alias), or None."""
        return self._board_index.get(fold(text))

    def find_other(self, text: str) -> int | None:
        """The tile whose other face ``text`` names (any case, alias), or None."""
        return self._other_index.get(fold(text))

    def describe_other(self, index: int) -> str:
        """How a player recognises tile ``index``'s other face without its label."""
        face = self.tiles[index].other
        return face.description or face.text


def check_unique(sets: Sequence[TileSet]) -> dict[str, TileSet]:
    """Tile sets by name; ValueError when two share a name."""
    out: dict[str, TileSet] = {}
    for ts in sets:
        if ts.name in out:
            raise ValueError(f"two tile sets are called {ts.name!r}")
        out[ts.name] = ts
    return out
