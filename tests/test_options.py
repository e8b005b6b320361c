"""Options are read strictly: typed text from the command line, exact types from JSON and Python."""

from __future__ import annotations

import pytest

import taut
from taut.core.errors import InvalidOptionError
from taut.core.options import OptionSpec, OptionText, parse_option_pairs

PLAYERS = OptionSpec("players", int, 3, "number of players", minimum=2, maximum=8)
SWITCH = OptionSpec("shifts", bool, False, "shifts")
LETTERS = OptionSpec("letters", str, None, "letters", nullable=True)


@pytest.mark.parametrize("typed, value", [("3", 3), (" 4 ", 4), ("+5", 5)])
def test_typed_integers(typed: str, value: int) -> None:
    assert PLAYERS.coerce(OptionText(typed)) == value


@pytest.mark.parametrize("typed", ["2.7", "¹", "٣", "3x", "", "9" * 5000, "0x3", "1e1"])
def test_typed_non_integers_are_refused(typed: str) -> None:
    with pytest.raises(InvalidOptionError, match="players"):
        PLAYERS.coerce(OptionText(typed))


@pytest.mark.parametrize("value", ["2", 2.7, 3.0, True, [3], {"n": 3}])
def test_json_values_must_have_the_options_type(value: object) -> None:
    with pytest.raises(InvalidOptionError, match=r"allowed: integer 2\.\.8"):
        PLAYERS.coerce(value)


def test_a_long_value_is_not_repeated_whole() -> None:
    with pytest.raises(InvalidOptionError) as caught:
        PLAYERS.coerce(OptionText("9" * 5000))
    assert len(str(caught.value)) < 200


def test_switches_and_none() -> None:
    assert SWITCH.coerce(OptionText("on")) is True and SWITCH.coerce(False) is False
    with pytest.raises(InvalidOptionError):
        SWITCH.coerce("on")  # text from JSON is not a switch
    with pytest.raises(InvalidOptionError):
        SWITCH.coerce(1)
    assert LETTERS.coerce(OptionText("none")) is None and LETTERS.coerce(None) is None
    assert LETTERS.coerce("none") == "none"  # in JSON, "none" is just text
    with pytest.raises(InvalidOptionError, match="cannot be none"):
        PLAYERS.coerce(None)


def test_pairs_are_typed_text() -> None:
    pairs = parse_option_pairs(["players = 4", "set=9"])
    assert all(isinstance(v, OptionText) for v in pairs.values())
    assert taut.make("tug-of-war", **pairs).options["players"] == 4
    with pytest.raises(InvalidOptionError, match="key=value"):
        parse_option_pairs(["=3"])


def test_a_record_with_text_where_a_number_belongs_is_refused() -> None:
    from taut.core.errors import RecordError
    from taut.core.record import GameRecord

    data = {"format": 1, "game": "tug-of-war", "options": {"players": "3"}, "moves": []}
    with pytest.raises(RecordError, match="text, not a number"):
        GameRecord.from_json(data).replay()


def test_json_with_a_key_twice_is_refused() -> None:
    from taut.core.errors import RecordError
    from taut.core.record_files import parse_json

    with pytest.raises(RecordError, match="appears twice"):
        parse_json('{"allocation": {"1": 3, "1": 4}}', "record")
