"""Mercenary Diplomacy II (Patrick McHale, ../shared/seeds/001): the standard board under the
1971 rules, with money. Every power holds pounds of its own currency and others', worth what its
centres are worth against the strongest power's; players bribe each other's units with second
orders, offer and transfer money, bid money to break stand-offs, convert currencies and form
Alliances of Currency. Readings in docs/RULES.md; the design in docs/VARIANTS.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.engine.calendar import STANDARD as STANDARD_CALENDAR
from judge.engine.geography import Map
from judge.engine.results import PhaseResult
from judge.variants import CaseFields, Desk, Language, Report, Rulebook, Variant
from judge.variants.mercenary.desk import adjust_holding, read_desk_line
from judge.variants.mercenary.help import HELP, start_notes
from judge.variants.mercenary.language import read_mercenary_orders
from judge.variants.mercenary.money import (
    money_of,
    opening_money,
    opening_payments,
    payment_json,
)
from judge.variants.mercenary.phases import MONEY_KEY, adjudicate_mercenary


def _read(case: Mapping[str, Any], game_map: Map) -> dict[str, Any]:
    """A case's ``"money"`` (checked; the opening money when there is none) into the
    position's state."""
    centers = {str(p).upper(): v for p, v in dict(case.get("centers") or {}).items()}
    if "money" not in case:
        return {MONEY_KEY: opening_money(game_map, centers).to_json()}
    return {MONEY_KEY: money_of(case["money"], game_map, centers).to_json()}


def _write(result: PhaseResult) -> dict[str, Any]:
    money = dict(result.state_after or {}).get(MONEY_KEY, {})
    return {"money_after": money, "payments": [payment_json(p) for p in result.payments]}


def _carry(results: Mapping[str, Any]) -> dict[str, Any]:
    return {"money": results["money_after"]} if "money_after" in results else {}


def _opening(game_map: Map) -> dict[str, Any]:
    return {"money": opening_money(game_map, _home_centres(game_map)).to_json()}


def _home_centres(game_map: Map) -> dict[str, frozenset[str]]:
    return {name: power.home_centres for name, power in game_map.powers.items()}


def _opening_payments(game_map: Map) -> list[dict[str, Any]]:
    return [payment_json(p) for p in opening_payments(game_map)]


def _results_text(report: object) -> str:
    """The results layout (report.py), imported when results are written."""
    from judge.variants.mercenary.report import mercenary_text

    return mercenary_text(report)  # type: ignore[arg-type]


MERCENARY = Variant(
    name="mercenary",
    title="Mercenary",
    default_map="standard",
    maps=("standard",),
    calendar=STANDARD_CALENDAR,
    rules=Rulebook(
        adjudicate=adjudicate_mercenary,
        rule_sets=("postal-1972",),
        case_fields=CaseFields(
            read=_read,
            write=_write,
            carry=_carry,
            opening=_opening,
            opening_payments=_opening_payments,
        ),
    ),
    language=Language(
        read_orders=read_mercenary_orders,
        read_desk_line=read_desk_line,
        order_grammar="mercenary",  # grammar/mercenary.lark
    ),
    rules_text="Mercenary Diplomacy II (re14) on the 1971 rules, with the readings in "
    "docs/RULES.md",
    desk=Desk(help=HELP, start_notes=start_notes, adjust_holding=adjust_holding),
    report=Report(results_text=_results_text),
)
