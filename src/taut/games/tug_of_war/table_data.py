"""The Tug of War table as plain data, for the browser page to draw itself.

The page's drawer (``table.js``, beside this module) turns this data into the same
picture, byte for byte, as :func:`~taut.games.tug_of_war.svg.draw_table` draws from the
view; ``tests/test_tug_of_war_drawn_on_page.py`` holds the two together. The server then
sends a few hundred bytes of facts instead of drawing a picture for every seat after
every move.

The data is built from the same ``view`` the drawer gets, never from a full state: another
seat's hidden hand is only its size, as in the picture. Sentences that come from the rules
(what happens now, the round's facts, the boneyard's caption) are sent as words; the rest
is numbers, tiles as ``[a, b]`` pairs, and the notation of the legal moves. It holds no
markup. Keys, all short since the data goes out on every move:

* ``nm``: the seats' names; ``top``: the set's highest number; ``r``: the round;
  ``ph``: the phase;
* ``s``: the sentence on what happens now; ``f``: the round's facts (lines); ``b``: the
  boneyard's caption, None before it exists; ``k``: tiles in the boneyard;
* ``sc``: scores; ``n``: tiles in each hand; ``pt``: round points (only under
  ``end=round-points``, which adds their column); ``a``: the seats to move;
* ``v``: the viewing seat (None: a spectator or the full state); ``iv``: whether this is
  a seat's or a spectator's view rather than the full state;
* ``t``: each seat's train: ``0`` out of the game, ``1`` sitting out a tie-break, ``2``
  no starter yet, else ``[starter, tiles laid on end 0, tiles laid on end 1]`` with the
  tiles as the position holds them (``(half matched, half left open)``);
* ``h``: the hands drawn, ``[seat, tiles ascending]`` each (the viewer's own; every hand
  of a full state); ``dr``: the tile just drawn, when the viewer knows it;
* ``c``: the tiles the seat may play, ascending, ``[a, b, plays, name]``: ``plays`` as
  ``[train, end, notation]``, ``name`` (the tile as most of its plays write it) only for a
  tile with several plays;
* ``D``, ``P``, ``K``: the notation of a legal draw, pass and keep; ``G``: the legal
  shares of the leftover ``[points, notation]``, ascending (the least and the most only
  when ``GM`` says they are too many for a button each);
* ``bn``: at the bonus step, ``[winner, points left, target or None, pips left in each
  hand (None: not in the round), the targets in order, the points taken so far]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taut.games.tug_of_war.model import BONUS, DRAWN, TugModel
from taut.games.tug_of_war.svg_bonus import SHARE_BUTTONS
from taut.games.tug_of_war.svg_choices import choices
from taut.games.tug_of_war.svg_sheet import boneyard_caption, round_facts, status_line


def _train(view: TugModel, seat: int) -> Any:
    """Seat ``seat``'s train: why there is none (a number), or its tiles as lists."""
    if not view.playing[seat]:
        return 1 if view.in_game[seat] else 0
    line = view.trains[seat]
    if line is None or view.ends[seat] is None:
        return 2
    starter, side0, side1 = line
    return [list(starter), [list(t) for t in side0], [list(t) for t in side1]]


def table_data(view: TugModel, seat: int | None, legal: Sequence[str]) -> dict[str, Any]:
    """What the page needs to draw the table as ``view`` holds it, with ``seat``'s
    ``legal`` moves clickable (see the module's docstring for the keys)."""
    game = view.game
    tiles = game.dominoes.tiles
    n = game.num_players
    out: dict[str, Any] = {
        "nm": list(game.info.seats),
        "top": game.dominoes.top,
        "r": view.round,
        "ph": view.phase,
        "s": status_line(view),
        "f": round_facts(view),
        "b": boneyard_caption(view),
        "k": view.stock_size,
        "sc": list(view.scores),
        "n": list(view.sizes),
    }
    if game.end_rules.end == "round-points":
        out["pt"] = list(view.points)
    # Chance is among the acting seats at a deal: only real seats get the marker.
    out["a"] = [s for s in view.acting_seats() if 0 <= s < n]
    out["v"] = view.viewer
    out["iv"] = view.is_view
    out["t"] = [_train(view, s) for s in range(n)]
    shown = ([] if view.viewer is None else [view.viewer]) if view.is_view else range(n)
    hands = []
    for s in shown:
        hand = view.hands[s]
        if view.playing[s] and hand is not None:
            hands.append([s, [list(tiles[t]) for t in sorted(hand)]])
    out["h"] = hands
    if view.phase == DRAWN and view.drawn >= 0:
        out["dr"] = list(tiles[view.drawn])
    ch = choices(view, seat, legal)
    plays = []
    for t in sorted(ch.plays):
        found = ch.plays[t]
        entry: list[Any] = [*tiles[t], [list(p) for p in found]]
        if len(found) > 1:
            entry.append(ch.names[t])
        plays.append(entry)
    if plays:
        out["c"] = plays
    other = ch.other
    for key, action in (("D", game.DRAW), ("P", game.PASS), ("K", game.KEEP)):
        if action in other:
            out[key] = other[action]
    bonus = view.bonus
    if view.phase == BONUS and bonus is not None:
        # Every other move of the bonus step is a share (as the drawer sorts them).
        shares = sorted([a - game.GIVE0, m] for a, m in other.items() if a != game.KEEP)
        if game.split_bonus and len(shares) > SHARE_BUTTONS + 1:
            # Shares past a button each are composed of digits: the page needs the ends.
            out["G"] = [shares[0], shares[-1]]
            out["GM"] = True
        elif shares:
            out["G"] = shares
        out["bn"] = [
            bonus.winner,
            bonus.remaining,
            bonus.target,
            list(bonus.pips),
            list(bonus.targets),
            list(bonus.given),
        ]
    return out
