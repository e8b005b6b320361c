"""Property tests: every game, with options drawn from its own OptionSpecs, played at random.

For each registered game (and the test game Rope), hypothesis draws options
(``tests/strategies.py``) and a seed, plays a game of random legal moves through the one
match loop (:func:`~taut.arena.match.play_match`: chance drawn by its odds, a joint action
at simultaneous nodes), and checks:

* the protocol at every node (the conformance checks: legal actions at every node that is
  not over, each action's id, notation and JSON round trip; an illegal id refused with an
  explanation) and the views of a spectator, of the acting seats and of one more seat in
  turn (a view does not raise, is encoded within the observation's bounds, keeps the
  acting seat's choices, rebuilds from its JSON, hides nothing more when viewed again,
  and a sample drawn from it looks the same to that seat);
* the record, written to a file as ``play --record`` writes it and as a line as
  ``selfplay`` writes it, reads back and replays to the same final state and result; a
  game's own record fields (its plugin's record part) replay alone too, as older records;
* a game stopped part-way (as a player who quits) is resumed as ``play --resume`` does and
  continues with the same moves to the very same record;
* a draw agreed at a random decision is recorded and replays as agreed; a take-back
  leaves a record that replays to the game played on;
* every state's JSON rebuilds a state with the same future;
* a game's compact playout and rollout loops give the same games as the protocol's loop.

The quick budget runs in the normal suite; the ``slow`` budget draws 20 times more
(``pytest -m slow tests/test_properties.py``). Each declared bound of a number option is
also played once, on its own.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, given, settings
from hypothesis import strategies as st

import taut
from taut.agents.base import Agent, RandomAgent
from taut.arena.match import (
    DrawOffer,
    MatchResult,
    QuitGame,
    Undo,
    play_match,
    resume_record,
)
from taut.core.errors import IllegalActionError, TautError
from taut.core.game import Game, State
from taut.core.record import GameRecord
from taut.core.record_files import read_records, write_text
from taut.core.registry import register_plugin, unregister_plugin
from taut.core.terms import AGREEMENT, JSON, NodeKind
from taut.interop.encoding import observation_fields, observation_shape, observe
from tests.conformance import _check_state
from tests.strategies import OptionStats, games, is_free_text, options_for
from tests.toygame.plugin import plugin as rope_plugin

GAMES = sorted({*taut.games(), rope_plugin.name})

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]
#: The budgets: a few examples per game in the normal suite, many in the slow set.
BUDGETS = [
    pytest.param(
        settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=_HEALTH),
        id="quick",
    ),
    pytest.param(
        settings(max_examples=300, deadline=None, suppress_health_check=_HEALTH),
        id="slow",
        marks=pytest.mark.slow,
    ),
]
#: Seeds of the match loop (its agents' and chance's generators derive from it).
SEEDS = st.integers(0, 2**63 - 1)
#: A game longer than this many nodes is stopped there (as a player who quits): the record
#: of an unfinished game is checked instead of a result.
MAX_NODES = 4000


@pytest.fixture(autouse=True)
def rope() -> Iterator[None]:
    """The test game Rope is registered while these tests run."""
    register_plugin(rope_plugin)
    yield
    unregister_plugin(rope_plugin.name)


def note(what: str) -> None:
    """Count ``what`` in hypothesis's statistics (when running under hypothesis)."""
    if currently_in_test_context():
        event(what)


def same(a: State, b: State) -> bool:
    """True when two states have the same JSON."""
    return bool(canon(a.to_json()) == canon(b.to_json()))


def canon(data: JSON) -> str:
    """JSON as canonical text."""
    return json.dumps(data, sort_keys=True)


# -- checks of one node ------------------------------------------------------------------------


def watched(state: State, node: int) -> tuple[int | None, ...]:
    """The seats whose views are checked at node ``node``: a spectator, the acting seats
    and one more seat in turn (all of them at every node would make games of eight
    players slow, and turns cover every seat anyway)."""
    n = state.game.info.num_seats
    acting = [s for s in state.acting_seats() if s >= 0]
    return (None, *sorted({*acting, node % n}))


def check_views(state: State, seats: Sequence[int | None]) -> None:
    """Each of ``seats``'s views (None: a spectator's) can be built, drawn, written and
    encoded within the observation's bounds; viewing a view again changes nothing; an
    acting seat's view keeps its choices; a view's JSON rebuilds it; a position sampled
    from a seat's view looks the same to it."""
    game = state.game
    acting = state.acting_seats()
    shape = observation_shape(game)
    for seat in seats:
        view = state.view(seat)
        data = view.to_json()
        json.dumps(data)
        taut.render(view)
        assert canon(game.state_from_json(json.loads(json.dumps(data))).to_json()) == canon(data)
        assert view.kind is state.kind
        if game.info.perfect_information:
            assert canon(data) == canon(state.to_json())
        assert same(view.view(seat), view)  # a view hides nothing more the second time
        if seat is None:
            continue
        assert same(view.view(None), state.view(None))  # a seat sees all a spectator sees
        vector = observe(game, state, seat)
        assert vector.shape == shape
        outside = [
            (f.name, part.tolist())
            for f in observation_fields(game)
            if not ((part := vector[f.offset : f.stop]) >= f.low).all()
            or not (part <= f.high).all()
        ]
        assert not outside, outside
        if seat not in acting:
            continue
        legal = list(state.legal_actions(seat))
        assert list(view.legal_actions(seat)) == legal
        for action in legal:
            assert view.action_to_string(seat, action) == state.action_to_string(seat, action)
        if not game.info.perfect_information:
            sampled = game.determinize(view, seat, random.Random(len(legal)))
            assert same(sampled.view(seat), view)


def check_node(state: State, node: int) -> None:
    """The protocol's invariants at ``state``, the ``node``-th of its game (search can key a
    table by it), and its views."""
    _check_state(state)
    if state.kind is not NodeKind.TERMINAL:
        assert state.acting_seats()
    hash(state.transposition_key())
    check_illegal(state)
    check_views(state, watched(state, node))


def check_illegal(state: State) -> None:
    """An action id that is not legal here (the lowest one) is refused with an
    IllegalActionError that explains itself, for each acting seat."""
    if state.kind in (NodeKind.TERMINAL, NodeKind.CHANCE):
        return
    joint = {seat: state.legal_actions(seat)[0] for seat in state.acting_seats()}
    for seat in state.acting_seats():
        legal = set(state.legal_actions(seat))
        wrong = next(a for a in range(len(legal) + 1) if a not in legal)
        with pytest.raises(IllegalActionError) as refused:
            state.apply({**joint, seat: wrong})
        assert str(refused.value)


class Trail:
    """An observer of a match: checks each node (if asked) and keeps the states and joints."""

    def __init__(self, check: bool) -> None:
        self.check = check
        self.states: list[State] = []
        self.joints: list[dict[int, int]] = []

    def __call__(self, before: State, joint: dict[int, int], after: State) -> None:
        if self.check:
            check_node(before, len(self.states))
        self.states.append(before)
        self.joints.append(dict(joint))


class Stopper(Agent):
    """Plays as ``inner`` until the match reaches node ``stop`` (counted by ``trail``), then
    quits (as a player who types quit)."""

    def __init__(self, inner: Agent, trail: Trail, stop: int) -> None:
        self.inner, self.trail, self.stop = inner, trail, stop

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """The inner agent's choice, or QuitGame at the stopping node."""
        if len(self.trail.states) >= self.stop:
            raise QuitGame()
        return self.inner.act(state, seat, rng)


class Offerer(Agent):
    """Plays as ``inner``, but the first seat asked at node ``stop`` offers a draw (once in
    the game: ``offered`` is shared by the seats); accepts any offer."""

    def __init__(self, inner: Agent, trail: Trail, stop: int, offered: list[bool]) -> None:
        self.inner, self.trail, self.stop, self.offered = inner, trail, stop, offered

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """The inner agent's choice, or the draw offer."""
        if len(self.trail.states) >= self.stop and not self.offered:
            self.offered.append(True)
            raise DrawOffer(seat)
        return self.inner.act(state, seat, rng)

    def accept_draw(self, state: State, seat: int) -> bool:
        """Yes, always."""
        return True


class TakesBack(Agent):
    """Plays at random, but the first seat asked at node ``stop`` takes back its last turn
    (once in the game: ``done`` is shared by the seats)."""

    def __init__(self, trail: Trail, stop: int, done: list[bool]) -> None:
        self.inner, self.trail, self.stop, self.done = RandomAgent(), trail, stop, done

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """A random legal action, or the take-back."""
        if len(self.trail.states) >= self.stop and not self.done:
            self.done.append(True)
            raise Undo(seat)
        return self.inner.act(state, seat, rng)


class Script(Agent):
    """Plays the actions of an earlier game, node by node (counted by ``trail``)."""

    def __init__(self, joints: Sequence[dict[int, int]], trail: Trail, first: int) -> None:
        self.joints, self.trail, self.first = joints, trail, first

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """The action ``seat`` took at this node of the earlier game."""
        return self.joints[self.first + len(self.trail.states)][seat]


def play(
    game: Game,
    seed: int,
    trail: Trail,
    on_record: Callable[[GameRecord], None] | None = None,
    stop: int = MAX_NODES,
) -> MatchResult | None:
    """A random game through the match loop; None when it was stopped at node ``stop``."""
    agents = [Stopper(RandomAgent(), trail, stop) for _ in game.info.seats]
    try:
        return play_match(game, agents, seed=seed, observer=trail, on_record=on_record)
    except QuitGame:
        return None


def keep_last(saved: list[str]) -> Callable[[GameRecord], None]:
    """An ``on_record`` that keeps the text of the last record handed over (what
    ``play --record`` would have saved at that moment, but for the indentation) in
    ``saved``."""

    def keep(record: GameRecord) -> None:
        saved[:] = [json.dumps(record.to_json())]

    return keep


# -- the properties ----------------------------------------------------------------------------


def random_game_keeps_the_protocol_and_replays(game: Game, seed: int) -> None:
    """Every node keeps the protocol; the saved record replays to the same end."""
    trail = Trail(check=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        # The record as the match loop hands it over (``play --record`` saves each one;
        # saving only the last one writes the same text).
        saved: list[GameRecord] = []
        match = play(game, seed, trail, on_record=saved.append)
        final = trail.states[-1].apply(trail.joints[-1]) if match is None else match.state
        if match is None:
            note("stopped at the node limit")
        check_node(final, len(trail.states))
        assert saved and all(r is saved[0] for r in saved)
        saved[-1].save(path)
        loaded = GameRecord.load(path)
        lines = Path(tmp) / "games.jsonl"
        lines.write_text(2 * (json.dumps(loaded.to_json()) + "\n"))
        from_lines = [GameRecord.from_json(data) for data in read_records(lines)]
    if match is not None:
        assert canon(loaded.to_json()) == canon(match.record.to_json())
        outcome = final.outcome
        assert outcome is not None
        expected = {
            "winners": [final.seat_name(s) for s in outcome.winners],
            "reason": outcome.reason.name,
        }
        assert loaded.result == expected
        assert game.termination(outcome.reason.name) == outcome.reason  # a declared ending
        bound = game.info.max_game_length
        assert bound is None or len(trail.states) <= bound, (len(trail.states), bound)
    for record in (loaded, *from_lines):
        positions = list(record.positions())
        assert len(positions) == len(record.moves or []) + 1
        for (_, replayed), played in zip(positions, trail.states, strict=False):
            assert same(replayed, played)
        end = positions[-1][1]
        if match is not None:
            assert same(end, final)
            assert end.outcome == final.outcome
            assert end.returns() == final.returns()


def stopped_game_resumes_identically(game: Game, seed: int, where: int) -> None:
    """A game stopped at a decision and resumed from its saved record (as ``play --resume``)
    reaches the same record as the game played without a stop, move for move."""
    whole = Trail(check=False)
    full = play(game, seed, whole)
    decisions = [i for i, s in enumerate(whole.states) if s.kind is not NodeKind.CHANCE]
    if full is None or len(decisions) < 2:
        note("no decision to stop after")
        return
    stop = decisions[1:][where % (len(decisions) - 1)]
    part = Trail(check=False)
    saved: list[str] = []
    play(game, seed, part, on_record=keep_last(saved), stop=stop)
    assert len(part.states) == stop
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        write_text(path, saved[-1])
        loaded = GameRecord.load(path)
    assert loaded.result is None and loaded.moves is not None
    played = len(loaded.moves)
    assert 0 < played <= stop
    assert full.record.moves is not None and loaded.moves == full.record.moves[:played]
    again = taut.plugin(loaded.game).game_class(**loaded.options)
    state, fresh = resume_record(again, loaded)
    assert same(state, whole.states[played])
    rest = Trail(check=False)
    script = [Script(whole.joints, rest, played) for _ in game.info.seats]
    finished = play_match(again, script, seed=seed, state=state, record=fresh, observer=rest)
    assert same(finished.state, full.state)
    assert canon(finished.record.to_json()) == canon(full.record.to_json())


def agreed_draw_replays(game: Game, seed: int, where: int) -> None:
    """A draw agreed at a decision (where the game has them) is recorded as such and the
    record replays to the same drawn position; elsewhere the offer is not put and the game
    goes on as if nobody had offered."""
    whole = Trail(check=False)
    full = play(game, seed, whole)
    decisions = [i for i, s in enumerate(whole.states) if s.kind is not NodeKind.CHANCE]
    if full is None:
        return
    stop = decisions[where % len(decisions)]
    trail = Trail(check=False)
    offered: list[bool] = []
    agents = [Offerer(RandomAgent(), trail, stop, offered) for _ in game.info.seats]
    saved: list[GameRecord] = []  # the match is played out: its last record is the final one
    match = play_match(game, agents, seed=seed, observer=trail, on_record=saved.append)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        saved[-1].save(path)
        loaded = GameRecord.load(path)
    assert canon(loaded.to_json()) == canon(match.record.to_json())
    end = loaded.replay()
    assert same(end, match.state) and end.outcome == match.state.outcome
    try:
        whole.states[stop].end_by_agreement()
    except IllegalActionError:
        note("no draw by agreement")
        assert canon(match.record.to_json()) == canon(full.record.to_json())
        return
    assert len(trail.states) == stop
    assert match.state.outcome is not None and match.state.outcome.reason == AGREEMENT
    assert loaded.result == {"winners": [], "reason": AGREEMENT.name}
    resumed, _ = resume_record(game, loaded)
    assert same(resumed, match.state)


def take_back_keeps_the_record_true(game: Game, seed: int, where: int) -> None:
    """After a take-back at a random decision, the game played on is recorded exactly: the
    record (saved as play saves it) replays to the match's final state."""
    whole = Trail(check=False)
    if play(game, seed, whole) is None:
        return
    decisions = [i for i, s in enumerate(whole.states) if s.kind is not NodeKind.CHANCE]
    trail = Trail(check=False)
    done: list[bool] = []
    agents = [TakesBack(trail, decisions[where % len(decisions)], done) for _ in game.info.seats]
    saved: list[GameRecord] = []
    match = play_match(game, agents, seed=seed, observer=trail, on_record=saved.append)
    assert done
    record = GameRecord.from_json(json.loads(json.dumps(saved[-1].to_json())))
    assert canon(record.to_json()) == canon(match.record.to_json())
    end = record.replay()
    assert same(end, match.state) and end.outcome == match.state.outcome


def own_fields_alone_replay(game: Game, seed: int, where: int) -> None:
    """A game with fields of its own in its records (a plugin's record part) replays from
    those fields alone, as older records hold them: a finished game (with the format field
    or without) to the same end; a stopped one to a position of the game, at most as far
    as its moves went (the fields may hold only whole parts of the game, such as rounds)."""
    if taut.plugin(game.name).record_part(game) is None:
        return
    whole = Trail(check=False)
    full = play(game, seed, whole)
    if full is None:
        return
    data = json.loads(json.dumps(full.record.to_json()))
    del data["moves"]
    for older in (data, {k: v for k, v in data.items() if k != "format"}):
        end = GameRecord.from_json(older).replay()
        assert same(end, full.state) and end.outcome == full.state.outcome
    part = Trail(check=False)
    saved: list[str] = []
    play(game, seed, part, on_record=keep_last(saved), stop=1 + where % len(whole.states))
    if not saved:
        return
    stopped = json.loads(saved[-1])
    moves = stopped.pop("moves")
    positions = list(GameRecord.from_json(stopped).positions())
    reached = len(positions) - 1
    assert reached <= len(moves)
    # The trail holds the position before each move; a stop at the last move reaches the end.
    reference = [*whole.states, full.state]
    assert same(positions[-1][1], reference[reached])


def fast_paths_follow_the_rules(game: Game, seed: int, where: int, limit: int) -> None:
    """A game's own playout and rollout loops (compact fast paths) give exactly the game
    that the protocol's loop gives with the same generator, from the start and from a
    position along a random game."""
    assert game.random_playout(random.Random(seed)) == Game.random_playout(
        game, random.Random(seed)
    )
    trail = Trail(check=False)
    play(game, seed, trail)
    state = trail.states[where % len(trail.states)]
    fast = game.rollout(state, random.Random(seed), limit)
    assert same(fast, Game.rollout(game, state, random.Random(seed), limit))


def states_rebuild_from_json(game: Game, seed: int) -> None:
    """Every state of a random game rebuilds from its JSON into a state with the same
    future: the same node, the same choices, the same successor."""
    trail = Trail(check=False)
    match = play(game, seed, trail)
    ends = [*trail.states[1:], match.state] if match is not None else trail.states[1:]
    for state, joint, after in zip(trail.states, trail.joints, ends, strict=False):
        rebuilt = game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert same(rebuilt, state)
        assert rebuilt.kind is state.kind
        assert rebuilt.acting_seats() == state.acting_seats()
        for seat in state.acting_seats():
            if seat >= 0:
                assert list(rebuilt.legal_actions(seat)) == list(state.legal_actions(seat))
        assert same(rebuilt.apply(joint), after)
        assert same(rebuilt, state)  # applying left the state as it was
    if match is not None:
        rebuilt = game.state_from_json(json.loads(json.dumps(match.state.to_json())))
        assert rebuilt.outcome == match.state.outcome
        assert rebuilt.returns() == match.state.returns()


# -- the tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_the_protocol_and_replay(name: str, budget: settings) -> None:
    @budget
    @given(game=games(name), seed=SEEDS)
    def check(game: Game, seed: int) -> None:
        random_game_keeps_the_protocol_and_replays(game, seed)

    check()


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", GAMES)
def test_stopped_games_resume_identically(name: str, budget: settings) -> None:
    @budget
    @given(game=games(name), seed=SEEDS, where=st.integers(0, 10**6))
    def check(game: Game, seed: int, where: int) -> None:
        stopped_game_resumes_identically(game, seed, where)

    check()


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", GAMES)
def test_agreed_draws_replay(name: str, budget: settings) -> None:
    @budget
    @given(game=games(name), seed=SEEDS, where=st.integers(0, 10**6))
    def check(game: Game, seed: int, where: int) -> None:
        agreed_draw_replays(game, seed, where)

    check()


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", GAMES)
def test_states_rebuild_from_json(name: str, budget: settings) -> None:
    @budget
    @given(game=games(name), seed=SEEDS)
    def check(game: Game, seed: int) -> None:
        states_rebuild_from_json(game, seed)

    check()


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", GAMES)
def test_take_backs_keep_the_record_true(name: str, budget: settings) -> None:
    @budget
    @given(game=games(name), seed=SEEDS, where=st.integers(0, 10**6))
    def check(game: Game, seed: int, where: int) -> None:
        take_back_keeps_the_record_true(game, seed, where)

    check()


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", GAMES)
def test_own_record_fields_alone_replay(name: str, budget: settings) -> None:
    @budget
    @given(game=games(name), seed=SEEDS, where=st.integers(0, 10**6))
    def check(game: Game, seed: int, where: int) -> None:
        own_fields_alone_replay(game, seed, where)

    check()


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", GAMES)
def test_fast_paths_follow_the_rules(name: str, budget: settings) -> None:
    @budget
    @given(game=games(name), seed=SEEDS, where=st.integers(0, 10**6), limit=st.integers(0, 400))
    def check(game: Game, seed: int, where: int, limit: int) -> None:
        fast_paths_follow_the_rules(game, seed, where, limit)

    check()


def extremes(cls: type[Game]) -> list[dict[str, object]]:
    """One option set per end of each bounded number option, the other options at their
    defaults: corners that a random draw may miss."""
    out: list[dict[str, object]] = []
    for spec in cls.OPTIONS:
        for value in (spec.minimum, spec.maximum):
            if value is None or value == spec.default:
                continue
            given = {spec.name: spec.kind(value)}
            try:
                cls(**given)
            except TautError:
                continue
            out.append(given)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_extreme_options_keep_the_protocol_and_replay(name: str) -> None:
    """Every declared bound, one at a time, keeps the protocol, replays and resumes."""
    cls = taut.plugin(name).game_class
    for options in extremes(cls):
        game = cls(**options)
        random_game_keeps_the_protocol_and_replays(game, 0)
        stopped_game_resumes_identically(game, 0, 0)


@pytest.mark.parametrize("name", GAMES)
def test_drawn_options_are_valid_and_varied(name: str) -> None:
    """Almost no draw is thrown away, and every option takes other values than its default."""
    cls = taut.plugin(name).game_class
    stats = OptionStats()
    seen: dict[str, set[str]] = {spec.name: set() for spec in cls.OPTIONS}

    @settings(max_examples=200, deadline=None, derandomize=True, database=None)
    @given(data=st.data())
    def draw(data: st.DataObject) -> None:
        options = data.draw(options_for(cls, stats))
        game = cls(**options)  # never refused
        again = cls(**json.loads(json.dumps(game.options)))  # as a record rebuilds it
        assert again.options == game.options
        for key, value in options.items():
            seen[key].add(repr(value))

    draw()
    assert stats.rate(cls.name, "rejected") <= 0.02, stats.counts
    for spec in cls.OPTIONS:
        if spec.kind is bool or spec.choices or spec.nullable or spec.kind in (int, float):
            assert len(seen[spec.name]) > 1, (spec.name, seen[spec.name])
        elif is_free_text(spec):
            assert seen[spec.name], spec.name


def test_a_record_saved_at_the_last_move_replays_to_the_end() -> None:
    # Found by the property above: a stop at the game's last move reaches its final
    # position, which the trail of positions before each move does not hold.
    game = taut.plugin("tug-of-war").game_class(players=7, set=9, hand=6, target=1)
    own_fields_alone_replay(game, 375, 1000)
