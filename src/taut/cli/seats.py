"""Who sits where: ``--seat SEAT=WHO`` strings turned into one spec per seat, and agents.

A seat is named as its game names it (``X``, ``NS``, ``P0``; any case) or by its number;
``WHO`` is ``human`` or an agent spec. Seats not named play the default agent, except
that when no seat is given to a human the first seat not named is human, so a bare
``taut play GAME`` puts you at the first seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from taut.agents import make_agent
from taut.agents.base import Agent
from taut.core.errors import InvalidOptionError, TautError
from taut.core.game import Game

HUMAN = "human"
#: Who plays a seat nobody named.
DEFAULT_AGENT = "greedy"


def assign_seats(
    game: Game,
    specs: Sequence[str],
    base: Mapping[int, str] | None = None,
    default: str = DEFAULT_AGENT,
    human_first: bool = True,
) -> list[str]:
    """The spec of every seat from ``SEAT=WHO`` strings (raises InvalidOptionError).

    ``base`` gives seats already known (a resumed game's), which ``specs`` may change.
    """
    names = game.info.seats
    chosen: dict[int, str] = dict(base or {})
    named: set[int] = set()
    for spec in specs:
        seat_name, sep, who = spec.partition("=")
        seat_name, who = seat_name.strip(), who.strip()
        if not sep or not seat_name or not who:
            raise InvalidOptionError(f"--seat {spec!r}: write SEAT=WHO, e.g. {names[0]}=human")
        try:
            seat = game.seat_index(seat_name)
        except TautError:
            raise InvalidOptionError(
                f"--seat {spec!r}: {game.title} has no seat {seat_name!r}; "
                f"seats are {', '.join(names)}"
            ) from None
        if seat in named:
            raise InvalidOptionError(f"--seat: seat {names[seat]} is given twice")
        named.add(seat)
        chosen[seat] = HUMAN if who.lower() == HUMAN else who
    out = []
    need_human = human_first and HUMAN not in chosen.values()
    for seat in range(len(names)):
        if seat in chosen:
            out.append(chosen[seat])
        elif need_human:
            out.append(HUMAN)
            need_human = False
        else:
            out.append(default)
    return out


def build_agents(
    game: Game, specs: Sequence[str], think: float | None, human: Agent | None = None
) -> list[Agent]:
    """One agent per seat (``human`` for the human seats); an agent that cannot play
    ``game`` is refused with the list of those that can (InvalidOptionError)."""
    agents = []
    for seat, spec in enumerate(specs):
        if spec == HUMAN:
            if human is None:
                raise InvalidOptionError(f"seat {game.info.seats[seat]}: no human can play here")
            agents.append(human)
            continue
        try:
            agents.append(make_agent(spec, think=think, game=game))
        except InvalidOptionError as exc:
            raise InvalidOptionError(f"seat {game.info.seats[seat]}: {exc} (or human)") from None
    return agents
