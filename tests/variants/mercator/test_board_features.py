"""Mercator's rules that need a board the standard one is not: a canal province, a polar cap, a
special province, a spare unit (tests/cases/maps/mercator_test.toml)."""

from __future__ import annotations

from pathlib import Path

from judge.engine.orders import Build, Move
from judge.engine.position import Position, Unit
from judge.engine.rules import rules_from_names
from judge.map_files import load_map_file
from judge.variants.mercator.adjustments import due, resolve_mercator_adjustments
from judge.variants.mercator.month import resolve_month
from judge.variants.mercator.orders import Board, Disembark, PlaceSpare, Scaled
from judge.variants.mercator.phases import adjudicate_mercator

BOARD = load_map_file(Path(__file__).resolve().parents[2] / "cases" / "maps" / "mercator_test.toml")
KEY = rules_from_names(["key-rule"])


def units_of(units: tuple[Unit, ...]) -> set[tuple[str, str, str, str | None]]:
    return {(u.power, u.kind, u.loc, u.army_power) for u in units}


def test_an_army_dumped_in_the_arctic_stays_there_for_good() -> None:
    """6.2 and 2.6 (c): the fleet lands its army in the Arctic; it leaves the board and is a
    permanent shortage of its power."""
    position = Position("JAN1901M", (Unit("FRANCE", "AF", "nao", "GERMANY"),), state={"months": 3})
    out = adjudicate_mercator(
        BOARD,
        position,
        {"FRANCE": [Scaled(3, Disembark("nao", "arc", "GERMANY"))]},
        KEY,
    )
    assert units_of(out.units_after) == {("FRANCE", "F", "nao", None)}
    assert out.state_after is not None and out.state_after["dumped"] == {"GERMANY": 1}
    counts = due(
        Position(
            "MAR1901A",
            out.units_after,
            centers={"GERMANY": frozenset({"ber"}), "FRANCE": frozenset({"par"})},
            state=out.state_after,
        )
    )
    assert counts["GERMANY"] == 0  # one centre, one army in the Arctic: nothing to build


def test_the_polar_cap_is_impassable_for_fleets() -> None:
    out = resolve_month(
        BOARD,
        Position("JAN1901M", (Unit("FRANCE", "F", "nao"),)),
        {"FRANCE": [Scaled(2, Move("F", "nao", "arc"))]},
        KEY,
    )
    assert out.results[("FRANCE", 0)].result == "illegal"
    assert "polar" in out.results[("FRANCE", 0)].reason


def test_an_army_fleet_stands_in_a_canal_province_and_passes_through_it() -> None:
    """6.1 and 2.2: an army boards the fleet in Kiel from Berlin; the army/fleet passes from the
    Baltic side to the Western Sea."""
    out = resolve_month(
        BOARD,
        Position("JAN1901M", (Unit("GERMANY", "A", "ber"), Unit("GERMANY", "F", "kie"))),
        {"GERMANY": [Scaled(1, Board("ber", "kie")), Scaled(2, Move("AF", "kie", "wes"))]},
        KEY,
    )
    assert units_of(out.units_after) == {("GERMANY", "AF", "wes", None)}


def test_the_spare_unit_is_placed_before_the_first_month_only() -> None:
    """9: Germany places its spare fleet in its special province Prussia before January."""
    start = Position("JAN1901M", (Unit("GERMANY", "A", "ber"), Unit("FRANCE", "A", "par")))
    out = adjudicate_mercator(
        BOARD,
        start,
        {
            "GERMANY": [Scaled(0, PlaceSpare("F", "pru")), Scaled(2, Move("F", "pru", "bal"))],
            "FRANCE": [Scaled(0, PlaceSpare("A", "bre"))],
        },
        KEY,
    )
    assert [r.result for r in out.results["GERMANY"]] == ["success", "success"]
    assert [r.result for r in out.results["FRANCE"]] == ["void"]  # France has no spare
    assert ("GERMANY", "F", "bal", None) in units_of(out.units_after)
    assert out.state_after is not None and out.state_after["spares"] == {"GERMANY": 1}
    later = adjudicate_mercator(
        BOARD,
        Position("FEB1901M", out.units_after, state=out.state_after),
        {"GERMANY": [Scaled(0, PlaceSpare("A", "mun"))]},
        KEY,
    )
    assert later.results["GERMANY"][0].result == "void"


def test_the_spare_is_kept_until_the_third_build_season() -> None:
    """9: units are adjusted to equal supply centre holdings at the third build season."""
    units = (Unit("GERMANY", "A", "ber"), Unit("GERMANY", "F", "bal"), Unit("GERMANY", "A", "mun"))
    centres = {"GERMANY": frozenset({"ber", "mun"})}
    for seasons, owed in ((0, 0), (1, 0), (2, -1)):
        state = {"spares": {"GERMANY": 1}, "build_seasons": seasons}
        assert due(Position("MAR1901A", units, centers=centres, state=state))["GERMANY"] == owed


def test_builds_in_a_special_province_and_never_in_anothers() -> None:
    """5.2: the assignee builds in its special province when it is empty; nobody else may."""
    position = Position(
        "MAR1901A",
        (Unit("GERMANY", "A", "ber"),),
        centers={"GERMANY": frozenset({"ber", "mun"}), "FRANCE": frozenset({"par", "bre", "nor"})},
        owners={"pru": "FRANCE"},
    )
    out = resolve_mercator_adjustments(
        BOARD,
        position,
        {"GERMANY": [Scaled(0, Build("F", "pru"))], "FRANCE": [Scaled(0, Build("A", "pru"))]},
        KEY,
    )
    assert out.results["GERMANY"][0].result == "success"
    assert out.results["FRANCE"][0].result == "illegal"
