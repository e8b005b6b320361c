"""``taut tiles [SET]``: the tile sets, one set's tiles, and a set written out whole.

A set is named as everywhere else: a game's set by its name (``asl``, ``elements``) or a
tile set file (``FILE.toml``, see ``docs/tilesets.md``), which is checked as the games read
it. ``--bundle OUT.toml`` writes the set as one self-contained file (every picture inside),
which a browser can upload on the new-game form; ``--html OUT.html`` writes a page showing
both faces of every tile.
"""

from __future__ import annotations

from html import escape as html_escape
from pathlib import Path

import click
from rich.markup import escape

from taut.cli.common import console, fail, file_param
from taut.cli.flashcards import face_text, find_tile_set
from taut.learn.tileset import Face, TileSet


def bundle_text(given: str, tiles: TileSet) -> str:
    """The set as one self-contained tile set file: a file's own canonical text, or a
    game's set written out."""
    from taut.learn.tileset_file import read_tileset_file, tileset_text

    if given.strip().lower().endswith(".toml"):
        return read_tileset_file(given.strip()).text
    return tileset_text(tiles)


def _html_face(face: Face) -> str:
    # A picture was checked and rewritten when the set was read (learn/svg_safety.py).
    if face.svg is not None:
        return face.svg
    return f'<span class="text">{html_escape(face.text)}</span>'


def gallery_html(tiles: TileSet) -> str:
    """A standalone page with both faces of every tile, pictures drawn."""
    rows = []
    for tile in tiles.tiles:
        note = tile.other.description or ", ".join(tile.other.aliases)
        rows.append(
            f"<li><figure>{_html_face(tile.board)}{_html_face(tile.other)}"
            f"<figcaption><strong>{html_escape(tile.board.text)}</strong> = "
            f"{html_escape(tile.other.name if tile.other.is_picture else tile.other.text)}"
            f"{': ' + html_escape(note) if note else ''}</figcaption></figure></li>"
        )
    title = html_escape(tiles.title)
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>"
        "body{font-family:sans-serif;margin:2rem}ul{list-style:none;padding:0;display:grid;"
        "grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:1rem}"
        "figure{margin:0;border:1px solid #8a8a8a;border-radius:6px;padding:.5rem}"
        "svg{width:4.5rem;height:4.5rem}.text{display:inline-block;min-width:4.5rem;"
        "font-size:1.6rem;font-weight:700;text-align:center}"
        f"</style></head><body><h1>{title}</h1>"
        f"<p>{html_escape(tiles.summary)} ({html_escape(tiles.board_kind)} / "
        f"{html_escape(tiles.other_kind)}, {len(tiles)} tiles)</p>"
        f"<ul>{''.join(rows)}</ul></body></html>\n"
    )


def _write(path: Path, text: str) -> None:
    from taut.core.errors import RecordError
    from taut.core.record_files import write_text

    try:
        write_text(path, text)
    except RecordError as exc:
        fail(str(exc), 1)


def _list_sets() -> None:
    from rich.table import Table

    from taut.learn.registry import tile_sets

    table = Table(title="Tile sets", title_justify="left")
    for column in ("set", "title", "board", "other", "tiles"):
        table.add_column(column)
    for name, ts in tile_sets().items():
        table.add_row(name, ts.title, ts.board_kind, ts.other_kind, str(len(ts)))
    console.print(table)
    console.print("Or a tile set file of your own: taut tiles FILE.toml (see docs/tilesets.md).")


def run(tile_set: str | None, bundle: Path | None, html: Path | None) -> None:
    """List the tile sets, or show one set's tiles (SET: a name or a file FILE.toml).

    Showing a file checks it exactly as a game reads it (exit status 2 naming the entry
    that is wrong). --bundle writes the set as one self-contained file, every picture
    inside, to upload on the browser's new-game form; --html writes a gallery page.
    """
    if tile_set is None:
        if bundle is not None or html is not None:
            fail("name a tile set to write (taut tiles SET --bundle OUT.toml)")
        _list_sets()
        return
    from rich.table import Table

    tiles = find_tile_set(tile_set)
    if bundle is not None:
        _write(bundle, bundle_text(tile_set, tiles))
        console.print(f"Wrote {escape(str(bundle))}.")
    if html is not None:
        _write(html, gallery_html(tiles))
        console.print(f"Wrote {escape(str(html))}.")
    if bundle is not None or html is not None:
        return
    table = Table(title=f"{tiles.title} ({tiles.name})", title_justify="left")
    for column in ("#", tiles.board_kind, tiles.other_kind, "also accepted"):
        table.add_column(escape(column))
    for n, tile in enumerate(tiles.tiles, start=1):
        aliases = ", ".join([*tile.board.aliases, *tile.other.aliases])
        table.add_row(
            str(n), escape(face_text(tile.board)), escape(face_text(tile.other)), escape(aliases)
        )
    console.print(table)
    if tiles.summary:
        console.print(escape(tiles.summary[:1].upper() + tiles.summary[1:]) + ".")


#: ``taut tiles``.
tiles = click.Command(
    "tiles",
    callback=run,
    help=run.__doc__,
    short_help="List tile sets, show one, or write it out (--bundle, --html).",
    context_settings={"help_option_names": ["-h", "--help"]},
    params=[
        click.Argument(["tile_set"], metavar="[SET]", required=False),
        file_param(["--bundle"], "Write the set as one self-contained tile set file."),
        file_param(["--html"], "Write a page showing both faces of every tile."),
    ],
)
