"""Garbage never breaks the parser, and its fast path always agrees with Lark's own front end."""

from __future__ import annotations

import random
import string

import pytest

from judge.engine.geography import Map
from judge.language import orders as orders_module
from judge.language.orders import OrderSyntaxError, parse_line, parse_order
from tests.language.test_order_notations import NOTATIONS

# Pieces players (and line noise) put in order lines: whole words, punctuation, names with
# hyphens, dots and coasts, keywords that span two words, powers.
VOCABULARY = [
    "A",
    "F",
    "Army",
    "fleet",
    "a",
    "f",
    "H",
    "Hold",
    "holds",
    "stand",
    "-",
    "->",
    "=>",
    ">",
    "-->",
    "move",
    "moves",
    "to",
    "move to",
    "S",
    "supports",
    "C",
    "convoys",
    "R",
    "retreat",
    "D",
    "disband",
    "Remove",
    "B",
    "Build",
    "builds",
    "waive",
    "via",
    "convoy",
    "via convoy",
    "by convoy",
    "by",
    "Par",
    "Paris",
    "Bur",
    "burgundy",
    "Mar",
    "Lon",
    "NTH",
    "North Sea",
    "Nor",
    "North",
    "Liv",
    "Liverpool",
    "StP",
    "St.",
    "Petersburg",
    "St. Petersburg",
    "nc",
    "sc",
    "north coast",
    "(nc)",
    "/nc",
    "/",
    "(",
    ")",
    ":",
    ".",
    ",",
    "Mid-Atlantic",
    "Ocean",
    "Mid-Atlantic Ocean",
    "Spa",
    "Spain(nc)",
    "England",
    "ENG",
    "England:",
    "Xyz",
    "H.",
    "Bur.",
    "#",
    "$",
    "1901",
    "Holland",
    "Hol",
    "Tyr",
    "Ven",
    "bul/ec",
    "ec",
    "east",
]


def _random_line(rng: random.Random) -> str:
    """Mostly a real order with a piece or two changed, so many lines are orders or nearly."""
    if rng.random() < 0.2:
        pieces = [rng.choice(VOCABULARY) for _ in range(rng.randint(0, 9))]
    else:
        pieces = rng.choice(TEMPLATES).split()
        for _ in range(rng.randint(0, 2)):
            at = rng.randrange(len(pieces) + 1)
            change = rng.random()
            if change < 0.4 and at < len(pieces):
                pieces[at] = rng.choice(VOCABULARY)
            elif change < 0.7:
                pieces.insert(at, rng.choice(VOCABULARY))
            elif at < len(pieces):
                del pieces[at]
    if rng.random() < 0.3:
        pieces = [p.upper() if rng.random() < 0.5 else p.lower() for p in pieces]
    return "".join(piece + rng.choice(["", " ", " ", "  ", "\t"]) for piece in pieces)


TEMPLATES = [written for written, _meant in NOTATIONS]


def _garbage(rng: random.Random) -> str:
    alphabet = string.printable.replace("\n", "").replace("\r", "") + "éß→—\xa0\u2003"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))


def _by_lark(line: str, game_map: Map) -> object:
    """What Lark's own front end makes of `line`: the value, or the kind of failure."""
    table, parser = orders_module._context(game_map)
    text = table.hyphen_re.sub(orders_module._glue_hyphen, line) if table.hyphen_re else line
    try:
        return parser.lark.parse(text)
    except orders_module._NameFault:
        return "name fault"
    except orders_module.UnexpectedInput:
        return "syntax error"


def _by_fast_path(line: str, game_map: Map) -> object:
    _table, parser = orders_module._context(game_map)
    try:
        return parser.fast.parse(line)
    except orders_module._NameFault:
        return "name fault"


@pytest.mark.parametrize("seed", range(4))
def test_fast_path_agrees_with_lark(standard: Map, seed: int) -> None:
    rng = random.Random(seed)
    taken = 0
    for _ in range(3000):
        line = _random_line(rng)
        fast = _by_fast_path(line, standard)
        if fast is orders_module._FAILED or fast == "name fault":
            continue  # such lines go to Lark anyway
        taken += 1
        assert fast == _by_lark(line, standard), line
    assert taken > 400  # many mutated orders are still orders the fast path takes


def test_fast_path_takes_the_usual_notations(standard: Map) -> None:
    slow = [w for w, _ in NOTATIONS if _by_fast_path(w, standard) is orders_module._FAILED]
    assert slow == ["A Ven H."]  # a full stop right after a keyword: Lark cuts it off
    for written, _meant in NOTATIONS:
        assert _by_lark(written, standard) == (
            orders_module.parse_line(written, standard).power,
            parse_order(written, standard),
        )


@pytest.mark.parametrize("seed", range(4))
def test_random_lines_only_ever_raise_order_syntax_error(standard: Map, seed: int) -> None:
    rng = random.Random(1000 + seed)
    for i in range(1500):
        line = _random_line(rng) if i % 2 else _garbage(rng)
        try:
            parse_order(line, standard)
        except OrderSyntaxError as exc:
            error = exc.error
            assert 1 <= error.column <= len(line) + 1, (line, error)
            assert str(error).startswith("line 1, column ")
        parsed = parse_line(line, standard, 7)
        assert (parsed.order is None) != (parsed.error is None)
        if parsed.error is not None:
            assert parsed.error.line_no == 7


def test_the_fast_path_is_on(standard: Map) -> None:
    """If a Lark release moved its tables, the parser would still work, but at a quarter speed."""
    _table, parser = orders_module._context(standard)
    assert parser.fast.enabled


@pytest.mark.parametrize("line", ["Par " * 3000, "A " + "- " * 3000, "(" * 3000, "x" * 50_000])
def test_long_lines_fail_quickly(standard: Map, line: str) -> None:
    import time

    start = time.perf_counter()
    with pytest.raises(OrderSyntaxError):
        parse_order(line, standard)
    assert time.perf_counter() - start < 2.0


def test_the_grammar_has_no_lalr_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    """Lark settles a shift/reduce conflict silently (by shifting); this test says it aloud."""
    import logging

    from lark import Lark, logger

    from judge.resources import data_dir

    grammar = (data_dir("grammar") / "orders.lark").read_text(encoding="utf-8")
    level = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger=logger.name):
            Lark(grammar, parser="lalr", lexer="basic", debug=True)
    finally:
        logger.setLevel(level)
    conflicts = [r.getMessage() for r in caplog.records if "conflict" in r.getMessage().lower()]
    assert conflicts == []


def test_a_map_s_parser_is_built_once_and_let_go_with_the_map() -> None:
    import gc

    from judge.engine.orders import Hold
    from judge.map_files import load_map_file, maps_dir

    game_map = load_map_file(maps_dir() / "standard.toml")  # a Map of its own, not the cached one
    assert parse_order("A Par H", game_map) == Hold("A", "par")
    first = orders_module._context(game_map)
    assert orders_module._context(game_map) == first
    key = id(game_map)
    assert key in orders_module._CONTEXTS
    del game_map, first
    gc.collect()
    assert key not in orders_module._CONTEXTS
