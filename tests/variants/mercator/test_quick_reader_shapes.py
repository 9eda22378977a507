"""The quick reader of Mercator's lines (judge/variants/mercator/reading.py's `scan`) on the
time scale 1 and 2 shapes it takes beside those of test_language.py: each read as the grammar
reads it, and the near misses it leaves to the grammar."""

from __future__ import annotations

import pytest

from judge.language.names import name_table
from judge.map_files import load_map
from judge.variants.mercator.language import _parse_with_grammar
from judge.variants.mercator.reading import scan

MAP = load_map("standard")

TAKEN = [
    "F(ENC) S A(ENC) L Pic",
    "f(enc) s a(enc) l pic",
    "A/F(ENC) S A(ENC) L Pic",
    "F(NTH) F/F A(Yor) - Hol",
    "F(NTH) f / f A(Yor) – Hol",
    "F(ENC) F/F A(Lon) -> Bre",
]


@pytest.mark.parametrize("text", TAKEN)
def test_the_quick_reader_reads_landings_supported_and_fast_ferries_as_the_grammar(
    text: str,
) -> None:
    grammar = _parse_with_grammar(text, MAP, 1)  # also teaches the name table the names
    scanned = scan(text, name_table(MAP).known_locations)
    assert scanned is not None, "the quick reader should take this line"
    assert [scanned] == grammar


@pytest.mark.parametrize(
    "text",
    [
        "F(NTH) F/F A(Yor)",  # a fast ferry goes somewhere
        "F(NTH) F/F A(Yor) L Hol",  # a ferried army moves, it does not land
        "A(Lon) B F(NTH) - Hol",
        "A(Spa) E F(MAO) L Por",
        "F(ENC) S A(ENC) L Atlantis",  # a name the table does not know
    ],
)
def test_the_quick_reader_leaves_the_rest_to_the_grammar(text: str) -> None:
    assert scan(text, name_table(MAP).known_locations) is None


def test_a_month_s_line_read_before_is_the_order_read_then() -> None:
    """A game's lines recur month after month: each common line is scanned once per board,
    and where it stands in a month (its time scale) is still worked out each time."""
    from judge.variants.mercator.language import read_mercator_orders

    board = load_map("standard")
    texts = {"ENGLAND": ["F(NTH) - Hol", "A(Lon) B F(ENC)"]}
    first = read_mercator_orders(board, texts).orders["ENGLAND"]
    again = read_mercator_orders(board, texts).orders["ENGLAND"]
    assert [s.order for s in first] == [s.order for s in again]
    assert all(a.order is b.order for a, b in zip(first, again, strict=True))
    assert [s.time_scale for s in first] == [2, 1]
    headed = read_mercator_orders(board, {"ENGLAND": ["TS2", "A(Lon) B F(ENC)"]})
    assert headed.unreadable, "a boarding under a time scale 2 heading is still refused"
