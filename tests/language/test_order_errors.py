"""Every kind of error names its line, its column and what would have fitted there."""

from __future__ import annotations

import pytest

from judge.engine.geography import Map
from judge.language.orders import (
    OrderError,
    OrderSyntaxError,
    parse_line,
    parse_order,
    parse_orders,
)


def _error(line: str, game_map: Map, line_no: int = 1) -> OrderError:
    parsed = parse_line(line, game_map, line_no)
    assert parsed.order is None and parsed.error is not None, parsed
    return parsed.error


def test_the_liv_ambiguity_names_line_column_and_both(standard: Map) -> None:
    lines = parse_orders("A Par - Bur\n\nA Liv - Yor", standard)
    error = lines[1].error
    assert error is not None
    assert str(error) == "line 3, column 3: 'Liv' matches both Liverpool and Livonia"
    assert error.expected == ("Liverpool", "Livonia")


def test_ambiguity_in_a_destination(standard: Map) -> None:
    error = _error("F Nth - Nor th", standard)
    assert error.column == 9
    assert error.message == "'Nor th' matches North Africa, North Atlantic Ocean and North Sea"


def test_an_unknown_province_after_a_dash(standard: Map) -> None:
    error = _error("A Par - Bxx", standard, line_no=2)
    assert str(error).startswith("line 2, column 9: expected a province after '-', found 'Bxx'")


def test_an_unknown_province_suggests_near_names(standard: Map) -> None:
    error = _error("A Par - Burgandyy", standard)
    assert "Burgundy" in error.expected
    assert "did you mean Burgundy" in error.message


def test_an_unknown_first_province(standard: Map) -> None:
    error = _error("A Qqq H", standard)
    assert (error.column, error.message) == (3, "expected a province after 'A', found 'Qqq'")
    assert error.expected == ("a province",)  # nothing near enough to suggest


def test_a_word_that_belongs_to_no_name(standard: Map) -> None:
    error = _error("A Par Bur", standard)
    assert error.column == 7
    assert error.message.startswith("'Par' is Paris, and 'Bur' after it is no part of that name")


@pytest.mark.parametrize(
    ("line", "column", "expected", "found"),
    [
        ("A Par S", 8, ("a province", "A or F"), "the end of the line"),
        ("F Nth C A Lon", 14, ("-",), "the end of the line"),
        ("A Par - - Bur", 9, ("a province",), "'-'"),
        ("A Par - Bur)", 12, ("-", "via convoy", "end of line"), "')'"),
        ("A (Par - Bur", 8, (")",), "'-'"),
        ("A Par H H", 9, ("end of line",), "'H'"),
        ("A", 2, ("a province", "("), "the end of the line"),
        ("F StP/ - Bar", 8, ("a coast",), "'-'"),
        ("", 1, ("a province", "A or F", "D", "B", "waive"), "the end of the line"),
    ],
)
def test_syntax_errors(
    standard: Map, line: str, column: int, expected: tuple[str, ...], found: str
) -> None:
    error = _error(line, standard)
    assert (error.column, error.expected) == (column, expected)
    assert error.message.startswith("expected ")
    assert error.message.endswith(f"found {found}")


def test_an_unexpected_character(standard: Map) -> None:
    error = _error("A Par # Bur", standard)
    assert error.column == 7
    assert "found '#'" in error.message
    assert {"H", "-", "S", "C"} <= set(error.expected)


def test_a_coast_the_province_lacks(standard: Map) -> None:
    error = _error("F Spa/ec - Mao", standard)
    assert str(error) == (
        "line 1, column 3: Spain has no coast 'ec'; its coasts are north coast and south coast"
    )
    assert error.expected == ("north coast", "south coast")


def test_a_coast_on_a_province_without_coasts(standard: Map) -> None:
    error = _error("A Par(nc) - Bur", standard)
    assert error.column == 3 and "Paris has no coasts" in error.message


def test_an_unknown_power(standard: Map) -> None:
    error = _error("Xyz: A Par H", standard)
    assert error.column == 1
    assert error.message.startswith("'Xyz' is not a power of this game (AUSTRIA, ENGLAND")


def test_parse_order_raises_with_the_error(standard: Map) -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order("A Par - Bxx", standard)
    assert caught.value.error.column == 9
    assert str(caught.value) == str(caught.value.error)


def test_columns_count_from_the_line_as_written(standard: Map) -> None:
    assert _error("    A Par - Bxx", standard).column == 13
    assert _error("F Mid-Atlantic Ocean - Bxx", standard).column == 24
