"""The retreat phase: dislodged units retreat, bounce against each other, or are disbanded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.engine.geography import Map
from judge.engine.orders import Disband, Move, Order, Retreat
from judge.engine.position import Dislodged, Position, Unit, province_of
from judge.engine.results import FAILURE, ILLEGAL, SUCCESS, VOID, OrderResult
from judge.engine.rules import Rules


@dataclass(frozen=True)
class RetreatOutcome:
    results: Mapping[str, tuple[OrderResult, ...]]
    units_after: tuple[Unit, ...]
    disbanded: tuple[Unit, ...]


def _destination(game_map: Map, d: Dislodged, dest: str) -> str | None:
    """The retreat location an order names, resolving a fleet's coast where only one fits."""
    if dest in d.retreats:
        return dest
    if d.unit.kind != "F" and province_of(dest) == dest:
        return None
    if province_of(dest) == dest:
        fits = [loc for loc in d.retreats if province_of(loc) == dest]
        if len(fits) == 1:
            return fits[0]
    return None


def _single_exit_blocked(
    by_prov: Mapping[str, Dislodged], chosen: Mapping, prov: str, dest: str
) -> bool:
    """Postal rule Q: units whose one way out is `dest` all go unless the others disbanded."""
    target = province_of(dest)
    group = [
        p
        for p, d in by_prov.items()
        if d.retreats and {province_of(loc) for loc in d.retreats} == {target}
    ]
    if prov not in group or len(group) < 2:
        return False
    return any(p != prov and (p not in chosen or chosen[p][1] is not None) for p in group)


def resolve_retreats(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Order]], rules: Rules
) -> RetreatOutcome:
    by_prov = {d.unit.province: d for d in position.dislodged}
    chosen: dict[str, tuple[tuple[str, int], str | None]] = {}  # prov -> (key, destination)
    results: dict[tuple[str, int], OrderResult] = {}
    for power, power_orders in orders.items():
        for index, order in enumerate(power_orders):
            key = (power, index)
            if not isinstance(order, Retreat | Move | Disband):
                results[key] = OrderResult(ILLEGAL, "not an order for a retreat phase")
                continue
            prov = province_of(order.loc)
            d = by_prov.get(prov)
            if d is None:
                on_board = position.unit_in(prov)
                if on_board is not None and on_board.power == power:
                    results[key] = OrderResult(
                        ILLEGAL, f"the unit in {prov.upper()} was not dislodged"
                    )
                else:
                    results[key] = OrderResult(VOID, f"no dislodged unit in {prov.upper()}")
                continue
            if d.unit.power != power:
                results[key] = OrderResult(VOID, f"the unit in {prov.upper()} is not {power}'s")
                continue
            if prov in chosen:
                earlier, _ = chosen[prov]
                results[earlier] = OrderResult(VOID, "replaced by a later order for the same unit")
            if isinstance(order, Disband):
                chosen[prov] = (key, None)
                continue
            dest = _destination(game_map, d, order.dest)
            if dest is None:
                options = ", ".join(loc.upper() for loc in d.retreats) or "none"
                results[key] = OrderResult(
                    ILLEGAL, f"cannot retreat to {order.dest.upper()} (may go to: {options})"
                )
                chosen.pop(prov, None)
                continue
            chosen[prov] = (key, dest)

    targets: dict[str, int] = {}
    for _key, dest in chosen.values():
        if dest is not None:
            targets[province_of(dest)] = targets.get(province_of(dest), 0) + 1
    units_after = list(position.units)
    disbanded = []
    for prov, d in by_prov.items():
        if prov not in chosen:
            disbanded.append(d.unit)
            continue
        key, dest = chosen[prov]
        if dest is None:
            results[key] = OrderResult(SUCCESS)
            disbanded.append(d.unit)
        elif targets[province_of(dest)] > 1 or (
            rules.retreat_needs_explicit_disband
            and _single_exit_blocked(by_prov, chosen, prov, dest)
        ):
            results[key] = OrderResult(
                FAILURE, f"bounced in {province_of(dest).upper()}; disbanded"
            )
            disbanded.append(d.unit)
        else:
            results[key] = OrderResult(SUCCESS)
            u = d.unit
            units_after.append(Unit(u.power, u.kind, dest, u.army_power))
    out = {
        power: tuple(results[(power, i)] for i in range(len(power_orders)))
        for power, power_orders in orders.items()
    }
    return RetreatOutcome(out, tuple(units_after), tuple(disbanded))
