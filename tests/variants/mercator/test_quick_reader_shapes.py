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
