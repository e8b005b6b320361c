"""Plain-language account of a Pulling Strings turn: who pulled what, splits and breaks.

Intersections are named as a player finds them on the board: the letter above the column
and the letter left of the row (``(c,w)`` is the centre of the classic board); an end is
named by its letter and the side it sits on.
"""

from __future__ import annotations

from taut.games.pulling_strings.board import NUM_ENDS, SIZE, opposite
from taut.games.pulling_strings.repeats import RepeatingState
from taut.games.pulling_strings.state import O, PullingStringsState, X

#: The sides of the board, in end order (N, E, S, W).
SIDE_WORDS = ("top", "right", "bottom", "left")


def end_words(state: PullingStringsState, end: int) -> str:
    """An end as a player sees it: ``c (top)``."""
    return f"{state.game.letters[end]} ({SIDE_WORDS[end // SIZE]})"


def describe_turn(
    before: PullingStringsState, p: int | None, q: int | None, after: PullingStringsState
) -> list[str]:
    """Sentences describing the turn from ``before`` to ``after`` (X pulled p, O pulled q;
    None: that player pulled nothing, after a wrong answer in a learning game)."""
    game = before.game
    names = game.seat_titles

    def pulled(end: int | None) -> str:
        return "nothing" if end is None else end_words(before, end)

    lines = [f"{names[X]} (X) pulled {pulled(p)}, {names[O]} (O) pulled {pulled(q)}."]
    if p is None and q is None:
        lines.append("Nothing moves.")
        return lines + _home_lines(before, after)
    # One pull alone moves its string as if both had pulled that end.
    first = p if p is not None else q
    second = q if q is not None else p
    assert first is not None and second is not None
    lines += _moves(before, first, second, after)
    if p is not None and p == q:
        broken = [game.letters[p]]
        if game.break_string:
            broken.append(game.letters[opposite(p)])
        lines.append(f"Both pulled the same end: {' and '.join(broken)} broken for good.")
    return lines + _home_lines(before, after)


def _moves(before: PullingStringsState, p: int, q: int, after: PullingStringsState) -> list[str]:
    """What split, moved and combined when ``p`` and ``q`` were pulled."""
    game = before.game
    cell_name = game.cell_name
    lines: list[str] = []
    plan = game.plans[p * NUM_ENDS + q]
    for cell, n in sorted(before.stacks.items()):
        m = plan[cell]
        if isinstance(m, tuple):
            a, b = m
            half = (n + 1) // 2
            extra = " (one disk added)" if n % 2 else ""
            where = [f"{half} to {cell_name(d)}" if d != cell else f"{half} stays" for d in (a, b)]
            lines.append(f"Stack of {n} at {cell_name(cell)} splits{extra}: {', '.join(where)}.")
        elif m != cell:
            lines.append(f"Stack of {n} moves {cell_name(cell)} -> {cell_name(m)}.")
    if not lines:
        lines.append(
            "No stack is on a pulled string (or each is held against the edge): nothing moves."
        )
    merged = [c for c, n in after.stacks.items() if n > 0 and _arrivals(before, plan, c) > 1]
    for c in sorted(merged):
        lines.append(f"Stacks combine at {cell_name(c)}: {after.stacks[c]} disks.")
    return lines


def _home_lines(before: PullingStringsState, after: PullingStringsState) -> list[str]:
    """Disks home, and how often a position has occurred under ``repeat``."""
    game = before.game
    lines = []
    hx, ho = after.home()
    lines.append(f"Disks home: X {hx}, O {ho}.")
    limit = game.repeat
    if isinstance(after, RepeatingState) and limit is not None and after.times > 1:
        lines.append(
            f"This position has now occurred {after.times} times (the game is drawn at {limit})."
        )
    return lines


def _arrivals(
    before: PullingStringsState, plan: tuple[int | tuple[int, int], ...], cell: int
) -> int:
    count = 0
    for c in before.stacks:
        m = plan[c]
        dests = m if isinstance(m, tuple) else (m,)
        count += sum(1 for d in dests if d == cell)
    return count


def move_words(state: PullingStringsState, seat: int, end: int, answer: str | None = None) -> str:
    """A pull offered to ``seat``, as the narration says it: ``Eks (X) pulls c (top)``;
    in a learning game with the ``answer`` given (``..., answering K``)."""
    said = f"{_puller(state, seat)} pulls {end_words(state, end)}"
    return said if answer is None else f"{said}, answering {answer}"


def answer_words_template(state: PullingStringsState, seat: int) -> str:
    """:func:`move_words` of a learning game's answer with ``{end}`` and ``{answer}`` left to
    fill (``Squares (X) pulls {end}, answering {answer}``): the page composes the words of
    a move it is never told in a list."""
    return f"{_puller(state, seat)} pulls {{end}}, answering {{answer}}"


def _puller(state: PullingStringsState, seat: int) -> str:
    return f"{state.game.seat_titles[seat]} ({'X' if seat == X else 'O'})"
