"""Every variant that reads order lines of its own writes them in a grammar of grammar/ (which
extends grammar/orders.lark), and names it in its record, so that the desk can tell one of its
order lines from a mistyped command; each grammar's parser is made once per board."""

from __future__ import annotations

import pytest

from judge.language.commands import opens_an_order
from judge.map_files import load_map
from judge.resources import data_dir
from judge.variants import variant, variant_names

OWN_LANGUAGE = [n for n in variant_names() if variant(n).language.read_desk_line is not None]
# A word each variant's own orders (not the standard language's) may open with.
OWN_WORD = {"1885": "Choose", "mercator": "Place", "mercenary": "Pay", "algernon": "Remove"}


def test_the_variants_with_a_language_of_their_own() -> None:
    assert sorted(OWN_LANGUAGE) == sorted(OWN_WORD)


@pytest.mark.parametrize("name", OWN_LANGUAGE)
def test_a_variant_reading_its_own_lines_names_its_grammar(name: str) -> None:
    grammar = variant(name).language.order_grammar
    assert grammar is not None, name
    text = (data_dir("grammar") / f"{grammar}.lark").read_text(encoding="utf-8")
    assert "%import .orders " in text  # the standard order language, extended
    assert opens_an_order(OWN_WORD[name], grammar)


@pytest.mark.parametrize("module", ["mercator", "mercenary", "v1885"])
def test_each_board_gets_its_own_parser_once(module: str) -> None:
    import importlib

    parsers = importlib.import_module(f"judge.variants.{module}.language")._PARSERS
    standard, youngstown = load_map("standard"), load_map("youngstown")
    first, again, other = parsers(standard), parsers(standard), parsers(youngstown)
    assert first[0] is again[0] and first[1] is again[1]
    assert first[0] is not other[0]
