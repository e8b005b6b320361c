"""``taut play tug-of-war``, ``taut selfplay tug-of-war`` and ``taut replay tug-of-war``."""

from __future__ import annotations

import json
import random
import time
from collections import deque
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from taut.agents import make_agent
from taut.agents.base import Agent
from taut.arena.match import DrawOffer, QuitGame
from taut.cli.app import (
    THINK,
    WHO,
    console,
    fail,
    make_game,
    play_app,
    replay_app,
    selfplay_app,
)
from taut.cli.table import HumanAgent, TerminalTable
from taut.core.errors import TautError
from taut.core.game import State
from taut.games.tug_of_war.match import play_game
from taut.games.tug_of_war.record import ReplayError, replay_record
from taut.games.tug_of_war.render import describe, render
from taut.games.tug_of_war.rules import TugOfWar
from taut.games.tug_of_war.state import BONUS, OVER, TugState

_PLAYERS = typer.Option(3, "--players", "-n", min=2, max=8, help="Number of players (2..8).")
_SET = typer.Option(None, "--set", help="Domino set: 6 or 9 (default 9 from 4 players on).")
_HAND = typer.Option(None, "--hand", min=1, help="Tiles per hand (default 7, fewer if needed).")
_END = typer.Option("target", "--end", help="How the game ends: target, rounds, round-points.")
_TARGET = typer.Option(50, "--target", min=1, help="end=target: +N wins, -N is out.")
_OUT = typer.Option("continue", "--out", help="end=target: continue or stop when one goes out.")
_ROUNDS = typer.Option(10, "--rounds", min=1, help="end=rounds/round-points: rounds to play.")
_TIEBREAK = typer.Option("tied", "--tiebreak", help="Extra rounds after a tie: tied or all.")
_ROUND_SCORE = typer.Option(
    "gain", "--round-score", help="end=round-points: round point for best gain or total."
)
_OPTION = typer.Option([], "--option", "-O", help="Any game option key=value (repeatable).")

#: Public lines of recent moves shown above a covered seat's table.
LOG_LINES = 8


def _options(
    players: int,
    set_: int | None,
    hand: int | None,
    end: str,
    target: int,
    out: str,
    rounds: int,
    tiebreak: str,
    round_score: str,
) -> dict[str, Any]:
    return {
        "players": players,
        "set": set_,
        "hand": hand,
        "end": end,
        "target": target,
        "out": out,
        "rounds": rounds,
        "tiebreak": tiebreak,
        "round-score": round_score,
    }


def _tug(state: State) -> TugState:
    assert isinstance(state, TugState)
    return state


def _game(options: dict[str, Any], extra: list[str]) -> TugOfWar:
    game = make_game("tug-of-war", options, extra)
    assert isinstance(game, TugOfWar)
    return game


def _plain(text: str) -> None:
    console.print(text, markup=False, highlight=False)


class ScoreSheet:
    """Scores after every round, with a note on how each round ended."""

    def __init__(self, game: TugOfWar) -> None:
        self.game = game
        self.rows: list[tuple[int, list[int], list[int], str]] = []

    def add(self, before: TugState, after: TugState) -> None:
        """Note the round that ``before -> after`` finished."""
        bonus = before.bonus
        if bonus is not None and before.phase == BONUS:
            how = "blocked, fewest pips" if bonus.blocked else "went out"
            shares = " ".join(
                f"{before.seat_name(s)}{'+' if s == bonus.winner else '-'}{p}"
                for s, p in bonus.allocation().items()
            )
            note = f"{before.seat_name(bonus.winner)} {how}; bonus {bonus.total}: {shares}"
        else:
            note = "blocked, tied on pips: no bonus"
        if after.pool is not None and after.phase != OVER:
            note += f"; tie: extra round for {', '.join(after.seat_name(s) for s in after.pool)}"
        out = [
            s for s in range(self.game.num_players) if before.in_game[s] and not after.in_game[s]
        ]
        if out:
            note += f"; out: {', '.join(after.seat_name(s) for s in out)}"
        self.rows.append((before.round, list(after.scores), list(after.points), note))

    def text(self) -> str:
        """The sheet as plain lines (shown to a covered seat, whose screen was cleared)."""
        if not self.rows:
            return ""
        names = self.game.seat_names
        lines = ["Score sheet:"]
        for rnd, scores, _, note in self.rows:
            cells = ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
            lines.append(f"  round {rnd}: {cells} ({note})")
        return "\n".join(lines)

    def table(self) -> Table:
        """The sheet as a rich table."""
        rp = self.game.end_rules.end == "round-points"
        table = Table(title="Score sheet", title_justify="left")
        table.add_column("round", justify="right")
        for name in self.game.seat_names:
            table.add_column(name, justify="right")
        table.add_column("how the round ended")
        for rnd, scores, points, note in self.rows:
            cells = [f"{s} ({p})" if rp else str(s) for s, p in zip(scores, points, strict=True)]
            table.add_row(str(rnd), *cells, note, style=None)
        return table


class TugHuman(HumanAgent):
    """A person at the terminal; forced moves (one legal action) are made for them."""

    def __init__(self, table: TerminalTable, log: deque[str]) -> None:
        super().__init__(table)
        self.log = log

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Make a forced move at once; otherwise show the table and ask."""
        legal = list(state.legal_actions(seat))
        if len(legal) == 1:
            text = state.action_to_string(seat, legal[0])
            _plain(f"{state.seat_name(seat)}: {text} (the only move).")
            return legal[0]
        if not self.table.cover:
            _plain(_screen(_tug(state), self.log, with_log=False))
        while True:
            try:
                return self.table.ask_action(state, seat)
            except DrawOffer:
                _plain("Tug of War has no agreed draws; a tile is drawn for you when needed.")


def _screen(
    state: TugState, log: deque[str], sheet: ScoreSheet | None = None, with_log: bool = True
) -> str:
    """What a human sees before choosing: (when the screen was covered: the score sheet
    and recent public moves), the table from the seat's view, and the legal moves."""
    parts = []
    if with_log and sheet is not None and sheet.rows:
        parts.append(sheet.text())
    if with_log and log:
        parts.append("Recent moves:\n  " + "\n  ".join(log))
    parts.append(render(state))
    seat = state.viewer
    if seat is not None and seat in state.acting_seats() and state.phase != BONUS:
        legal = state.legal_actions(seat)
        parts.append("You can play: " + " ".join(state.action_to_string(seat, a) for a in legal))
    elif state.phase == BONUS and state.bonus is not None and state.bonus.target is not None:
        parts.append(
            f"Type how many points {state.seat_name(state.bonus.target)} loses "
            f"(0..{state.bonus.remaining}), e.g. {state.bonus.remaining}."
        )
    return "\n".join(parts)


def _parse_seats(specs: list[str], players: int) -> list[str]:
    seats = ["greedy"] * players
    if not specs:
        seats[0] = "human"
    for spec in specs:
        key, sep, who = spec.partition("=")
        key = key.strip().upper().removeprefix("P")
        if not sep or not key.isdigit() or not 0 <= int(key) < players or not who.strip():
            fail(f"--seat {spec!r}: write SEAT=WHO with SEAT 0..{players - 1}, e.g. 0=human")
        seats[int(key)] = who.strip()
    return seats


@play_app.command("tug-of-war")
def play(
    players: int = _PLAYERS,
    seat: list[str] = typer.Option(
        [],
        "--seat",
        help=f"SEAT=WHO (repeatable), WHO: {WHO}. Seats not named play "
        "greedy; with no --seat at all, seat 0 is human.",
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed for the deal and the agents."),
    record: Path | None = typer.Option(
        None, "--record", help="Write the game record here (updated after every round)."
    ),
    set_: int | None = _SET,
    hand: int | None = _HAND,
    end: str = _END,
    target: int = _TARGET,
    out: str = _OUT,
    think: float | None = THINK,
    rounds: int = _ROUNDS,
    tiebreak: str = _TIEBREAK,
    round_score: str = _ROUND_SCORE,
    option: list[str] = _OPTION,
) -> None:
    """Play Tug of War in the terminal, humans and agents in any mix.

    Type a play as tile@train.end (3-5@1.0: tile 3-5 on P1's train, end 0), or just the
    tile when it fits one place only. Draws and passes are made for you when forced.
    When you win a round, type for each opponent how many leftover points they lose; the
    rest is yours. `help` lists the legal moves, `quit` stops. Several humans at one
    keyboard get a covered screen between turns and see only their own hand.
    """
    game = _game(
        _options(players, set_, hand, end, target, out, rounds, tiebreak, round_score), option
    )
    specs = _parse_seats(seat, game.num_players)
    log: deque[str] = deque(maxlen=LOG_LINES)
    sheet = ScoreSheet(game)
    humans = sum(1 for s in specs if s == "human")
    table = TerminalTable(
        console, lambda s: _screen(_tug(s), log, sheet), humans, verb="plays", draw_offers=False
    )
    agents: list[Agent] = []
    for spec in specs:
        try:
            human = spec == "human"
            agents.append(TugHuman(table, log) if human else make_agent(spec, think=think))
        except TautError as exc:
            fail(f"{exc} (or human)")
    base = seed if seed is not None else random.SystemRandom().getrandbits(31)
    names = ", ".join(f"{game.seat_names[i]}={who}" for i, who in enumerate(specs))
    _plain(f"Tug of War, {game.num_players} players ({names}), seed {base}.")

    def observe(before: TugState, joint: dict[int, int], after: TugState) -> None:
        line = describe(before, joint, after)
        if line is not None:
            log.append(line)
            _plain(line)
        if after.round != before.round or (after.phase == OVER and before.phase != OVER):
            sheet.add(before, after)
            console.print(sheet.table())

    def save(rec: dict[str, Any]) -> None:
        if record is not None:
            record.write_text(json.dumps(rec) + "\n")

    try:
        final, _ = play_game(game, agents, base, observer=observe, on_record=save)
    except QuitGame:
        console.print(
            "Game stopped."
            + (f" The rounds played so far are in {record} (unfinished)." if record else "")
        )
        return
    _plain(render(final.view(None)))
    console.print(f"[bold]{final.describe_outcome()}[/bold]")
    if record is not None:
        console.print(f"Record written to {record}.")


def _agent_list(agents: str, players: int) -> list[str]:
    names = [a.strip() for a in agents.split(",") if a.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        fail(f"--agents lists {len(names)} agents for {players} players; give 1 or {players}")
    return names


@selfplay_app.command("tug-of-war")
def selfplay(
    players: int = _PLAYERS,
    games: int = typer.Option(10, "--games", "-g", min=1, help="Number of games."),
    seed: int = typer.Option(0, "--seed", help="Game k (from 0) uses seed SEED + k."),
    agents: str = typer.Option(
        "random", "--agents", help="Agents per seat, comma separated (one name: every seat)."
    ),
    record: Path | None = typer.Option(
        None, "--record", help="Write one complete record per line (JSON lines) here."
    ),
    set_: int | None = _SET,
    hand: int | None = _HAND,
    end: str = _END,
    target: int = _TARGET,
    out: str = _OUT,
    think: float | None = THINK,
    rounds: int = _ROUNDS,
    tiebreak: str = _TIEBREAK,
    round_score: str = _ROUND_SCORE,
    option: list[str] = _OPTION,
) -> None:
    """Play many games between agents, print who won, and write their records."""
    game = _game(
        _options(players, set_, hand, end, target, out, rounds, tiebreak, round_score), option
    )
    names = _agent_list(agents, game.num_players)
    try:
        agent_objs: list[Agent] = [make_agent(name, think=think) for name in names]
    except TautError as exc:
        fail(str(exc))
    n = game.num_players
    wins = [0] * n
    draws = 0
    totals = [0] * n
    rounds_played = 0
    handle = record.open("w") if record is not None else None
    start = time.perf_counter()
    progress = Progress(
        TextColumn("tug-of-war"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    try:
        with progress:
            task = progress.add_task("games", total=games)
            for k in range(games):
                final, rec = play_game(game, agent_objs, seed + k)
                if handle is not None:
                    handle.write(json.dumps(rec) + "\n")
                    handle.flush()
                winner = rec["winner"]
                if winner is None:
                    draws += 1
                else:
                    wins[winner] += 1
                for s in range(n):
                    totals[s] += final.scores[s]
                rounds_played += len(rec["rounds"])
                progress.advance(task)
    finally:
        if handle is not None:
            handle.close()
    elapsed = time.perf_counter() - start
    table = Table(title=f"{games} games of Tug of War, {n} players", title_justify="left")
    table.add_column("seat")
    table.add_column("agent")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("mean final score", justify="right")
    for s in range(n):
        table.add_row(
            game.seat_names[s],
            names[s],
            str(wins[s]),
            f"{wins[s] / games:.1%}",
            f"{totals[s] / games:.1f}",
        )
    console.print(table)
    console.print(
        f"{rounds_played / games:.1f} rounds per game, {draws} without a winner, "
        f"{games / elapsed:.1f} games/s."
        + (f" Records written to {record}." if record is not None else "")
    )


def _read_records(path: Path) -> list[tuple[int, Any]]:
    """Records from a JSON-lines file (or one JSON record / a JSON list of records)."""
    try:
        text = path.read_text()
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict):
        return [(1, whole)]
    if isinstance(whole, list):
        return list(enumerate(whole, start=1))
    out = []
    for i, line in enumerate((ln for ln in text.splitlines() if ln.strip()), start=1):
        try:
            out.append((i, json.loads(line)))
        except json.JSONDecodeError as exc:
            fail(f"record {i}: not valid JSON: {exc}")
    if not out:
        fail(f"{path} holds no record")
    return out


@replay_app.command("tug-of-war")
def replay(
    path: Path = typer.Argument(..., help="A JSON-lines file of records (or one record)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the summary."),
) -> None:
    """Check every record against the rules and print each game's final scores.

    The first impossible event stops the check with a message naming the record, the
    round and the event (numbered from 1), and exit status 2.
    """
    records = _read_records(path)
    for i, data in records:
        try:
            final = replay_record(data, i)
        except ReplayError as exc:
            fail(str(exc))
        if not quiet:
            out = final.outcome
            who = (
                "no winner"
                if out is None or not out.winners
                else f"winner {final.seat_name(out.winners[0])} ({out.reason})"
            )
            console.print(
                f"record {i}: {len(data['rounds'])} rounds, final scores "
                f"{list(final.scores)}, {who}",
                markup=False,
                highlight=False,
            )
    console.print(f"{len(records)} record(s) checked: all replay exactly.")
