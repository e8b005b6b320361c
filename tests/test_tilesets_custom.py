"""Tile sets written by people (TOML files): read strictly, used wherever a built-in set is.

The example set that ships with the game (``elements``) is the base of most cases: each bad
file below is that file with one thing wrong, and must be refused with a message naming
the file and the entry at fault.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import struct
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import taut
import taut.core.registry
import taut.learn.registry
from taut.cli import cli
from taut.core.errors import InvalidOptionError
from taut.core.record import GameRecord
from taut.core.record_files import read_records
from taut.games.pulling_strings.rules import PullingStrings
from taut.games.pulling_strings.tilesets import SETS, TILE_SETS, tile_set
from taut.learn.svg_safety import PictureError, clean_svg, png_svg
from taut.learn.tileset_file import (
    TileSetError,
    TileSetOption,
    parse_tileset,
    read_tileset_file,
    tileset_from_text,
    tileset_text,
)

ELEMENTS = SETS / "elements.toml"
DOCS = Path(__file__).resolve().parent.parent / "docs"
CIRCLE = '<svg viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#0072B2"/></svg>'


def png(width: int = 2, height: int = 3, padding: int = 0) -> bytes:
    """A valid PNG of the given size (``padding`` bytes of an extra chunk make it big)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x00\x00\x00" * width for _ in range(height))
    out = b"\x89PNG\r\n\x1a\n" + chunk(
        b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    )
    if padding:
        out += chunk(b"tEXt", b"c\x00" + b"x" * padding)
    return out + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def toml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def set_text(
    tiles: list[tuple[str, str]] | None = None,
    head: dict[str, str | None] | None = None,
    board: str = "symbol",
    other: str = "element",
) -> str:
    """A tile set's TOML: ``head`` keys, then one tile per ``(board face, other face)``,
    each face already written as a TOML value."""
    top: dict[str, str | None] = {"name": "mine", "title": "Mine", "board": board, "other": other}
    top.update(head or {})
    lines = [f"{k} = {toml_str(v)}" for k, v in top.items() if v is not None]
    del board, other  # the tiles below are keyed by the kinds in ``top``
    board, other = str(top["board"]), str(top["other"])
    if tiles is None:
        tiles = [
            (toml_str(t.board.text), toml_str(t.other.text)) for t in tile_set("elements").tiles
        ]
    for b, o in tiles:
        lines += ["", "[[tiles]]", f"{board} = {b}", f"{other} = {o}"]
    return "\n".join(lines) + "\n"


def plain_tiles(n: int = 26) -> list[tuple[str, str]]:
    return [(toml_str(t.board.text), toml_str(t.other.text)) for t in tile_set("elements").tiles][
        :n
    ]


def write(folder: Path, text: str, name: str = "set.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# -- good files -----------------------------------------------------------------------------


def test_the_example_set_is_a_built_in_set_and_a_file() -> None:
    by_name = tile_set("elements")
    by_file = read_tileset_file(ELEMENTS).tiles
    assert "elements" in TILE_SETS and "elements" in taut.learn.registry.tile_sets()
    assert len(by_name) == 26 and by_name.tiles == by_file.tiles
    assert (by_name.board_kind, by_name.other_kind, by_name.answer_noun) == (
        "symbol",
        "element",
        "names",
    )
    fe = by_name.find_board("fe")
    assert fe is not None and by_name.tiles[fe].other.text == "Iron"
    assert by_name.find_other("FERRUM") == fe and by_name.find_other("aluminum") is not None
    assert by_name.picker == "type"


def test_a_text_file_with_aliases_reads(tmp_path: Path) -> None:
    tiles = plain_tiles(20)
    tiles[0] = ('{ text = "H", aliases = ["hy"] }', '{ text = "Hydrogen", aliases = ["H2"] }')
    loaded = read_tileset_file(write(tmp_path, set_text(tiles)))
    ts = loaded.tiles
    assert len(ts) == 20 and ts.find_board("HY") == 0 and ts.find_other("h2") == 0
    assert ts.tiles[1].other.name == "element Helium"  # the default accessible name
    # The canonical text is the same set again, and reading it changes nothing.
    again = tileset_from_text(loaded.text)
    assert again.tiles.tiles == ts.tiles and again.text == loaded.text


def test_pictures_from_svg_and_png_files_and_inline_svg(tmp_path: Path) -> None:
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "one.svg").write_text(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
        'xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="10">'
        '<defs><path id="p" d="M0 0L5 5"/></defs><use xlink:href="#p"/></svg>'
    )
    (tmp_path / "pics" / "two.png").write_bytes(png(4, 2))
    tiles = []
    for n, (b, _) in enumerate(plain_tiles(20)):
        if n == 0:
            face = '{ text = "one", image = "pics/one.svg", description = "A line." }'
        elif n == 1:
            face = '{ text = "two", image = "pics/two.png", aliases = ["2"] }'
        else:
            face = f"{{ text = {toml_str(f'pic{n}')}, svg = {toml_str(CIRCLE)} }}"
        tiles.append((b, face))
    loaded = read_tileset_file(write(tmp_path, set_text(tiles)))
    ts = loaded.tiles
    assert ts.picker == "describe"
    one, two = ts.tiles[0].other, ts.tiles[1].other
    assert one.svg is not None and 'viewBox="0 0 20 10"' in one.svg and "width=" not in one.svg
    assert re.search(r'<use href="#ts[0-9a-f]{8}-p"/>', one.svg)
    assert two.svg is not None and "data:image/png;base64," in two.svg and ts.find_other("2") == 1
    assert ts.describe_other(0) == "A line." and ts.describe_other(1) == "two"
    # Everything is inside the canonical text: it reads without the folder.
    assert "pics/" not in loaded.text
    again = parse_tileset(loaded.text)
    assert again.tiles.tiles == ts.tiles


def test_every_built_in_set_writes_out_and_reads_back() -> None:
    for name, build in TILE_SETS.items():
        ts = build()
        back = parse_tileset(tileset_text(ts), name).tiles
        assert [t.board.text for t in back.tiles] == ts.board_faces()
        for mine, theirs in zip(ts.tiles, back.tiles, strict=True):
            for a, b in ((mine.board, theirs.board), (mine.other, theirs.other)):
                assert (a.text, a.name, a.description, a.aliases) == (
                    b.text,
                    b.name,
                    b.description,
                    b.aliases,
                )
                assert b.svg == (None if a.svg is None else clean_svg(a.svg, a.name))


def test_cleaning_a_picture_twice_changes_nothing() -> None:
    for tile in tile_set("asl").tiles:
        svg = tile.other.svg
        assert svg is not None
        clean = clean_svg(svg, tile.other.name)
        assert clean_svg(clean, tile.other.name) == clean


def test_the_docs_show_the_example_file_whole() -> None:
    text = (DOCS / "tilesets.md").read_text()
    block = text.split("```toml\n", 1)[1].split("```", 1)[0]
    assert block == ELEMENTS.read_text()


# -- bad files ------------------------------------------------------------------------------


def _replace_tile(n: int, board: str, other: str) -> list[tuple[str, str]]:
    tiles = plain_tiles()
    tiles[n] = (board, other)
    return tiles


BAD_TEXTS: list[tuple[str, str, str]] = [
    ("not-toml", 'name = "x"\ntitle = \n', "is not valid TOML"),
    ("missing-key", set_text(head={"title": None}), "missing key 'title'"),
    ("unknown-key", set_text(head={"colour": "red"}), "unknown key 'colour'"),
    ("bad-name", set_text(head={"name": "My Set"}), "name 'My Set' must be"),
    ("control", set_text(head={"title": "Mine\x1b[2J"}), "title holds the control character"),
    ("same-kinds", set_text(head={"other": "Symbol"}), "different kinds"),
    (
        "unknown-tile-key",
        set_text().replace('symbol = "H"\n', 'symbol = "H"\ncolour = "red"\n', 1),
        "tile 1: unknown key 'colour'",
    ),
    (
        "missing-face",
        set_text().replace('symbol = "He"\n', "", 1),
        "tile 2: missing key 'symbol'",
    ),
    (
        "unknown-face-key",
        set_text(_replace_tile(0, '{ text = "H", colour = "red" }', '"Hydrogen"')),
        "tile 1: symbol: unknown key 'colour'",
    ),
    (
        "face-without-text",
        set_text(_replace_tile(0, '{ name = "H" }', '"Hydrogen"')),
        "missing key 'text'",
    ),
    (
        "duplicate-face",
        set_text(_replace_tile(3, '"Be"', '"HELIUM"')),
        "tile 4 (Be): the element text 'HELIUM' is the same (ignoring case) as tile 2's",
    ),
    (
        "duplicate-alias",
        set_text(_replace_tile(0, '"H"', '{ text = "Hydrogen", aliases = ["lithium"] }')),
        "tile 3 (Li): the element text 'Lithium' is the same (ignoring case) as tile 1's "
        "element alias 'lithium'",
    ),
    (
        "duplicate-board-alias",
        set_text(_replace_tile(0, '{ text = "H", aliases = ["he"] }', '"Hydrogen"')),
        "tile 2 (He): the symbol text 'He' is the same (ignoring case) as tile 1's symbol alias",
    ),
    ("duplicate-pair", set_text(_replace_tile(25, '"h"', '"hydrogen"')), "tile 26 repeats tile 1"),
    ("too-few", set_text(plain_tiles(19)), "19 tiles; a tile set needs 20 to 26"),
    (
        "too-many",
        set_text([*plain_tiles(), ('"Co"', '"Cobalt"')]),
        "27 tiles; a tile set needs 20 to 26",
    ),
    ("empty-text", set_text(_replace_tile(0, '"  "', '"Hydrogen"')), "tile 1: symbol is empty"),
    ("empty-other", set_text(_replace_tile(0, '"H"', '""')), "element is empty"),
    (
        "long-board",
        set_text(_replace_tile(0, '"Hydr"', '"Hydrogen"')),
        "tile 1: symbol 'Hydr' has 4 characters; at most 3",
    ),
    (
        "long-other",
        set_text(_replace_tile(0, '"H"', toml_str("x" * 33))),
        "has 33 characters; at most 32",
    ),
    ("board-space", set_text(_replace_tile(0, '"H e"', '"Hydrogen"')), "holds ' '"),
    ("board-equals", set_text(_replace_tile(0, '"H"', '"a=b"')), "holds '='"),
    ("board-markup", set_text(_replace_tile(0, '"[b]"', '"Hydrogen"')), "holds '['"),
    ("end-name", set_text(_replace_tile(0, '"N2"', '"Hydrogen"')), "looks like a string end"),
    (
        "mixed-pictures",
        set_text(_replace_tile(0, '"H"', f'{{ text = "Hydrogen", svg = {toml_str(CIRCLE)} }}')),
        "all pictures or all text: tile 1 has a picture, tile 2 has none",
    ),
    (
        "image-and-svg",
        set_text(_replace_tile(0, '"H"', '{ text = "x", svg = "", image = "a.svg" }')),
        "either image or svg",
    ),
]


@pytest.mark.parametrize(
    ("text", "says"), [(t, s) for _, t, s in BAD_TEXTS], ids=[i for i, _, _ in BAD_TEXTS]
)
def test_a_bad_file_is_refused_naming_the_file_and_entry(
    tmp_path: Path, text: str, says: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(TileSetError) as caught:
        read_tileset_file(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and says in message, message


UNSAFE_SVG: list[tuple[str, str, str]] = [
    ("script", '<svg viewBox="0 0 1 1"><script>alert(1)</script></svg>', "<script> is not allowed"),
    ("onload", '<svg viewBox="0 0 1 1" onload="alert(1)"/>', "event handler attribute 'onload'"),
    ("onclick", '<svg viewBox="0 0 1 1"><rect onclick="x()"/></svg>', "'onclick'"),
    (
        "href",
        '<svg viewBox="0 0 1 1"><use href="http://evil.example/x.svg#a"/></svg>',
        "points outside the picture",
    ),
    (
        "xlink",
        '<svg xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1">'
        '<use xlink:href="data:image/svg+xml,abc"/></svg>',
        "points outside the picture",
    ),
    (
        "url",
        '<svg viewBox="0 0 1 1"><rect fill="url(http://evil.example/p)"/></svg>',
        "only url(#...) inside the picture",
    ),
    (
        "style-url",
        '<svg viewBox="0 0 1 1"><rect style="fill: url( \'https://x\' )"/></svg>',
        "only url(#...)",
    ),
    (
        "foreign",
        '<svg viewBox="0 0 1 1"><foreignObject><div/></foreignObject></svg>',
        "<foreignObject> is not allowed",
    ),
    ("iframe", '<svg viewBox="0 0 1 1"><iframe src="x"/></svg>', "<iframe> is not allowed"),
    (
        "doctype",
        '<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg viewBox="0 0 1 1">&a;</svg>',
        "<!DOCTYPE> declaration is not allowed",
    ),
    ("entity", '<!ENTITY a "b"><svg viewBox="0 0 1 1"/>', "<!ENTITY> declaration"),
    ("style", '<svg viewBox="0 0 1 1"><style>*{}</style></svg>', "<style> is not allowed"),
    ("image", '<svg viewBox="0 0 1 1"><image href="#a"/></svg>', "<image> is not allowed"),
    ("javascript", '<svg viewBox="0 0 1 1"><rect fill="javascript:x"/></svg>', "not allowed"),
    (
        "image-set",
        '<svg viewBox="0 0 1 1"><rect style="background:image-set(\'x.png\' 1x)"/></svg>',
        "not allowed",
    ),
    ("unknown-element", '<svg viewBox="0 0 1 1"><blink/></svg>', "the element <blink>"),
    ("html", '<svg viewBox="0 0 1 1"><h:p xmlns:h="http://www.w3.org/1999/xhtml"/></svg>', "<{"),
    ("unknown-attribute", '<svg viewBox="0 0 1 1"><rect formaction="x"/></svg>', "'formaction'"),
    ("instruction", '<svg viewBox="0 0 1 1"><?xml-stylesheet href="x"?></svg>', "processing"),
    ("not-xml", "<svg viewBox='0 0 1 1'><rect></svg>", "not well-formed XML"),
    ("not-svg", '<html viewBox="0 0 1 1"/>', "outermost element must be <svg>"),
    ("no-size", "<svg><rect/></svg>", "needs a viewBox"),
]


@pytest.mark.parametrize(
    ("markup", "says"), [(m, s) for _, m, s in UNSAFE_SVG], ids=[i for i, _, _ in UNSAFE_SVG]
)
def test_an_unsafe_picture_is_refused(tmp_path: Path, markup: str, says: str) -> None:
    with pytest.raises(PictureError, match=re.escape(says)):
        clean_svg(markup, "a picture")
    # The same picture in a file beside a tile set names the file and the tile.
    (tmp_path / "bad.svg").write_text(markup)
    tiles = [
        (b, f'{{ text = "p{n}", image = "bad.svg" }}') for n, (b, _) in enumerate(plain_tiles(20))
    ]
    path = write(tmp_path, set_text(tiles))
    with pytest.raises(TileSetError) as caught:
        read_tileset_file(path)
    assert str(caught.value).startswith(f"{path}: tile 1 (H): element: ")
    assert says in str(caught.value)


def _picture_set(folder: Path, image: str) -> Path:
    tiles = [
        (b, f'{{ text = "p{n}", image = {toml_str(image)} }}')
        for n, (b, _) in enumerate(plain_tiles(20))
    ]
    return write(folder, set_text(tiles))


@pytest.mark.parametrize(
    ("image", "says"),
    [
        ("../outside.svg", "is outside the tile set file's folder"),
        ("/etc/hostname", "is outside the tile set file's folder"),
        ("sub/../../outside.svg", "is outside the tile set file's folder"),
        ("link.svg", "is outside the tile set file's folder"),
        ("missing.svg", "image 'missing.svg' is not a file"),
        ("picture.gif", "must be an .svg or .png file"),
        ("fake.png", "is not a PNG image"),
        ("big.png", "at most 262,144 (256 KB)"),
        ("huge.png", "each side must be 1 to 4096"),
        ("data:image/png;base64,@@@", "not valid base64"),
    ],
)
def test_a_bad_picture_file_is_refused(tmp_path: Path, image: str, says: str) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (tmp_path / "outside.svg").write_text(CIRCLE)
    (folder / "link.svg").symlink_to(tmp_path / "outside.svg")
    (folder / "picture.gif").write_bytes(b"GIF89a")
    (folder / "fake.png").write_bytes(b"not a png at all, but long enough for a header......")
    (folder / "big.png").write_bytes(png(padding=300_000))
    (folder / "huge.png").write_bytes(png(5000, 1))
    path = _picture_set(folder, image)
    with pytest.raises(TileSetError) as caught:
        read_tileset_file(path)
    assert str(caught.value).startswith(f"{path}: tile 1 (H): element: ")
    assert says in str(caught.value), str(caught.value)


def test_a_set_given_as_text_cannot_name_files(tmp_path: Path) -> None:
    (tmp_path / "a.svg").write_text(CIRCLE)
    text = _picture_set(tmp_path, "a.svg").read_text()
    assert read_tileset_file(tmp_path / "set.toml").tiles.picker == "describe"
    with pytest.raises(TileSetError, match="a tile set given as text has no folder"):
        parse_tileset(text)


def test_a_png_inside_the_file_reads(tmp_path: Path) -> None:
    uri = "data:image/png;base64," + base64.b64encode(png()).decode()
    loaded = read_tileset_file(_picture_set(tmp_path, uri))
    assert loaded.tiles.tiles[0].other.svg == png_svg(png(), "element p0")


def test_a_file_that_is_not_utf8_or_missing_is_refused(tmp_path: Path) -> None:
    (tmp_path / "latin.toml").write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(TileSetError, match="is not UTF-8"):
        read_tileset_file(tmp_path / "latin.toml")
    with pytest.raises(TileSetError, match="no such tile set file"):
        read_tileset_file(tmp_path / "nope.toml")


# -- the option --------------------------------------------------------------------------------


def test_the_option_holds_the_set_not_the_file_name(tmp_path: Path) -> None:
    path = write(tmp_path, ELEMENTS.read_text(), "chem.toml")
    game = PullingStrings(edition="published", tiles=path, seed=4)
    text = game.options["tiles"]
    assert isinstance(text, str) and "[[tiles]]" in text and "chem.toml" not in text
    assert game.tileset is not None and game.tileset.tiles == tile_set("elements").tiles
    # The same seed places the same tiles whichever way the set is named.
    by_name = PullingStrings(edition="published", tiles="elements", seed=4)
    assert list(game.letters) == list(by_name.letters)
    # The set as text makes the same game; a file name given as plain text is never read.
    same = PullingStrings(edition="published", tiles=text, seed=4)
    assert same.options == game.options
    with pytest.raises(InvalidOptionError, match="a file is read when typed on the command line"):
        PullingStrings(edition="published", tiles=str(path))


def test_the_letters_option_names_the_faces_of_a_file_set(tmp_path: Path) -> None:
    path = write(tmp_path, ELEMENTS.read_text())
    faces = tile_set("elements").board_faces()[6:26]
    game = PullingStrings(edition="published", tiles=path, letters=" ".join(faces))
    assert list(game.letters) == faces and game.end_index("fe") == 19


def test_the_option_is_declared_with_its_upload() -> None:
    spec = next(
        s
        for s in taut.core.registry.plugin("pulling-strings").game_class.OPTIONS
        if s.name == "tiles"
    )
    assert isinstance(spec, TileSetOption) and spec.upload == ".toml"
    assert spec.allowed() == "asl | roman | kana | elements | a tile set file FILE.toml"


# -- the command line --------------------------------------------------------------------------


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), input=input)


def test_a_whole_learning_game_with_the_example_set_is_recorded_and_replays(
    tmp_path: Path,
) -> None:
    path = tmp_path / "chem.toml"
    shutil.copy(ELEMENTS, path)
    record = tmp_path / "games.jsonl"
    made = run(
        "selfplay", "pulling-strings", "--edition", "published", "-O", f"tiles={path}",
        "-O", "learning=strict", "-O", "mistakes=0.3", "--agents", "random,random",
        "--games", "3", "--seed", "11", "--record", str(record),
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    path.unlink()  # the records must not need the file any more
    records = read_records(record)
    assert len(records) == 3
    for data in records:
        rec = GameRecord.from_json(data)
        assert "[[tiles]]" in rec.options["tiles"] and rec.options["learning"] == "strict"
        assert any("=" in text for move in rec.moves or [] for text in move.values())
        final = rec.replay()
        assert final.is_terminal()
    replayed = run("replay", "pulling-strings", str(record))
    assert replayed.exit_code == 0, replayed.output
    assert "3 record(s) checked: all replay exactly." in replayed.output
    by_name = run(
        "selfplay", "pulling-strings", "--edition", "published", "-O", "tiles=elements",
        "-O", "learning=slip", "--agents", "random,random", "--games", "1", "--seed", "2",
    )  # fmt: skip
    assert by_name.exit_code == 0, by_name.output


def test_a_bad_file_on_the_command_line_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, set_text(plain_tiles(19)))
    for command in ("selfplay", "play", "arena", "bench"):
        args = [command, "pulling-strings", "--edition", "published", "-O", f"tiles={path}"]
        if command == "arena":
            args += ["--agents", "random,random"]
        result = run(*args)
        assert result.exit_code == 2, (command, result.output)
        assert f"option 'tiles': {path}: 19 tiles; a tile set needs 20 to 26" in result.output
    missing = run("selfplay", "pulling-strings", "--edition", "published", "-O", "tiles=x.toml")
    assert missing.exit_code == 2 and "x.toml: no such tile set file" in missing.output
    typo = run("selfplay", "pulling-strings", "--edition", "published", "-O", "tiles=elemnts")
    assert typo.exit_code == 2 and "a tile set file FILE.toml" in typo.output


def test_flash_cards_drill_a_file(tmp_path: Path) -> None:
    path = write(tmp_path, ELEMENTS.read_text(), "chem.toml")
    answers = "\n".join(t.other.text for t in tile_set("elements").tiles) + "\n"
    # Every answer is tried until the asked one comes: the card's symbol names it.
    result = run(
        "flashcards", str(path), "--direction", "board", "--cards", "2", "--seed", "3",
        "--progress", str(tmp_path / "p.json"), input=answers,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Element symbols and names: symbol → element" in result.output
    progress = json.loads((tmp_path / "p.json").read_text())
    assert "elements" in json.dumps(progress)
    bad = write(tmp_path, set_text(_replace_tile(3, '"Be"', '"HELIUM"')), "bad.toml")
    refused = run("flashcards", str(bad))
    assert refused.exit_code == 2 and f"{bad}: tile 4 (Be)" in refused.output


def test_flash_cards_right_answers_count(tmp_path: Path) -> None:
    path = write(tmp_path, ELEMENTS.read_text(), "chem.toml")
    ts = tile_set("elements")
    # Answer each card with the name of the symbol shown (read from the prompt).
    runner = CliRunner()
    result = runner.invoke(
        cli,
        ["flashcards", str(path), "--direction", "board", "--cards", "1", "--seed", "5",
         "--progress", str(tmp_path / "p.json")],
        input="quit\n",
    )  # fmt: skip
    shown = re.search(r"Symbol: (\w+)", result.output)
    assert shown is not None
    tile = ts.find_board(shown.group(1))
    assert tile is not None
    again = runner.invoke(
        cli,
        ["flashcards", str(path), "--direction", "board", "--cards", "1", "--seed", "5",
         "--progress", str(tmp_path / "q.json")],
        input=ts.tiles[tile].other.text.upper() + "\n",
    )  # fmt: skip
    assert again.exit_code == 0 and "Right:" in again.output, again.output


def test_the_tiles_command_lists_checks_bundles_and_draws(tmp_path: Path) -> None:
    listed = run("tiles")
    assert listed.exit_code == 0 and "elements" in listed.output and "asl" in listed.output
    shown = run("tiles", str(ELEMENTS))
    assert shown.exit_code == 0 and "Hydrogen" in shown.output and "Kalium" in shown.output
    (tmp_path / "a.svg").write_text(CIRCLE)
    source = _picture_set(tmp_path, "a.svg")
    bundle, page = tmp_path / "out" / "bundle.toml", tmp_path / "out" / "gallery.html"
    bundle.parent.mkdir()
    made = run("tiles", str(source), "--bundle", str(bundle), "--html", str(page))
    assert made.exit_code == 0, made.output
    assert "a.svg" not in bundle.read_text() and "<circle" in bundle.read_text()
    assert page.read_text().count("<circle") == 20 and "<script" not in page.read_text()
    # The bundle is a tile set file of its own, read where no picture lies beside it.
    game = run(
        "selfplay", "pulling-strings", "--edition", "published", "-O", f"tiles={bundle}",
        "-O", "learning=slip", "--agents", "random,random", "--games", "1", "--seed", "1",
    )  # fmt: skip
    assert game.exit_code == 0, game.output
    built_in = run("tiles", "kana", "--bundle", str(tmp_path / "kana.toml"))
    assert built_in.exit_code == 0
    assert read_tileset_file(tmp_path / "kana.toml").tiles.tiles == tile_set("kana").tiles
    bad = run("tiles", str(write(tmp_path, "name = ", "bad.toml")))
    assert bad.exit_code == 2 and "is not valid TOML" in bad.output


# -- the browser -------------------------------------------------------------------------------


def test_the_server_takes_an_uploaded_set_and_never_reads_a_file(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from tests.test_server_kit import app_client

    text = ELEMENTS.read_text()
    options = {"edition": "published", "tiles": text, "learning": "strict", "max_turns": 30}
    with app_client(tmp_path) as client:
        entry = client.get("/api/games").json()
        game = next(g for g in entry if g["name"] == "pulling-strings")
        spec = next(o for o in game["options"] if o["name"] == "tiles")
        assert spec["upload"] == ".toml" and "elements" in spec["choices"]
        seats = client.post("/api/seats", json={"game": "pulling-strings", "options": options})
        assert seats.status_code == 200, seats.text
        body = {"game": "pulling-strings", "options": options, "seats": [{"kind": "easy"}] * 2}
        made = client.post("/api/games", json=body)
        assert made.status_code == 200, made.text
        for _ in range(300):  # two computer seats play the game out
            record = client.get(f"/api/games/{made.json()['id']}/record")
            if record.status_code != 409:
                break
            time.sleep(0.05)
        assert record.status_code == 200, record.text
        kept = GameRecord.from_json(record.json())
        assert kept.options["tiles"] == tileset_from_text(text).text
        assert kept.replay().is_terminal()
        bad = dict(options, tiles=set_text(plain_tiles(19)))
        refused = client.post("/api/seats", json={"game": "pulling-strings", "options": bad})
        assert refused.status_code == 400
        assert "the tile set given as text: 19 tiles" in refused.text
        named = dict(options, tiles=str(ELEMENTS))
        refused = client.post("/api/games", json=dict(body, options=named))
        assert refused.status_code == 400 and "a file is read when typed" in refused.text


def test_the_board_of_a_learning_game_shows_a_files_pictures(tmp_path: Path) -> None:
    (tmp_path / "p.png").write_bytes(png(3, 3))
    path = _picture_set(tmp_path, "p.png")
    game = PullingStrings(edition="published", learning="strict", tiles=path, seed=1)
    state = game.new_initial_state()
    legal = [state.action_to_string(0, a).split("=")[0] for a in state.legal_actions(0)]
    svg = taut.core.registry.plugin("pulling-strings").svg(state.view(0), 0, legal)
    # Twenty pictures in the palette, each a PNG inside a picture, labelled by description
    # or text but never by the board face it answers.
    assert svg.count("data:image/png;base64,") == 20
    # Each named by its place this turn, never by its face.
    assert 'data-part="answer=@0"' in svg and 'data-part="answer=p0"' not in svg
    assert 'aria-label="p0"' in svg
