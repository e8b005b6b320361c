"""The search kernel of the two-player Track Tiles solver: alpha-beta on a compact board.

(Longer than 400 lines: Numba compiles the kernel's functions together, and they call one
another.)

One set of functions, compiled with Numba when it can be imported (the optional extra
``fast``) and the environment variable ``TAUT_NO_NUMBA`` is not ``1``, else run as plain
Python on lists; both give the same values, moves and node counts. Only this module and
its two helpers (:mod:`~taut.games.tracks.solve.jit`, which imports ``numba``, and the
transposition table, :mod:`~taut.games.tracks.solve.table`) touch Numba, when the search
first imports them.

:func:`negamax` returns the value of a position to the seat to move: 1 a win, 0 a draw,
-1 a loss, fail-soft (a result at or below ``alpha`` is an upper bound, at or above
``beta`` a lower bound). At every node it

1. finds which tracks could still be made and which empty cells are live (step 3), and
   looks the position up in the transposition table: two slots a key, each position
   stored under the smaller key of itself and its half turn. A key says only what the
   rest of the game depends on (:func:`shape_keys`): where the sides of the live empty
   cells lead, how many empty cells are dead, who moves and what both seats hold. Boards
   whose tiles differ but join the same sides to the same places share it;
2. scans the empty cells once: a placement of the mover's kind that makes the mover's
   track (or both tracks) wins at once; one that makes only the opponent's track loses
   and is dropped; a cell where the opponent's next kind would make the opponent's track
   is a *threat*. Threats stay threats whatever the mover places elsewhere (a placement
   only extends the pieces that end beside it, and a threat's pieces end at the border
   and at the threat's cell), so two threats lose and one must be filled at once;
3. bounds the value by what can still connect: with every empty cell allowed to join any
   of its sides to any other (more than any tile can), a side that cannot join its two
   edges even so can never win, and a position where neither can is a draw. An empty cell
   that no such track can pass through is dead: what fills it never matters, so of the
   placements on dead cells only one is tried;
4. with :data:`ETC_FROM` empty cells or more, looks every child up in the table first;
5. tries the moves, the table's best move first, then the *killers* (the last
   :data:`KILLERS` cells that cut off at the same ply elsewhere in the tree, most recent
   first), then by a history score (cutoffs found with that cell at that ply). A ply
   fixes the kind each seat places within a game, so a cell that refuted one line often
   refutes its neighbours: on 4x4 the first move tried cuts off four times in five, and
   the search visits 4 to 6 times fewer nodes than with a history by cell and kind
   alone.

The recursion runs on an explicit stack of frames (:func:`enter` and :func:`leave` do a
node's work on the way down and up): Numba cannot cache a recursive function's code.
"""

from __future__ import annotations

from typing import Any

from taut.games.tracks.solve.jit import COMPILED as COMPILED
from taut.games.tracks.solve.jit import jit as _jit
from taut.games.tracks.solve.table import probe as probe
from taut.games.tracks.solve.table import store as store

#: Indexes in ``stats``: the node counter, and the node budget (0: none) past which
#: :func:`negamax` gives up and returns :data:`ABORTED`.
NODES, LIMIT = 0, 1
#: What :func:`negamax` returns when the budget ran out (no value, 1 and -1 included).
ABORTED = 3
#: A move score above any history score: the table's move is tried first, then the killers.
FIRST = 1 << 62
#: Killer moves kept a ply. ``history`` holds them first (``cell + 1`` each, 0 for none,
#: :data:`KILLERS` a ply), then a count of cutoffs per ply and cell.
KILLERS = 4
#: Nodes with at least this many empty cells look their children up in the table before
#: searching any (an *enhanced transposition cutoff*): one stored child that refutes the
#: node saves its whole subtree, which near the start is large enough to pay for the
#: look-ups (on 4x4: 17% fewer nodes and 7% less time than without; from 6 empty cells on,
#: fewer nodes but more time).
ETC_FROM = 8


@_jit
def history_at(cells: int, ply: int, cell: int) -> int:
    """Where ``history`` counts the cutoffs found with ``cell`` at ``ply``."""
    return (cells + 1) * KILLERS + ply * cells + cell


def history_size(cells: int) -> int:
    """The length of the ``history`` array of a board with ``cells`` cells."""
    return (cells + 1) * (KILLERS + cells)


@_jit
def trial(ends: Any, strands: Any, tags: Any, bits: Any, cell: int, kind: int) -> int:
    """The track bits that ``kind`` on ``cell`` would make; ``ends`` is left as it was."""
    base = (cell * 4 + kind) * 4
    fa = ends[strands[base]]
    fb = ends[strands[base + 1]]
    oa = ends[fa]
    ob = ends[fb]
    ends[fa] = fb
    ends[fb] = fa
    fc = ends[strands[base + 2]]
    fd = ends[strands[base + 3]]
    oc = ends[fc]
    od = ends[fd]
    ends[fc] = fd
    ends[fd] = fc
    made = bits[tags[fa] | tags[fb]] | bits[tags[fc] | tags[fd]]
    # Each pair of writes is undone to what was read before it, the last pair first.
    ends[fd] = od
    ends[fc] = oc
    ends[fb] = ob
    ends[fa] = oa
    return int(made)


@_jit
def place(
    ends: Any, strands: Any, tags: Any, bits: Any, cell: int, kind: int, undo: Any, at: int
) -> int:
    """Place ``kind`` on ``cell``: join its strands' pieces, note in ``undo[at:at + 8]``
    how to take it back (:func:`unplace`), and return the track bits it made."""
    base = (cell * 4 + kind) * 4
    fa = ends[strands[base]]
    fb = ends[strands[base + 1]]
    undo[at] = fa
    undo[at + 1] = ends[fa]
    undo[at + 2] = fb
    undo[at + 3] = ends[fb]
    ends[fa] = fb
    ends[fb] = fa
    fc = ends[strands[base + 2]]
    fd = ends[strands[base + 3]]
    undo[at + 4] = fc
    undo[at + 5] = ends[fc]
    undo[at + 6] = fd
    undo[at + 7] = ends[fd]
    ends[fc] = fd
    ends[fd] = fc
    return int(bits[tags[fa] | tags[fb]] | bits[tags[fc] | tags[fd]])


@_jit
def unplace(ends: Any, undo: Any, at: int) -> None:
    """Take back the placement noted in ``undo[at:at + 8]``."""
    ends[undo[at + 6]] = undo[at + 7]
    ends[undo[at + 4]] = undo[at + 5]
    ends[undo[at + 2]] = undo[at + 3]
    ends[undo[at]] = undo[at + 1]


@_jit
def _find(parent: Any, x: int) -> int:
    """The root of ``x`` in the union-find forest ``parent`` (halving the path)."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return int(x)


@_jit
def reachable(
    board: Any,
    ends: Any,
    side_edge: Any,
    edge_cells: Any,
    tags: Any,
    cells: int,
    units: int,
    parent: Any,
    flags: Any,
) -> int:
    """Which tracks could still be made (bit 1: NS, bit 2: WE) if every empty cell could
    join any of its sides to any other.

    Nodes are the cells and the edge units; each side of an empty cell is joined to what
    the piece behind it reaches: an edge unit, or the empty cell at its far end. Leaves in
    ``flags[root]`` the tags (N 1, S 2, W 4, E 8) of the units in each component, which
    :func:`live` reads.
    """
    for i in range(cells + units):
        parent[i] = i
        flags[i] = 0
    for c in range(cells):
        if board[c] != 0:
            continue
        for s in range(4):
            x = side_edge[c * 4 + s]
            f = ends[x]
            if f < units:
                node = cells + f
            elif f == x:
                # No piece: the cell across this inner edge is empty too.
                node = edge_cells[2 * x]
                if node == c:
                    node = edge_cells[2 * x + 1]
            else:
                node = edge_cells[2 * f]
                if board[node] != 0:
                    node = edge_cells[2 * f + 1]
            ra = _find(parent, c)
            rb = _find(parent, node)
            if ra != rb:
                parent[ra] = rb
    out = 0
    for u in range(units):
        r = _find(parent, cells + u)
        flags[r] |= tags[u]
        if (flags[r] & 3) == 3:
            out |= 1
        if (flags[r] & 12) == 12:
            out |= 2
    return out


@_jit
def shape_keys(
    board: Any,
    ends: Any,
    side_edge: Any,
    cells: int,
    units: int,
    size: int,
    keys: Any,
    turned_keys: Any,
    labels: int,
    dead_keys: Any,
    parent: Any,
    flags: Any,
) -> tuple[int, int]:
    """After :func:`reachable`: the key of the position's shape and of its half turn,
    without the hands (tables from :func:`taut.games.tracks.solve.model.shape_tables`).

    Each side of each live empty cell adds the key of its label: the border it leads to
    (through a piece or directly), or ``USELESS`` for a border that no track through the
    cell can use (N and S where no NS track can pass, E and W likewise), ``ADJACENT`` for
    an empty neighbour, ``LINK + e`` for a piece ending at inner edge ``e`` (the side of
    another live cell: a live cell's pieces never lead to a dead one, which would share its
    component). Dead cells add only their number: what fills them never matters.
    """
    k1 = 0
    k2 = 0
    dead = 0
    for c in range(cells):
        if board[c] != 0:
            continue
        f = flags[_find(parent, c)]
        ns = (f & 3) == 3
        we = (f & 12) == 12
        if not ns and not we:
            dead += 1
            continue
        for s in range(4):
            x = side_edge[c * 4 + s]
            far = ends[x]
            if far < units:
                label = far // size
                if not (we if label & 1 else ns):
                    label = 4  # USELESS
            elif far == x:
                label = 5  # ADJACENT
            else:
                label = 6 + far  # LINK
            i = (c * 4 + s) * labels + label
            k1 ^= keys[i]
            k2 ^= turned_keys[i]
    return k1 ^ dead_keys[dead], k2 ^ dead_keys[dead]


@_jit
def live(parent: Any, flags: Any, cell: int) -> bool:
    """After :func:`reachable`: whether some track could still pass through ``cell``.

    A cell that none can pass through is *dead*: what fills it never matters again, so
    placements on dead cells are all worth the same.
    """
    f = flags[_find(parent, cell)]
    return bool((f & 3) == 3 or (f & 12) == 12)


# Fields of a search frame: one frame a ply, ``FIELDS`` numbers each, in ``frames``.
MOVER, HAND_NS, HAND_WE, EMPTIES = 0, 1, 2, 3
ALPHA, BETA, ALPHA0, LO, HI, CANON, TURNED, COUNT, NEXT, BEST, BEST_MOVE = range(4, 15)
FIELDS = 15
#: What :func:`enter` returns when the node's moves must be searched.
EXPAND = 2


@_jit
def enter(
    side_edge: Any,
    edge_cells: Any,
    strands: Any,
    tags: Any,
    bits: Any,
    shape: Any,
    shape_turned: Any,
    dead_keys: Any,
    hand_keys: Any,
    labels: int,
    size: int,
    cells: int,
    units: int,
    board: Any,
    ends: Any,
    moves: Any,
    scores: Any,
    undo: Any,
    parent: Any,
    flags: Any,
    history: Any,
    tt_key: Any,
    tt_info: Any,
    tt_bits: int,
    frames: Any,
    ply: int,
) -> int:
    """Steps 1-4 at the node of frame ``ply``: its value if they settle it, else
    :data:`EXPAND` with its moves ordered in ``moves`` and the frame ready to search them."""
    f = ply * FIELDS
    mover = frames[f + MOVER]
    hand_ns = frames[f + HAND_NS]
    hand_we = frames[f + HAND_WE]
    empties = frames[f + EMPTIES]
    alpha = frames[f + ALPHA]
    beta = frames[f + BETA]
    can = reachable(board, ends, side_edge, edge_cells, tags, cells, units, parent, flags)
    if can == 0:
        return 0  # neither side can make a track any more: a draw
    k1, k2 = shape_keys(
        board, ends, side_edge, cells, units, size, shape, shape_turned, labels, dead_keys,
        parent, flags,
    )  # fmt: skip
    hk = hand_keys[mover * 16 + hand_ns * 4 + hand_we]
    k1 ^= hk
    k2 ^= hk
    turned = k2 < k1
    ck = k2 if turned else k1
    lo = -1
    hi = 1
    tt_move = -1
    word = probe(tt_key, tt_info, tt_bits, ck)
    if word >= 0:
        lo = (word & 3) - 1
        hi = ((word >> 2) & 3) - 1
        m = ((word >> 4) & 255) - 1
        if m >= 0:
            tt_move = cells - 1 - m if turned else m
        if lo >= beta or lo == hi:
            return int(lo)
        if hi <= alpha:
            return int(hi)
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi

    mine = hand_ns if mover == 0 else hand_we
    theirs = hand_we if mover == 0 else hand_ns
    my_bit = 1 if mover == 0 else 2
    their_bit = 3 - my_bit
    base = ply * cells
    n = 0
    threats = 0
    block = -1
    for c in range(cells):
        if board[c] != 0:
            continue
        made = trial(ends, strands, tags, bits, c, mine)
        if made & my_bit:
            store(tt_key, tt_info, tt_bits, ck, 1, 1, cells - 1 - c if turned else c, empties)
            return 1
        if made == 0:
            moves[base + n] = c
            n += 1
        if trial(ends, strands, tags, bits, c, theirs) & their_bit:
            threats += 1
            block = c
    if threats == 1:
        # The threat's cell must be filled now, if that does not lose at once.
        kept = 0
        for i in range(n):
            if moves[base + i] == block:
                kept = 1
        moves[base] = block
        n = kept
    if threats >= 2 or n == 0:
        store(tt_key, tt_info, tt_bits, ck, -1, -1, -1, empties)
        return -1

    if threats == 0 and n > 1:
        ub = 1 if can & my_bit else 0
        lb = -1 if can & their_bit else 0
        if lb > lo:
            lo = lb
        if ub < hi:
            hi = ub
        if lo == hi or hi <= alpha or lo >= beta:
            store(tt_key, tt_info, tt_bits, ck, lo, hi, -1, empties)
            return int(hi if hi <= alpha else lo)
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi

        # Of the placements on dead cells, one is enough.
        kept = 0
        dead = False
        for i in range(n):
            c = moves[base + i]
            if live(parent, flags, c):
                moves[base + kept] = c
                kept += 1
            elif not dead:
                dead = True
                moves[base + kept] = c
                kept += 1
        n = kept

    # Order the moves: the table's move, the killers, then by history (insertion sort,
    # best first).
    killed = ply * KILLERS
    for i in range(n):
        c = moves[base + i]
        if c == tt_move:
            s = FIRST
        else:
            s = history[history_at(cells, ply, c)]
            for j in range(KILLERS):
                if history[killed + j] == c + 1:
                    s = FIRST - 1 - j
                    break
        j = i
        while j > 0 and scores[base + j - 1] < s:
            moves[base + j] = moves[base + j - 1]
            scores[base + j] = scores[base + j - 1]
            j -= 1
        moves[base + j] = c
        scores[base + j] = s
    if empties >= ETC_FROM and n > 1:
        # Enhanced transposition cutoff: a child the table proves at least beta's worth
        # to the mover settles the node.
        following = mine % 3 + 1
        if mover == 0:
            chk = hand_keys[16 + following * 4 + hand_we]
        else:
            chk = hand_keys[hand_ns * 4 + following]
        for i in range(n):
            c = moves[base + i]
            place(ends, strands, tags, bits, c, mine, undo, ply * 8)
            board[c] = mine
            cut = -2
            cc = reachable(board, ends, side_edge, edge_cells, tags, cells, units, parent, flags)
            if cc == 0:
                if beta <= 0:
                    cut = 0
            else:
                a1, a2 = shape_keys(
                    board, ends, side_edge, cells, units, size, shape, shape_turned, labels,
                    dead_keys, parent, flags,
                )  # fmt: skip
                a1 ^= chk
                a2 ^= chk
                w = probe(tt_key, tt_info, tt_bits, a2 if a2 < a1 else a1)
                if w >= 0:
                    chi = ((w >> 2) & 3) - 1
                    if -chi >= beta:
                        cut = -chi
            board[c] = 0
            unplace(ends, undo, ply * 8)
            if cut > -2:
                move = cells - 1 - c if turned else c
                store(tt_key, tt_info, tt_bits, ck, cut, hi, move, empties)
                return cut
    frames[f + ALPHA] = alpha
    frames[f + BETA] = beta
    frames[f + ALPHA0] = alpha
    frames[f + LO] = lo
    frames[f + HI] = hi
    frames[f + CANON] = ck
    frames[f + TURNED] = 1 if turned else 0
    frames[f + COUNT] = n
    frames[f + NEXT] = 0
    frames[f + BEST] = -2
    frames[f + BEST_MOVE] = -1
    return EXPAND


@_jit
def leave(tt_key: Any, tt_info: Any, tt_bits: int, cells: int, frames: Any, ply: int) -> int:
    """Store what the moves of frame ``ply`` proved and return its value."""
    f = ply * FIELDS
    best = frames[f + BEST]
    lo = frames[f + LO]
    hi = frames[f + HI]
    if best <= frames[f + ALPHA0]:
        if best < hi:
            hi = best
    elif best >= frames[f + BETA]:
        if best > lo:
            lo = best
    else:
        lo = best
        hi = best
    move = frames[f + BEST_MOVE]
    if frames[f + TURNED] == 1 and move >= 0:
        move = cells - 1 - move
    store(tt_key, tt_info, tt_bits, frames[f + CANON], lo, hi, move, frames[f + EMPTIES])
    return int(best)


@_jit
def negamax(
    side_edge: Any,
    strands: Any,
    tags: Any,
    bits: Any,
    edge_cells: Any,
    shape: Any,
    shape_turned: Any,
    dead_keys: Any,
    hand_keys: Any,
    labels: int,
    size: int,
    cells: int,
    units: int,
    board: Any,
    ends: Any,
    moves: Any,
    scores: Any,
    undo: Any,
    parent: Any,
    flags: Any,
    history: Any,
    frames: Any,
    tt_key: Any,
    tt_info: Any,
    tt_bits: int,
    stats: Any,
    hand_ns: int,
    hand_we: int,
    mover: int,
    empties: int,
    alpha: int,
    beta: int,
) -> int:
    """The value of the position to ``mover`` (see the module's description), or
    :data:`ABORTED` once ``stats[LIMIT]`` nodes (when not 0) have been searched.

    ``shape``, ``shape_turned``, ``dead_keys``, ``hand_keys`` and ``labels`` are the key
    tables of :func:`taut.games.tracks.solve.model.shape_tables`; ``moves``, ``scores``
    (``cells`` a ply), ``undo`` (8 a ply), ``frames`` (:data:`FIELDS` a ply) and
    ``history`` (:func:`history_size`) are work space. The recursion runs on an explicit stack of
    frames (Numba cannot cache the machine code of a recursive function).
    """
    frames[MOVER] = mover
    frames[HAND_NS] = hand_ns
    frames[HAND_WE] = hand_we
    frames[EMPTIES] = empties
    frames[ALPHA] = alpha
    frames[BETA] = beta
    ply = 0
    entering = True
    # ``child``: the value, to the mover of frame ``ply``, of the move at its NEXT index,
    # once ``have_child`` says it is known (the move is still on the board).
    child = 0
    have_child = False
    while True:
        if entering:
            entering = False
            stats[NODES] += 1
            if stats[LIMIT] > 0 and stats[NODES] > stats[LIMIT]:
                # Out of budget: what the table holds stays true (only finished nodes
                # are stored); the board and ends are the caller's copies.
                return ABORTED
            value = enter(
                side_edge, edge_cells, strands, tags, bits, shape, shape_turned, dead_keys,
                hand_keys, labels, size, cells, units,
                board, ends, moves, scores, undo, parent, flags, history, tt_key, tt_info, tt_bits,
                frames, ply,
            )  # fmt: skip
            if value != EXPAND:
                if ply == 0:
                    return value
                ply -= 1
                child = -value
                have_child = True
        f = ply * FIELDS
        if have_child:
            have_child = False
            i = frames[f + NEXT]
            c = moves[ply * cells + i]
            board[c] = 0
            unplace(ends, undo, ply * 8)
            if child > frames[f + BEST]:
                frames[f + BEST] = child
                frames[f + BEST_MOVE] = c
                if child > frames[f + ALPHA]:
                    frames[f + ALPHA] = child
            if frames[f + ALPHA] >= frames[f + BETA]:
                history[history_at(cells, ply, c)] += 1
                # The killers, most recent first: c moves to the front.
                killed = ply * KILLERS
                j = KILLERS - 1
                for k in range(KILLERS):
                    if history[killed + k] == c + 1:
                        j = k
                        break
                while j > 0:
                    history[killed + j] = history[killed + j - 1]
                    j -= 1
                history[killed] = c + 1
                frames[f + NEXT] = frames[f + COUNT]
            else:
                frames[f + NEXT] = i + 1
        i = frames[f + NEXT]
        if i >= frames[f + COUNT]:
            value = leave(tt_key, tt_info, tt_bits, cells, frames, ply)
            if ply == 0:
                return value
            ply -= 1
            child = -value
            have_child = True
            continue
        c = moves[ply * cells + i]
        mover = frames[f + MOVER]
        hand_ns = frames[f + HAND_NS]
        hand_we = frames[f + HAND_WE]
        mine = hand_ns if mover == 0 else hand_we
        place(ends, strands, tags, bits, c, mine, undo, ply * 8)
        board[c] = mine
        if frames[f + EMPTIES] == 1:
            # The board is full: a draw (a move that made a track was never listed).
            child = 0
            have_child = True
            continue
        g = f + FIELDS
        following = mine % 3 + 1
        frames[g + MOVER] = 1 - mover
        frames[g + HAND_NS] = following if mover == 0 else hand_ns
        frames[g + HAND_WE] = hand_we if mover == 0 else following
        frames[g + EMPTIES] = frames[f + EMPTIES] - 1
        frames[g + ALPHA] = -frames[f + BETA]
        frames[g + BETA] = -frames[f + ALPHA]
        ply += 1
        entering = True
