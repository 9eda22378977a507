"""Mercenary by mail: how the desk reads a money line or second order when it arrives, leaving an
Alliance of Currency at once (rule 8 c), and the game master's change to a ledger (rule 11).

A line is checked on arrival against the board and the money as they stand (checks.py), so a
mistake (an unknown currency, more than the balance, a foreign-to-foreign conversion) is
answered at once, naming the line. Each line is kept under a key, and a later line with the
same key replaces it: one second order a unit (rule 5 a), one offer a payee, currency and
condition, one bid an order's unit, one conversion a pair of currencies, one alliance wish. A sum of 0 takes
a line back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from judge.engine.geography import Map
from judge.engine.position import province_of
from judge.engine.resolve import never_succeeds
from judge.engine.results import BANK, Payment
from judge.engine.rules import rules_from_names
from judge.language.errors import OrderSyntaxError
from judge.variants import DeskLine
from judge.variants.mercenary.checks import in_game, line_problem, names, pounds
from judge.variants.mercenary.language import full_text, is_money_line, parse_line, short_text
from judge.variants.mercenary.money import (
    counted_centres,
    exchange_values,
    fraction_text,
    money_of,
    payment_json,
)
from judge.variants.mercenary.orders import (
    AllianceWish,
    Bid,
    Conversion,
    LeaveAlliance,
    Offer,
    SecondOrder,
)
from judge.variants.mercenary.phases import NOT_THIS_PHASE, money_in, spending

_RULES = rules_from_names(["postal-1972"])


def desk_key(value: Any, power: str) -> str:
    """What a line is for, so that a later line for the same thing replaces it (at most 32
    characters; never a bare province, which names a unit's own order)."""
    if isinstance(value, SecondOrder):
        return f"if:{province_of(value.order.loc)}"  # type: ignore[union-attr]
    if isinstance(value, Offer):
        key = f"pay:{value.payee.lower()}:{(value.currency or power).lower()}"
        if value.condition is not None:
            key += f":{province_of(value.condition.loc)}"  # type: ignore[union-attr]
        return key
    if isinstance(value, Bid):
        return f"bid:{province_of(value.order.loc)}"  # type: ignore[union-attr]
    if isinstance(value, Conversion):
        return f"cv:{(value.source or power).lower()}>{value.target.lower()}"
    return "aoc"


def read_desk_line(
    game_map: Map, text: str, line_no: int, context: dict[str, Any]
) -> DeskLine | None:
    """A mail's money line or second order for the desk; None for a standard order line."""
    if not is_money_line(text):
        return None
    try:
        value = parse_line(text, game_map, line_no)
    except OrderSyntaxError as exc:
        return DeskLine(error=str(exc))
    position, power = context["position"], context["power"]
    if not isinstance(value, SecondOrder | Offer | Bid | Conversion | AllianceWish | LeaveAlliance):
        return None  # a standard order after all
    money = money_in(position, game_map)
    problem = line_problem(game_map, position, money, power, value)
    if problem is not None:
        return DeskLine(error=f"line {line_no}: {problem}")
    if isinstance(value, LeaveAlliance):
        return DeskLine(at_once=functools.partial(leave_alliance_now, game_map, power))
    if not str(context.get("phase", "")).endswith("M"):
        return DeskLine(error=f"line {line_no}: {NOT_THIS_PHASE}")
    if isinstance(value, SecondOrder):
        why = never_succeeds(game_map, position, power, value.order, _RULES)
        if why is not None:
            return DeskLine(error=f"line {line_no}: {why}")
    key = desk_key(value, power)
    standing: dict[str, str] = context.setdefault("standing", {})
    overdraw = _overdraw(game_map, money.balance, power, value, key, standing)
    if overdraw is not None:
        return DeskLine(error=f"line {line_no}: {overdraw}")
    stored = short_text(value, power, game_map)
    standing[key] = stored
    full = full_text(value, power, game_map)
    if getattr(value, "amount", None) == 0:
        full += " (a sum of 0: takes back an earlier line for the same)"
    return DeskLine(orders=[(key, stored, full)])


def _overdraw(
    game_map: Map,
    balance: Callable[[str, str], int],
    power: str,
    value: Any,
    key: str,
    standing: Mapping[str, str],
) -> str | None:
    """Why the line would make the seat's standing lines spend more of a currency than it
    holds (rule 10), or None: every pound a season's lines may spend must be there."""
    spend = spending(power, value)
    if spend is None:
        return None
    currency, amount = spend
    committed = 0
    for other_key, text in standing.items():
        if other_key == key:
            continue  # the line this one replaces
        try:
            other = parse_line(text, game_map)
        except OrderSyntaxError:
            continue
        other_spend = spending(power, other)
        if other_spend is not None and other_spend[0] == currency:
            committed += other_spend[1]
    held = balance(power, currency)
    if committed + amount <= held:
        return None
    return (
        f"{power.title()} holds {pounds(held, currency, game_map)} and its other lines this "
        f"season may spend {committed} of them: {amount} more would overdraw (rule 10: no "
        "deficits)"
    )


def _values_text(values: Mapping[str, Any], game_map: Map) -> str:
    return ", ".join(
        f"{game_map.powers[c].adjective} {fraction_text(v)}" for c, v in sorted(values.items())
    )


def leave_alliance_now(
    game_map: Map, power: str, case: Mapping[str, Any]
) -> tuple[dict[str, Any], str]:
    """Rule 8 c: `power` leaves its Alliance of Currency at once; the currencies are valued
    again on the centres held. The stored case after, and the announcement."""
    centers = dict(case.get("centers") or {})
    money = money_of(case.get("money", {}), game_map, centers)
    members = money.alliance_of(power)
    if members is None:
        raise ValueError(f"{power.title()} is in no Alliance of Currency")
    others = tuple(p for p in members if p != power)
    alliances = tuple(
        sorted(a for a in (*(m for m in money.alliances if m != members), others) if len(a) > 1)
    )
    money.alliances = alliances
    money.values = exchange_values(counted_centres(game_map, centers), alliances)
    announcement = (
        f"{power.title()} has left its Alliance of Currency with {names(others)} "
        f"(rule 8 c), at once.\n"
        + (
            f"The Alliance of Currency of {names(others)} stands.\n"
            if len(others) > 1
            else f"The Alliance of Currency is ended: {names(others)} is in none now.\n"
        )
        + f"The currencies are now worth: {_values_text(money.values, game_map)}."
    )
    return {**case, "money": money.to_json()}, announcement


def adjust_holding(
    case: Mapping[str, Any], power: str, currency: str, change: int, why: str
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Rule 11: the game master adds pounds to a power's holding (from the bank) or takes them
    (to the bank); never below zero. The stored case after, the ledger entry and the
    announcement."""
    from judge.variants import board_of

    game_map = board_of("mercenary")
    if power not in game_map.powers:
        raise ValueError(f"{power!r} is no power of this game")
    if currency not in game_map.powers:
        raise ValueError(f"{currency!r} is no currency of this game (named by its power)")
    if change == 0:
        raise ValueError("a change of 0 pounds changes nothing")
    centers = dict(case.get("centers") or {})
    money = money_of(case.get("money", {}), game_map, centers)
    held = money.balance(power, currency)
    if change < 0 and held < -change:
        raise ValueError(
            f"{power.title()} holds {pounds(held, currency, game_map)}: {-change} cannot be "
            "taken (rule 10: no deficits)"
        )
    if change > 0 and not in_game_case(case, power):
        raise ValueError(f"{power.title()} is out of the game")
    money.holdings.setdefault(power, {})[currency] = held + change
    reason = f"rule 11: the game master's change{': ' + why if why else ''}"
    entry = (
        Payment(BANK, power, currency, change, reason)
        if change > 0
        else Payment(power, BANK, currency, -change, reason)
    )
    verb = f"gives {power.title()}" if change > 0 else f"takes from {power.title()}"
    text = (
        f"The game master {verb} {pounds(abs(change), currency, game_map)} (rule 11)"
        f"{': ' + why if why else ''}.\n"
        f"{power.title()} now holds {pounds(held + change, currency, game_map)}."
    )
    return {**case, "money": money.to_json()}, payment_json(entry), text


def in_game_case(case: Mapping[str, Any], power: str) -> bool:
    units = case.get("units") or []
    return any(str(u.get("power", "")).upper() == power for u in units) or bool(
        (case.get("centers") or {}).get(power)
    )


__all__ = ["adjust_holding", "desk_key", "in_game", "leave_alliance_now", "read_desk_line"]
