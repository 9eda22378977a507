"""The adjustment phase: builds and disbands to bring units in line with centres.

Where a power orders fewer disbands than it owes, the 2023 rule removes the units farthest
from the power's nearest owned centre (counting moves over land and sea alike), a fleet before
an army at equal distance, then by the province's name in alphabetical order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from judge.engine.geography import Map
from judge.engine.orders import ARMY, FLEET, Build, Disband, Order, Waive
from judge.engine.position import Position, Unit, province_of
from judge.engine.results import ILLEGAL, SUCCESS, VOID, OrderResult
from judge.engine.topology import topology


@dataclass(frozen=True)
class AdjustmentOutcome:
    results: Mapping[str, tuple[OrderResult, ...]]
    units_after: tuple[Unit, ...]
    disbanded: tuple[Unit, ...]


def adjustment_counts(
    units: Iterable[Unit], centers: Mapping[str, frozenset[str]]
) -> dict[str, int]:
    """Builds (positive) or disbands (negative) each power is due."""
    counts: dict[str, int] = {power: len(owned) for power, owned in centers.items()}
    for unit in units:
        counts[unit.power] = counts.get(unit.power, 0) - 1
    return counts


def free_build_sites(
    game_map: Map, power: str, units: Iterable[Unit], centers: Mapping[str, frozenset[str]]
) -> list[str]:
    info = game_map.powers.get(power)
    if info is None:
        return []
    occupied = {u.province for u in units}
    owned = centers.get(power, frozenset())
    return sorted(p for p in info.build_sites if p in owned and p not in occupied)


def adjustments_due(
    game_map: Map, units: Sequence[Unit], centers: Mapping[str, frozenset[str]]
) -> bool:
    for power, count in adjustment_counts(units, centers).items():
        if count < 0 or (count > 0 and free_build_sites(game_map, power, units, centers)):
            return True
    return False


def _check_build(
    game_map: Map, power: str, order: Build, occupied: set[str], owned: frozenset[str]
) -> str | None:
    prov = province_of(order.loc)
    info = game_map.powers.get(power)
    if info is None or prov not in info.build_sites:
        return f"{prov.upper()} is not a home centre of {power}"
    if prov not in owned:
        return f"{power} does not own {prov.upper()}"
    if prov in occupied:
        return f"{prov.upper()} is occupied"
    if order.unit_type == ARMY:
        if not game_map.army_may_be_at(prov):
            return f"an army cannot be built in {prov.upper()}"
    elif order.unit_type == FLEET:
        coasts = game_map.coasts_of(prov)
        if coasts and order.loc == prov:
            return f"say which coast of {prov.upper()}: " + ", ".join(coasts)
        if not game_map.fleet_may_be_at(order.loc):
            return f"a fleet cannot be built in {order.loc.upper()}"
    else:
        return "say whether to build an army or a fleet"
    return None


def distance_to(game_map: Map, start: str, owned: frozenset[str]) -> int:
    """Moves of either kind from `start` to the nearest of `owned` (a large number if none)."""
    if not owned:
        return 1 << 20
    neighbours = topology(game_map).neighbours
    seen = {start}
    frontier = deque([(start, 0)])
    while frontier:
        prov, dist = frontier.popleft()
        if prov in owned:
            return dist
        for nxt in neighbours[prov]:
            if nxt not in seen:
                seen.add(nxt)
                frontier.append((nxt, dist + 1))
    return 1 << 20


def civil_disorder_removals(
    game_map: Map, units: Sequence[Unit], owned: frozenset[str], count: int
) -> list[Unit]:
    """The `count` units removed when a power does not order the disbands it owes."""

    def key(unit: Unit) -> tuple[int, int, str]:
        distance = distance_to(game_map, unit.province, owned)
        name = game_map.provinces[unit.province].name.lower()
        return (-distance, 0 if unit.kind == FLEET else 1, name)

    return sorted(units, key=key)[:count]


def resolve_adjustments(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Order]]
) -> AdjustmentOutcome:
    counts = adjustment_counts(position.units, position.centers)
    units = list(position.units)
    occupied = {u.province for u in units}
    results: dict[str, tuple[OrderResult, ...]] = {}
    removed: list[Unit] = []
    built: set[str] = set()
    for power, power_orders in orders.items():
        due = counts.get(power, 0)
        owned = position.centers.get(power, frozenset())
        done = 0
        out: list[OrderResult] = []
        for order in power_orders:
            if isinstance(order, Build | Waive):
                if due <= 0:
                    out.append(OrderResult(VOID, f"{power} has no builds due"))
                    continue
                if done >= due:
                    out.append(OrderResult(VOID, f"only {due} build(s) due"))
                    continue
                if isinstance(order, Waive):
                    done += 1
                    out.append(OrderResult(SUCCESS))
                    continue
                if province_of(order.loc) in built:
                    out.append(
                        OrderResult(
                            VOID, f"a unit is already built in {province_of(order.loc).upper()}"
                        )
                    )
                    continue
                why = _check_build(game_map, power, order, occupied, owned)
                if why:
                    out.append(OrderResult(ILLEGAL, why))
                    continue
                done += 1
                occupied.add(province_of(order.loc))
                built.add(province_of(order.loc))
                loc = province_of(order.loc) if order.unit_type == ARMY else order.loc
                units.append(Unit(power, order.unit_type or ARMY, loc))
                out.append(OrderResult(SUCCESS))
            elif isinstance(order, Disband):
                if due >= 0:
                    out.append(OrderResult(VOID, f"{power} has no disbands due"))
                    continue
                prov = province_of(order.loc)
                unit = next((u for u in units if u.province == prov), None)
                if unit is None or unit.power != power:
                    out.append(OrderResult(VOID, f"{power} has no unit in {prov.upper()}"))
                    continue
                if done >= -due:
                    out.append(OrderResult(VOID, f"only {-due} disband(s) due"))
                    continue
                done += 1
                units.remove(unit)
                removed.append(unit)
                out.append(OrderResult(SUCCESS))
            else:
                out.append(OrderResult(ILLEGAL, "not an order for an adjustment phase"))
        results[power] = tuple(out)
    # Powers that owe disbands and did not order them all: civil disorder removals.
    for power, due in counts.items():
        if due >= 0:
            continue
        already = sum(1 for u in removed if u.power == power)
        missing = -due - already
        if missing > 0:
            own = [u for u in units if u.power == power]
            owned = position.centers.get(power, frozenset())
            for unit in civil_disorder_removals(game_map, own, owned, missing):
                units.remove(unit)
                removed.append(unit)
    return AdjustmentOutcome(results, tuple(units), tuple(removed))
