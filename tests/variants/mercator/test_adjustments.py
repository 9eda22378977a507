"""Mercator's builds, removals and ownership (rules 5, 6.2, 7) on the standard board."""

from __future__ import annotations

from judge.engine.orders import Build, Disband
from judge.engine.position import Position, Unit
from judge.engine.rules import rules_from_names
from judge.map_files import load_map
from judge.variants.mercator.adjustments import due, resolve_mercator_adjustments
from judge.variants.mercator.orders import Scaled
from judge.variants.mercator.ownership import owners_after_month
from judge.variants.mercator.removals import gm_removals

MAP = load_map("standard")
RULES = rules_from_names(["key-rule"])


def adjust(
    position: Position, orders: dict[str, list[object]]
) -> tuple[list[str], set[tuple[str, str, str]]]:
    result = resolve_mercator_adjustments(
        MAP, position, {p: [Scaled(0, o) for o in os] for p, os in orders.items()}, RULES
    )
    flat = [r.result for rs in result.results.values() for r in rs]
    return flat, {(u.power, u.kind, u.loc) for u in result.units_after}


def test_the_last_unit_there_owns_a_province_and_seas_are_never_owned() -> None:
    """5.1: TS1 A(ENC) L Wal, TS2 A(Wal) - Lpl: France owns Wales whether or not the move to
    Liverpool succeeded; the sea it came from is owned by nobody."""
    moments = [
        (Unit("FRANCE", "AF", "eng"),),
        (Unit("FRANCE", "F", "eng"), Unit("FRANCE", "A", "wal")),
        (Unit("FRANCE", "F", "eng"), Unit("FRANCE", "A", "lvp")),
    ]
    owners = owners_after_month(MAP, {"wal": "ENGLAND"}, moments)
    assert owners == {
        "wal": "FRANCE",
    }  # Liverpool is a centre: owned as in the regular game
    later = owners_after_month(MAP, owners, [(Unit("ENGLAND", "A", "wal"),)])
    assert later == {"wal": "ENGLAND"}


def test_a_premium_build_costs_two_builds() -> None:
    """5.3: Germany, entitled to two builds, builds in an owned Gascony and sacrifices the
    other until the next build period; with one build due it cannot build there at all."""
    position = Position(
        "MAR1901A",
        (Unit("GERMANY", "A", "ber"),),
        centers={"GERMANY": frozenset({"ber", "kie", "mun"})},
        owners={"gas": "GERMANY"},
    )
    assert due(position)["GERMANY"] == 2
    results, units = adjust(position, {"GERMANY": [Build("A", "gas"), Build("A", "mun")]})
    assert results == ["success", "void"]
    assert units == {("GERMANY", "A", "ber"), ("GERMANY", "A", "gas")}
    one_due = Position(
        "MAR1901A",
        (Unit("GERMANY", "A", "ber"), Unit("GERMANY", "A", "kie")),
        centers={"GERMANY": frozenset({"ber", "kie", "mun"})},
        owners={"gas": "GERMANY"},
    )
    results, _ = adjust(one_due, {"GERMANY": [Build("A", "gas")]})
    assert results == ["void"]
    results, units = adjust(one_due, {"GERMANY": [Build("A", "mun")]})
    assert results == ["success"]


def test_builds_need_ownership_and_an_empty_province_and_no_army_fleets() -> None:
    position = Position(
        "JUN1901A",
        (Unit("FRANCE", "A", "par"),),
        centers={"FRANCE": frozenset({"par", "bre", "mar", "spa"})},
    )
    results, _ = adjust(
        position, {"FRANCE": [Build("A", "par"), Build("A", "bur"), Build("AF", "bre")]}
    )
    assert results == ["illegal", "illegal", "illegal"]


def test_an_army_fleet_counts_for_both_owners_and_dumped_armies_are_a_shortage() -> None:
    position = Position(
        "SEP1901A",
        (Unit("FRANCE", "AF", "eng", "GERMANY"), Unit("GERMANY", "A", "mun")),
        centers={"FRANCE": frozenset({"par", "bre"}), "GERMANY": frozenset({"mun", "ber", "kie"})},
        state={"dumped": {"GERMANY": 1}},
    )
    counts = due(position)
    assert counts["FRANCE"] == 1  # one fleet, two centres
    assert counts["GERMANY"] == 0  # an army aboard, one on land, one dumped: three


def test_gm_removals_go_furthest_from_home_first() -> None:
    """7: the unit furthest from home goes; at equal distance, one in a non-centre first."""
    units = [
        Unit("FRANCE", "A", "par"),
        Unit("FRANCE", "A", "mun"),  # a centre, two moves from Paris or Marseilles
        Unit("FRANCE", "A", "boh"),  # three from home
        Unit("FRANCE", "F", "nao"),
    ]
    board, taken = gm_removals(MAP, units, "FRANCE", 1)
    assert [(u.kind, u.loc) for u in taken] == [("A", "boh")]
    board, taken = gm_removals(
        MAP, [Unit("FRANCE", "A", "ruh"), Unit("FRANCE", "A", "mun")], "FRANCE", 1
    )
    assert [(u.kind, u.loc) for u in taken] == [("A", "ruh")]  # (1) not a supply centre


def test_gm_removals_take_the_army_of_an_army_fleet_before_its_fleet() -> None:
    """7 (2)-(4): a fleet without an army first; then an army from an army/fleet; then the
    fleet it left."""
    units = [Unit("ENGLAND", "AF", "nao"), Unit("ENGLAND", "F", "nwg")]
    _, taken = gm_removals(MAP, units, "ENGLAND", 1)
    assert [(u.kind, u.loc) for u in taken] == [("F", "nwg")]
    board, taken = gm_removals(MAP, [Unit("ENGLAND", "AF", "mao")], "ENGLAND", 1)
    assert [(u.kind, u.loc) for u in taken] == [("A", "mao")]
    assert [(u.kind, u.loc) for u in board] == [("F", "mao")]
    _, taken = gm_removals(MAP, [Unit("ENGLAND", "AF", "mao")], "ENGLAND", 2)
    assert [(u.kind, u.loc) for u in taken] == [("A", "mao"), ("F", "mao")]


def test_a_power_that_orders_no_removals_loses_units_by_rule_7() -> None:
    position = Position(
        "DEC1901A",
        (Unit("ITALY", "A", "rom"), Unit("ITALY", "A", "ber"), Unit("ITALY", "F", "nap")),
        centers={"ITALY": frozenset({"rom", "nap"})},
    )
    result = resolve_mercator_adjustments(MAP, position, {}, RULES)
    assert [(u.kind, u.loc) for u in result.disbanded] == [("A", "ber")]
    results, _ = adjust(position, {"ITALY": [Disband("F", "nap")]})
    assert results == ["success"]


def test_the_desk_counts_an_army_fleet_as_two_units_when_it_asks_who_owes_orders() -> None:
    """England holds three centres with a fleet and an army/fleet: three units, nothing owed.
    The desk asks the record, not centres minus pieces (which would see a build due)."""
    from judge.desk.settlement import owes
    from judge.variants import variant

    position = Position(
        "MAR1901A",
        (Unit("ENGLAND", "F", "lon"), Unit("ENGLAND", "AF", "nth")),
        centers={"ENGLAND": frozenset({"lon", "edi", "lvp"})},
    )
    counted = variant("mercator").rules.adjustments_due
    assert counted is not None
    due_now = counted(MAP, position)
    assert due_now["ENGLAND"] == 0
    assert not owes(MAP, position, "MAR1901A", "ENGLAND", due_now)


def test_the_desk_counts_a_premium_build_as_two_of_the_builds_due() -> None:
    """5.3: a build in an owned Gascony uses two of Germany's builds due, one at home uses one;
    a waive, a removal and a build that cannot be made are one order each."""
    from judge.variants import variant

    position = Position(
        "MAR1901A",
        (Unit("GERMANY", "A", "ber"),),
        centers={"GERMANY": frozenset({"ber", "kie", "mun"})},
        owners={"gas": "GERMANY"},
    )
    used = variant("mercator").desk.adjustments_used
    assert used is not None
    counts = {
        line: used(MAP, position, "GERMANY", line)
        for line in ("Build A Gas", "Build A Mun", "Waive", "Remove A Ber", "Build A Par")
    }
    assert counts == {
        "Build A Gas": 2,
        "Build A Mun": 1,
        "Waive": 1,
        "Remove A Ber": 1,
        "Build A Par": 1,
    }
