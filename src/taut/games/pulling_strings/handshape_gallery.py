"""All 26 handshapes on one sheet, and the documentation files made from them.

:func:`gallery_svg` lays the pictures out in a grid with each letter under its picture.
:func:`doc_files` and :func:`asl_page` are the files of the documentation: one picture per
letter and the gallery (in ``docs/handshapes/``) and the page ``docs/asl.md`` that lists
them. They are generated, never edited by hand; after a change to the drawings run::

    python -m taut.games.pulling_strings.handshape_gallery docs/handshapes

which rewrites the folder's pictures and the page beside the folder (``docs/asl.md``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from taut.core.errors import InvalidOptionError
from taut.core.svg import esc
from taut.games.pulling_strings.handshape_parts import INK
from taut.games.pulling_strings.handshapes import HANDSHAPES
from taut.games.pulling_strings.signs.guide import SECTION as RECOGNISING_SIGNS

#: The size of one picture in the gallery and in the documentation's files.
CELL = 100
#: Room under each picture for its letter, and between neighbouring cells.
_LABEL = 22
_GAP = 8
#: The name of the gallery's file in the documentation folder.
GALLERY = "gallery.svg"
#: The name of the page written beside the documentation folder.
PAGE = "asl.md"
_TITLE = "The ASL fingerspelling handshapes, A to Z"


def _sized(svg: str, extra: str) -> str:
    """``svg`` with attributes ``extra`` added to its root element."""
    return svg.replace("<svg ", f"<svg {extra} ", 1)


def gallery_svg(columns: int = 7) -> str:
    """One SVG with the 26 pictures in rows of ``columns``, each letter under its picture."""
    if columns < 1:
        raise InvalidOptionError(f"a gallery needs at least one column, not {columns}")
    rows = -(-len(HANDSHAPES) // columns)
    width = columns * CELL + (columns + 1) * _GAP
    height = rows * (CELL + _LABEL) + (rows + 1) * _GAP
    cells = []
    for i, hand in enumerate(HANDSHAPES.values()):
        row, col = divmod(i, columns)
        x = _GAP + col * (CELL + _GAP)
        y = _GAP + row * (CELL + _LABEL + _GAP)
        cells.append(
            _sized(hand.svg, f'x="{x}" y="{y}" width="{CELL}" height="{CELL}"')
            + f'<text x="{x + CELL // 2}" y="{y + CELL + _LABEL - 5}" text-anchor="middle" '
            f'font-family="sans-serif" font-size="18" fill="{INK}">{esc(hand.letter)}</text>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="group" aria-label="{_TITLE}">'
        f'<title>{_TITLE}</title><rect width="{width}" height="{height}" rx="8" fill="#fff"/>'
        + "".join(cells)
        + "</svg>"
    )


def doc_files() -> dict[str, str]:
    """The documentation folder's files by name: ``A.svg`` .. ``Z.svg`` (each picture with
    a size, so that a Markdown viewer shows it at 100 pixels) and the gallery."""
    files = {
        f"{letter}.svg": _sized(hand.svg, f'width="{CELL}" height="{CELL}"') + "\n"
        for letter, hand in HANDSHAPES.items()
    }
    files[GALLERY] = gallery_svg() + "\n"
    return files


def asl_page(folder: str = "handshapes") -> str:
    """The Markdown page that lists every letter with its picture (in ``folder``, relative
    to the page) and its description."""
    lines = [
        "# ASL fingerspelling handshapes",
        "",
        "The `asl` tile set of Pulling Strings pairs each letter on the board with the",
        "American Sign Language handshape that spells it. The pictures are drawn by the",
        "project as learning aids: simplified drawings of a hand, not photographs, and no",
        "replacement for watching people sign.",
        "",
        "How to read them:",
        "",
        "- Each picture shows a right hand as a person facing the signer sees it, so when the",
        "  palm faces the viewer the thumb is on the viewer's right.",
        "- The palm side is light and shows palm creases. The back of the hand is a darker",
        "  shade with knuckle marks and fingernails (G, H, P and Q are seen from the back). A",
        "  nail on the palm side marks a fingertip or thumb tip turned toward the viewer.",
        "- C and O are seen edge-on from the thumb side, the palm to the viewer's right.",
        "- A blue arrow shows movement: the little finger's hook for J and the path of the",
        "  index finger for Z, which the viewer sees mirrored.",
        "",
        f"![{_TITLE}]({folder}/{GALLERY})",
        "",
        "| Letter | Handshape | Description |",
        "| --- | --- | --- |",
    ]
    for letter, hand in HANDSHAPES.items():
        lines.append(f"| {letter} | ![{hand.name}]({folder}/{letter}.svg) | {hand.description} |")
    lines += [
        "",
        "The pictures and this page are generated from the drawings in",
        "`src/taut/games/pulling_strings/handshape_*.py`; after changing them, run",
        "",
        "```",
        f"python -m taut.games.pulling_strings.handshape_gallery docs/{folder}",
        "```",
        "",
        "A test fails while the files here differ from what the drawings produce.",
        "",
        "Other tile sets, and how to write one of your own (with your own pictures, SVG or",
        "PNG), are described in [tilesets.md](tilesets.md).",
        "",
    ]
    return "\n".join(lines) + RECOGNISING_SIGNS


def write(folder: Path) -> list[Path]:
    """Write :func:`doc_files` into ``folder`` (removing other SVG files there) and
    :func:`asl_page` beside it; return the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    files = doc_files()
    for old in folder.glob("*.svg"):
        if old.name not in files:
            old.unlink()
    written = []
    for name, text in files.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    page = folder.parent / PAGE
    page.write_text(asl_page(folder.name), encoding="utf-8")
    written.append(page)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write the documentation's pictures into the folder given."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0].startswith("-"):
        print(
            "usage: python -m taut.games.pulling_strings.handshape_gallery FOLDER\n"
            "writes A.svg .. Z.svg and gallery.svg into FOLDER and asl.md beside it",
            file=sys.stderr,
        )
        return 2
    for path in write(Path(args[0])):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
