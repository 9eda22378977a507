"""1885's rules beyond the cases of tests/cases/variants/1885.json: the right-hand rule's order,
the GM's removals, the life of an army/fleet through a retreat, the wins."""

from __future__ import annotations

from typing import Any

from judge.adjudicate_json import run_case
from judge.engine.position import Dislodged, Unit
from judge.engine.results import PhaseResult
from judge.map_files import load_map
from judge.variants.v1885.adjustments import first_build_rights, short_homes
from judge.variants.v1885.clockwise import clockwise, right_hand_order, right_hand_retreat
from judge.variants.v1885.removals import gm_removals
from judge.variants.v1885.victory import decide_claims

BOARD = load_map("1885")
STANDARD = load_map("standard")


def _units(*compact: str) -> list[dict[str, str]]:
    out = []
    for text in compact:
        power, kind, loc = text.split()
        out.append({"power": power, "type": kind, "loc": loc})
    return out


def _case(phase: str, units: list[str], orders: dict[str, list[str]], **more: Any) -> dict:
    return run_case(
        {
            "variant": "1885",
            "phase": phase,
            "units": _units(*units),
            "orders": orders,
            "state": more.pop("state", {"months": 1}),
            **more,
        }
    )


# --- the right-hand rule ------------------------------------------------------------------
def test_the_right_hand_rule_turns_clockwise_from_the_attacker() -> None:
    # Serbia's ring on the 1885 board: Budapest, Cluj, Rumania, Bulgaria, Macedonia, Albania,
    # Split. Facing Bulgaria, the unit's right hand points to Macedonia, then Albania...
    assert clockwise(BOARD, "ser") == ("bud", "clu", "rum", "bul", "mac", "alb", "spl")
    assert right_hand_order(BOARD, "ser", "bul") == [
        "mac",
        "alb",
        "spl",
        "bud",
        "clu",
        "rum",
        "bul",
    ]
    army = Dislodged(Unit("AUSTRIA", "A", "ser"), "bul")
    assert right_hand_retreat(BOARD, army, ["alb", "clu", "rum"], "bul") == "alb"
    assert right_hand_retreat(BOARD, army, ["clu", "rum"], "bul") == "clu"
    assert right_hand_retreat(BOARD, army, [], "bul") is None
    # Facing no neighbour (nobody recorded): from the first the ring lists.
    assert right_hand_retreat(BOARD, army, ["rum", "clu"], None) == "clu"


def test_an_army_fleet_turns_to_the_first_sea_then_the_first_coast() -> None:
    af = Dislodged(Unit("FRANCE", "AF", "lyo"), "tys")
    # Gulf of Lyon's ring: Marseilles, Piedmont, Tuscany, Tyrrhenian, Western Med, Valencia.
    assert right_hand_retreat(BOARD, af, ["mar", "val", "wes"], "tys") == "wes"
    assert right_hand_retreat(BOARD, af, ["mar", "pie", "val"], "tys") == "val"


def test_a_board_without_rings_takes_the_neighbours_alphabetically() -> None:
    assert clockwise(STANDARD, "ser") == ("alb", "bud", "bul", "gre", "rum", "tri")
    army = Dislodged(Unit("AUSTRIA", "A", "ser"), "bul")
    assert right_hand_retreat(STANDARD, army, ["alb", "rum", "tri"], "bul") == "rum"


# --- the GM's removals --------------------------------------------------------------------
def test_the_gm_takes_the_army_aboard_before_a_fleet_at_equal_stake() -> None:
    units = [Unit("ENGLAND", "AF", "nth"), Unit("ENGLAND", "F", "lon")]
    board, removed = gm_removals(STANDARD, units, "ENGLAND", 1, frozenset({"lon", "edi"}))
    assert removed == [Unit("ENGLAND", "A", "nth")]
    assert board == [Unit("ENGLAND", "F", "nth"), Unit("ENGLAND", "F", "lon")]


def test_the_army_aboard_goes_before_a_unit_further_from_home() -> None:
    """IV c, as rule 10 c is read: an army aboard goes before any other piece that guards as
    little, though the fleet in the North Atlantic is further from home."""
    units = [Unit("ENGLAND", "AF", "eng"), Unit("ENGLAND", "F", "nao")]
    _board, removed = gm_removals(STANDARD, units, "ENGLAND", 1, frozenset({"lon"}))
    assert removed == [Unit("ENGLAND", "A", "eng")]


def test_the_gm_keeps_the_unit_guarding_a_threatened_centre() -> None:
    # A German army in Belgium guards it from the French army in Picardy; the German fleet in
    # the Baltic, nearer home but guarding nothing threatened, goes (the 2023 rule, by
    # distance alone, would take the army in Belgium's neighbour first).
    units = [
        Unit("GERMANY", "A", "bel"),
        Unit("GERMANY", "F", "bal"),
        Unit("GERMANY", "A", "ber"),
        Unit("FRANCE", "A", "pic"),
    ]
    _board, removed = gm_removals(STANDARD, units, "GERMANY", 1, frozenset({"ber", "bel"}))
    assert removed == [Unit("GERMANY", "F", "bal")]
    _board, removed = gm_removals(STANDARD, units, "GERMANY", 2, frozenset({"ber", "bel"}))
    assert removed == [Unit("GERMANY", "F", "bal"), Unit("GERMANY", "A", "ber")]


def test_an_army_fleet_removed_by_order_takes_two_removals() -> None:
    out = _case(
        "MAR1901A",
        ["ENGLAND AF nth", "ENGLAND F lon"],
        {"ENGLAND": ["Remove A/F NTH"]},
        map="standard",
        centers={"ENGLAND": ["lon", "edi"]},
    )
    assert out["results"]["ENGLAND"][0]["result"] == "void"
    assert "remove its army" in out["results"]["ENGLAND"][0]["reason"]
    out = _case(
        "MAR1901A",
        ["ENGLAND AF nth", "ENGLAND F lon", "ENGLAND A yor"],
        {"ENGLAND": ["Remove A NTH"]},
        map="standard",
        centers={"ENGLAND": ["lon", "edi"]},
    )
    assert out["results"]["ENGLAND"][0]["result"] == "success"
    # The second removal is the GM's: nothing threatened, the North Sea and York equally far
    # from home, a fleet before an army.
    assert {(u["type"], u["loc"]) for u in out["disbanded"]} == {("A", "nth"), ("F", "nth")}
    out = _case(
        "MAR1901A",
        ["ENGLAND AF nth", "ENGLAND F lon", "ENGLAND A yor"],
        {"ENGLAND": ["Remove A/F NTH"]},
        map="standard",
        centers={"ENGLAND": ["lon", "edi"]},
    )
    assert out["results"]["ENGLAND"][0]["reason"] == "the fleet and its army are removed"


# --- the life of an army/fleet ------------------------------------------------------------
def test_rations_count_on_through_a_retreat() -> None:
    """II b: an army two moves at sea is dislodged with its fleet in the third, retreats, and
    starves at the end of the fourth."""
    out = _case(
        "JAN1901M",
        ["FRANCE AF lyo", "ITALY F tys", "ITALY F tus"],
        {"ITALY": ["F Tys - GoL", "F Tus S F Tys - GoL"]},
        map="standard",
        state={"months": 2, "aboard": {"lyo": 2}},
    )
    assert out["state_after"]["aboard"] == {"lyo": 3}
    retreat = run_case(
        {
            "variant": "1885",
            "map": "standard",
            "phase": out["next_phase"],
            "units": out["units_after"],
            "dislodged": out["dislodged"],
            "state": out["state_after"],
            "owners": {},
            "orders": {"FRANCE": ["A/F GoL - WMed"]},
        }
    )
    assert retreat["state_after"]["aboard"] == {"wes": 3}
    fourth = run_case(
        {
            "variant": "1885",
            "map": "standard",
            "phase": retreat["next_phase"],
            "units": retreat["units_after"],
            "state": retreat["state_after"],
            "owners": {},
            "orders": {"FRANCE": ["A/F WMed H"]},
        }
    )
    assert {"power": "FRANCE", "type": "A", "loc": "wes"} in fourth["disbanded"]
    assert {"power": "FRANCE", "type": "F", "loc": "wes"} in fourth["units_after"]


def test_an_army_picked_up_again_starts_its_rations_afresh() -> None:
    """III e: landed, then picked up by the same fleet the next move: one move at sea."""
    out = _case("FEB1901M", ["FRANCE A mar", "FRANCE F lyo"], {"FRANCE": ["A Mar boards F GoL"]},
                map="standard", state={"months": 1, "aboard": {}})  # fmt: skip
    assert out["state_after"]["aboard"] == {"lyo": 1}


# --- rule 11 ------------------------------------------------------------------------------
def test_the_home_left_empty_is_macedonia() -> None:
    assert short_homes(BOARD) == {"mac": "TURKEY"}
    assert first_build_rights(BOARD, [Unit("AUSTRIA", "A", "mac")]) == {"mac": False}
    assert first_build_rights(BOARD, [Unit("TURKEY", "A", "mac")]) == {"mac": True}
    assert first_build_rights(BOARD, []) == {"mac": True}


# --- wins ---------------------------------------------------------------------------------
LAND = [
    "lon", "bur", "pic", "gas", "edi", "lvp", "bel", "hol", "ruh", "mun", "kie", "ber", "dre",
    "sil", "pru", "boh", "tyr", "vie", "bud", "gal", "war", "mos", "ukr", "lvn", "fin",
]  # fmt: skip


def test_twenty_three_units_win() -> None:
    units = [f"FRANCE A {p}" for p in LAND[:22]]
    out = _case("MAR1885A", units, {"FRANCE": ["Build F Bre"]},
                centers={"FRANCE": ["par", "bre", "mar", "bel", "hol", "mun", "kie", "ber",
                                    "dre", "vie", "bud", "war", "mos", "swi", "den", "mad",
                                    "cad", "val", "por", "bas", "nwy", "sto", "mal"]},
                owners={}, map="1885")  # fmt: skip
    assert out["results"]["FRANCE"][0]["result"] == "success"
    assert out["victory"] == ["FRANCE"]
    fewer = _case("MAR1885A", units[:21], {}, map="1885")
    assert fewer["victory"] == []


def test_an_army_fleet_counts_two_units_for_a_win() -> None:
    units = [f"FRANCE A {p}" for p in LAND[:21]] + ["FRANCE AF lyo"]
    out = _case("APR1885M", units, {}, map="1885")
    assert out["victory"] == ["FRANCE"]


def _result(phase: str, units: list[Unit]) -> PhaseResult:
    return PhaseResult(phase, {}, tuple(units), {}, "")


def test_an_alliance_victory_needs_thirty_units_at_the_end_of_a_fall_type_move() -> None:
    units = [Unit("FRANCE" if i < 14 else "GERMANY", "A", p) for i, p in enumerate(LAND)]
    units += [Unit("GERMANY", "AF", "nth"), Unit("GERMANY", "F", "bal")]
    units += [Unit("GERMANY", "F", "hel"), Unit("GERMANY", "F", "ska")]
    assert len(units) == 29  # thirty units: the army/fleet counts two
    pair = frozenset({"FRANCE", "GERMANY"})
    claims = {"FRANCE": pair, "GERMANY": pair}
    assert decide_claims(BOARD, _result("JUN1885M", units), claims) == ("FRANCE", "GERMANY")
    assert decide_claims(BOARD, _result("MAY1885M", units), claims) == ()  # no fall-type move
    assert decide_claims(BOARD, _result("JUN1885A", units), claims) == ()  # not a move
    assert decide_claims(BOARD, _result("JUN1885M", units[:-1]), claims) == ()  # 29
    assert decide_claims(BOARD, _result("JUN1885M", units), {"FRANCE": pair}) == ()
    three = frozenset({"FRANCE", "GERMANY", "ITALY"})
    units3 = [*units, Unit("ITALY", "A", "rom")]
    assert decide_claims(BOARD, _result("JUN1885M", units3), dict.fromkeys(three, three)) == ()


def test_what_each_power_owes_before_the_retreats_sent_with_the_builds() -> None:
    """The desk asks who owes orders in an adjustment phase; with retreats still to come the
    centres are counted as the units on the board leave them, an army/fleet as two units."""
    from judge.engine.position import Position
    from judge.variants.v1885.adjustments import adjustments_due

    position = Position(
        phase="JUN1885A",
        units=(
            Unit("ITALY", "A", "mar"),
            Unit("ITALY", "F", "lyo"),
            Unit("ITALY", "F", "nap"),
            Unit("TURKEY", "AF", "aeg"),
            Unit("TURKEY", "A", "con"),
        ),
        centers={"ITALY": frozenset({"nap", "rom", "ven"}), "TURKEY": frozenset({"con", "smy"})},
        dislodged=(Dislodged(Unit("FRANCE", "A", "mar"), "pie"),),
    )
    due = adjustments_due(BOARD, position)
    assert due["ITALY"] == 1  # Marseilles is Italy's once the French army has gone
    assert due["TURKEY"] == -1  # the army/fleet is two units
