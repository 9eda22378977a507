"""1885's retreats (rule 10 a and b, A/F module IV a, b, d): written retreats to a province,
else Just's right-hand rule; army/fleets to sea.

- A retreat order names a province the unit may retreat to; "disband" or "off the board" is no
  retreat order (rule 10 b): it is refused when it arrives and illegal here, and the unit
  retreats by the right-hand rule as if it had no order.
- A unit without a retreat order in the phase retreats by the one sent with the move, when its
  player sent one and the place is open (rule 10 a, `on_file`), else by the right-hand rule
  (`right_hand_retreat`); a unit with nowhere to go is removed ("off the board": annihilated).
- A dislodged army/fleet retreats to a sea if any is open; if the only places open are coasts,
  its fleet retreats there and its army is annihilated (IV a, d); with none, both go (IV b).
- Two units retreating to one province are both removed, as in the standard game; a retreat by
  the right-hand rule counts as one.

Pure: the engine and the standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.engine.geography import Map, Terrain
from judge.engine.orders import Disband, Move, Retreat
from judge.engine.position import Dislodged, Position, Unit, province_of
from judge.engine.results import FAILURE, ILLEGAL, SUCCESS, VOID, OrderResult
from judge.variants.v1885.clockwise import right_hand_retreat
from judge.variants.v1885.moves import retreat_places

ARMY, FLEET, ARMY_FLEET = "A", "F", "AF"
Key = tuple[str, int]
NO_DISBAND = (
    "no disband or off-the-board retreat orders (rule 10 b): write a retreat to a province, "
    "or none and the right-hand rule retreats the unit"
)


@dataclass(slots=True)
class RetreatOutcome:
    results: dict[Key, OrderResult]
    units_after: list[Unit]
    disbanded: list[Unit]
    notes: list[str] = field(default_factory=list)  # retreats made by the right-hand rule
    moved: dict[str, str] = field(default_factory=dict)  # province left -> province reached


def is_retreat_order(order: Any) -> bool:
    return isinstance(order, Retreat | Move)


def resolve_retreats(
    game_map: Map,
    position: Position,
    orders: Mapping[str, Sequence[Any]],
    facing: Mapping[str, str],
    only: set[Key] | None = None,
    on_file: Mapping[str, str] | None = None,
) -> RetreatOutcome:
    """The dislodged units' retreats; `only` limits the orders read to those keys (the retreats
    among the orders of an adjustment phase), the others being left for the caller; `on_file`
    holds the retreats sent with the move (province -> place), for units given none now."""
    by_prov = {d.unit.province: d for d in position.dislodged}
    occupied = {u.province for u in position.units}
    places = {
        prov: retreat_places(game_map, d, occupied, position.contested)
        for prov, d in by_prov.items()
    }
    results: dict[Key, OrderResult] = {}
    # province -> (the order's key, or None: by the order on file or the rule; the place)
    chosen: dict[str, tuple[Key | None, str]] = {}
    sent_before: set[str] = set()  # provinces whose unit retreats by the order sent with the move
    for power, power_orders in orders.items():
        for index, order in enumerate(power_orders):
            key = (power, index)
            if only is not None and key not in only:
                continue
            if isinstance(order, Disband):
                results[key] = OrderResult(ILLEGAL, NO_DISBAND)
                continue
            if not is_retreat_order(order):
                results[key] = OrderResult(ILLEGAL, "not an order for a retreat")
                continue
            prov = province_of(order.loc)
            d = by_prov.get(prov)
            if d is None:
                results[key] = OrderResult(VOID, f"no dislodged unit in {prov.upper()}")
                continue
            if d.unit.power != power:
                results[key] = OrderResult(VOID, f"the unit in {prov.upper()} is not {power}'s")
                continue
            if prov in chosen and chosen[prov][0] is not None:
                results[chosen[prov][0]] = OrderResult(  # type: ignore[index]
                    VOID, "replaced by a later order for the same unit"
                )
            dest = retreat_destination(places[prov], order.dest)
            if dest is None:
                results[key] = OrderResult(
                    ILLEGAL, cannot_retreat(game_map, d, places[prov], order.dest)
                )
                chosen.pop(prov, None)
                continue
            chosen[prov] = (key, dest)
    notes: list[str] = []
    for prov, d in by_prov.items():
        if prov in chosen:
            continue
        filed = (on_file or {}).get(prov)
        dest = retreat_destination(places[prov], filed) if filed is not None else None
        if dest is not None:
            chosen[prov] = (None, dest)
            sent_before.add(prov)
            continue
        dest = right_hand_retreat(game_map, d, places[prov], facing.get(prov, d.attacker_from))
        if dest is not None:
            chosen[prov] = (None, dest)
    arrivals: dict[str, int] = {}
    for _key, dest in chosen.values():
        arrivals[province_of(dest)] = arrivals.get(province_of(dest), 0) + 1
    units = list(position.units)
    disbanded: list[Unit] = []
    moved: dict[str, str] = {}
    for prov, d in by_prov.items():
        unit = d.unit
        if prov not in chosen:
            disbanded.extend(_parts(unit))
            notes.append(f"{_name(game_map, unit)} has nowhere to retreat: removed.")
            continue
        by_order, dest = chosen[prov]
        there = province_of(dest)
        if arrivals[there] > 1:
            if by_order is not None:
                results[by_order] = OrderResult(FAILURE, f"bounced in {there.upper()}: removed")
            else:
                notes.append(
                    f"{_name(game_map, unit)} retreats to {_place(game_map, dest)} by "
                    f"{_how(prov, sent_before)}, where another unit retreats too: both are removed."
                )
            disbanded.extend(_parts(unit))
            continue
        at_sea = game_map.provinces[there].terrain is Terrain.SEA
        if unit.kind == ARMY_FLEET and not at_sea:
            units.append(Unit(unit.power, FLEET, dest))
            disbanded.append(Unit(unit.power, ARMY, unit.loc))
            lost = "; its army is lost (A/F module IV a)"
        else:
            units.append(Unit(unit.power, unit.kind, dest))
            lost = ""
        moved[prov] = there
        if by_order is not None:
            results[by_order] = OrderResult(SUCCESS, lost[2:])
        else:
            notes.append(
                f"{_name(game_map, unit)} retreats to {_place(game_map, dest)} by "
                f"{_how(prov, sent_before)}{lost}."
            )
    return RetreatOutcome(results, units, disbanded, notes, moved)


def _parts(unit: Unit) -> list[Unit]:
    """What is removed with a unit: an army/fleet is two units (IV b)."""
    if unit.kind == ARMY_FLEET:
        return [Unit(unit.power, FLEET, unit.loc), Unit(unit.power, ARMY, unit.loc)]
    return [unit]


def _how(prov: str, sent_before: set[str]) -> str:
    if prov in sent_before:
        return "the retreat order sent with the move (rule 10 a)"
    return "the right-hand rule"


def retreat_destination(options: Sequence[str], written: str) -> str | None:
    """The place among `options` a retreat order names (a province names its one coast)."""
    if written in options:
        return written
    fits = [loc for loc in options if province_of(loc) == province_of(written)]
    return fits[0] if len(fits) == 1 else None


def cannot_retreat(game_map: Map, d: Dislodged, options: Sequence[str], written: str) -> str:
    """Why a retreat to `written` cannot be made, with the places the unit may go."""
    where = ", ".join(_place(game_map, o) for o in options) or "nowhere"
    there = province_of(written)
    if (
        d.unit.kind == ARMY_FLEET
        and there in game_map.provinces
        and game_map.provinces[there].terrain is not Terrain.SEA
        and any(game_map.provinces[province_of(o)].terrain is Terrain.SEA for o in options)
    ):
        return f"an army/fleet retreats to a sea while one is open (A/F module IV a): {where}"
    return f"{_name(game_map, d.unit)} cannot retreat to {_place(game_map, written)}; it may go to {where}"


def _place(game_map: Map, loc: str) -> str:
    prov = game_map.provinces.get(province_of(loc))
    return prov.name if prov is not None else loc.upper()


def _name(game_map: Map, unit: Unit) -> str:
    word = {ARMY: "Army", FLEET: "Fleet", ARMY_FLEET: "Army/Fleet"}[unit.kind]
    return f"{game_map.powers[unit.power].adjective if unit.power in game_map.powers else unit.power} {word} {_place(game_map, unit.loc)}"
