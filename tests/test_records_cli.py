"""Every game's records, whoever wrote them, replay with `taut replay` and resume with `--resume`.

For each registered game: a record written by `play`, records written by `selfplay` and by
`arena --record` all replay; a game stopped half-way (as when a player types quit) is
finished by `taut play GAME --resume FILE`, and the finished record replays and continues
the same moves.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import taut
from taut.agents.base import Agent, RandomAgent
from taut.arena.match import QuitGame, play_match
from taut.cli import cli
from taut.core.game import State
from taut.core.options import OptionText
from taut.core.record import GameRecord

#: Options that keep each game short.
SHORT: dict[str, list[str]] = {
    "pulling-strings": ["--max-turns", "30"],
    "push-pull": ["--max-turns", "30"],
    "tug-of-war": ["--target", "15"],
    "tracks": ["--size", "4"],
}
GAMES = sorted(SHORT)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


class StopsAfter(Agent):
    """Plays at random, then stops the game (as a person typing quit) on a given move."""

    def __init__(self, moves: int) -> None:
        self.left = moves
        self.inner = RandomAgent()

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        if self.left == 0:
            raise QuitGame()
        self.left -= 1
        return self.inner.act(state, seat, rng)


def test_every_game_is_covered() -> None:
    assert set(GAMES) <= set(taut.games())


@pytest.mark.parametrize("game", GAMES)
def test_records_of_play_selfplay_and_arena_replay(game: str, tmp_path: Path) -> None:
    seats = [f"--seat={s}=random" for s in taut.make(game).info.seats]
    played = tmp_path / "play.json"
    code, out = run("play", game, *seats, "--seed", "3", "--record", str(played), *SHORT[game])
    assert code == 0, out
    selfplay = tmp_path / "self.jsonl"
    code, out = run("selfplay", game, "--games", "2", "--record", str(selfplay), *SHORT[game])
    assert code == 0, out
    arena = tmp_path / "arena.jsonl"
    code, out = run("arena", game, "--agents", "random,greedy", "--games", "2", "--workers", "1",
                    "--record", str(arena), *SHORT[game])  # fmt: skip
    assert code == 0, out
    for path, count in ((played, 1), (selfplay, 2), (arena, 2)):
        code, out = run("replay", game, str(path))
        assert code == 0, out
        assert f"{count} record(s) checked: all replay exactly." in out
    code, out = run("replay", game, str(played), "--json", "--at", "0")
    assert code == 0, out
    options = GameRecord.load(played).options
    assert (
        json.loads(out.splitlines()[0]) == taut.make(game, **options).new_initial_state().to_json()
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_stopped_game_resumes(game: str, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    options = dict(zip(SHORT[game][0::2], SHORT[game][1::2], strict=True))
    built = taut.make(
        game, **{k.lstrip("-").replace("-", "_"): OptionText(v) for k, v in options.items()}
    )
    n = built.info.num_seats
    agents = [StopsAfter(3) for _ in range(n)]
    seats = {name: "random" for name in built.info.seats}
    with pytest.raises(QuitGame):
        play_match(built, agents, seed=5, seats=seats, on_record=lambda r: r.save(path))
    stopped = GameRecord.load(path)
    assert stopped.result is None and stopped.moves
    code, out = run("play", game, "--resume", str(path))
    assert code == 0, out
    assert "Resuming the game after" in out
    finished = GameRecord.load(path)
    assert finished.result is not None
    assert finished.moves is not None and finished.moves[: len(stopped.moves)] == stopped.moves
    code, out = run("replay", game, str(path))
    assert code == 0, out
    # The options are the record's: flags that would change them are refused.
    code, out = run("play", game, "--resume", str(path), "-O", "max_turns=5")
    assert code == 2 and "own options" in out
    code, out = run("play", game, "--resume", str(path))
    assert code == 2 and "already over" in out
