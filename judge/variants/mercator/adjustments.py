"""Mercator's adjustments (rules 5.2, 5.3, 6.2, 7), in March, June, September and December.

- A power's units are counted with its armies aboard army/fleets (an army/fleet is two units,
  one of each owner) and with the armies dumped in a polar cap, which stay a shortage for good
  (rule 6.2, `state.dumped`).
- Builds (5.3): in an owned province of the home country (a home centre, or a home province the
  board names: Sardinia for Italy, 6.3) or a special province of the power (5.2) at the cost of
  one build each; in any other province it owns, a centre or not, at a premium: that build
  costs two of the builds due, the second withheld until the next adjustment, when the count of
  centres against units gives it back. Army/fleets are never built (2.2).
- Removals: disbands ordered; the rest by the GM's rule (7): the units furthest from the
  power's home centres go first (judge.variants.mercator.removals).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.calendar import following_phase, parse_phase
from judge.engine.geography import Map
from judge.engine.orders import ARMY, FLEET, Build, Disband, Waive
from judge.engine.position import Position, Unit, province_of
from judge.engine.results import ILLEGAL, SUCCESS, VOID, OrderResult, PhaseResult
from judge.engine.rules import Rules
from judge.variants.mercator.orders import Scaled
from judge.variants.mercator.ownership import owner_of, special_provinces
from judge.variants.mercator.removals import gm_removals

ARMY_FLEET = "AF"


def unit_counts(units: Sequence[Unit], state: Mapping[str, Any]) -> dict[str, int]:
    """Units per power: an army/fleet counts for its fleet's power and its army's."""
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit.power] = counts.get(unit.power, 0) + 1
        if unit.kind == ARMY_FLEET:
            army = unit.army_power or unit.power
            counts[army] = counts.get(army, 0) + 1
    for power, dumped in dict(state.get("dumped", {})).items():
        counts[power] = counts.get(power, 0) + int(dumped)
    return counts


# Rule 9: "Units are adjusted to equal supply centre holdings at the third build season": until
# then a power keeps the spare units it placed over and above its centres.
SPARE_SEASONS = 2


def due(position: Position) -> dict[str, int]:
    """Builds (positive) or removals (negative) each power is due."""
    counts = unit_counts(position.units, position.state)
    powers = set(counts) | set(position.centers)
    owed = {p: len(position.centers.get(p, ())) - counts.get(p, 0) for p in powers}
    if int(position.state.get("build_seasons", 0)) < SPARE_SEASONS:
        for power, spares in dict(position.state.get("spares", {})).items():
            if owed.get(power, 0) < 0:
                owed[power] = min(0, owed[power] + int(spares))
    return owed


def adjustments_due(game_map: Map, position: Position) -> dict[str, int]:
    """Each power's removals due, and its builds due as far as it has free places to build
    (the desk asks this to know who owes orders; the record's `adjustments_due`)."""
    owed = due(position)
    occupied = {u.province for u in position.units}
    out: dict[str, int] = {}
    for power, count in owed.items():
        if count <= 0:
            out[power] = count
            continue
        room = 0
        for prov in game_map.provinces:
            if prov in occupied or not _holds_a_unit(game_map, prov):
                continue
            cost, why = build_cost(game_map, power, prov, position)
            if why is None:
                room += cost
                if room >= count:
                    break
        out[power] = min(count, room)
    return out


def _holds_a_unit(game_map: Map, prov: str) -> bool:
    return game_map.army_may_be_at(prov) or any(
        game_map.fleet_may_be_at(loc)
        for loc in (prov, *(f"{prov}/{c}" for c in game_map.coasts_of(prov)))
    )


def build_cost(game_map: Map, power: str, prov: str, position: Position) -> tuple[int, str | None]:
    """What a build in `prov` costs (1, or 2 at a premium) or why it cannot be made there."""
    info = game_map.powers.get(power)
    special = special_provinces(game_map)
    if prov in special:
        return (
            (1, None)
            if special[prov] == power
            else (0, f"{prov.upper()} is {special[prov]}'s special province")
        )
    owned = (
        prov in position.centers.get(power, frozenset())
        or owner_of(game_map, position.owners, prov) == power
    )
    if not owned:
        return 0, f"{power} does not own {prov.upper()}"
    if info is not None and (prov in info.home_centres or prov in info.home_provinces):
        return 1, None
    return 2, None


def builds_used(game_map: Map, position: Position, power: str, order: Any) -> int:
    """How many of the power's builds or removals due one adjustment order uses: two for a
    build at a premium (5.3), one for any other order (a build that cannot be made included:
    it was given, and the results say why it fails)."""
    value = order.order if isinstance(order, Scaled) else order
    if isinstance(value, Build):
        cost, why = build_cost(game_map, power, province_of(value.loc), position)
        if why is None:
            return cost
    return 1


def resolve_mercator_adjustments(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Any]], rules: Rules
) -> PhaseResult:
    counts = due(position)
    units = list(position.units)
    occupied = {u.province for u in units}
    results: dict[str, tuple[OrderResult, ...]] = {}
    removed: list[Unit] = []
    for power, power_orders in orders.items():
        owed = counts.get(power, 0)
        used = 0
        out: list[OrderResult] = []
        for scaled in power_orders:
            order = scaled.order if isinstance(scaled, Scaled) else scaled
            if isinstance(order, Build | Waive):
                if owed <= used:
                    out.append(OrderResult(VOID, f"{power} has no more builds due"))
                    continue
                if isinstance(order, Waive):
                    used += 1
                    out.append(OrderResult(SUCCESS))
                    continue
                prov = province_of(order.loc)
                cost, why = build_cost(game_map, power, prov, position)
                why = why or _site_problem(game_map, order, occupied)
                if why:
                    out.append(OrderResult(ILLEGAL, why))
                    continue
                if used + cost > owed:
                    out.append(
                        OrderResult(VOID, f"a build in {prov.upper()} costs two builds (rule 5.3)")
                    )
                    continue
                used += cost
                occupied.add(prov)
                loc = prov if order.unit_type == ARMY else order.loc
                units.append(Unit(power, order.unit_type or ARMY, loc))
                note = "a premium build: one more build withheld (rule 5.3)" if cost == 2 else ""
                out.append(OrderResult(SUCCESS, note))
            elif isinstance(order, Disband):
                out.append(_disband(power, order, owed, used, units, removed))
                if out[-1].result == SUCCESS:
                    used -= 1
            else:
                out.append(OrderResult(ILLEGAL, "not an order for an adjustment phase"))
        results[power] = tuple(out)
    for power, owed in counts.items():
        already = sum(1 for u in removed if u.power == power)
        missing = -owed - already
        if missing > 0:
            units, taken = gm_removals(game_map, units, power, missing)
            removed.extend(taken)
    phase = parse_phase(position.phase, "monthly")
    nxt = following_phase(phase, retreats_due=False, adjustments_due=False)
    return PhaseResult(
        phase=phase.name,
        results=results,
        units_after=tuple(units),
        centers_after=dict(position.centers),
        next_phase=nxt.name,
        disbanded=tuple(removed),
        owners_after=dict(position.owners),
        state_after={
            **position.state,
            "build_seasons": int(position.state.get("build_seasons", 0)) + 1,
        },
    )


def _site_problem(game_map: Map, order: Build, occupied: set[str]) -> str | None:
    prov = province_of(order.loc)
    if prov in occupied:
        return f"{prov.upper()} is occupied"
    if order.unit_type == ARMY:
        return (
            None if game_map.army_may_be_at(prov) else f"an army cannot be built in {prov.upper()}"
        )
    if order.unit_type == FLEET:
        coasts = game_map.coasts_of(prov)
        if coasts and order.loc == prov:
            return f"say which coast of {prov.upper()}: " + ", ".join(coasts)
        return (
            None
            if game_map.fleet_may_be_at(order.loc)
            else f"a fleet cannot be built in {order.loc.upper()}"
        )
    return "army/fleets are never built (rule 2.2): build an army or a fleet"


def _disband(
    power: str, order: Disband, owed: int, used: int, units: list[Unit], removed: list[Unit]
) -> OrderResult:
    if owed >= 0:
        return OrderResult(VOID, f"{power} has no removals due")
    if -used >= -owed:
        return OrderResult(VOID, f"only {-owed} removal(s) due")
    prov = province_of(order.loc)
    unit = next((u for u in units if u.province == prov), None)
    if unit is None:
        return OrderResult(VOID, f"no unit in {prov.upper()}")
    if (
        unit.kind == ARMY_FLEET
        and order.unit_type == ARMY
        and (unit.army_power or unit.power) == power
    ):
        units.remove(unit)
        units.append(Unit(unit.power, FLEET, unit.loc))
        removed.append(Unit(power, ARMY, unit.loc))
        return OrderResult(SUCCESS, "the army aboard is removed")
    if unit.power != power:
        return OrderResult(VOID, f"{power} has no unit in {prov.upper()}")
    units.remove(unit)
    removed.append(Unit(unit.power, FLEET if unit.kind == ARMY_FLEET else unit.kind, unit.loc))
    if unit.kind == ARMY_FLEET:
        return OrderResult(SUCCESS, "the army aboard goes with its fleet (rule 4 (e))")
    return OrderResult(SUCCESS)
