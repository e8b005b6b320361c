"""The published edition's learning variants: pull a string by giving its tile's other face.

Each end carries a tile with two faces: the one on the board (a letter, a number, a
hiragana) and the one a player must give (the letter's handshape, the number's Roman
numeral, the katakana). Under ``learning=strict`` a player names the string they mean and
gives an answer: a right answer pulls that string, a wrong one pulls nothing this turn.
Under ``learning=slip`` the answer decides: the string whose tile it is gets pulled, if that
tile is on the board and its end is unbroken; otherwise nothing is.

An action is then a pair (the end meant, the tile whose other face was given), numbered
``end * faces + tile``; its notation is ``c=K`` (meant ``c``, gave the other face of tile
``K``). Each state keeps the last turn's answers, so that every front end can reveal both
faces and who was right, and a tally per player (right answers, and which tiles were
mixed up) for the summary at the end.

Agents play these games through :class:`LearningProxy`: they choose a string in the same
game without answers and give the right answer, or a wrong one with probability
``mistakes``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from taut.core.errors import MalformedActionError, PositionError
from taut.core.game import Proxy
from taut.core.terms import JSON, Outcome
from taut.games.pulling_strings.board import NUM_ENDS, end_name
from taut.games.pulling_strings.state import O, PullingStringsState, X, move_stacks
from taut.learn.tileset import TileSet

if TYPE_CHECKING:
    from taut.games.pulling_strings.rules import PullingStrings

#: Legal action ids by (broken-end mask, faces): the same for every state with them.
_LEGAL: dict[tuple[int, int], tuple[int, ...]] = {}


@dataclass(frozen=True)
class Answer:
    """What one player did in a learning turn.

    ``meant`` is the end the player chose, ``asked`` the tile on it (whose other face was
    the right answer), ``gave`` the tile whose other face the player gave, ``pulled`` the
    end that was pulled (None: nothing).
    """

    meant: int
    asked: int
    gave: int
    pulled: int | None

    @property
    def right(self) -> bool:
        """True when the player gave the right face."""
        return self.gave == self.asked


@dataclass(frozen=True)
class Tally:
    """One player's answers so far: how many, how many right, and the mix-ups.

    ``mixups`` holds ``(tile, tile, times)`` for each unordered pair of tiles confused
    (asked one, gave the other), the smaller tile index first, sorted.
    """

    right: int = 0
    total: int = 0
    mixups: tuple[tuple[int, int, int], ...] = ()

    def add(self, answer: Answer) -> Tally:
        """The tally with ``answer`` counted."""
        if answer.right:
            return Tally(self.right + 1, self.total + 1, self.mixups)
        pair = (min(answer.asked, answer.gave), max(answer.asked, answer.gave))
        counts = {(a, b): n for a, b, n in self.mixups}
        counts[pair] = counts.get(pair, 0) + 1
        mixups = tuple(sorted((a, b, n) for (a, b), n in counts.items()))
        return Tally(self.right, self.total + 1, mixups)

    def summary(self, tiles: TileSet) -> str:
        """``12 of 14 signs right; mixed up M and N twice``."""
        text = f"{self.right} of {self.total} {tiles.answer_noun} right"
        worst = sorted(self.mixups, key=lambda m: (-m[2], m[0], m[1]))[:3]
        if worst:
            parts = [
                f"{tiles.tiles[a].board.text} and {tiles.tiles[b].board.text} {_times(n)}"
                for a, b, n in worst
            ]
            text += "; mixed up " + ", ".join(parts)
        return text


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


class LearningState(PullingStringsState):
    """A position of a learning game: the board, the last turn's answers and the tallies."""

    __slots__ = ("answers", "tallies")

    def __init__(
        self,
        game: PullingStrings,
        stacks: dict[int, int],
        broken: int,
        turn: int,
        outcome: Outcome | None = None,
        answers: tuple[Answer, Answer] | None = None,
        tallies: tuple[Tally, Tally] = (Tally(), Tally()),
    ) -> None:
        #: What X and O gave on the turn that led here (None at the start).
        self.answers = answers
        #: X's and O's answers so far.
        self.tallies = tallies
        super().__init__(game, stacks, broken, turn, outcome)

    @property
    def tiles(self) -> TileSet:
        """The game's tile set."""
        tiles = self.game.tileset
        assert tiles is not None  # a learning game is a published one
        return tiles

    # -- actions -------------------------------------------------------------------------

    def decode(self, action: int) -> tuple[int, int]:
        """``(end meant, tile given)`` of an action id."""
        return divmod(action, self.game.faces)

    def encode(self, end: int, tile: int) -> int:
        """The action id meaning ``end`` and giving the other face of ``tile``."""
        return end * self.game.faces + tile

    def right_action(self, end: int) -> int:
        """The action that pulls ``end`` with the right answer."""
        return self.encode(end, self.game.tile_of_end[end])

    def effect(self, action: int) -> int | None:
        """The end an action pulls (None: nothing), by the game's learning rule."""
        end, tile = self.decode(action)
        game = self.game
        if game.learning == "strict":
            return end if tile == game.tile_of_end[end] else None
        try:
            target = game.tile_of_end.index(tile)
        except ValueError:
            return None
        return None if self.broken >> target & 1 else target

    def legal_actions(self, seat: int) -> Sequence[int]:
        """Every unbroken end with every answer (the tile set's other faces)."""
        if self._outcome is not None or seat not in (X, O):
            return ()
        faces = self.game.faces
        key = (self.broken, faces)
        legal = _LEGAL.get(key)
        if legal is None:
            ends = self.game.legal_ends(self.broken)
            legal = _LEGAL[key] = tuple(e * faces + f for e in ends for f in range(faces))
        return legal

    def is_legal(self, seat: int, action: int) -> bool:
        """True for an unbroken end with any answer while the game goes on."""
        return (
            self._outcome is None
            and seat in (X, O)
            and 0 <= action < NUM_ENDS * self.game.faces
            and not self.broken >> (action // self.game.faces) & 1
        )

    def illegal_reason(self, seat: int, action: int) -> str:
        """Explain an illegal choice."""
        legal = " ".join(self.game.letters[e] for e in self.game.legal_ends(self.broken))
        if not 0 <= action < NUM_ENDS * self.game.faces:
            return f"{action} is not an action id (0..{NUM_ENDS * self.game.faces - 1})"
        end = action // self.game.faces
        return f"end {self.game.letters[end]} is broken; unbroken ends: {legal}"

    def _apply(self, joint: dict[int, int]) -> LearningState:
        game = self.game
        given = []
        for seat in (X, O):
            end, tile = self.decode(joint[seat])
            given.append(Answer(end, game.tile_of_end[end], tile, self.effect(joint[seat])))
        ax, ao = given
        p, q = ax.pulled, ao.pulled
        if p is not None and q is not None:
            moved = PullingStringsState.pull(self, p, q)
            stacks, broken = moved._stacks, moved.broken
        elif p is not None or q is not None:
            # One pull alone moves its string as if both had pulled it, but breaks nothing.
            alone = p if p is not None else q
            assert alone is not None
            stacks = move_stacks(self._stacks, game.plans[alone * NUM_ENDS + alone])
            broken = self.broken
        else:
            stacks, broken = dict(self._stacks), self.broken
        tx, to = self.tallies
        return LearningState(
            game, stacks, broken, self.turn + 1, None, (ax, ao), (tx.add(ax), to.add(ao))
        )

    def end_by_agreement(self) -> LearningState:
        """The same position and tallies, ended as a draw agreed by both players."""
        agreed = super().end_by_agreement()
        return LearningState(
            self.game,
            dict(self._stacks),
            self.broken,
            self.turn,
            agreed.outcome,
            self.answers,
            self.tallies,
        )

    # -- notation ------------------------------------------------------------------------

    def action_to_string(self, seat: int, action: int) -> str:
        """``c=K``: the end meant, then the other face given."""
        end, tile = self.decode(action)
        return f"{self.game.letters[end]}={self.tiles.tiles[tile].other.text}"

    def string_to_action(self, seat: int, text: str) -> int:
        """Parse ``END=ANSWER``: an end (its board face or ``N2``) and the other face given
        (its text, any case, or an alias such as a kana's romaji; or ``@N``, its place in
        this turn's palette)."""
        meant, sep, gave = text.partition("=")
        tiles = self.tiles
        if not sep and self.game.end_index(text) is None:
            raise MalformedActionError(
                f"{text.strip()!r} names no string end; ends are {' '.join(self.game.letters)}"
            )
        if not sep:
            raise MalformedActionError(
                f"{text.strip()!r}: in a learning game a move names the string and the "
                f"answer, as END={tiles.other_kind.upper().replace(' ', '_')} "
                f"(for example {self.action_to_string(seat, self.right_action(0))})"
            )
        end = self.game.end_index(meant)
        if end is None:
            raise MalformedActionError(
                f"{meant.strip()!r} names no string end; ends are {' '.join(self.game.letters)}"
            )
        tile = self.palette_tile(seat, gave) if gave.strip().startswith("@") else None
        if tile is None:
            tile = tiles.find_other(gave)
        if tile is None:
            raise MalformedActionError(
                f"{gave.strip()!r} is not a {tiles.other_kind}; "
                f"{tiles.other_kind}s: {' '.join(tiles.other_faces())}"
            )
        return self.encode(end, tile)

    def palette_order(self, seat: int) -> list[int]:
        """The tiles in the order the answer palette offers them to ``seat`` this turn
        (shuffled each turn, the same on every redraw of the turn), so that a place in it
        never gives a tile away."""
        order = list(range(len(self.tiles)))
        random.Random(f"{self.game.letters}:{self.turn}:{seat}").shuffle(order)
        return order

    def palette_tile(self, seat: int, ref: str) -> int | None:
        """The tile at ``@N`` of this turn's palette (counted from 0): a page names an
        answer by its place, so that the page never holds the answer's face."""
        place = ref.strip()[1:]
        order = self.palette_order(seat)
        if not place.isdigit() or int(place) >= len(order):
            raise MalformedActionError(
                f"{ref.strip()!r}: the palette's places are @0 to @{len(order) - 1}"
            )
        return order[int(place)]

    def action_to_json(self, seat: int, action: int) -> JSON:
        """``{"end": "N2", "letter": "c", "gave": "K"}``."""
        end, tile = self.decode(action)
        return {
            "end": end_name(end),
            "letter": self.game.letters[end],
            "gave": self.tiles.tiles[tile].other.text,
        }

    def action_from_json(self, seat: int, data: JSON) -> int:
        """The object form, or the notation ``c=K``."""
        if isinstance(data, dict) and isinstance(data.get("gave"), str):
            end = data.get("end", data.get("letter"))
            if isinstance(end, str):
                return self.string_to_action(seat, f"{end}={data['gave']}")
        if not isinstance(data, str):
            raise MalformedActionError(
                f"expected {{'end': 'N2', 'gave': ...}} or END=ANSWER, got {data!r}"
            )
        return self.string_to_action(seat, data)

    # -- reading the answers ------------------------------------------------------------

    def answer_json(self, answer: Answer) -> JSON:
        """One answer with both faces of the tiles involved, for every front end."""
        tiles = self.tiles.tiles
        pulled = answer.pulled
        return {
            "meant": self.game.letters[answer.meant],
            "tile": tiles[answer.asked].board.text,
            "answer": tiles[answer.asked].other.text,
            "gave": tiles[answer.gave].other.text,
            "gave_tile": tiles[answer.gave].board.text,
            "right": answer.right,
            "pulled": None if pulled is None else self.game.letters[pulled],
        }

    def to_json(self) -> JSON:
        """The position, the last turn's answers and each player's tally."""
        data = super().to_json()
        data["answers"] = (
            None
            if self.answers is None
            else {
                self.seat_name(seat): self.answer_json(a)
                for seat, a in zip((X, O), self.answers, strict=True)
            }
        )
        tiles = self.tiles.tiles
        data["tally"] = {
            self.seat_name(seat): {
                "right": t.right,
                "total": t.total,
                "mixups": [[tiles[a].board.text, tiles[b].board.text, n] for a, b, n in t.mixups],
            }
            for seat, t in zip((X, O), self.tallies, strict=True)
        }
        return data

    @classmethod
    def from_json(
        cls, game: PullingStrings, stacks: dict[int, int], broken: int, turn: int, data: JSON
    ) -> LearningState:
        """A position with the answers and tallies :meth:`to_json` wrote (both optional)."""
        answers = None
        raw = data.get("answers")
        if raw is not None:
            if not isinstance(raw, dict) or set(raw) != {"X", "O"}:
                raise PositionError("'answers' must be an object with X and O")
            ax, ao = (_read_answer(game, raw[name], name) for name in ("X", "O"))
            answers = (ax, ao)
        tallies = (Tally(), Tally())
        raw = data.get("tally")
        if raw is not None:
            if not isinstance(raw, dict) or set(raw) != {"X", "O"}:
                raise PositionError("'tally' must be an object with X and O")
            tallies = (_read_tally(game, raw["X"], "X"), _read_tally(game, raw["O"], "O"))
        return cls(game, stacks, broken, turn, None, answers, tallies)

    def __eq__(self, other: object) -> bool:
        same = super().__eq__(other)
        if same is True and isinstance(other, LearningState):
            return self.answers == other.answers and self.tallies == other.tallies
        return same

    __hash__ = PullingStringsState.__hash__


def _count(value: JSON, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PositionError(f"{what} must be a non-negative integer, got {value!r}")
    return value


def _tile(game: PullingStrings, text: JSON, side: str, what: str) -> int:
    tiles = game.tileset
    assert tiles is not None
    found = None
    if isinstance(text, str):
        found = tiles.find_board(text) if side == "board" else tiles.find_other(text)
    if found is None:
        raise PositionError(f"{what}: {text!r} is not a tile's {side} face")
    return found


def _read_answer(game: PullingStrings, raw: JSON, name: str) -> Answer:
    where = f"'answers' of {name}"
    if not isinstance(raw, dict):
        raise PositionError(f"{where} must be an object")
    meant = game.end_index(raw["meant"]) if isinstance(raw.get("meant"), str) else None
    if meant is None:
        raise PositionError(f"{where}: 'meant' must name an end")
    gave = _tile(game, raw.get("gave"), "other", where)
    pulled_raw = raw.get("pulled")
    pulled = None if pulled_raw is None else game.end_index(str(pulled_raw))
    if pulled_raw is not None and pulled is None:
        raise PositionError(f"{where}: 'pulled' must name an end or be null")
    return Answer(meant, game.tile_of_end[meant], gave, pulled)


def _read_tally(game: PullingStrings, raw: JSON, name: str) -> Tally:
    where = f"'tally' of {name}"
    if not isinstance(raw, dict):
        raise PositionError(f"{where} must be an object")
    right = _count(raw.get("right"), f"{where}: 'right'")
    total = _count(raw.get("total"), f"{where}: 'total'")
    mixups = []
    for item in raw.get("mixups", []):
        if not isinstance(item, list) or len(item) != 3:
            raise PositionError(f"{where}: a mix-up is [tile, tile, times]")
        a = _tile(game, item[0], "board", where)
        b = _tile(game, item[1], "board", where)
        mixups.append((min(a, b), max(a, b), _count(item[2], f"{where}: times")))
    if right > total:
        raise PositionError(f"{where}: more right answers than answers")
    return Tally(right, total, tuple(sorted(mixups)))


class LearningProxy(Proxy):
    """The same game without answers, for agents; their string choice is lifted to the
    right answer, or with probability ``mistakes`` to a wrong one."""

    def __init__(self, learning: PullingStrings) -> None:
        options = {k: v for k, v in learning.options.items() if k not in ("mistakes",)}
        options["learning"] = "off"
        self.learning = learning
        self.base = type(learning)(**options)
        self.game = self.base

    @classmethod
    def of(cls, game: PullingStrings) -> LearningProxy:
        """The proxy of ``game`` (one per game)."""
        found = getattr(game, "_proxy", None)
        if not isinstance(found, LearningProxy):
            found = cls(game)
            game._proxy = found  # type: ignore[attr-defined]
        return found

    def state(self, state: object) -> PullingStringsState:
        """The board of ``state`` in the game without answers."""
        assert isinstance(state, PullingStringsState)
        return PullingStringsState(
            self.base, dict(state._stacks), state.broken, state.turn, state.outcome
        )

    def _answers(self, end: int) -> tuple[int, list[int]]:
        right = self.learning.tile_of_end[end]
        return right, [t for t in range(self.learning.faces) if t != right]

    def lift(self, state: object, seat: int, action: int, rng: random.Random) -> int:
        """Pull end ``action`` giving the right answer (or, ``mistakes`` of the time, one of
        the wrong ones, uniformly)."""
        right, wrong = self._answers(action)
        tile = right
        mistakes = self.learning.mistakes
        if mistakes and rng.random() < mistakes:
            tile = rng.choice(wrong)
        return action * self.learning.faces + tile

    def lift_policy(
        self, state: object, seat: int, policy: Mapping[int, float]
    ) -> dict[int, float]:
        """Each end's probability on its right answer, ``mistakes`` of it spread evenly
        over the wrong ones."""
        faces = self.learning.faces
        m = self.learning.mistakes
        out: dict[int, float] = {}
        for end, p in policy.items():
            right, wrong = self._answers(end)
            out[end * faces + right] = p * (1 - m)
            if m:
                for tile in wrong:
                    out[end * faces + tile] = p * m / len(wrong)
        return dict(sorted(out.items()))
