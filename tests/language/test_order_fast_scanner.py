"""The scanner of common notations (judge/language/fast_orders.py) agrees with the grammar.

Every order text of the tests (the DATC and rule cases, the notations and any other string in
tests/) and many generated ones go through both: wherever the scanner takes a line, the LALR
parser (Lark's own front end, not the lean loop) must give the same order and no power; where
the parser refuses a line, the scanner must not take it.
"""

from __future__ import annotations

import ast
import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from lark.exceptions import UnexpectedInput

from judge.engine.geography import Map
from judge.language import orders as orders_module
from judge.language.fast_orders import KEYWORDS
from judge.map_files import load_map

TESTS = Path(__file__).resolve().parent.parent


def _strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings_in(v)


def texts_of_the_tests() -> list[str]:
    found: set[str] = set()
    for path in sorted(TESTS.rglob("*.json")):
        try:
            found.update(_strings_in(json.loads(path.read_text(encoding="utf-8"))))
        except (ValueError, UnicodeDecodeError):
            continue
    for path in sorted(TESTS.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    lines = {line for text in found for line in text.splitlines() if len(line) < 200}
    return sorted(lines)


def generated(game_map: Map, count: int, seed: int) -> list[str]:
    """Orders in the scanner's notations and near them: names as codes, full names, prefixes
    and aliases in any case, keywords and junk where names go, odd spacing, coasts."""
    rng = random.Random(seed)
    names: list[str] = []
    for code, prov in game_map.provinces.items():
        names += [code, code.upper(), code.title(), prov.name, *prov.aliases]
        names += [prov.name[:3], prov.name[:4].lower()]
    names += sorted(KEYWORDS) + ["Xyz", "Liv", "St", "Nort", "Bur.", "Bur2", "Mid-Atlantic"]
    coasts = ["/nc", "/sc", "/ec", "(nc)", "( sc )", "/NC", "/north", "/xx", "/s", ""]
    units = ["A ", "F ", "a ", "f ", "Army ", "FLEET ", "", "A", "F(", "H "]
    blanks = [" ", "  ", "", "\t"]

    def loc() -> str:
        name = rng.choice(names)
        return name + (rng.choice(coasts) if rng.random() < 0.2 else "")

    def sp() -> str:
        return rng.choice(blanks)

    out = []
    for _ in range(count):
        shape = rng.randrange(6)
        head = f"{sp()}{rng.choice(units)}{loc()}"
        if shape == 0:
            line = f"{head}{sp()}-{sp()}{loc()}"
        elif shape == 1:
            line = f"{head} {rng.choice(['H', 'h', 'Hold', 'H.', 'HH'])}"
        elif shape in (2, 3):
            verb = rng.choice(["S", "s", "C", "c", "Supports", "H", "X"])
            line = f"{head} {verb} {rng.choice(units)}{loc()}"
            if shape == 3 or rng.random() < 0.3:
                line += f"{sp()}-{sp()}{loc()}"
        elif shape == 4:
            line = f"{head}{sp()}{rng.choice(['-', '--', '->', '-', ' to '])}{sp()}{loc()}"
            line += rng.choice(["", " via convoy", ".", ",", " ", " H"])
        else:
            line = f"{head} - {loc()} - {loc()}"
        out.append(line)
    return out


def _slow(line: str, game_map: Map) -> object:
    """What the grammar makes of `line` through Lark's own front end, or "error"."""
    table, parser = orders_module._context(game_map)
    text = line
    if table.hyphen_re is not None and "-" in text:
        text = table.hyphen_re.sub(orders_module._glue_hyphen, text)
    try:
        return parser.lark.parse(text)
    except (UnexpectedInput, orders_module._NameFault):
        return "error"


def _check(lines: list[str], game_map: Map) -> int:
    _table, parser = orders_module._context(game_map)
    taken = 0
    for line in lines:
        scanned = parser.scanner.scan(line)
        # Again, now that the names of the line are known words: the quick path must agree.
        assert parser.scanner.scan(line) == scanned, line
        if scanned is None:
            continue
        taken += 1
        assert _slow(line, game_map) == (None, scanned), line
        assert orders_module.parse_order(line, game_map) == scanned, line
        parsed = orders_module.parse_line(line, game_map)
        assert (parsed.power, parsed.order, parsed.error) == (None, scanned, None), line
    return taken


@pytest.mark.parametrize("variant", ["standard", "youngstown"])
def test_every_order_text_of_the_tests_reads_the_same(variant: str) -> None:
    game_map = load_map(variant)
    lines = texts_of_the_tests()
    assert len(lines) > 1000
    assert _check(lines, game_map) > 300


@pytest.mark.parametrize(
    ("variant", "seed"), list(itertools.product(["standard", "youngstown"], range(3)))
)
def test_generated_orders_read_the_same(variant: str, seed: int) -> None:
    game_map = load_map(variant)
    assert _check(generated(game_map, 4000, seed), game_map) > 200


def test_the_common_notations_are_scanned() -> None:
    game_map = load_map("standard")
    _table, parser = orders_module._context(game_map)
    for line in [
        "A PAR-BUR",
        "A Par - Bur",
        "F NTH C A LON-NWY",
        "A MUN S A BER-SIL",
        "A Mun S A Ber",
        "A PAR H",
        "F BRE-MAO",
        "F StP/sc - Bot",
        "F Spa(nc) - Mao",
        "Par-Bur",
        "army paris - burgundy",
        "A Par - Bur via convoy",
        "A LON - NWY VIA CONVOY",
        "A Lon-Nwy by  convoy",
    ]:
        assert parser.scanner.scan(line) is not None, line


def test_lines_the_scanner_leaves_to_the_parser() -> None:
    game_map = load_map("standard")
    _table, parser = orders_module._context(game_map)
    for line in [
        "A Par - Bur via",
        "A Par - Bur convoy",
        "A Par - Bur via convoy.",
        "F Bre - Mid-Atlantic",
        "A Lon - Nth - Nwy",
        "A Par -> Bur",
        "F North Sea - Norway",
        "A Par - S",
        "A Liv - Bur",
        "A Xyz H",
        "F Nth C A Lon",
        "England: A Lon H",
        "A Bur. - Par",
    ]:
        assert parser.scanner.scan(line) is None, line


def test_a_line_read_before_is_the_order_read_then() -> None:
    """A game's lines recur phase after phase: each is read once per board."""
    from judge.language.orders import order_scanner
    from judge.map_files import load_map

    scan = order_scanner(load_map("standard"))
    assert scan("A Par - Bur") is scan("A Par - Bur")
    assert scan("A Par - Bur") != scan("A Par - Pic")
    assert scan("A Par - Nowhere") is None and scan("A Par - Nowhere") is None
