"""Tile sets written by people: a small TOML file read strictly into a :class:`TileSet`.

(Longer than 400 lines: one strict reader, most of it the checks of each key with the
message that names what is wrong and what is allowed.)

The format (documented with a full example in ``docs/tilesets.md``)::

    name = "elements"                 # lower-case letters, digits and dashes
    title = "Element symbols and names"
    summary = "the first 26 elements"  # optional
    board = "symbol"                  # the kind of face shown on the board
    other = "element"                 # the kind of face a player gives back
    answers = "names"                 # optional: what the answers are called

    [[tiles]]                         # 20 to 26 of these
    symbol = "H"                      # a face: its text ...
    element = { text = "Hydrogen", aliases = ["hydrogène"] }   # ... or a table

A face's table has ``text`` (required) and optionally ``name`` (its accessible name),
``description`` (one sentence saying what a picture shows), ``aliases`` (other spellings a
player may type) and a picture: ``image`` (an ``.svg`` or ``.png`` file beside the TOML
file, or a PNG as a ``data:image/png;base64,`` URI) or ``svg`` (the markup itself).
Pictures are checked by :mod:`taut.learn.svg_safety`.

Every set read has a *canonical text*: the same set as TOML with every picture inside it
(an SVG file as its cleaned markup, a PNG as a data: URI). That text is what a game's
option holds and what records keep, so a record replays after the file has moved or
changed, and a browser can send a set as text.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from taut.core.errors import InvalidOptionError, TautError
from taut.core.options import OptionSpec, OptionText, OptionValue
from taut.learn.svg_safety import PictureError, clean_svg, png_svg
from taut.learn.tileset import Face, Tile, TileSet, fold

#: How many tiles a set holds: the board labels 20 string ends with tiles drawn from it.
MIN_TILES, MAX_TILES = 20, 26
#: The largest tile set file, and the largest set once its pictures are inside it.
MAX_FILE_BYTES = 1_000_000
MAX_SET_CHARS = 2_000_000
#: The longest face texts: a board face must fit at a string end.
MAX_BOARD_TEXT, MAX_TEXT = 3, 32
MAX_LABEL, MAX_DESCRIPTION, MAX_ALIASES = 120, 300, 10
#: Where a set given as text (not as a file) is said to come from in messages.
AS_TEXT = "the tile set given as text"
#: A PNG given inside the file.
PNG_URI = "data:image/png;base64,"

TOP_KEYS = ("name", "title", "summary", "board", "other", "answers", "tiles")
REQUIRED = ("name", "title", "board", "other", "tiles")
FACE_KEYS = ("text", "name", "description", "aliases", "image", "svg")

_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
_KIND = re.compile(r"[^\W_][\w '-]{0,23}")
_END_NAME = re.compile(r"[NESWnesw][0-4]")
#: Characters no face may hold: they separate the parts of moves and options.
_FORBIDDEN = "=;{}\\/"
#: Characters a board face may not hold besides those: commas separate the ``letters``,
#: and square brackets would read as styles in terminal diagrams.
_BOARD_FORBIDDEN = ",[]"


class TileSetError(TautError, ValueError):
    """A tile set file (or text) that cannot be read: the message names the file and the
    entry that is wrong, and what is allowed."""


@dataclass(frozen=True)
class LoadedTileSet:
    """A tile set read from TOML: the set, and its canonical self-contained text."""

    tiles: TileSet
    text: str


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's, DEL aside)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_string(v) for v in value) + "]"
    assert isinstance(value, dict)
    return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"


class _Reader:
    """Reads one parsed TOML document; ``where`` starts every message."""

    def __init__(self, where: str, folder: Path | None, min_tiles: int) -> None:
        self.where = where
        self.folder = folder
        self.min_tiles = min_tiles

    def fail(self, message: str) -> TileSetError:
        """The error to raise, naming where the set comes from."""
        return TileSetError(f"{self.where}: {message}")

    def text(self, value: Any, what: str, limit: int, board: bool = False) -> str:
        """A face text or alias: non-empty, at most ``limit`` characters, nothing that
        would break a move's notation."""
        if not isinstance(value, str):
            raise self.fail(f"{what} must be text, got {value!r}")
        text = unicodedata.normalize("NFC", value.strip())
        if not text:
            raise self.fail(f"{what} is empty")
        if len(text) > limit:
            raise self.fail(
                f"{what} {text[:40]!r} has {len(text)} characters; at most {limit} are allowed"
            )
        bad = [
            ch
            for ch in text
            if ch in _FORBIDDEN
            or unicodedata.category(ch) == "Cc"
            or (board and (ch in _BOARD_FORBIDDEN or ch.isspace()))
        ]
        if bad:
            allowed = "none of = ; { } \\ /" + (", no spaces, no , [ ]" if board else "")
            raise self.fail(f"{what} {text!r} holds {bad[0]!r}; allowed: {allowed}")
        if "  " in text:
            raise self.fail(f"{what} {text!r} has two spaces in a row")
        if board and _END_NAME.fullmatch(text):
            raise self.fail(
                f"{what} {text!r} looks like a string end's name (N0..W4); choose another"
            )
        return text

    def label(self, value: Any, what: str, limit: int) -> str:
        """A name, title, summary or description: text of at most ``limit`` characters."""
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{what} must be non-empty text, got {value!r}")
        text = " ".join(value.split())
        if len(text) > limit:
            raise self.fail(f"{what} has {len(text)} characters; at most {limit} are allowed")
        control = next((ch for ch in text if unicodedata.category(ch) == "Cc"), None)
        if control is not None:
            raise self.fail(f"{what} holds the control character {control!r}")
        return text

    def document(self, data: dict[str, Any]) -> tuple[TileSet, dict[str, Any]]:
        """The set and its canonical form from the whole document."""
        unknown = [k for k in data if k not in TOP_KEYS]
        if unknown:
            raise self.fail(f"unknown key {unknown[0]!r}; the keys are {', '.join(TOP_KEYS)}")
        missing = [k for k in REQUIRED if k not in data]
        if missing:
            raise self.fail(
                f"missing key {missing[0]!r} (required: {', '.join(REQUIRED)}; see "
                "docs/tilesets.md)"
            )
        name = data["name"]
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise self.fail(
                f"name {name!r} must be 1 to 40 lower-case letters, digits or dashes "
                "(it names the set on the command line)"
            )
        canon: dict[str, Any] = {"name": name}
        canon["title"] = self.label(data["title"], "title", 80)
        if "summary" in data:
            canon["summary"] = self.label(data["summary"], "summary", 200)
        kinds = []
        for key in ("board", "other"):
            kind = data[key]
            if not isinstance(kind, str) or not _KIND.fullmatch(kind):
                raise self.fail(
                    f"{key} {kind!r} must name a kind of face in 1 to 24 letters, digits, "
                    'spaces, dashes or apostrophes (such as "symbol")'
                )
            canon[key] = kind
            kinds.append(kind)
        if fold(kinds[0]) == fold(kinds[1]):
            raise self.fail(f"board and other must be different kinds, both are {kinds[0]!r}")
        if "answers" in data:
            canon["answers"] = self.label(data["answers"], "answers", 24)
        tiles, faces = self.tiles(data["tiles"], kinds[0], kinds[1])
        canon["tiles"] = faces
        ts = TileSet(
            name,
            canon["title"],
            kinds[0],
            kinds[1],
            tuple(tiles),
            canon.get("summary", ""),
            canon.get("answers", "answers"),
        )
        return ts, canon

    def tiles(self, raw: Any, board: str, other: str) -> tuple[list[Tile], list[dict[str, Any]]]:
        """The tiles and their canonical forms, the faces keyed by the two kinds."""
        if not isinstance(raw, list) or not all(isinstance(t, dict) for t in raw):
            raise self.fail("tiles must be a list of tables, each written [[tiles]]")
        if not self.min_tiles <= len(raw) <= MAX_TILES:
            raise self.fail(
                f"{len(raw)} tiles; a tile set needs {self.min_tiles} to {MAX_TILES} (the "
                f"board labels its 20 string ends with tiles drawn from the set)"
            )
        tiles: list[Tile] = []
        canon: list[dict[str, Any]] = []
        for n, entry in enumerate(raw, start=1):
            keys = set(entry)
            if keys != {board, other}:
                extra = sorted(keys - {board, other})
                lacking = sorted({board, other} - keys)
                why = f"unknown key {extra[0]!r}" if extra else f"missing key {lacking[0]!r}"
                raise self.fail(
                    f"tile {n}: {why}; each tile has exactly the keys {board!r} and {other!r}"
                )
            b, cb = self.face(entry[board], f"tile {n}: {board}", board, True)
            o, co = self.face(entry[other], f"tile {n} ({b.text}): {other}", other, False)
            tiles.append(Tile(b, o))
            canon.append({board: cb, other: co})
        self.check_distinct(tiles, board, other)
        return tiles, canon

    def check_distinct(self, tiles: list[Tile], board: str, other: str) -> None:
        """Refuse a repeated tile, two faces one spelling names, and a side that mixes
        pictures and text."""
        pairs: dict[tuple[str, str], int] = {}
        for n, tile in enumerate(tiles, start=1):
            key = (fold(tile.board.text), fold(tile.other.text))
            if key in pairs:
                raise self.fail(
                    f"tile {n} repeats tile {pairs[key]} ({tile.board.text} / {tile.other.text})"
                )
            pairs[key] = n
        for side, kind in (("board", board), ("other", other)):
            seen: dict[str, tuple[int, str]] = {}
            for n, tile in enumerate(tiles, start=1):
                face = tile.board if side == "board" else tile.other
                spellings = [("text", face.text)] + [("alias", a) for a in face.aliases]
                for what, spelling in spellings:
                    folded = fold(spelling)
                    if folded in seen and seen[folded][0] != n:
                        m, first = seen[folded]
                        raise self.fail(
                            f"tile {n} ({tile.board.text}): the {kind} {what} {spelling!r} "
                            f"is the same (ignoring case) as tile {m}'s {kind} {first}; each "
                            f"{kind} must be told apart from every other"
                        )
                    seen.setdefault(folded, (n, f"{what} {spelling!r}"))
            pictures = [
                n
                for n, t in enumerate(tiles, start=1)
                if (t.board if side == "board" else t.other).is_picture
            ]
            if pictures and len(pictures) != len(tiles):
                plain = next(n for n in range(1, len(tiles) + 1) if n not in pictures)
                raise self.fail(
                    f"the {kind} faces must be all pictures or all text: tile {pictures[0]} "
                    f"has a picture, tile {plain} has none"
                )

    def face(self, raw: Any, what: str, kind: str, board: bool) -> tuple[Face, Any]:
        """A face and its canonical form (the text alone when that is all it has)."""
        limit = MAX_BOARD_TEXT if board else MAX_TEXT
        if isinstance(raw, str):
            text = self.text(raw, what, limit, board)
            return Face(text, f"{kind} {text}"), text
        if not isinstance(raw, dict):
            raise self.fail(f"{what} must be text or a table with text = ..., got {raw!r}")
        unknown = [k for k in raw if k not in FACE_KEYS]
        if unknown:
            raise self.fail(
                f"{what}: unknown key {unknown[0]!r}; a face's keys are {', '.join(FACE_KEYS)}"
            )
        if "text" not in raw:
            raise self.fail(f"{what}: missing key 'text' (what a keyboard types for this face)")
        text = self.text(raw["text"], what, limit, board)
        canon: dict[str, Any] = {"text": text}
        name = f"{kind} {text}"
        if "name" in raw:
            name = canon["name"] = self.label(raw["name"], f"{what}: name", MAX_LABEL)
        description = ""
        if "description" in raw:
            description = self.label(raw["description"], f"{what}: description", MAX_DESCRIPTION)
            canon["description"] = description
        aliases: list[str] = []
        if "aliases" in raw:
            given = raw["aliases"]
            if not isinstance(given, list) or len(given) > MAX_ALIASES:
                raise self.fail(f"{what}: aliases must be a list of at most {MAX_ALIASES} texts")
            aliases = [self.text(a, f"{what}: alias", MAX_TEXT, board) for a in given]
            canon["aliases"] = aliases
        svg = None
        if "image" in raw and "svg" in raw:
            raise self.fail(f"{what}: give either image or svg, not both")
        try:
            if "svg" in raw:
                if not isinstance(raw["svg"], str):
                    raise self.fail(f"{what}: svg must be the picture's markup as text")
                svg = canon["svg"] = clean_svg(raw["svg"], name)
            elif "image" in raw:
                svg, key, kept = self.image(raw["image"], what, name)
                canon[key] = kept
        except PictureError as exc:
            raise self.fail(f"{what}: {exc}") from None
        face = Face(text, name, description, svg, tuple(aliases))
        return face, canon

    def image(self, value: Any, what: str, name: str) -> tuple[str, str, str]:
        """The picture of ``image = ...`` and its canonical key and value (``image`` and a
        PNG's data: URI, or ``svg`` and the cleaned markup)."""
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{what}: image must be a file name (.svg or .png) or a PNG data: URI")
        if _is_png(value):
            try:
                data = base64.b64decode(value[len(PNG_URI) :], validate=True)
            except binascii.Error:
                raise self.fail(f"{what}: the image's data: URI is not valid base64") from None
            return png_svg(data, name), "image", PNG_URI + base64.b64encode(data).decode("ascii")
        if self.folder is None:
            raise self.fail(
                f"{what}: image {value!r} names a file, but a tile set given as text has no "
                'folder; give the picture as svg = "<svg ...>" or a PNG data: URI'
            )
        base = self.folder.resolve()
        target = (base / value).resolve()
        if Path(value).is_absolute() or not target.is_relative_to(base):
            raise self.fail(
                f"{what}: image {value!r} is outside the tile set file's folder; give a "
                "path relative to it, inside it"
            )
        suffix = Path(value).suffix.lower()
        if suffix not in (".svg", ".png"):
            raise self.fail(f"{what}: image {value!r} must be an .svg or .png file")
        if not target.is_file():
            raise self.fail(f"{what}: image {value!r} is not a file in {base}")
        try:
            data = target.read_bytes()
        except OSError as exc:
            raise self.fail(f"{what}: cannot read image {value!r}: {exc.strerror}") from None
        if suffix == ".png":
            return png_svg(data, name), "image", PNG_URI + base64.b64encode(data).decode("ascii")
        try:
            markup = data.decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail(f"{what}: image {value!r} is not UTF-8 text") from None
        clean = clean_svg(markup, name)
        return clean, "svg", clean


def _is_png(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(PNG_URI)


def canonical_text(canon: dict[str, Any]) -> str:
    """The canonical TOML of a set (see the module's docstring)."""
    lines = [f"{k} = {_toml_value(v)}" for k, v in canon.items() if k != "tiles"]
    for tile in canon["tiles"]:
        lines += ["", "[[tiles]]"]
        lines += [f"{_toml_string(k)} = {_toml_value(v)}" for k, v in tile.items()]
    return "\n".join(lines) + "\n"


#: A PNG inside the picture :func:`png_svg` makes of it.
_PNG_IN_SVG = re.compile(r'<image href="(data:image/png;base64,[A-Za-z0-9+/=]+)"')


def _face_form(face: Face) -> dict[str, Any]:
    out: dict[str, Any] = {"text": face.text, "name": face.name}
    if face.description:
        out["description"] = face.description
    if face.aliases:
        out["aliases"] = list(face.aliases)
    if face.svg is not None:
        png = _PNG_IN_SVG.search(face.svg)
        if png is not None:
            out["image"] = png.group(1)
        else:
            out["svg"] = face.svg
    return out


def tileset_text(ts: TileSet) -> str:
    """Any tile set (one a game builds included) as a self-contained tile set file: every
    face with its name, description, aliases and picture written out."""
    canon: dict[str, Any] = {"name": ts.name, "title": ts.title}
    if ts.summary:
        canon["summary"] = ts.summary
    canon.update(board=ts.board_kind, other=ts.other_kind, answers=ts.answer_noun)
    canon["tiles"] = [
        {ts.board_kind: _face_form(t.board), ts.other_kind: _face_form(t.other)} for t in ts.tiles
    ]
    return canonical_text(canon)


def parse_tileset(
    text: str, where: str = AS_TEXT, folder: Path | None = None, min_tiles: int = MIN_TILES
) -> LoadedTileSet:
    """The tile set in the TOML ``text``; pictures named by file are looked for in
    ``folder`` (None: none may be). Raises :class:`TileSetError` naming ``where`` and the
    entry that is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TileSetError(f"{where} is not valid TOML: {exc}") from None
    tiles, canon = _Reader(where, folder, min_tiles).document(data)
    out = canonical_text(canon)
    if len(out) > MAX_SET_CHARS:
        raise TileSetError(
            f"{where}: with its pictures the set has {len(out):,} characters; at most "
            f"{MAX_SET_CHARS:,} are allowed (use smaller pictures)"
        )
    return LoadedTileSet(tiles, out)


def read_tileset_file(path: str | Path, min_tiles: int = MIN_TILES) -> LoadedTileSet:
    """The tile set in the TOML file ``path`` (pictures beside it); TileSetError naming
    the file and the entry that is wrong."""
    path = Path(path)
    try:
        if not path.is_file():
            raise TileSetError(f"{path}: no such tile set file")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise TileSetError(f"{path}: the file is larger than {MAX_FILE_BYTES:,} bytes")
        raw = path.read_bytes()
    except OSError as exc:
        raise TileSetError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TileSetError(f"{path} is not UTF-8 text (byte {exc.start})") from None
    return parse_tileset(text, str(path), path.parent, min_tiles)


#: Sets read from text, by that text (canonical texts included), most recent last.
_FROM_TEXT: dict[str, LoadedTileSet] = {}


def tileset_from_text(text: str) -> LoadedTileSet:
    """The set in a tile set's TOML ``text`` (as an option holds it), read once per
    process."""
    found = _FROM_TEXT.get(text)
    if found is None:
        found = parse_tileset(text)
        if len(_FROM_TEXT) >= 16:
            _FROM_TEXT.pop(next(iter(_FROM_TEXT)))
        _FROM_TEXT[text] = _FROM_TEXT[found.text] = found
    return found


def is_tileset_text(value: str) -> bool:
    """True when an option value is a tile set's TOML rather than a name (it has lines)."""
    return "\n" in value


@dataclass(frozen=True)
class TileSetOption(OptionSpec):
    """An option choosing a tile set: a built-in set by name (the ``choices``), a tile set
    file, or a set's TOML text.

    A file is read only where a person names it: typed on the command line
    (:class:`OptionText` ending in ``.toml``) or given as a :class:`pathlib.Path`. Any
    other text with line breaks is read as the set itself (as a browser sends an uploaded
    file). Either way the option's value becomes the set's canonical text, so the game's
    options, and the records made from them, hold the whole set.
    """

    #: The kind of file a form may offer to upload for this option (sent as its text).
    upload: ClassVar[str] = ".toml"

    def allowed(self) -> str:
        """The built-in sets, or a tile set file."""
        return super().allowed() + " | a tile set file FILE.toml"

    def coerce(self, value: Any) -> OptionValue:
        """A built-in set's name, or the canonical text of the set read."""
        try:
            if isinstance(value, str) and is_tileset_text(value):
                return tileset_from_text(value).text
            if isinstance(value, Path):
                return read_tileset_file(value).text
            if isinstance(value, str) and value.strip().lower().endswith(".toml"):
                if isinstance(value, OptionText):
                    return read_tileset_file(value.strip()).text
                raise InvalidOptionError(
                    f"option {self.name!r} got the file name {value[:60]!r}; a file is "
                    "read when typed on the command line or given as a pathlib.Path; "
                    "otherwise give the set's TOML text"
                )
        except TileSetError as exc:
            raise InvalidOptionError(f"option {self.name!r}: {exc}") from None
        return super().coerce(value)
