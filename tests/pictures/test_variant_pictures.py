"""Every variant case (tests/cases/variants: Mercator, Mercenary, 1885, ...) drawn after its first
step: the SVG is well formed, every unit after the phase and every dislodged unit is in it, and
the variant's own orders are drawn (Mercator's boardings, landings, ferries and chain convoys,
1885's boardings and disembarkations) as arrows, none of them lost."""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from judge.adjudicate_json import read_variant_case, run_case
from judge.pictures.board import order_shape
from judge.pictures.source import PictureSource, _orders, picture_svg

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))
from test_adjudication_cases import _dislodged_input, _unit_object  # noqa: E402

# Variants whose own order values move units (boardings, landings, ferries): drawn as arrows.
MOVING_OWN_ORDERS = {"mercator", "1885"}


def cases() -> list[Any]:
    found = []
    for path in sorted((TESTS / "cases" / "variants").glob("*.json")):
        for case in json.loads(path.read_text()):
            found.append(pytest.param(case, id=f"{path.stem}/{case['id']}"))
    return found


@pytest.mark.parametrize("raw", cases())
def test_a_variant_case_is_drawn_whole(raw: dict[str, Any]) -> None:
    case = {
        "variant": raw.get("variant", "standard"),
        "rules": raw.get("rules", []),
        "phase": raw["phase"],
        "units": [_unit_object(u) for u in raw["units"]],
        "centers": raw.get("centers", {}),
        "dislodged": [_dislodged_input(d) for d in raw.get("dislodged", [])],
        **{k: raw[k] for k in ("map", "owners", "state", "money") if k in raw},
        "orders": raw["steps"][0]["orders"],
    }
    out = run_case(case)
    source = PictureSource(case, case["orders"], out)
    svg = picture_svg(source)
    assert svg is not None
    ids = {e.attrib["id"] for e in ET.fromstring(svg).iter() if "id" in e.attrib}
    for unit in out["units_after"]:
        assert f"u-{unit['power']}-{unit['loc']}" in ids
    for d in out["dislodged"]:
        assert f"d-{d['power']}-{d['loc']}" in ids
    checked = read_variant_case(case)
    drawable = [
        o
        for _, o, _, _ in _orders(checked, source)
        if order_shape(o, checked.variant.picture.order) is not None
    ]
    # Each order once on the map ("o-N"; a crowded part drawn again repeats its own, "o-N-2").
    assert sum(1 for i in ids if re.fullmatch(r"o-\d+", i)) == len(drawable)
    shape = checked.variant.picture.order
    if checked.variant.name in MOVING_OWN_ORDERS:
        assert shape is not None
    if shape is None:
        return  # no orders of its own to draw (Mercenary's money lines move no unit)
    for _, order, _, _ in _orders(checked, source):
        inner = getattr(order, "order", order)
        if "variants" in type(inner).__module__ and type(inner).__name__ != "ChooseUnit":
            assert shape(inner) is not None, inner  # 1885's Rome: Fleet draws nothing


@pytest.mark.parametrize(
    ("variant", "units", "counts"),
    [
        # 1885: an army/fleet is two units of its power.
        ("1885", ["FRANCE AF wes", "ITALY A naf"], {"France": 2, "Italy": 1}),
        # Mercator: an army/fleet counts for its fleet's power and its army's.
        ("mercator", ["FRANCE AF eng ENGLAND", "ENGLAND A lon"], {"France": 1, "England": 2}),
        ("standard", ["FRANCE F eng", "ENGLAND A lon"], {"France": 1, "England": 1}),
    ],
)
def test_the_legend_counts_units_by_the_variants_rules(
    variant: str, units: list[str], counts: dict[str, int]
) -> None:
    case = {
        "variant": variant,
        "map": "standard",
        "phase": "S1901M" if variant == "standard" else "JAN1901M",
        "units": [_unit_object(u) for u in units],
        "centers": {},
    }
    svg = picture_svg(PictureSource(case))
    assert svg is not None
    legend = "".join(
        next(e for e in ET.fromstring(svg).iter() if e.get("id") == "legend").itertext()
    )
    for power, count in counts.items():
        assert f"{power}: 0 centres, {count} units" in legend
