"""The published edition's tile sets: letters and ASL handshapes, and two expansions.

``asl``: the letters A..Z on the board, their fingerspelling handshapes on the other face
(drawn in ``handshapes.py``). ``roman``: the numbers 1..26 on the board, Roman numerals on
the other face. ``kana``: 26 hiragana on the board, the katakana of the same sound on the
other face, each with its romaji (a player may type the katakana or its romaji). The
selection of kana is the first 26 of the gojūon order: the five vowels, then the k-, s-,
t- and n-rows, then ha. ``elements``: the symbols of the first 26 chemical elements on the
board, their names on the other face, read from ``sets/elements.toml`` (a tile set file,
as anyone can write one: see ``docs/tilesets.md``). The ``asl`` set also carries the words
of ``words/N.txt`` (common English words of N letters) for word practice, and names the
recogniser files that read its handshapes from a camera.

Option ``tiles`` also takes a tile set file; the game's options then hold the set's text
(see :mod:`taut.learn.tileset_file`), which :func:`tile_set` reads back.
"""

from __future__ import annotations

import string
from functools import cache
from pathlib import Path

from taut.learn.tileset import Face, Tile, TileSet
from taut.learn.tileset_file import read_tileset_file, tileset_from_text

#: The folder of the tile set files that come with the game.
SETS = Path(__file__).parent / "sets"
#: The folder of the words to fingerspell: ``N.txt`` holds words of N letters, one a line
#: (``#`` starts a comment line).
WORDS = Path(__file__).parent / "words"


def fingerspelling_words(folder: Path = WORDS) -> tuple[str, ...]:
    """The words of ``folder``'s lists, upper case, shortest first; ValueError names a
    word that is not all letters A..Z or is in the wrong file for its length."""
    out: list[str] = []
    for path in sorted(folder.glob("*.txt"), key=lambda p: (len(p.stem), p.stem)):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            word = line.strip()
            if not word or word.startswith("#"):
                continue
            if not (word.isascii() and word.isalpha()) or str(len(word)) != path.stem:
                raise ValueError(
                    f"{path.name}, line {number}: {word!r} is not a word of {path.stem} "
                    "letters A to Z"
                )
            out.append(word.upper())
    return tuple(dict.fromkeys(out))


#: The kana selection: (romaji, hiragana, katakana), in gojūon order.
KANA: tuple[tuple[str, str, str], ...] = (
    ("a", "\u3042", "\u30a2"),
    ("i", "\u3044", "\u30a4"),
    ("u", "\u3046", "\u30a6"),
    ("e", "\u3048", "\u30a8"),
    ("o", "\u304a", "\u30aa"),
    ("ka", "\u304b", "\u30ab"),
    ("ki", "\u304d", "\u30ad"),
    ("ku", "\u304f", "\u30af"),
    ("ke", "\u3051", "\u30b1"),
    ("ko", "\u3053", "\u30b3"),
    ("sa", "\u3055", "\u30b5"),
    ("shi", "\u3057", "\u30b7"),
    ("su", "\u3059", "\u30b9"),
    ("se", "\u305b", "\u30bb"),
    ("so", "\u305d", "\u30bd"),
    ("ta", "\u305f", "\u30bf"),
    ("chi", "\u3061", "\u30c1"),
    ("tsu", "\u3064", "\u30c4"),
    ("te", "\u3066", "\u30c6"),
    ("to", "\u3068", "\u30c8"),
    ("na", "\u306a", "\u30ca"),
    ("ni", "\u306b", "\u30cb"),
    ("nu", "\u306c", "\u30cc"),
    ("ne", "\u306d", "\u30cd"),
    ("no", "\u306e", "\u30ce"),
    ("ha", "\u306f", "\u30cf"),
)

_ROMAN = (
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def roman(n: int) -> str:
    """``n`` (1..39) in Roman numerals."""
    out = []
    for value, digits in _ROMAN:
        while n >= value:
            out.append(digits)
            n -= value
    return "".join(out)


@cache
def asl() -> TileSet:
    """Letters A..Z and their ASL handshapes."""
    from taut.games.pulling_strings.handshapes import HANDSHAPES

    tiles = []
    for ch in string.ascii_uppercase:
        hand = HANDSHAPES[ch]
        tiles.append(
            Tile(
                Face(ch, f"the letter {ch}"),
                Face(ch, hand.name, hand.description, hand.svg),
            )
        )
    return TileSet(
        "asl",
        "Letters and ASL handshapes",
        "letter",
        "handshape",
        tuple(tiles),
        "the letters A to Z, and the American Sign Language handshape that spells each",
        "signs",
        fingerspelling_words(),
        ("signs.js", "recogniser.json"),
    )


@cache
def roman_set() -> TileSet:
    """Numbers 1..26 and their Roman numerals."""
    tiles = tuple(
        Tile(Face(str(n), f"the number {n}"), Face(roman(n), f"{n} in Roman numerals"))
        for n in range(1, 27)
    )
    return TileSet(
        "roman",
        "Numbers and Roman numerals",
        "number",
        "Roman numeral",
        tiles,
        "the numbers 1 to 26, and the same numbers in Roman numerals",
        "numerals",
    )


@cache
def kana_set() -> TileSet:
    """26 hiragana and the katakana of the same sound (typed as katakana or romaji)."""
    tiles = tuple(
        Tile(
            Face(hira, f"hiragana {romaji}", aliases=(romaji,)),
            Face(kata, f"katakana {romaji}", aliases=(romaji,)),
        )
        for romaji, hira, kata in KANA
    )
    return TileSet(
        "kana",
        "Hiragana and katakana",
        "hiragana",
        "katakana",
        tiles,
        "26 hiragana (the vowels and the k, s, t and n rows, then ha) and their katakana",
        "katakana",
    )


@cache
def elements_set() -> TileSet:
    """The first 26 chemical elements: symbols and names (``sets/elements.toml``)."""
    return read_tileset_file(SETS / "elements.toml").tiles


#: Tile set builders by option value.
TILE_SETS = {"asl": asl, "roman": roman_set, "kana": kana_set, "elements": elements_set}


def tile_set(name: str) -> TileSet:
    """The tile set called ``name`` (``asl``, ``roman``, ``kana`` or ``elements``), or the
    one whose TOML text ``name`` is (as option ``tiles`` holds a set read from a file)."""
    build = TILE_SETS.get(name)
    return build() if build is not None else tileset_from_text(name).tiles
