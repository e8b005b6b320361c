"""SVG pictures of positions for the browser, and how their moves are made clickable.

A plugin's :meth:`~taut.core.plugin.GamePlugin.svg` returns one ``<svg>`` element drawn from
a *view* (never from a full state). The browser page is the same for every game; it learns
what can be clicked from attributes:

* ``data-move="NOTATION"`` on an element: clicking it (or Enter / Space on it) chooses that
  whole move;
* ``data-part="SLOT=VALUE"``: clicking sets one part of a move; the root element's
  ``data-compose`` is the move's template with ``{SLOT}`` placeholders (``"{tile}@{end}"``)
  and ``data-defaults="SLOT=VALUE;..."`` gives parts a starting value. The move is complete
  when every placeholder has a value; the page then offers to play it;
* ``data-offer="NOTATION"``: the place where that move would be chosen, drawn whether or
  not it is legal for the seat looking (a plugin whose
  :attr:`~taut.core.plugin.GamePlugin.offers` is true draws every such place, so that one
  picture serves every seat and every turn). The page makes it a ``data-move`` choice
  while the move is among the frame's legal moves and its seat may choose, and sets
  ``data-offering`` on the root while it offers any; ``data-offer-words`` (``"place kind 3
  on {move}"``), on the root or on an element of its own (then the root's tag need not
  change from move to move), names each offer for a screen reader;
* ``data-id``, ``data-alike`` and ``data-glow`` name the pieces across positions (the same
  piece, interchangeable pieces, a piece that lights up when it appears): the page follows
  them to animate a turn (docs/browser.md);
* ``data-touch-width`` on the root (also ``--touch-width`` in its style), in CSS pixels:
  the narrowest the picture may be drawn for its targets to stay a finger's size (44
  pixels); a narrower page scrolls the board sideways in its frame instead, or, where the
  plugin also draws the position for a phone
  (:meth:`~taut.core.plugin.GamePlugin.svg_narrow`), draws that picture;
* such elements carry ``role="button"``, ``tabindex="0"`` and an ``aria-label`` saying what
  the move does; the root carries ``role="group"`` and an ``aria-label`` describing the
  position (or naming the picture, with the position in a ``<desc>``, its first child, so
  that the root's tag stays the same from move to move), so the board is usable with a
  keyboard and a screen reader.

The server checks every move; the picture only helps to choose one. Colours come from the
Okabe-Ito palette (:data:`PALETTE`), which stays distinct for colour-blind players.

A plugin may return its picture as a :class:`Picture` made by :func:`picture` from the parts
it joined, each starting with a tag (an element, or a run of them, best drawn once and kept
by a cache). It is the same text; a server that sends a client only what changed since its
last picture compares the parts first, and the tags of changed parts only.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape as _escape

#: The Okabe-Ito colours, safe for colour-blind players.
PALETTE = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
}


class Picture(str):
    """A picture's text that also keeps the parts it was joined from (:func:`picture`):
    ``"".join(p.parts) == p``. Any change made to it with a string's methods gives a plain
    ``str``, so the parts never outlive the text they make."""

    parts: tuple[str, ...]


def picture(parts: Iterable[str]) -> Picture:
    """The text of ``parts`` joined, keeping them (empty ones left out). A part drawn again
    alike is best the same object (kept by a cache): parts are compared by their hashes,
    which a string works out once."""
    kept = tuple(p for p in parts if p)
    made = Picture("".join(kept))
    made.parts = kept
    return made


def esc(text: object) -> str:
    """``text`` safe inside SVG text and attribute values."""
    return _escape(str(text), quote=True)


def text_svg(text: str, label: str) -> str:
    """A plain text picture (monospace lines) as SVG: what a game without a drawing gets."""
    lines = text.splitlines() or [""]
    width = max(len(line) for line in lines) * 9 + 20
    height = len(lines) * 18 + 16
    rows = "".join(
        f'<text x="10" y="{22 + i * 18}" xml:space="preserve">{esc(line)}</text>'
        for i, line in enumerate(lines)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="group" aria-label="{esc(label)}" font-family="monospace" font-size="15">'
        f'<rect width="100%" height="100%" fill="#fafafa"/>{rows}</svg>'
    )
