"""Hypothesis strategies for game options, generated from each game's declared OptionSpecs.

Nothing here names a game: :func:`option_values` reads an :class:`OptionSpec` and gives
values its own validation accepts, and :func:`options_for` combines them for a game class,
letting the game check the combination:

* a switch: ``True`` or ``False``; an option with ``choices``: one of them;
* an integer: any value in ``[minimum, maximum]``; a bound left open is replaced by a
  modest one (:func:`_open_span`), since an unbounded turn limit or target only makes the
  game longer, never different in kind, and a value the command line could not read
  (more than 18 digits) is not a valid value;
* a number: any finite float in ``[minimum, maximum]``;
* free text (a text option without ``choices``): its form is the game's own, so the
  strategy asks the game: it builds the game with the other options and the text option
  at its default, reads the value the game settled on (a game normalises such an option,
  as Pulling Strings' published edition writes back the letters it drew), and rearranges
  its parts (the characters, or the words when it has spaces). A game that settles on
  nothing offers only the default;
* a nullable option may also be ``None``.

Options that depend on each other (a setting that applies only with another one) are
drawn independently, then the game checks the whole; a refused combination is repaired by
putting options back to their defaults one at a time, in a drawn order, until the game
accepts it (the defaults always make a valid game). So no example is thrown away and the
repairs still leave every option free to differ from its default. :class:`OptionStats`
counts the draws the game refused before repair, for a test to measure.

Per-game caps (:data:`CAPS`) keep a few very long games out of the quick run; they are
documented where they are declared.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from hypothesis import assume, event
from hypothesis import strategies as st

import taut
from taut.core.errors import TautError
from taut.core.game import Game
from taut.core.options import OptionSpec, OptionValue

#: The widest integer the command line reads (18 digits): wider values are not valid input.
WIDEST = 10**18 - 1

#: Per-game limits on option values that make one game very long, as ``game -> option ->
#: largest value``. Empty: none is needed (Track Tiles on 12 x 12 and Tug of War for eight
#: over 20 rounds play in a tenth of a second; checking every node of them takes seconds).
CAPS: dict[str, dict[str, int]] = {}


def _open_span(spec: OptionSpec) -> int:
    """How far above its minimum an integer option without a maximum is drawn: twice its
    default (at least 20), so that the default and values on both sides of it appear."""
    default = spec.default if isinstance(spec.default, int) else 0
    return max(20, 2 * abs(default))


def integer_values(spec: OptionSpec, cap: int | None = None) -> st.SearchStrategy[int]:
    """Integers the option accepts (see the module's notes on open bounds)."""
    if spec.choices:
        return st.sampled_from([c for c in spec.choices if isinstance(c, int)])
    lo = int(spec.minimum) if spec.minimum is not None else None
    hi = int(spec.maximum) if spec.maximum is not None else None
    if lo is None and hi is None:
        # A number with no bound at all (a seed): any value the command line reads.
        return st.integers(-WIDEST, WIDEST)
    if hi is None:
        assert lo is not None
        hi = lo + _open_span(spec)
    if lo is None:
        lo = hi - _open_span(spec)
    if cap is not None:
        hi = min(hi, max(cap, lo))
    return st.integers(lo, hi)


def real_values(spec: OptionSpec) -> st.SearchStrategy[float]:
    """Finite floats in the option's range."""
    lo = float(spec.minimum) if spec.minimum is not None else None
    hi = float(spec.maximum) if spec.maximum is not None else None
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def option_values(spec: OptionSpec, cap: int | None = None) -> st.SearchStrategy[OptionValue]:
    """Values ``spec`` accepts, free text excepted (see :func:`options_for`).

    ``cap`` lowers an integer option's maximum (see :data:`CAPS`).
    """
    base: st.SearchStrategy[OptionValue]
    if spec.kind is bool:
        base = st.booleans()
    elif spec.kind is int:
        base = integer_values(spec, cap)
    elif spec.kind is float:
        base = real_values(spec)
    elif spec.choices:
        base = st.sampled_from([str(c) for c in spec.choices])
    else:
        base = st.just(spec.default)
    return st.none() | base if spec.nullable else base


def is_free_text(spec: OptionSpec) -> bool:
    """True for a text option with no list of choices: its form is the game's own."""
    return spec.kind is str and not spec.choices


def _parts(text: str) -> tuple[list[str], str]:
    """A text option's parts and the separator that joins them (words, else characters)."""
    if " " in text:
        return text.split(), " "
    return list(text), ""


@dataclass
class OptionStats:
    """Counts of option draws per game: ``drawn`` in all, ``refused`` by the game before
    repair, ``rejected`` still refused after it (thrown away by ``assume``)."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)

    def note(self, game: str, what: str) -> None:
        """Count one ``what`` for ``game``."""
        self.counts.setdefault(game, Counter())[what] += 1

    def rate(self, game: str, what: str) -> float:
        """The share of ``game``'s draws that were ``what``."""
        seen = self.counts.get(game, Counter())
        return seen[what] / seen["drawn"] if seen["drawn"] else 0.0


#: The counts of every draw made in this process.
STATS = OptionStats()


def _accepts(cls: type[Game], options: Mapping[str, OptionValue]) -> Game | None:
    """The game built with ``options``, or None when the game refuses them."""
    try:
        return cls(**options)
    except TautError:
        return None


@st.composite
def options_for(
    draw: st.DrawFn,
    cls: type[Game],
    stats: OptionStats = STATS,
) -> dict[str, OptionValue]:
    """A valid option dict for game class ``cls`` (see the module's notes)."""
    specs = cls.OPTIONS
    caps = CAPS.get(cls.name, {})
    defaults = {spec.name: spec.default for spec in specs}
    chosen = dict(defaults)
    for spec in specs:
        if not is_free_text(spec):
            chosen[spec.name] = draw(option_values(spec, caps.get(spec.name)))
    stats.note(cls.name, "drawn")
    game = _accepts(cls, chosen)
    if game is None:
        stats.note(cls.name, "refused")
        event("options refused, then repaired")
        changed = [name for name, value in chosen.items() if value != defaults[name]]
        for name in draw(st.permutations(changed)):
            chosen[name] = defaults[name]
            game = _accepts(cls, chosen)
            if game is not None:
                break
    if game is None:
        stats.note(cls.name, "rejected")
    assume(game is not None)
    for spec in specs:
        if is_free_text(spec):
            chosen[spec.name] = draw(_free_text(cls, spec, chosen))
    if any(is_free_text(spec) for spec in specs) and _accepts(cls, chosen) is None:
        stats.note(cls.name, "rejected")
        assume(False)
    return chosen


def _free_text(
    cls: type[Game], spec: OptionSpec, chosen: Mapping[str, OptionValue]
) -> st.SearchStrategy[OptionValue]:
    """Values of free-text option ``spec`` in the game set up by ``chosen``: the value the
    game settles on by itself, its parts rearranged (or the option's default)."""
    built = _accepts(cls, {**chosen, spec.name: spec.default})
    settled = built.options.get(spec.name) if built is not None else None
    if not isinstance(settled, str) or not settled:
        return st.just(spec.default)
    parts, sep = _parts(settled)
    rearranged = st.permutations(parts).map(sep.join)
    return st.none() | rearranged if spec.nullable else rearranged


@st.composite
def games(draw: st.DrawFn, name: str, stats: OptionStats = STATS) -> Game:
    """A game ``name`` with options drawn by :func:`options_for`."""
    cls = taut.plugin(name).game_class
    return cls(**draw(options_for(cls, stats)))


def any_game(stats: OptionStats = STATS) -> st.SearchStrategy[Game]:
    """Any registered game with options drawn by :func:`options_for`."""
    return st.sampled_from(taut.games()).flatmap(lambda name: games(name, stats))
