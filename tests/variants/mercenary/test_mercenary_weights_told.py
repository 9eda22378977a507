"""Rule 7 d in the results: when the season's conversions change a currency's value, each bid's
result says the weight it counted at, so that a player can check why one side beat the other;
without such a change the results say nothing of weights."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from judge.adjudicate_json import read_case
from judge.variants import variant

CASES = json.loads(
    (Path(__file__).resolve().parents[2] / "cases" / "variants" / "mercenary.json").read_text()
)


def bid_reasons(case_id: str) -> dict[str, list[str]]:
    found = next(c for c in CASES if c["id"] == case_id)
    case: dict[str, Any] = {k: v for k, v in found.items() if k not in ("steps", "title", "id")}
    case["units"] = [
        dict(zip(("power", "type", "loc"), u.split(), strict=True)) for u in case["units"]
    ]
    case["orders"] = found["steps"][0]["orders"]
    game_map, position, orders, rules = read_case(case)
    mercenary = variant("mercenary")
    result = mercenary.rules.adjudicate(
        game_map, position, mercenary.language.read_orders(game_map, orders).orders, rules
    )
    return {
        power: [r.reason for line, r in zip(orders[power], results, strict=True) if "BID" in line]
        for power, results in result.results.items()
    }


def test_each_bid_says_its_weight_when_a_conversion_changed_a_value() -> None:
    # 700 of 2000 Russian pounds converted away: Russia's 100 weigh 65 against Germany's 66.
    reasons = bid_reasons("mercenary-7d-35-percent-66")
    assert reasons["RUSSIA"] == [
        "paid 100 Russian pounds: the order met an equal force; counted at 13/20 (0.650) a "
        "pound this season (rule 7 d), a weight of 65"
    ]
    assert reasons["GERMANY"] == [
        "paid 66 German pounds: the order met an equal force; counted at 1 a pound this season "
        "(rule 7 d), a weight of 66"
    ]


def test_no_weights_are_told_when_no_value_changed() -> None:
    reasons = bid_reasons("mercenary-7d-without-conversion")
    assert all("weight" not in why for told in reasons.values() for why in told)
    assert any(told for told in reasons.values())
