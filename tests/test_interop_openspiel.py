"""The OpenSpiel adapter: registration (of every plugin, and of a game added later), game
types, parameters, OpenSpiel's own random simulation checks, notation, chance, observations
from views only, and OpenSpiel's value iteration on the Push-Pull duel against the exact
solver."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import taut  # noqa: E402
import taut.interop.openspiel as osp  # noqa: E402
from taut.core.registry import register_plugin, unregister_plugin  # noqa: E402
from taut.core.terms import NodeKind  # noqa: E402
from taut.interop import encoding  # noqa: E402
from tests.test_interop_encoding import SitOut, SitOutPlugin  # noqa: E402

Dyn = pyspiel.GameType.Dynamics
Chance = pyspiel.GameType.ChanceMode
Info = pyspiel.GameType.Information
Util = pyspiel.GameType.Utility


def play_random(game: Any, rng: random.Random, limit: int = 400) -> list[Any]:
    """States along one random game (chance by its odds), at most ``limit`` of them."""
    state = game.new_initial_state()
    states = [state]
    while not state.is_terminal() and len(states) < limit:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state = state.child(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            state = state.clone()
            state.apply_actions(
                [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
            )
        else:
            state = state.child(rng.choice(state.legal_actions()))
        states.append(state)
    return states


# -- registration, types and parameters ---------------------------------------------------------


BUILT_IN = ("pulling-strings", "push-pull", "tug-of-war", "tracks")


def test_every_game_is_registered() -> None:
    names = {t.short_name for t in pyspiel.registered_games()}
    assert set(BUILT_IN) <= set(taut.games())
    assert osp.openspiel_name("tug-of-war") == "taut_tug_of_war"
    for name in taut.games():
        short = osp.openspiel_name(name)
        assert short in names
        game = pyspiel.load_game(short)
        assert isinstance(game, osp.TautGame)
        assert type(game) is osp.game_classes()[name]
        assert game.taut_game.info.name == name
        # Default parameters give the taut game's default options.
        assert game.taut_game.options == taut.make(name).options
        assert osp.register(name) is type(game), "registering again changes nothing"


SIM, SEQ = Dyn.SIMULTANEOUS, Dyn.SEQUENTIAL
DET, EXP = Chance.DETERMINISTIC, Chance.EXPLICIT_STOCHASTIC
PERFECT, IMPERFECT = Info.PERFECT_INFORMATION, Info.IMPERFECT_INFORMATION
ZERO, GENERAL = Util.ZERO_SUM, Util.GENERAL_SUM


@pytest.mark.parametrize(
    ("short", "params", "dynamics", "chance", "information", "utility", "players"),
    [
        ("taut_pulling_strings", {}, SIM, DET, PERFECT, ZERO, 2),
        ("taut_push_pull", {}, SIM, DET, PERFECT, ZERO, 2),
        ("taut_push_pull", {"variant": "four"}, SIM, DET, PERFECT, GENERAL, 4),
        ("taut_push_pull", {"variant": "four-teams"}, SIM, DET, PERFECT, ZERO, 4),
        ("taut_push_pull", {"variant": "two-teams"}, SIM, DET, PERFECT, ZERO, 2),
        ("taut_tug_of_war", {}, SEQ, EXP, IMPERFECT, ZERO, 3),
        ("taut_tug_of_war", {"players": 2}, SEQ, EXP, IMPERFECT, ZERO, 2),
        ("taut_tug_of_war", {"players": 4}, SEQ, EXP, IMPERFECT, ZERO, 4),
        ("taut_tracks", {}, SEQ, EXP, PERFECT, ZERO, 2),
        ("taut_tracks", {"roll": "each", "first": "random"}, SEQ, EXP, PERFECT, ZERO, 2),
    ],
)
def test_game_types(
    short: str,
    params: dict[str, Any],
    dynamics: Any,
    chance: Any,
    information: Any,
    utility: Any,
    players: int,
) -> None:
    game = pyspiel.load_game(short, params)
    gt = game.get_type()
    assert (gt.dynamics, gt.chance_mode, gt.information, gt.utility) == (
        dynamics,
        chance,
        information,
        utility,
    )
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == players
    assert gt.min_num_players <= players <= gt.max_num_players
    assert gt.provides_observation_string and gt.provides_observation_tensor
    assert gt.provides_information_state_string == (information == Info.PERFECT_INFORMATION)
    info = game.taut_game.info
    assert game.num_distinct_actions() == info.num_distinct_actions
    assert game.max_chance_outcomes() == info.num_chance_outcomes
    assert (game.min_utility(), game.max_utility()) == (info.min_utility, info.max_utility)
    assert game.utility_sum() == (0.0 if utility == Util.ZERO_SUM else None)


def test_registered_player_ranges() -> None:
    types = {t.short_name: t for t in pyspiel.registered_games()}
    ranges = {
        short: (types[short].min_num_players, types[short].max_num_players)
        for short in map(osp.openspiel_name, BUILT_IN)
    }
    assert ranges == {
        "taut_pulling_strings": (2, 2),
        "taut_push_pull": (2, 4),
        "taut_tug_of_war": (2, 8),
        "taut_tracks": (2, 2),
    }


def test_a_learning_game_plays_through_pyspiel() -> None:
    game = pyspiel.load_game(
        "taut_pulling_strings",
        {"edition": "published", "learning": "slip", "tiles": "roman", "max_turns": 20},
    )
    assert game.num_distinct_actions() == 520
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
    assert state.returns()[0] == -state.returns()[1]


def test_parameter_mapping() -> None:
    specs = {
        name: {p.name: (p.option.name, p.default) for p in osp.parameters(name)}
        for name in BUILT_IN
    }
    assert specs["pulling-strings"] == {
        "edition": ("edition", "classic"),
        "break": ("break", "end"),
        "corner": ("corner", "split"),
        "repeat": ("repeat", 0),
        "max_turns": ("max_turns", 0),
        "seed": ("seed", -1),
        "letters": ("letters", ""),
        "tiles": ("tiles", "asl"),
        "learning": ("learning", "off"),
        "mistakes": ("mistakes", 0.0),
    }
    assert specs["push-pull"] == {
        "variant": ("variant", "duel"),
        "shifts": ("shifts", False),
        "teams": ("teams", ""),
        "max_turns": ("max_turns", 0),
    }
    assert specs["tug-of-war"] == {
        "players": ("players", 3),
        "set": ("set", 0),
        "hand": ("hand", 0),
        "end": ("end", "target"),
        "target": ("target", 50),
        "out": ("out", "continue"),
        "rounds": ("rounds", 10),
        "tiebreak": ("tiebreak", "tied"),
        "round_score": ("round-score", "gain"),
    }
    assert specs["tracks"] == {
        "size": ("size", 6),
        "first": ("first", "NS"),
        "roll": ("roll", "once"),
    }

    game = pyspiel.load_game("taut_tug_of_war(players=4,end=round-points,round_score=total,set=6)")
    opts = game.taut_game.options
    assert (opts["players"], opts["end"], opts["round-score"], opts["set"]) == (
        4,
        "round-points",
        "total",
        6,
    )
    game = pyspiel.load_game(
        "taut_push_pull", {"variant": "two-teams", "teams": "NW-SE", "max_turns": 30}
    )
    assert game.taut_game.options == {
        "variant": "two-teams",
        "shifts": False,
        "teams": "NW-SE",
        "max_turns": 30,
    }
    game = pyspiel.load_game("taut_pulling_strings(edition=published,seed=7)")
    assert game.taut_game.options["seed"] == 7
    assert (
        game.taut_game.letters == taut.make("pulling-strings", edition="published", seed=7).letters
    )
    assert osp.taut_options("push-pull", {"teams": ""})["teams"] is None
    with pytest.raises(ValueError, match="no parameter 'colour'"):
        osp.taut_options("push-pull", {"colour": "red"})
    with pytest.raises(Exception, match="variant"):
        pyspiel.load_game("taut_push_pull(variant=five)")
    with pytest.raises(Exception, match="colour"):
        pyspiel.load_game("taut_push_pull(colour=red)")


def test_max_game_length() -> None:
    assert pyspiel.load_game("taut_tracks(size=5)").max_game_length() == 25
    assert pyspiel.load_game("taut_tracks(size=5,roll=each,first=random)").max_game_length() == 25
    assert pyspiel.load_game("taut_push_pull(max_turns=30)").max_game_length() == 30
    assert pyspiel.load_game("taut_pulling_strings(max_turns=200)").max_game_length() == 200
    assert pyspiel.load_game("taut_push_pull").max_game_length() == osp.NOMINAL_TURNS
    assert pyspiel.load_game("taut_pulling_strings").max_game_length() == osp.NOMINAL_TURNS
    two = pyspiel.load_game("taut_tug_of_war(players=2)").max_game_length()
    eight = pyspiel.load_game("taut_tug_of_war(players=8)").max_game_length()
    assert 0 < two < eight


# -- OpenSpiel's own checks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("short", "params", "sims"),
    [
        ("taut_pulling_strings", {}, 5),
        (
            "taut_pulling_strings",
            {"edition": "published", "seed": 3, "break": "string", "max_turns": 40},
            3,
        ),
        ("taut_push_pull", {}, 10),
        ("taut_push_pull", {"variant": "four"}, 5),
        ("taut_push_pull", {"variant": "two-teams"}, 5),
        ("taut_push_pull", {"variant": "four-teams", "shifts": True, "teams": "NW-SE"}, 3),
        ("taut_push_pull", {"max_turns": 5}, 5),
        ("taut_tug_of_war", {"players": 2}, 2),
        ("taut_tug_of_war", {"players": 3}, 2),
        ("taut_tug_of_war", {"players": 4}, 2),
        ("taut_tug_of_war", {"players": 3, "end": "rounds", "rounds": 2}, 2),
        ("taut_tracks", {}, 5),
        ("taut_tracks", {"roll": "each", "first": "random", "size": 5}, 5),
    ],
)
def test_random_sim(short: str, params: dict[str, Any], sims: int) -> None:
    game = pyspiel.load_game(short, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_serialize_round_trip() -> None:
    for short in ("taut_push_pull", "taut_tracks(roll=each)"):
        game = pyspiel.load_game(short)
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    states = play_random(pyspiel.load_game("taut_tug_of_war(players=2)"), random.Random(5), 60)
    state = states[-1]
    again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(state.get_game(), state)
    )[1]
    assert str(again) == str(state)
    assert again.taut_state.to_json() == state.taut_state.to_json()


# -- notation and chance ------------------------------------------------------------------------


def test_action_strings_are_the_cli_notation() -> None:
    game = pyspiel.load_game("taut_pulling_strings")
    state = game.new_initial_state()
    c = state.taut_state.string_to_action(0, "c")
    assert state.action_to_string(0, c) == "c"
    assert state.action_to_string(1, state.taut_state.string_to_action(1, "h")) == "h"

    game = pyspiel.load_game("taut_push_pull")
    state = game.new_initial_state()
    move = state.taut_state.string_to_action(0, "L=pull,M=push,S=pass")
    assert move in state.legal_actions(0)
    assert state.action_to_string(0, move) == "L=pull,M=push,S=pass"

    game = pyspiel.load_game("taut_tracks(roll=each)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [
        state.action_to_string(pyspiel.PlayerId.CHANCE, o) for o, _ in state.chance_outcomes()
    ] == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
    ]


def test_state_strings_are_position_keys() -> None:
    game = pyspiel.load_game("taut_push_pull")
    state = game.new_initial_state('{"pieces": {"L": "W", "M": 4, "S": 4}}')
    assert str(state) == str(state.clone()) == "W,4,4"
    # Two lines to the same position give the same string.
    one, two = game.new_initial_state(), game.new_initial_state()
    pull, push, pas = (one.taut_state.string_to_action(0, t) for t in ("pull", "push", "pass"))
    one.apply_actions([pull, pas])  # every piece one step west
    two.apply_actions([push, pas])  # every piece one step east
    two.apply_actions([pull, pas])
    two.apply_actions([pull, pas])
    assert str(one) == str(two) == "1,1,1"
    board = pyspiel.load_game("taut_push_pull(variant=four,max_turns=9)").new_initial_state()
    assert str(board) == "2:2,2:2,2:2 turn 0"


@pytest.mark.parametrize(
    ("short", "seed"),
    [
        ("taut_pulling_strings", 1),
        ("taut_push_pull", 2),
        ("taut_push_pull(variant=two-teams,shifts=True)", 3),
        ("taut_tug_of_war(players=3)", 4),
        ("taut_tracks(first=random,roll=each)", 5),
    ],
)
def test_actions_and_chance_match_taut(short: str, seed: int) -> None:
    """Along random games: legal actions, notation, chance odds and returns are taut's."""
    game = pyspiel.load_game(short)
    for state in play_random(game, random.Random(seed), 150):
        ts = state.taut_state
        if state.is_terminal():
            assert state.returns() == list(ts.returns())
            assert state.current_player() == pyspiel.PlayerId.TERMINAL
        elif state.is_chance_node():
            assert ts.kind is NodeKind.CHANCE
            assert state.chance_outcomes() == sorted(ts.chance_outcomes())
            for outcome, _ in state.chance_outcomes():
                assert state.action_to_string(
                    pyspiel.PlayerId.CHANCE, outcome
                ) == ts.action_to_string(-1, outcome)
        else:
            seats = (
                range(game.num_players())
                if state.is_simultaneous_node()
                else [state.current_player()]
            )
            assert set(seats) == set(ts.acting_seats())
            for p in seats:
                assert state.legal_actions(p) == list(ts.legal_actions(p))
                for a in state.legal_actions(p):
                    assert state.action_to_string(p, a) == ts.action_to_string(p, a)
        assert str(state) == osp.state_key(ts)


# -- observations -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("short", "seed"),
    [
        ("taut_pulling_strings", 1),
        ("taut_push_pull(variant=four)", 2),
        ("taut_tug_of_war(players=3)", 3),
        ("taut_tracks(roll=each)", 4),
    ],
)
def test_observations_are_the_encoding(short: str, seed: int) -> None:
    game = pyspiel.load_game(short)
    tg = game.taut_game
    assert game.observation_tensor_shape() == list(encoding.observation_shape(tg))
    observer = game.make_py_observer()
    names = [f.name for f in encoding.observation_fields(tg)]
    assert list(observer.dict) == names
    for state in play_random(game, random.Random(seed), 80)[::7]:
        for p in range(game.num_players()):
            expected = encoding.observe(tg, state.taut_state, p)
            np.testing.assert_array_equal(
                np.asarray(state.observation_tensor(p), np.float32), expected
            )
            observer.set_from(state, p)
            np.testing.assert_array_equal(
                np.concatenate([observer.dict[n] for n in names]), expected
            )
            assert state.observation_string(p) == encoding.observation_string(
                tg, state.taut_state, p
            )


def test_observations_hide_what_the_seat_cannot_see() -> None:
    """A full state redrawn among those a seat cannot tell apart observes the same."""
    game = pyspiel.load_game("taut_tug_of_war(players=3)")
    tg = game.taut_game
    rng = random.Random(11)
    differing = 0
    for state in play_random(game, random.Random(7), 200)[5::9]:
        for p in range(game.num_players()):
            other = osp.TautState(game, tg.determinize(state.taut_state.view(p), p, rng))
            differing += str(other) != str(state)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
    assert differing > 10  # the hidden hands really were redrawn


def test_other_observation_types() -> None:
    iig = pyspiel.IIGObservationType
    tug = pyspiel.load_game("taut_tug_of_war(players=2)")
    state = play_random(tug, random.Random(2), 30)[-1]
    public = tug.make_py_observer(
        iig(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    assert public.tensor is None
    assert public.string_from(state, 0) == str(state.taut_state.view(None))
    with pytest.raises(ValueError, match="perfect-recall"):
        tug.make_py_observer(iig(perfect_recall=True))
    with pytest.raises(ValueError, match="observation parameters"):
        tug.make_py_observer(None, {"x": 1})

    duel = pyspiel.load_game("taut_push_pull")
    state = play_random(duel, random.Random(3), 4)[-1]
    assert state.information_state_string(0) == state.history_str()
    public = duel.make_py_observer(
        iig(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    assert public.tensor is not None  # perfect information: everything is public


# -- a game registered later; seats that sit out a simultaneous node -------------------------


@pytest.fixture
def sit_out() -> Iterator[Any]:
    """The toy game of the encoding tests, registered with taut and then with pyspiel."""
    found = register_plugin(SitOutPlugin())
    try:
        cls = osp.register("sit-out")
        assert cls.taut_name == "sit-out" and cls.short_name == "taut_sit_out"
        yield pyspiel.load_game("taut_sit_out")
    finally:
        unregister_plugin(found.name)


def test_a_game_registered_later(sit_out: Any) -> None:
    game = sit_out
    assert isinstance(game, osp.TautGame) and isinstance(game.taut_game, SitOut)
    types = {t.short_name: t for t in pyspiel.registered_games()}
    gt = types["taut_sit_out"]
    assert (gt.min_num_players, gt.max_num_players) == (2, 2)
    assert gt.long_name == "taut Sit out"
    assert game.max_game_length() == 2  # the game's own bound, through its plugin
    state = game.new_initial_state()
    assert str(state) == "start"  # the plugin's state key
    state.apply_actions([1, 0])
    assert str(state) == "ba" == osp.state_key(state.taut_state)
    assert state.observation_tensor(1) == [0, 1, 1, 0, 0, 1, 0, -1]  # the plugin's observer
    assert state.observation_string(0) == "moves: ba"
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    with pytest.raises(Exception, match="unknown game 'no-such-game'"):
        osp.register("no-such-game")


def test_a_seat_that_does_not_act_gets_one_no_move(sit_out: Any) -> None:
    pytest.importorskip("cvxpy")  # for OpenSpiel's value iteration below
    game = sit_out
    state = game.new_initial_state()
    state.apply_actions([1, 1])
    assert state.is_simultaneous_node()
    assert state.legal_actions(0) == [0, 1]
    assert state.legal_actions(1) == [osp.NO_MOVE]
    assert state.action_to_string(1, osp.NO_MOVE) == osp.NO_MOVE_STRING
    assert state.action_to_string(0, 1) == "b"
    with pytest.raises(Exception, match="does not act"):
        state.clone().apply_actions([0, 1])
    other = state.clone()
    other.apply_actions([0, pyspiel.INVALID_ACTION])  # OpenSpiel's "no action" is accepted
    assert other.returns() == [-1.0, 1.0]
    state.apply_actions([1, osp.NO_MOVE])
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    # OpenSpiel's value iteration sees the sitting-out seat as a one-action player: A
    # moves last and fixes the parity, so A wins.
    from open_spiel.python.algorithms import value_iteration

    values = value_iteration.value_iteration(game, -1, 1e-8)
    assert values[str(game.new_initial_state())] == pytest.approx(1.0, abs=1e-6)


# -- value iteration on the duel ----------------------------------------------------------------


@pytest.mark.slow
def test_value_iteration_matches_the_exact_duel_solution() -> None:
    """OpenSpiel's value iteration (one LP per position and sweep, ``cyclic_game=True``)
    agrees with the exact duel solver on every position. This takes minutes."""
    pytest.importorskip("cvxpy")
    from open_spiel.python.algorithms import value_iteration

    from taut.games.push_pull.solve.duel_newton import cached_solution

    game = pyspiel.load_game("taut_push_pull")
    start = time.perf_counter()
    values = value_iteration.value_iteration(game, -1, 1e-8, cyclic_game=True)
    seconds = time.perf_counter() - start
    exact = cached_solution().values
    positions = {key: v for key, v in values.items() if key in exact}
    assert set(positions) == set(exact)  # every position, each once: 305
    worst = max(abs(v - exact[key]) for key, v in positions.items())
    assert worst < 1e-6, worst
    for key, v in values.items():
        if key not in exact:  # a finished game: its result
            squares = key.split(" ")[0].split(",")
            assert v == (1.0 if squares.count("W") >= 2 else -1.0)
    print(f"value iteration: {len(values)} states in {seconds:.0f} s; largest error {worst:.1e}")
