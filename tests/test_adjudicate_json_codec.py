"""The fast JSON reader and writer of `judge adjudicate --batch` give what the standard library gives."""

from __future__ import annotations

import json
import math

import pytest

from judge.adjudicate_json import dumps_line, loads_case

COMPACT = json.JSONEncoder(separators=(",", ":")).encode

VALUES = [
    {"phase": "S1901M", "results": {"FRANCE": [{"order": "A Par - Bur", "result": "success"}]}},
    {"order": "".join(chr(i) for i in range(128))},  # every ASCII character, DEL included
    {"order": "A München – Böhmen", "reason": "found 'Münch'"},  # non-ASCII: escaped
    {"n": 2**63 - 1, "m": -(2**63), "big": 2**70, "none": None, "t": True, "f": False},
    {"error": "units[0].loc: 'xyz' is not a location on standard"},
    [],
    {},
]


@pytest.mark.parametrize("value", VALUES)
def test_dumps_line_writes_the_standard_library_s_bytes(value: object) -> None:
    assert dumps_line(value) == COMPACT(value)


@pytest.mark.parametrize(
    "text",
    [
        '{"phase": "S1901M", "units": [{"power": "FRANCE", "type": "A", "loc": "par"}]}',
        '{"a": 1, "a": 2}',
        '{"s": "\\ud800"}',
        '{"x": "M\\u00fcnchen"}',
        " [1, 2] \n",
    ],
)
def test_loads_case_reads_what_the_standard_library_reads(text: str) -> None:
    assert loads_case(text) == json.loads(text)


def test_a_big_integer_is_quoted_as_written_in_a_batch_error() -> None:
    from judge.cli_adjudicate import batch_output

    line = '{"phase": 123456789012345678901234567890}'
    assert "123456789012345678901234567890" in batch_output(line, None, None)


def test_loads_case_takes_nan_as_the_standard_library_does() -> None:
    assert math.isnan(loads_case('{"x": NaN}')["x"])


@pytest.mark.parametrize("text", ["{", "not json", '{"a": }', "[1,]", ""])
def test_loads_case_fails_with_the_standard_library_s_message(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as ours:
        loads_case(text)
    with pytest.raises(json.JSONDecodeError) as theirs:
        json.loads(text)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize(
    "line",
    [
        '{"phase": 123456789012345678901234567890}',
        '{"x": NaN}',
        '{"s": "\\ud800", "phase": "S1901M"}',
        '{"phase": "S1901M", "variant": "M\\u00fcnchen"}',
        '{"phase": "S1901M", "variant": "Münchén"}',
        "{not json",
        "[1, 2]",
        '{"phase": "S1901M", "units": [{"power": "FRANCE", "type": "A", "loc": "par"}], '
        '"orders": {"FRANCE": ["A Par - Bur", "A Pàr H", "A Par\\u007f- Pic"]}}',
    ],
)
def test_a_batch_line_as_bytes_gives_what_its_text_gives(line: str) -> None:
    """`judge adjudicate --batch` reads and writes bytes: every line's output is the text path's."""
    from judge.cli_adjudicate import batch_output, batch_output_bytes

    text_out = batch_output(line + "\n", None, None)
    assert batch_output_bytes((line + "\n").encode(), None, None) == text_out.encode()


def test_a_batch_line_that_is_not_utf8_is_an_error_line() -> None:
    from judge.cli_adjudicate import batch_output_bytes

    out = json.loads(batch_output_bytes(b'{"phase": "S1901M\xff"}\n', None, None))
    assert out["error"].startswith("input is not UTF-8 text")


def _opening() -> dict[str, object]:
    from judge.variants import start_case

    return start_case("standard")


def test_a_unit_read_before_on_a_board_of_maps_is_the_unit_made_then() -> None:
    """A batch's cases repeat their units phase after phase: each is made once a process."""
    from judge.adjudicate_json import read_variant_case

    first = read_variant_case(_opening()).position.units
    again = read_variant_case(_opening()).position.units
    assert first == again and all(a is b for a, b in zip(first, again, strict=True))


def test_a_unit_kept_is_still_checked_by_its_type_and_its_board() -> None:
    from judge.adjudicate_json import CaseError, read_variant_case

    case = _opening()
    read_variant_case(case)  # every unit of the opening kept
    army_at_sea = {**case, "units": [{"power": "ENGLAND", "type": "A", "loc": "nth"}]}
    with pytest.raises(CaseError, match="army cannot stand"):
        read_variant_case(army_at_sea)
    fleet_inland = {**case, "units": [{"power": "FRANCE", "type": "F", "loc": "par"}]}
    with pytest.raises(CaseError, match="fleet cannot stand"):
        read_variant_case(fleet_inland)


def test_a_case_s_own_maze_has_its_units_read_each_time() -> None:
    """Algernon's mazes share a name but not their places: a unit read on one maze is not
    taken as read on another, where its place may be no space at all."""
    from judge.adjudicate_json import CaseError, read_variant_case
    from judge.variants import variant

    rules = variant("algernon").rules
    assert rules.new_game is not None and rules.board_in_case is not None
    first, second = rules.new_game(["3"], 11), rules.new_game(["3"], 12)
    read_variant_case(first)  # its units read, on its maze
    elsewhere = rules.board_in_case(second)
    strays = [u for u in first["units"] if not elsewhere.is_location(u["loc"])]
    assert strays, "the two mazes must differ for this test"
    with pytest.raises(CaseError, match="is not a location"):
        read_variant_case({**second, "units": [strays[0]]})
