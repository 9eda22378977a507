"""Every notation the issue and the DATC write orders in reads to the same order values."""

from __future__ import annotations

import pytest

from judge.engine.geography import Map
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive
from judge.language.orders import parse_order, parse_orders

# (written, meant): the list first, then the DATC's, then njudge's.
NOTATIONS: list[tuple[str, Order]] = [
    ("A Par - Bur", Move("A", "par", "bur")),
    ("A Paris -> Burgundy", Move("A", "par", "bur")),
    ("army paris move to burgundy", Move("A", "par", "bur")),
    ("F NTH C A LON - NWY", Convoy("F", "nth", "lon", "nwy")),
    ("A Lon-Nwy via convoy", Move("A", "lon", "nwy", via_convoy=True)),
    ("F(ENC) - MAO", Move("F", "eng", "mao")),
    ("A Bur S A Par - Mar", Support("A", "bur", "A", "par", "mar")),
    ("A Ven H", Hold("A", "ven")),
    ("A Mun R Boh", Retreat("A", "mun", "boh")),
    ("F Nth D", Disband("F", "nth")),
    ("Build F StP/NC", Build("F", "stp/nc")),
    ("F StP(nc) B", Build("F", "stp/nc")),
    ("waive", Waive()),
    # DATC
    ("F North Sea Convoys A London - Belgium", Convoy("F", "nth", "lon", "bel")),
    ("A Liverpool Supports F Edinburgh - Yorkshire", Support("A", "lvp", "F", "edi", "yor")),
    ("A Venice Hold", Hold("A", "ven")),
    ("F Spain(nc) - Gascony", Move("F", "spa/nc", "gas")),
    ("A Munich Supports A Ruhr", Support("A", "mun", "A", "ruh")),
    ("Build A Munich", Build("A", "mun")),
    ("F Trieste Disband", Disband("F", "tri")),
    ("Remove A Paris", Disband("A", "par")),
    ("A Berlin - Prussia via Convoy", Move("A", "ber", "pru", via_convoy=True)),
    ("A Munich - Bohemia", Move("A", "mun", "boh")),  # a retreat in a retreat phase
    ("F Mid-Atlantic Ocean - English Channel", Move("F", "mao", "eng")),
    ("F Gulf of Lyon - Tyrrhenian Sea", Move("F", "lyo", "tys")),
    ("F St. Petersburg(sc) - Gulf of Bothnia", Move("F", "stp/sc", "bot")),
    (
        "F Bulgaria(ec) Supports F Constantinople - Black Sea",
        Support("F", "bul/ec", "F", "con", "bla"),
    ),
    # njudge
    ("A Par-Bur", Move("A", "par", "bur")),
    ("F Nth Convoys A Lon-Nwy", Convoy("F", "nth", "lon", "nwy")),
    ("F Nwy S F Nth", Support("F", "nwy", "F", "nth")),
    ("F Bre Remove", Disband("F", "bre")),
    ("F Bre Disband", Disband("F", "bre")),
    ("Par-Bur", Move(None, "par", "bur")),
    ("Ven H", Hold(None, "ven")),
    ("Bur S Par-Mar", Support(None, "bur", None, "par", "mar")),
    ("A Lon-Nth-Nwy", Move("A", "lon", "nwy", via_convoy=True)),  # a route: by convoy
    ("A Lon - Nth - Nwy via convoy", Move("A", "lon", "nwy", via_convoy=True)),
    # other spellings players use
    ("A Paris => Burgundy", Move("A", "par", "bur")),
    ("A Paris --> Burgundy", Move("A", "par", "bur")),
    ("A Paris > Burgundy", Move("A", "par", "bur")),
    ("A Paris to Burgundy", Move("A", "par", "bur")),
    ("A Par \u2013 Bur", Move("A", "par", "bur")),  # an en dash, as mail programs write "-"
    ("A Par \u2014 Bur", Move("A", "par", "bur")),  # an em dash
    ("A Par \u2192 Bur", Move("A", "par", "bur")),  # an arrow
    ("Army Paris moves to Burgundy", Move("A", "par", "bur")),
    ("A Par - Bur by convoy", Move("A", "par", "bur", via_convoy=True)),
    ("A Mun retreat to Boh", Retreat("A", "mun", "boh")),
    ("A Mun retreats Boh", Retreat("A", "mun", "boh")),
    ("A Mun R - Boh", Retreat("A", "mun", "boh")),
    ("A Tyr S A Ven H", Support("A", "tyr", "A", "ven")),
    ("A Tyr supports A Ven holds", Support("A", "tyr", "A", "ven")),
    ("Fleet North Sea stands", Hold("F", "nth")),
    ("A Ven H.", Hold("A", "ven")),
    ("Army Venice -> Tyrolia.", Move("A", "ven", "tyr")),
    ("A(Ven) - Tyr", Move("A", "ven", "tyr")),
    ("F (StP/nc) - Bar", Move("F", "stp/nc", "bar")),
    ("Disband F Nth", Disband("F", "nth")),
    ("builds F StP/NC", Build("F", "stp/nc")),
    ("Build waive", Waive()),
    ("WAIVES", Waive()),
]


@pytest.mark.parametrize(("written", "meant"), NOTATIONS, ids=[w for w, _ in NOTATIONS])
def test_notation(standard: Map, written: str, meant: Order) -> None:
    assert parse_order(written, standard) == meant


@pytest.mark.parametrize(
    "written",
    [
        "a par - bur",
        "A PAR - BUR",
        "a PaR   -   bUr",
        "  A Par-Bur  ",
        "A\tPar\t-\tBur",
        "A\xa0Par - Bur",
    ],
)
def test_any_letter_case_and_spacing(standard: Map, written: str) -> None:
    assert parse_order(written, standard) == Move("A", "par", "bur")


@pytest.mark.parametrize(
    "written",
    [
        "F StP/NC - Bar",
        "F StP/nc - Bar",
        "F StP (nc) - Bar",
        "F StP(NC) - Bar",
        "F StP nc - Bar",
        "F StP north coast - Bar",
        "F St Petersburg (north coast) - Bar",
        "F St. Petersburg North Coast - Bar",
        "F Saint Petersburg/nc - Bar",
        "F stp / nc - bar",
        "F StP(n.c.) - Bar",
        "F StP north - Bar",
    ],
)
def test_coast_forms(standard: Map, written: str) -> None:
    assert parse_order(written, standard) == Move("F", "stp/nc", "bar")


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("F Mao - Spa/sc", Move("F", "mao", "spa/sc")),
        ("F Mao - Spain south coast", Move("F", "mao", "spa/sc")),
        ("F Bla - Bul(ec)", Move("F", "bla", "bul/ec")),
        ("F Aeg - Bulgaria (south coast)", Move("F", "aeg", "bul/sc")),
        ("F Gas - Spa", Move("F", "gas", "spa")),  # no coast written: none given
    ],
)
def test_coasts_on_destinations(standard: Map, written: str, meant: Order) -> None:
    assert parse_order(written, standard) == meant


@pytest.mark.parametrize(
    ("written", "power", "meant"),
    [
        ("England: F Lon - Nth", "ENGLAND", Move("F", "lon", "nth")),
        ("ENG F Lon-Nth", "ENGLAND", Move("F", "lon", "nth")),
        ("english: F Lon-Nth", "ENGLAND", Move("F", "lon", "nth")),
        ("E: F Lon-Nth", "ENGLAND", Move("F", "lon", "nth")),
        ("Russia F StP/sc - Bot", "RUSSIA", Move("F", "stp/sc", "bot")),
        ("France: Par-Bur", "FRANCE", Move(None, "par", "bur")),
        ("Germany: Build A Mun", "GERMANY", Build("A", "mun")),
        ("Germany Build A Mun", "GERMANY", Build("A", "mun")),
        ("Austria: waive", "AUSTRIA", Waive()),
        ("Austria waive", "AUSTRIA", Waive()),
        ("Turkey: Remove F Ank", "TURKEY", Disband("F", "ank")),
        ("A Par - Bur", None, Move("A", "par", "bur")),
    ],
)
def test_power_prefix_is_returned(
    standard: Map, written: str, power: str | None, meant: Order
) -> None:
    (line,) = parse_orders(written, standard)
    assert (line.power, line.order, line.error) == (power, meant, None)
    assert parse_order(written, standard) == meant


def test_blank_and_comment_lines_are_skipped(standard: Map) -> None:
    text = "\n# my orders\nA Par - Bur\n   \n// a comment\n; another\nF Bre - Mao\r\n\n"
    lines = parse_orders(text, standard)
    assert [(p.line_no, p.text, p.order) for p in lines] == [
        (3, "A Par - Bur", Move("A", "par", "bur")),
        (7, "F Bre - Mao", Move("F", "bre", "mao")),
    ]


def test_a_bad_line_does_not_stop_the_others(standard: Map) -> None:
    lines = parse_orders("A Par - Bur\nA Par - Bxx\nF Bre - Mao", standard)
    assert [p.order is not None for p in lines] == [True, False, True]
    assert lines[1].error is not None and lines[1].error.line_no == 2


@pytest.mark.parametrize("code", ["lvp", "lvn", "nwg", "nao", "hel", "bot", "tys", "lyo"])
def test_every_code_reads_as_itself(standard: Map, code: str) -> None:
    assert parse_order(f"F {code} H", standard) == Hold("F", code)


def test_every_province_by_code_and_name(standard: Map) -> None:
    for code, province in standard.provinces.items():
        for written in (
            code,
            code.upper(),
            province.name,
            province.name.upper(),
            *province.aliases,
        ):
            assert parse_order(f"A {written} H", standard) == Hold("A", code), written


def _order_strings(node: object) -> list[str]:
    """Every order string under an "orders" key of a case file, however deep."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "orders" and isinstance(value, dict):
                found += [o for lines in value.values() for o in lines if isinstance(o, str)]
            else:
                found += _order_strings(value)
    elif isinstance(node, list):
        for value in node:
            found += _order_strings(value)
    return found


def test_every_order_of_the_case_files_reads(standard: Map) -> None:
    """The DATC and rules cases are written in the DATC's notation; each line must read.
    (The variants' cases, under cases/variants, are in their own languages: their tests read
    them.)"""
    import json
    from pathlib import Path

    from judge.language.format import format_order

    cases = Path(__file__).resolve().parent.parent / "cases"
    lines = [
        o
        for path in sorted(cases.rglob("*.json"))
        if path.parent.name != "variants"
        for o in _order_strings(json.loads(path.read_text()))
    ]
    if not lines:
        pytest.skip("no case files with orders yet")
    for written in lines:
        order = parse_order(written, standard)
        assert parse_order(format_order(order, standard, "short"), standard) == order, written
