"""1885's orders checked when they arrive (the Variant record's `check_orders`), by the rules
the adjudication uses: `language.arrival_problem` (a unit not the power's, an army/fleet of
two powers, a Fast Ferry across a second sea, a retreat where the unit may not go, a build
where the board says none can be), a fleet's move to a place it cannot reach, and in a build
phase the power's builds and removals adjudicated alone by `adjustments.resolve_adjustments`
(more builds than are due, a removal not due). What depends on other powers' orders (a
partner's boarding, a support, a contingent build's retreat) is left to the adjudication."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from judge.engine.calendar import ADJUSTMENTS, MONTHLY, MOVEMENT, parse_phase
from judge.engine.geography import Map
from judge.engine.orders import Build, Disband, Move, Waive
from judge.engine.position import Position, province_of
from judge.engine.rules import Rules
from judge.variants.order_checks import cannot_reach, refused_by_adjudication
from judge.variants.v1885.language import arrival_problem, for_phase
from judge.variants.v1885.phases import adjudicate_1885

FLEET = "F"


def check_orders(
    game_map: Map, position: Position, rules: Rules, power: str, orders: Sequence[Any]
) -> list[str | None]:
    phase = position.phase
    kind = parse_phase(phase, MONTHLY).kind
    values = for_phase(orders, phase)
    out = [arrival_problem(game_map, position, power, phase, o, values) for o in values]
    if kind == MOVEMENT:
        units = {u.province: u for u in position.units}
        for index, order in enumerate(values):
            unit = units.get(province_of(getattr(order, "loc", "") or "-"))
            fleet_move = isinstance(order, Move) and not order.via_convoy
            if out[index] is None and fleet_move and unit is not None and unit.kind == FLEET:
                out[index] = cannot_reach(game_map, unit, order)
    elif kind == ADJUSTMENTS:
        plain = [i for i, o in enumerate(values) if isinstance(o, Build | Waive | Disband)]
        judged = refused_by_adjudication(
            adjudicate_1885, game_map, position, rules, power, [values[i] for i in plain]
        )
        for index, why in zip(plain, judged, strict=True):
            if out[index] is None and why:
                out[index] = why
    return out
