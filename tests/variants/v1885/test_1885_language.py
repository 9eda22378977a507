"""1885's order language (grammar/v1885.lark): Davis's notation read into order values, echoed in
full, stored in a short form that reads back alone, and faults named by line and column."""

from __future__ import annotations

import pytest

from judge.adjudicate_json import read_case
from judge.engine.orders import Build, Convoy, Disband, Move, Retreat, Support, Waive
from judge.engine.position import Dislodged, Position, Unit
from judge.engine.rules import Rules
from judge.language.errors import OrderSyntaxError
from judge.map_files import load_map
from judge.variants import start_case
from judge.variants.v1885.checks import check_orders
from judge.variants.v1885.language import (
    format_full,
    format_short,
    parse_line,
    read_1885_orders,
    read_desk_line,
)
from judge.variants.v1885.orders import (
    Board,
    ChooseUnit,
    ContingentBuild,
    Disembark,
    RetreatIf,
    RetreatOnFile,
)

BOARD = load_map("1885")

READINGS = [
    (
        "A Mar boards F GoL; A/F GoL - WMed; A disembarks Tun",
        [Board("mar", "lyo"), Move("AF", "lyo", "wes"), Disembark("lyo", "tun")],
    ),
    (
        "A Marseilles boards F Gulf of Lions; A/F Gulf of Lions-Western Med; A disembarks Tunis",
        [Board("mar", "lyo"), Move("AF", "lyo", "wes"), Disembark("lyo", "tun")],
    ),
    ("A(Lyo) D Tun", [Disembark("lyo", "tun")]),
    ("A GoL disembarks in Mar", [Disembark("lyo", "mar")]),
    ("F GoL S A GoL - Mar", [Support("F", "lyo", "A", "lyo", "mar")]),
    ("F WMed Fast Ferry A Val - Tun", [Convoy("F", "wes", "val", "tun")]),
    ("F WMed FF A Val - Tun", [Convoy("F", "wes", "val", "tun")]),
    ("F WMed F/F A Val - Tun", [Convoy("F", "wes", "val", "tun")]),
    ("F WMed C A Val - Tun", [Convoy("F", "wes", "val", "tun")]),
    ("A Val - Tun via Fast Ferry", [Move("A", "val", "tun", True)]),
    ("Rome: Fleet", [ChooseUnit("F", "rom")]),
    ("Choose A Rome", [ChooseUnit("A", "rom")]),
    (
        "Build A Con if Austrian A Ser retreats to Alb",
        [ContingentBuild("A", "con", RetreatIf("ser", "alb", "AUSTRIA", "A"))],
    ),
    (
        "Build F Smy unless A Ser - Alb",
        [ContingentBuild("F", "smy", RetreatIf("ser", "alb", None, "A", True))],
    ),
    ("Build A Con", [Build("A", "con")]),
    ("Remove A Ser", [Disband("A", "ser")]),
    ("waive", [Waive()]),
    ("A Ser R Alb", [Retreat("A", "ser", "alb")]),
    ("A/F GoL R WMed", [Retreat("AF", "lyo", "wes")]),
    # Rule 10 a: a retreat order sent with the move, for the unit if the move dislodges it.
    ("A Ser R Alb if dislodged", [RetreatOnFile("A", "ser", "alb")]),
    (
        "A Vie - Bud, retreat to Boh",
        [Move("A", "vie", "bud"), RetreatOnFile("A", "vie", "boh")],
    ),
    (
        "A Ser H; if dislodged R Alb",
        [parse_line(BOARD, "A Ser H")[0], RetreatOnFile("A", "ser", "alb")],
    ),
    (
        "A/F GoL - Tys, R WMed",
        [Move("AF", "lyo", "tys"), RetreatOnFile("AF", "lyo", "wes")],
    ),
    # Rule 12's abbreviations, with their full stops.
    ("A Dres. - Boh", [Move("A", "dre", "boh")]),
    ("A Mal. - Got", [Move("A", "mal", "got")]),
    ("A Bud - Cro.", [Move("A", "bud", "cro")]),
    ("A Con - Mac.", [Move("A", "con", "mac")]),
    ("A Mad - Nav.", [Move("A", "mad", "nav")]),
]


@pytest.mark.parametrize(("line", "values"), READINGS)
def test_reading(line: str, values: list[object]) -> None:
    assert parse_line(BOARD, line) == values


@pytest.mark.parametrize(("line", "values"), READINGS)
def test_the_short_form_reads_back_alone(line: str, values: list[object]) -> None:
    for value in values:
        assert parse_line(BOARD, format_short(value, BOARD)) == [value]


def test_a_bare_landing_is_the_army_of_the_unit_ordered_before_it() -> None:
    assert parse_line(BOARD, "F GoL H; A disembarks Mar") == [
        parse_line(BOARD, "F GoL H")[0],
        Disembark("lyo", "mar"),
    ]
    with pytest.raises(OrderSyntaxError, match="say which army lands"):
        parse_line(BOARD, "A disembarks Tun")


def test_echoed_in_full() -> None:
    full = [
        format_full(v, BOARD)
        for v in parse_line(BOARD, "A Mar boards F GoL; A/F GoL - WMed; A disembarks Tun")
    ]
    assert full == [
        "Army Marseilles boards Fleet Gulf of Lyon",
        "Army/Fleet Gulf of Lyon -> Western Mediterranean",
        "Army Gulf of Lyon disembarks in Tunis",
    ]
    assert format_full(Convoy("F", "wes", "val", "tun"), BOARD) == (
        "Fleet Western Mediterranean Fast Ferry Army Valencia -> Tunis"
    )
    assert format_full(ChooseUnit("F", "rom"), BOARD) == "The unit in Rome is a fleet"


def test_faults_name_the_line_and_what_was_expected() -> None:
    with pytest.raises(OrderSyntaxError) as raised:
        parse_line(BOARD, "A Mar boards", 7)
    assert str(raised.value).startswith("line 7, column ")
    assert "expected" in str(raised.value)
    with pytest.raises(OrderSyntaxError) as raised:
        parse_line(BOARD, "Build A Atlantis", 3)
    assert "line 3" in str(raised.value) and "Atlantis" in str(raised.value)


def test_several_orders_on_a_line_each_get_a_result() -> None:
    read = read_1885_orders(BOARD, {"FRANCE": ["A Mar boards F GoL; A/F GoL - WMed", "A Par H"]})
    assert len(read.orders["FRANCE"]) == 3
    assert read.parts[("FRANCE", 0)] == ["A Mar boards F GoL", "A/F GoL - WMed"]


def test_the_desk_keys_each_order_by_its_unit() -> None:
    _, start, _, _ = read_case(start_case("1885"))
    context = {"position": start, "power": "FRANCE", "phase": "JAN1885M"}
    read = read_desk_line(BOARD, "A Mar - Bur; F Bre - MAO", 1, context)
    assert [key for key, _s, _f in read.orders] == ["mar", "bre"]
    # Whether an order stands is the record's check, over the power's orders as they stand.
    other = read_desk_line(BOARD, "A Ven - Tus", 2, context)
    why = check_orders(BOARD, start, Rules(), "FRANCE", [*read.values, *other.values])
    assert why == [None, None, "France has no unit in Venice"]


def test_a_bare_retreat_is_the_unit_ordered_before_it() -> None:
    with pytest.raises(OrderSyntaxError, match="say which unit retreats"):
        parse_line(BOARD, "retreat to Boh")
    with pytest.raises(OrderSyntaxError, match="say which unit retreats"):
        parse_line(BOARD, "A Mar boards F GoL; R Bur")


def test_a_retreat_sent_with_the_move_is_kept_apart_from_the_units_move() -> None:
    _, start, _, _ = read_case(start_case("1885"))
    context = {"position": start, "power": "AUSTRIA", "phase": "JAN1885M"}
    read = read_desk_line(BOARD, "A Vie - Gal, retreat to Boh", 1, context)
    assert read.error is None
    assert read.orders == [
        ("vie", "A VIE - GAL", "Army Vienna -> Galicia"),
        (
            "vie if dislodged",
            "A VIE R BOH IF DISLODGED",
            "Army Vienna retreats to Bohemia if dislodged",
        ),
    ]
    # A plain retreat order in a move is one sent with it.
    plain = read_desk_line(BOARD, "A Vie R Boh", 2, dict(context))
    assert plain.orders == [
        (
            "vie if dislodged",
            "A VIE R BOH IF DISLODGED",
            "Army Vienna retreats to Bohemia if dislodged",
        )
    ]
    refused = read_desk_line(BOARD, "A Vie - Gal, retreat to Ven", 3, dict(context))
    assert check_orders(BOARD, start, Rules(), "AUSTRIA", refused.values) == [
        None,
        "Army Vienna could never retreat to Venice: a unit retreats to a province next to it "
        "(rule 10 a, b)",
    ]
    # In a retreat phase the same line is the retreat itself.
    retreat = {**context, "phase": "JAN1885R"}
    retreat["position"] = Position(
        "JAN1885R",
        (Unit("RUSSIA", "A", "vie"),),
        dislodged=(Dislodged(Unit("AUSTRIA", "A", "vie"), "gal", False, ("boh",)),),
    )
    read = read_desk_line(BOARD, "A Vie R Boh if dislodged", 1, retreat)
    assert read.orders == [("vie", "A VIE R BOH", "Army Vienna retreats to Bohemia")]
