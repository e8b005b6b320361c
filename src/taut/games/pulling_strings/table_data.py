"""Pulling Strings positions as plain data, for the page to draw the board itself.

:func:`table_data` says everything :func:`taut.games.pulling_strings.svg.board_svg` draws
from, in a few small numbers and words, and the page's module ``table.js`` (beside this
module) (``drawTable``) draws from it exactly the picture ``board_svg`` draws: the server
then sends the data and draws nothing. What takes the rules to work out (the disks home,
the result in words, which ends the seat may pull) is worked out here; what is only
drawing (the geometry, the colours, the ends' places and names, the words round the board)
is the module's.

A learning game's picture holds the tiles' other faces (handshapes drawn as pictures) and
an answer palette shuffled each turn: it has no data (:func:`table_data` is None), and the
server draws it as before.

Both seats see the whole position (the server keeps each seat's choice apart until both
are revealed), so a seat's data differs from a spectator's only by the ends it may pull.
It holds no markup.

The data, key by key (short keys: it goes out on every move):

* ``p``: the published edition (its square tiles, squares and circles for homes) or not;
* ``l``: the ends' letters, N0..N4, E0..E4, S0..S4, W0..W4 (one or more characters each);
* ``b``: the broken ends, one bit each by the same order;
* ``s``: the stacks, ``[cell, disks]`` by cell (``row * 5 + column``);
* ``h``: the disks on X's homes and on O's;
* ``t``: the turn; ``o``: once the game is over, the result in words;
* ``m``: only while the seat may pull, the ends it may pull, ascending; each end's move is
  its letter, or where the server's move is written otherwise, that move in ``mt``
  (``[end, move]`` pairs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taut.games.pulling_strings.learning import LearningState
from taut.games.pulling_strings.rules import PullingStringsState


def table_data(
    view: PullingStringsState, seat: int | None, legal: Sequence[str]
) -> dict[str, Any] | None:
    """The position ``view`` as ``board_svg(view, seat, legal)`` draws it, in plain data
    (see the module), with ``seat``'s ``legal`` ends as buttons; None for a learning game,
    whose picture the server draws."""
    if isinstance(view, LearningState):
        return None
    game = view.game
    letters = game.letters
    out: dict[str, Any] = {
        "p": game.options["edition"] == "published",
        "l": list(letters),
        "b": view.broken,
        "s": [[cell, disks] for cell, disks in sorted(view.stacks.items())],
        "h": list(view.home()),
        "t": view.turn,
    }
    if view.outcome is not None:
        out["o"] = view.describe_outcome()
    if seat is not None and legal:
        moves = {view.string_to_action(seat, move): move for move in legal}
        out["m"] = sorted(moves)
        # The server lists each end by its letter: other spellings are kept as they were.
        written = [[end, move] for end, move in sorted(moves.items()) if move != letters[end]]
        if written:
            out["mt"] = written
    return out
