"""A game's table drawn by the page's module, to compare with the server's picture.

Each game's ``src/taut/games/<game>/table.js`` exports ``drawTable(data, layout)``, which
the page calls with the data the server sends. :func:`draw_on_page` runs that function in
``node`` for many data at once, in both layouts; :func:`first_difference` shows where a
picture drawn there parts from the server's. :func:`node_or_skip` skips a test, saying
what goes unchecked, where ``node`` is missing, and :func:`plain_json` tells whether data
is made of JSON's own types only. :func:`assert_drawn_alike` holds many tables to the
server's pictures at once.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

#: What the page's drawing says in place of a picture when ``drawTable`` threw.
THROWN = "drawTable threw: "

#: Node's side: import the module by its file URL, read one data a line from stdin and
#: write a line for each: both layouts' pictures, or their SHA-1 digests (``hash``). Each
#: layout is drawn on its own so that an error thrown by one leaves the other to compare,
#: and the error is written as text, so that the comparison shows it instead of ``node``
#: stopping at the first. Null (no picture in that layout) is written as null, and anything
#: else not text as it is, never digested, so that it cannot pass for a picture.
RUNNER = """
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
const [moduleUrl, mode, thrown] = process.argv.slice(1);
const { drawTable } = await import(moduleUrl);
const sha1 = (text) => createHash("sha1").update(text, "utf8").digest("hex");
const said = (text) => (typeof text === "string" && mode === "hash" ? sha1(text) : text);
const draw = (data, layout) => {
  try {
    return drawTable(data, layout);
  } catch (error) {
    return thrown + (error instanceof Error ? error.stack : String(error));
  }
};
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line) continue;
  const data = JSON.parse(line);
  const drawn = [draw(data, "wide"), draw(data, "narrow")];
  process.stdout.write(JSON.stringify(drawn.map(said)) + "\\n");
}
"""

#: Characters of each picture shown either side of where they first differ.
AROUND = 150


def node_or_skip(what: str) -> str:
    """The ``node`` executable; where it is not on PATH, the test is skipped with a message
    naming ``what`` (say, "the page's Track Tiles drawing") as what cannot be run."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"node is not on PATH: {what} cannot be run")
    return node


def digest(picture: str) -> str:
    """A picture's SHA-1 in hex, as :func:`draw_on_page` gives it with ``digests``."""
    return hashlib.sha1(picture.encode()).hexdigest()


def draw_on_page(
    module: Path, datas: list[dict[str, Any]], what: str, *, digests: bool = False
) -> list[tuple[str | None, str | None]]:
    """``drawTable(data, "wide")`` and ``drawTable(data, "narrow")`` of every data, by the
    page's ``module``, all in one ``node`` process (starting one per data would take most
    of the time). For each data, in order: both pictures, or their :func:`digest` when
    ``digests`` (thousands of pictures run to megabytes); None where ``drawTable`` returned
    null; :data:`THROWN` and the error where it threw. Skips, naming ``what``, without
    ``node``."""
    node = node_or_skip(what)
    mode = "hash" if digests else "full"
    # The script goes on the command line and the data through stdin: no file to write.
    done = subprocess.run(
        [node, "--input-type=module", "-e", RUNNER, module.as_uri(), mode, THROWN],
        input=b"".join(orjson.dumps(d) + b"\n" for d in datas),
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    drawn = [json.loads(line) for line in done.stdout.splitlines()]
    # A line short means node stopped early: what it said on stderr tells why.
    assert len(drawn) == len(datas), done.stderr.decode()
    return [(wide, narrow) for wide, narrow in drawn]


def first_difference(expected: str, got: str | None) -> str:
    """Where the page's picture ``got`` first differs from the server's ``expected``: the
    character and both lengths, then a diff of the text around it, a tag a line; the
    whole error where the page threw, or a word where it drew nothing."""
    if got is None:
        return f"the page drew nothing (drawTable returned null); the server drew {expected!r}"
    if got.startswith(THROWN) and not expected.startswith(THROWN):
        # The stack says more than the first characters of a picture would.
        return got
    at = next(
        (i for i, (a, b) in enumerate(zip(expected, got, strict=False)) if a != b),
        min(len(expected), len(got)),
    )
    start = max(0, at - AROUND)

    def around(picture: str) -> list[str]:
        # A tag a line: the diff then points at the element that differs, not at one long
        # line of markup.
        return picture[start : at + AROUND].replace("><", ">\n<").splitlines()

    diff = difflib.unified_diff(around(expected), around(got), "server", "page", lineterm="")
    return (
        f"first difference at character {at} (lengths {len(expected)} and {len(got)}):\n"
        + "\n".join(diff)
    )


def plain_json(value: object) -> bool:
    """Whether ``value`` is made of JSON's own types only (objects with string keys, lists,
    strings, numbers, booleans and null), so that it reaches the page as it is."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_json(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


@dataclass(frozen=True)
class Drawn:
    """One table as the server drew it: what it is (for a failure's message), the data the
    page is sent, and the server's pictures in both layouts (None: none in that layout)."""

    what: str
    data: dict[str, Any]
    wide: str
    narrow: str | None


def assert_drawn_alike(module: Path, tables: Sequence[Drawn], what: str) -> None:
    """Fail unless the page's ``module`` draws every one of ``tables`` from its data
    exactly as the server did, in both layouts: all of them in one ``node`` run compared by
    digest, then the first that differs drawn again whole to show where (with how many
    differ). Skips, naming ``what``, without ``node``."""
    drawn = draw_on_page(module, [t.data for t in tables], what, digests=True)
    wrong = [
        table
        for table, got in zip(tables, drawn, strict=True)
        if tuple(got)
        != (digest(table.wide), None if table.narrow is None else digest(table.narrow))
    ]
    if not wrong:
        return
    table = wrong[0]
    wide, narrow = draw_on_page(module, [table.data], what)[0]
    for layout, expected, got in (("wide", table.wide, wide), ("narrow", table.narrow, narrow)):
        if expected is None:
            assert got is None, (
                f"{table.what}: a {layout} picture drawn, as the server draws none:\n{got}"
            )
        elif got != expected:
            pytest.fail(
                f"{len(wrong)} of {len(tables)} tables differ; the {layout} picture of "
                f"{table.what}:\n{first_difference(expected, got)}"
            )
