"""What is wrong with one money line or second order, on the board and the money as they stand:
the same words when the line arrives by mail (the desk's echo) and when the season is
adjudicated (its result). Whether a season's lines together overdraw a balance is the
adjudication's (phases.py: the lines are reserved in the order written).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from judge.engine.geography import Map
from judge.engine.position import Position, province_of
from judge.variants.mercenary.matching import is_movement_order
from judge.variants.mercenary.money import Money
from judge.variants.mercenary.orders import (
    AllianceWish,
    Bid,
    Conversion,
    LeaveAlliance,
    Offer,
    SecondOrder,
)


def pounds(amount: int, currency: str, game_map: Map) -> str:
    """``200 German pounds``."""
    info = game_map.powers.get(currency)
    adjective = info.adjective if info is not None else currency.title()
    return f"{amount} {adjective} pound{'' if amount == 1 else 's'}"


def in_game(position: Position, power: str) -> bool:
    """A power with a unit or a centre left (rule 10: one without is out, its money gone)."""
    return any(u.power == power for u in position.units) or bool(position.centers.get(power))


def _short_of(game_map: Map, money: Money, power: str, currency: str, amount: int) -> str | None:
    held = money.balance(power, currency)
    if amount <= held:
        return None
    return (
        f"{power.title()} holds {pounds(held, currency, game_map)}, not {amount} "
        "(rule 10: no deficits)"
    )


def _unit_problem(game_map: Map, position: Position, loc: str, owner: str | None) -> str | None:
    unit = position.unit_in(province_of(loc))
    where = game_map.provinces[province_of(loc)].name
    if unit is None:
        return f"there is no unit in {where}"
    if owner is not None and unit.power != owner:
        return f"the unit in {where} is {unit.power.title()}'s, not {owner.title()}'s"
    return None


def _partner_problem(position: Position, power: str, other: str, what: str) -> str | None:
    if other == power:
        return f"{power.title()} cannot be its own {what}"
    if not in_game(position, other):
        return f"{other.title()} is out of the game"
    return None


def line_problem(
    game_map: Map, position: Position, money: Money, power: str, value: Any
) -> str | None:
    """Why `power` may not give this line now, or None. Plain orders are the engine's."""
    if isinstance(value, SecondOrder):
        if not is_movement_order(value.order):
            return "a second order is a movement order (rule 5 a)"
        return _partner_problem(position, power, value.payer, "payer") or _unit_problem(
            game_map,
            position,
            value.order.loc,
            power,  # type: ignore[union-attr]
        )
    if isinstance(value, Offer):
        currency = value.currency or power
        problem = _partner_problem(position, power, value.payee, "payee")
        if problem is None and value.condition is not None:
            if not is_movement_order(value.condition):
                return "an offer's condition is a movement order (rule 5 b)"
            problem = _unit_problem(
                game_map,
                position,
                value.condition.loc,  # type: ignore[union-attr]
                value.payee,
            )
        return problem or _short_of(game_map, money, power, currency, value.amount)
    if isinstance(value, Bid):
        if value.currency is not None and value.currency != power:
            return (
                f"a bid is made in the bidder's own currency (rule 6): {power.title()} bids "
                f"{game_map.powers[power].adjective} pounds"
            )
        if not is_movement_order(value.order):
            return "a bid is on a movement order (rule 6)"
        problem = _unit_problem(game_map, position, value.order.loc, None)  # type: ignore[union-attr]
        if problem is not None:
            return problem
        unit = position.unit_in(province_of(value.order.loc))  # type: ignore[union-attr]
        assert unit is not None
        if unit.power != power and not money.values.get(unit.power):
            return (
                f"{game_map.powers[unit.power].adjective} pounds are worth nothing: no bid can "
                "be converted into them (rule 6 d)"
            )
        if unit.power != power and not money.values.get(power):
            return (
                f"{game_map.powers[power].adjective} pounds are worth nothing: they buy no "
                "other currency (rule 6 d)"
            )
        return _short_of(game_map, money, power, power, value.amount)
    if isinstance(value, Conversion):
        source = value.source or power
        if source == value.target:
            return "a conversion changes one currency into another"
        if power not in (source, value.target):
            return (
                "rule 7 c: no conversion from one foreign currency to another (convert into "
                f"{game_map.powers[power].adjective} pounds first)"
            )
        for currency in (value.target, source):
            if not money.values.get(currency):
                return f"{game_map.powers[currency].adjective} pounds are worth nothing"
        return _short_of(game_map, money, power, source, value.amount)
    if isinstance(value, AllianceWish):
        if not value.partners:
            return "an Alliance of Currency needs another power"
        for partner in value.partners:
            problem = _partner_problem(position, power, partner, "partner")
            if problem is not None:
                return problem
        if len(set(value.partners)) != len(value.partners):
            return "a power is named twice"
        return None
    if isinstance(value, LeaveAlliance):
        if money.alliance_of(power) is None:
            return f"{power.title()} is in no Alliance of Currency"
        return None
    return None


def alliance_members(power: str, wish: AllianceWish) -> tuple[str, ...]:
    return tuple(sorted({power, *wish.partners}))


def names(powers: Iterable[str]) -> str:
    """``France``, ``France and Italy``, ``Austria, France and Italy``."""
    titles = [p.title() for p in powers]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else "".join(titles)
