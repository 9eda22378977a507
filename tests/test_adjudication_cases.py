"""Every case under tests/cases (DATC, rule sets, own cases) run through `judge adjudicate`'s core.

A case is a position and steps; each step's orders go in as text, so the order reader is tested
along with the resolver, and a step's position is the one the previous step left.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from judge.adjudicate_json import run_case

CASES_DIR = Path(__file__).parent / "cases"
CASE_FOLDERS = ("datc", "rules", "engine", "variants")


def _compact(unit: dict[str, Any]) -> str:
    """``FRANCE A par``; an army/fleet carrying another power's army ``FRANCE AF eng GERMANY``."""
    army = f" {unit['army_power']}" if unit.get("army_power") else ""
    return f"{unit['power']} {unit['type']} {unit['loc']}{army}"


def _unit_object(compact: str) -> dict[str, str]:
    power, kind, loc, *army = compact.split()
    out = {"power": power, "type": kind, "loc": loc}
    if army:
        out["army_power"] = army[0]
    return out


def _load_cases() -> list[Any]:
    params = []
    for folder in CASE_FOLDERS:
        for path in sorted((CASES_DIR / folder).glob("*.json")):
            for case in json.loads(path.read_text()):
                params.append(pytest.param(case, id=f"{folder}/{case['id']}"))
    return params


def _dislodged_input(raw: dict[str, Any]) -> dict[str, Any]:
    out = dict(_unit_object(raw["unit"]))
    out["attacker_from"] = raw.get("attacker_from")
    out["attacker_convoyed"] = raw.get("attacker_convoyed", False)
    return out


@pytest.mark.parametrize("case", _load_cases())
def test_case(case: dict[str, Any]) -> None:
    position: dict[str, Any] = {
        "variant": case.get("variant", "standard"),
        "rules": case.get("rules", []),
        "phase": case["phase"],
        "units": [_unit_object(u) for u in case["units"]],
        "centers": case.get("centers", {}),
        "dislodged": [_dislodged_input(d) for d in case.get("dislodged", [])],
        "contested": case.get("contested", []),
        "civil_disorder": case.get("civil_disorder", []),
        **{k: case[k] for k in ("map", "owners", "state", "money") if k in case},
    }
    for number, step in enumerate(case["steps"], start=1):
        out = run_case({**position, "orders": step["orders"]})
        expect = step["expect"]
        where = f"{case['id']} step {number}"
        got_results = {power: [r["result"] for r in rs] for power, rs in out["results"].items()}
        reasons = {power: [r["reason"] for r in rs] for power, rs in out["results"].items()}
        assert got_results == expect["results"], f"{where}: results (reasons: {reasons})"
        if "units_after" in expect:
            got = sorted(_compact(u) for u in out["units_after"])
            assert got == sorted(expect["units_after"]), f"{where}: units after"
        if "dislodged" in expect:
            got = sorted(_compact(d) for d in out["dislodged"])
            assert got == sorted(expect["dislodged"]), f"{where}: dislodged"
        if "retreats" in expect:
            got_retreats = {d["loc"]: sorted(d["retreats"]) for d in out["dislodged"]}
            for loc, options in expect["retreats"].items():
                assert got_retreats.get(loc) == sorted(options), f"{where}: retreats of {loc}"
        if "contested" in expect:
            assert sorted(out["contested"]) == sorted(expect["contested"]), f"{where}: contested"
        if "disbanded" in expect:
            got = sorted(_compact(u) for u in out["disbanded"])
            assert got == sorted(expect["disbanded"]), f"{where}: disbanded"
        if "centers_after" in expect:
            want = {p: sorted(c) for p, c in expect["centers_after"].items() if c}
            got_c = {p: sorted(c) for p, c in out["centers_after"].items() if c}
            assert got_c == want, f"{where}: centres after"
        if "next_phase" in expect:
            assert out["next_phase"] == expect["next_phase"], f"{where}: next phase"
        if "victory" in expect:
            assert out["victory"] == expect["victory"], f"{where}: victory"
        if "time_scales" in expect:  # Mercator: the time scale each order took effect in
            got_ts = {p: [r.get("time_scale", 0) for r in rs] for p, rs in out["results"].items()}
            assert got_ts == expect["time_scales"], f"{where}: time scales"
        if "dislodged_in" in expect:  # Mercator: the time scale of each dislodgement
            got_in = {d["loc"]: d.get("time_scale", 0) for d in out["dislodged"]}
            assert got_in == expect["dislodged_in"], f"{where}: dislodged in"
        if "owners_after" in expect:
            assert out["owners_after"] == expect["owners_after"], f"{where}: owners after"
        if "reasons" in expect:  # words each result's reason must hold, where given
            for power, words in expect["reasons"].items():
                for i, word in enumerate(words):
                    assert word in reasons[power][i], f"{where}: reason {power} {i}: {reasons}"
        if "money_after" in out:  # Mercenary: the money adds up, and what the case expects
            _check_money(where, position.get("money"), out, expect)
        position = {
            **position,
            "phase": out["next_phase"],
            "units": out["units_after"],
            "centers": out["centers_after"],
            "dislodged": out["dislodged"],
            "contested": out["contested"],
            **(
                {"owners": out["owners_after"], "state": out["state_after"]}
                if "owners_after" in out
                else {}
            ),
            **({"money": out["money_after"]} if "money_after" in out else {}),
        }


def _check_money(
    where: str, before: dict[str, Any] | None, out: dict[str, Any], expect: dict[str, Any]
) -> None:
    """Every pound of the phase is accounted for: each currency's holdings after are those
    before plus what the bank paid out less what it took in, and no holding is below zero;
    then the holdings, values, alliances and payments the case expects."""
    after = out["money_after"]
    payments = out["payments"]
    if before is not None and "holdings" in before:
        totals: dict[str, int] = {}
        for held in before["holdings"].values():
            for currency, amount in held.items():
                totals[currency] = totals.get(currency, 0) + amount
        for p in payments:
            if p["from"] == "BANK":
                totals[p["currency"]] = totals.get(p["currency"], 0) + p["amount"]
            if p["to"] == "BANK":
                totals[p["currency"]] = totals.get(p["currency"], 0) - p["amount"]
        got: dict[str, int] = {}
        for held in after["holdings"].values():
            for currency, amount in held.items():
                assert amount >= 0, f"{where}: a holding below zero: {after['holdings']}"
                got[currency] = got.get(currency, 0) + amount
        want = {c: n for c, n in totals.items() if n}
        assert got == want, f"{where}: the money does not add up: {got} against {want}"
    for power, held in expect.get("holdings_after", {}).items():
        got_held = {c: n for c, n in after["holdings"].get(power, {}).items() if n}
        assert got_held == held, f"{where}: holdings of {power}: {got_held}"
    for currency, value in expect.get("values_after", {}).items():
        assert after["values"][currency] == value, (
            f"{where}: value of {currency}: {after['values']}"
        )
    if "alliances_after" in expect:
        assert after["alliances"] == expect["alliances_after"], f"{where}: alliances"
    if "payments" in expect:
        got_p = [[p["from"], p["to"], p["currency"], p["amount"], p["why"]] for p in payments]
        assert len(got_p) == len(expect["payments"]), f"{where}: payments {got_p}"
        for got_one, want_one in zip(got_p, expect["payments"], strict=True):
            assert got_one[:4] == want_one[:4], f"{where}: payments {got_p}"
            assert got_one[4].startswith(want_one[4]), f"{where}: payment's why {got_p}"
