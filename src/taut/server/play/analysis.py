"""Analysis boards: a finished game's moves judged in the worker pool, kept once computed.

Asking for a game's analysis starts it once per server: the record is replayed here (cheap)
to list the nodes where seats chose, then each node is judged in the computer's worker pool
(:func:`judge_move`, given only text, as computer moves are), one node at a time so that live
games keep their workers. Progress is counted in nodes. The finished analysis is kept in the
store, so it is computed once whoever asks and survives a restart; a failure is reported and
may be retried.

What a browser gets (:meth:`Analyst.status`)::

    {"status": "none" | "running" | "done" | "failed",
     "done": K, "total": N,                     # nodes judged so far, nodes to judge
     "error": TEXT,                             # when failed
     "analysis": {                              # when done
         "think": SECONDS,
         "seats": [NAME, ...], "range": [MIN_UTILITY, MAX_UTILITY],
         "moves": [{"move": K, "seat": NAME, "seat_index": I, "action": NOTATION,
                    "value": V, "loss": L, "best": NOTATION, "label": LABEL | null,
                    "method": M, "engine_board": SVG,
                    "action_words": WORDS, "best_words": WORDS}, ...],
         "summary": {NAME: {"moves", "average_loss", "inaccuracy", "mistake", "blunder"}},
         "thresholds": {LABEL: LOSS}}}

Each move's ``engine_board`` is the position before it drawn for its seat with only the
engine's move offered, so the board itself shows what the engine would have played;
``action_words`` and ``best_words`` say both moves in the game's words
(:meth:`~taut.core.plugin.GamePlugin.describe_move`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from taut.core.forfeit import drawable
from taut.core.record import GameRecord
from taut.server.play.computer import Computer
from taut.server.play.table import GameTable
from taut.server.store.games import Store

log = logging.getLogger(__name__)

#: Seconds of search per node where a game is not solved.
ANALYSIS_THINK = 0.3


def judge_move(record: Any, move: int, think: float, seed: int) -> list[dict[str, Any]]:
    """The judgements of node ``move`` of the record (JSON), in a worker."""
    from taut.agents.analysis import judge_node, judged_nodes

    _, nodes = judged_nodes(GameRecord.from_json(record))
    node = next(n for n in nodes if n[0] == move)
    return [{**j.to_json(), "seat_index": j.seat} for j in judge_node(node, think=think, seed=seed)]


@dataclass
class Job:
    """An analysis under way."""

    total: int
    done: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Analyst:
    """Starts, follows and keeps the analyses of finished games."""

    def __init__(self, store: Store, computer: Computer, think: float = ANALYSIS_THINK) -> None:
        self.store = store
        self.computer = computer
        self.think = think
        self.jobs: dict[str, Job] = {}
        self._kept: dict[str, dict[str, Any]] = {}
        # One node at a time across the server: live games' computer seats keep the rest
        # of the pool.
        self._slot = asyncio.Semaphore(1)

    async def status(self, table: GameTable, start: bool = False) -> dict[str, Any]:
        """Where the analysis of ``table``'s (finished) game stands; ``start`` starts it
        when there is none (or the last one failed)."""
        # The job first, without waiting: a job that ends while the store is read has put
        # its result in memory before it leaves ``jobs``, so one of the two is always seen.
        job = self.jobs.get(table.id)
        if job is not None and job.error is None:
            return {"status": "running", "done": job.done, "total": job.total}
        kept = await self._load(table.id)
        if kept is not None:
            return {"status": "done", "done": 1, "total": 1, "analysis": kept}
        if not start:
            if job is not None:
                return {"status": "failed", "done": job.done, "total": job.total,
                        "error": job.error}  # fmt: skip
            return {"status": "none", "done": 0, "total": 0}
        job = self._start(table)
        return {"status": "running", "done": job.done, "total": job.total}

    async def _load(self, game_id: str) -> dict[str, Any] | None:
        kept = self._kept.get(game_id)
        if kept is None:
            found = await self.store.analyses.load(game_id)
            if found is not None:
                kept = self._kept[game_id] = found[1]
        return kept

    def _start(self, table: GameTable) -> Job:
        from taut.agents.analysis import judged_nodes

        record = table.record().to_json()
        _, nodes = judged_nodes(GameRecord.from_json(record), table.game)
        job = Job(total=len(nodes))
        self.jobs[table.id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(table, record, job))
        return job

    async def _run(self, table: GameTable, record: Any, job: Job) -> None:
        from taut.agents.analysis import judged_nodes

        try:
            _, nodes = judged_nodes(GameRecord.from_json(record), table.game)
            moves: list[dict[str, Any]] = []
            for k, before, _ in nodes:
                async with self._slot:
                    found = await self.computer.run(judge_move, record, k, self.think, 0)
                for judged in found:
                    seat = int(judged["seat_index"])
                    legal = [judged["best"]]
                    seen = before.view(seat)
                    view = drawable(seen)
                    # The board is shown in the side panel, a phone's width at most: a
                    # picture laid out for a narrow screen fits it best.
                    narrow = table.plugin.svg_narrow(view, seat, legal)
                    board = table.plugin.svg(view, seat, legal) if narrow is None else narrow
                    judged["engine_board"] = board
                    words = table.plugin.describe_move
                    judged["action_words"] = words(seen, seat, judged["action"])
                    judged["best_words"] = words(seen, seat, judged["best"])
                    moves.append(judged)
                job.done += 1
            result = self._result(table, moves)
            await self.store.analyses.save(table.id, self.think, result)
            self._kept[table.id] = result
            del self.jobs[table.id]
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken search or store must not stop the server
            log.exception("analysing game %s failed", table.id)
            job.error = str(exc) or type(exc).__name__

    def _result(self, table: GameTable, moves: list[dict[str, Any]]) -> dict[str, Any]:
        from taut.agents.analysis import Judgement, summarize

        info = table.game.info
        judged = [
            Judgement(
                move=m["move"],
                seat=m["seat_index"],
                seat_name=m["seat"],
                action=m["action"],
                value=m["value"],
                loss=m["loss"],
                best=m["best"],
                label=m["label"],
                method=m["method"],
            )
            for m in moves
        ]
        whole = summarize(table.game, judged)
        tail = whole.to_json()[-1]
        return {
            "think": self.think,
            "seats": list(info.seats),
            "range": [info.min_utility, info.max_utility],
            "moves": moves,
            "summary": tail["summary"],
            "thresholds": tail["thresholds"],
        }

    async def close(self) -> None:
        """Stop the analyses under way."""
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        tasks = [j.task for j in self.jobs.values() if j.task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)
