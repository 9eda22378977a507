"""Mercator's retreats, time scale 4 (rule 4): precedence by time scale, army/fleets intact or
split. The places each unit may go were worked out with the month (month.py, rule 4 (f) to (i));
here the orders are matched against them.

- (a) a unit dislodged in an earlier time scale has the first choice: where two retreat to one
  space, the earlier one gets it and the later one is disbanded; two of the same time scale
  are both disbanded, as in the standard game.
- (c) an army/fleet retreats intact (``A/F(MAO) - WMS``, to a sea or canal space) or split
  (``A(MAO) - Por`` and ``F(MAO) - WMS``), the army landing first.
- (e) an army/fleet disbanded, or its fleet part disbanded or left without an order, takes its
  army with it unless the army was retreated by its own order.

Pure: the engine and the standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.engine.geography import Map, Terrain
from judge.engine.orders import Disband, Move, Retreat
from judge.engine.position import Dislodged, Position, Unit, province_of
from judge.engine.results import FAILURE, ILLEGAL, SUCCESS, VOID, OrderResult
from judge.variants.mercator.orders import Scaled

ARMY, FLEET, ARMY_FLEET = "A", "F", "AF"
Key = tuple[str, int]


@dataclass(slots=True)
class RetreatOutcome:
    results: dict[Key, OrderResult]
    units_after: tuple[Unit, ...]
    disbanded: tuple[Unit, ...]


@dataclass(slots=True)
class _Move:
    key: Key
    unit: Unit  # the unit that arrives if the retreat stands
    dest: str  # location
    time_scale: int
    origin: str  # the province it was dislodged from


def resolve_mercator_retreats(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Scaled]]
) -> RetreatOutcome:
    by_prov: dict[str, Dislodged] = {d.unit.province: d for d in position.dislodged}
    results: dict[Key, OrderResult] = {}
    wanted: list[_Move] = []
    for power, power_orders in orders.items():
        for index, scaled in enumerate(power_orders):
            key = (power, index)
            order = scaled.order
            if not isinstance(order, (Retreat, Move, Disband)):
                results[key] = OrderResult(ILLEGAL, "not an order for a retreat phase", 4)
                continue
            prov = province_of(order.loc)
            d = by_prov.get(prov)
            if d is None:
                results[key] = OrderResult(VOID, f"no dislodged unit in {prov.upper()}", 4)
                continue
            unit = d.unit
            written = order.unit_type
            part, owner = _part(unit, written)
            if part is None:
                results[key] = OrderResult(
                    ILLEGAL, f"the dislodged unit in {prov.upper()} is not {written}", 4
                )
                continue
            if owner != power:
                results[key] = OrderResult(VOID, f"that unit is not {power}'s", 4)
                continue
            if isinstance(order, Disband):
                results[key] = OrderResult(SUCCESS, "disbanded", 4)
                continue
            dest = order.dest
            why = _why_not(game_map, d, part, dest)
            if why:
                results[key] = OrderResult(ILLEGAL, why, 4)
                continue
            if part == ARMY:
                arriving = Unit(owner, ARMY, province_of(dest))
            elif part == FLEET:
                arriving = Unit(unit.power, FLEET, dest)
            else:
                arriving = Unit(unit.power, ARMY_FLEET, dest, unit.army_power)
            wanted.append(_Move(key, arriving, dest, d.time_scale, prov))

    # (a): the earliest time scale takes a contested space; ties bounce.
    by_dest: dict[str, list[_Move]] = {}
    for move in wanted:
        by_dest.setdefault(province_of(move.dest), []).append(move)
    arrived: list[Unit] = []
    for moves in by_dest.values():
        first = min(m.time_scale for m in moves)
        winners = [m for m in moves if m.time_scale == first]
        for move in moves:
            if len(winners) == 1 and move is winners[0]:
                results[move.key] = OrderResult(SUCCESS, "", 4)
                arrived.append(move.unit)
            else:
                results[move.key] = OrderResult(
                    FAILURE, f"bounced in {province_of(move.dest).upper()}: disbanded", 4
                )
    disbanded: list[Unit] = []
    got_away: dict[str, set[str]] = {}
    for move in wanted:
        if results[move.key].result == SUCCESS:
            got_away.setdefault(move.origin, set()).add(move.unit.kind)
    for prov, d in by_prov.items():
        unit, away = d.unit, got_away.get(prov, set())
        if unit.kind != ARMY_FLEET:
            if not away:
                disbanded.append(unit)
            continue
        # An army/fleet: each part that did not get away is disbanded; the army goes with the
        # fleet unless it was retreated by its own order (rule 4 (e)).
        if ARMY_FLEET in away:
            continue
        if FLEET not in away:
            disbanded.append(Unit(unit.power, FLEET, unit.loc))
        if ARMY not in away:
            disbanded.append(Unit(unit.army_power or unit.power, ARMY, unit.loc))
    return RetreatOutcome(results, tuple(position.units) + tuple(arrived), tuple(disbanded))


def _part(unit: Unit, written: str | None) -> tuple[str | None, str]:
    """Which part of the dislodged unit an order moves, and whose order it must be."""
    if unit.kind != ARMY_FLEET:
        return (unit.kind if written in (None, unit.kind) else None), unit.power
    if written in (None, ARMY_FLEET):
        return ARMY_FLEET, unit.power
    if written == ARMY:
        return ARMY, unit.army_power or unit.power
    if written == FLEET:
        return FLEET, unit.power
    return None, unit.power


def _why_not(game_map: Map, d: Dislodged, part: str, dest: str) -> str | None:
    prov = province_of(dest)
    if prov not in {province_of(r) for r in d.retreats}:
        allowed = ", ".join(r.upper() for r in d.retreats) or "nowhere"
        return f"{d.unit.province.upper()} may retreat only to {allowed}"
    terrain = game_map.provinces[prov].terrain
    if part == ARMY and terrain in (Terrain.SEA, Terrain.CANAL):
        return "an army may not retreat on to a fleet (rule 4 (b))"
    if part == ARMY_FLEET and terrain not in (Terrain.SEA, Terrain.CANAL):
        return "an army/fleet retreats intact only to a sea or canal space (rule 4 (c), (d))"
    return None
