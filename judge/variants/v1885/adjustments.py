"""1885's build months (rules 6, 10, 11): the retreats sent with the builds, then the builds and
removals, in March, June, September and December.

- After a build month's move the dislodged units retreat in the adjustment phase itself, by
  their players' orders sent with the builds or by the right-hand rule; retreats come first
  (rule 10 a), then centres change hands, then units are counted against centres.
- A power's units are counted with an army/fleet as two (A/F module II a).
- Builds: in a vacant home centre the power owns; in its build centre (rule 6 a: Archangel,
  Levant, Sicily, the board's `builds`) if it owns it; in its reserved centre (rule 6 b:
  Ireland, Portugal, the board's `reserved`) if it owns it. A build may be contingent on a
  retreat (``Build A Con if Austrian A Ser retreats to Bul``): it stands only if the condition
  holds once the retreats are made, and counts against the builds due only then.
- Rule 11, the Macedonian build: a home centre the board gives no starting unit (Turkey's
  Macedonia) counts for its power at the first build month if no other power's unit stood in it
  at the end of the move before (February 1885), whatever the build month's own move did to it,
  and not otherwise; the build goes in any home centre the power owns (`first_build_rights`).
- Removals: ``Remove A Ser``; ``Remove A GoL`` takes the army aboard an army/fleet and leaves its
  fleet; the rest by the GM's rule (judge.variants.v1885.removals).

Pure: the engine and the standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.engine.geography import Map
from judge.engine.orders import ARMY, FLEET, Build, Disband, Waive
from judge.engine.position import Position, Unit, province_of
from judge.engine.results import ILLEGAL, SUCCESS, VOID, OrderResult
from judge.variants.v1885.orders import ContingentBuild, RetreatIf
from judge.variants.v1885.removals import gm_removals, unit_counts

ARMY_FLEET = "AF"
Key = tuple[str, int]


@dataclass(slots=True)
class AdjustmentOutcome:
    results: dict[Key, OrderResult]
    units_after: list[Unit]
    removed: list[Unit] = field(default_factory=list)


def build_centre_owner(game_map: Map, owners: Mapping[str, str], prov: str) -> str | None:
    """Who owns a build centre (a board `builds` site): its power until another's unit stands
    in it when centres change hands (recorded in the position's owners)."""
    if prov in owners:
        return owners[prov]
    for name, power in game_map.powers.items():
        if prov in power.build_only:
            return name
    return None


def build_centres_after(
    game_map: Map, owners: Mapping[str, str], units: Sequence[Unit]
) -> dict[str, str]:
    """The owners of the build centres after centres change hands: a unit standing in one gives
    it to its power, as a supply centre would be."""
    out = dict(owners)
    sites = {p for power in game_map.powers.values() for p in power.build_only}
    for unit in units:
        if (
            unit.province in sites
            and build_centre_owner(game_map, out, unit.province) != unit.power
        ):
            out[unit.province] = unit.power
    return out


def short_homes(game_map: Map) -> dict[str, str]:
    """Home centres the board gives no starting unit (rule 11: Turkey's Macedonia) -> power."""
    out: dict[str, str] = {}
    for name, power in game_map.powers.items():
        started = {u.province for u in power.starting_units}
        for home in power.home_centres - started:
            out[home] = name
    return out


def first_build_rights(game_map: Map, units: Sequence[Unit]) -> dict[str, bool]:
    """Rule 11, read on the board at the end of the move before the first build month: for each
    home centre without a starting unit, whether its power still controls it (no other power's
    unit stands in it). Keyed by the centre."""
    there = {u.province: u.power for u in units}
    return {home: there.get(home, power) == power for home, power in short_homes(game_map).items()}


def centres_counted(
    game_map: Map, centers: Mapping[str, frozenset[str]], rights: Mapping[str, bool]
) -> dict[str, int]:
    """Centres each power counts this build month, with rule 11's rights applied."""
    counts = {power: len(owned) for power, owned in centers.items()}
    homes = short_homes(game_map)
    for centre, controlled in rights.items():
        power = homes.get(centre)
        if power is None:
            continue
        owns = centre in centers.get(power, frozenset())
        if controlled and not owns:
            counts[power] = counts.get(power, 0) + 1
        elif owns and not controlled:
            counts[power] = counts.get(power, 0) - 1
    return counts


def builds_due(
    game_map: Map,
    units: Sequence[Unit],
    centers: Mapping[str, frozenset[str]],
    rights: Mapping[str, bool],
) -> dict[str, int]:
    """Builds (positive) or removals (negative) each power is due."""
    owned = centres_counted(game_map, centers, rights)
    have = unit_counts(units)
    return {p: owned.get(p, 0) - have.get(p, 0) for p in set(owned) | set(have)}


def build_sites(
    game_map: Map, power: str, centers: Mapping[str, frozenset[str]], owners: Mapping[str, str]
) -> frozenset[str]:
    """Where the power may build when they are vacant: owned home centres, owned build centres
    (rule 6 a), owned reserved centres (rule 6 b)."""
    info = game_map.powers.get(power)
    if info is None:
        return frozenset()
    owned = centers.get(power, frozenset())
    sites = (info.home_centres | info.reserved_centres) & owned
    sites |= {p for p in info.build_only if build_centre_owner(game_map, owners, p) == power}
    return frozenset(sites)


def build_problem(
    game_map: Map,
    power: str,
    order: Build | ContingentBuild,
    occupied: set[str],
    centers: Mapping[str, frozenset[str]],
    owners: Mapping[str, str],
) -> str | None:
    """Why this build cannot be made here, or None."""
    prov = province_of(order.loc)
    info = game_map.powers.get(power)
    if prov not in game_map.provinces:
        return f"{prov.upper()} is not a province"
    name = game_map.provinces[prov].name
    if info is None or prov not in (info.home_centres | info.build_only | info.reserved_centres):
        return f"{name} is not a place {power.title()} may build in (rule 6)"
    if prov not in build_sites(game_map, power, centers, owners):
        return f"{power.title()} does not own {name}"
    if prov in occupied:
        return f"{name} is occupied"
    if order.unit_type == ARMY:
        return None if game_map.army_may_be_at(prov) else f"an army cannot be built in {name}"
    if order.unit_type == FLEET:
        coasts = game_map.coasts_of(prov)
        if coasts and order.loc == prov:
            return f"say which coast of {name}: " + ", ".join(coasts)
        return None if game_map.fleet_may_be_at(order.loc) else f"a fleet cannot be built in {name}"
    return "say whether to build an army or a fleet (army/fleets are never built)"


def condition_holds(
    condition: RetreatIf, moved: Mapping[str, str], retreated: Mapping[str, Unit]
) -> bool:
    """Whether a contingent build's retreat happened: the unit dislodged in `condition.loc`
    (of the power and kind named, if named) reached `condition.dest`."""
    unit = retreated.get(condition.loc)
    happened = (
        unit is not None
        and moved.get(condition.loc) == province_of(condition.dest)
        and (condition.power is None or unit.power == condition.power)
        and (condition.unit_type is None or condition.unit_type == unit.kind)
    )
    return happened != condition.negated


def resolve_adjustments(
    game_map: Map,
    position: Position,
    units: Sequence[Unit],
    centers: Mapping[str, frozenset[str]],
    owners: Mapping[str, str],
    rights: Mapping[str, bool],
    orders: Mapping[str, Sequence[tuple[Key, Any]]],
    moved: Mapping[str, str],
    retreated: Mapping[str, Unit],
) -> AdjustmentOutcome:
    """Builds and removals on the board after the retreats (`units`); `orders` are each power's
    adjustment orders with their keys; `moved` and `retreated` say which retreats were made
    (province left -> province reached, and the unit), for contingent builds."""
    due = builds_due(game_map, units, centers, rights)
    board = list(units)
    occupied = {u.province for u in board}
    results: dict[Key, OrderResult] = {}
    removed: list[Unit] = []
    for power, keyed in orders.items():
        owed = due.get(power, 0)
        used = 0
        for key, order in keyed:
            if isinstance(order, ContingentBuild | Build | Waive):
                if isinstance(order, ContingentBuild) and not condition_holds(
                    order.condition, moved, retreated
                ):
                    results[key] = OrderResult(VOID, "its condition was not met")
                    continue
                if owed <= 0:
                    results[key] = OrderResult(VOID, f"{power.title()} has no builds due")
                    continue
                if used >= owed:
                    results[key] = OrderResult(VOID, f"only {owed} build(s) due")
                    continue
                if isinstance(order, Waive):
                    used += 1
                    results[key] = OrderResult(SUCCESS)
                    continue
                why = build_problem(game_map, power, order, occupied, centers, owners)
                if why:
                    results[key] = OrderResult(ILLEGAL, why)
                    continue
                used += 1
                prov = province_of(order.loc)
                occupied.add(prov)
                board.append(
                    Unit(
                        power,
                        order.unit_type or ARMY,
                        prov if order.unit_type == ARMY else order.loc,
                    )
                )
                results[key] = OrderResult(SUCCESS)
            elif isinstance(order, Disband):
                results[key] = _removal(power, order, owed, used, board, removed)
                if results[key].result == SUCCESS:
                    used -= 2 if "and its army" in results[key].reason else 1
            else:
                results[key] = OrderResult(ILLEGAL, "not an order for builds and removals")
    for power, owed in due.items():
        if owed >= 0:
            continue
        taken = sum(1 for u in removed if u.power == power)
        missing = -owed - taken
        if missing > 0:
            board, gone = gm_removals(
                game_map, board, power, missing, centers.get(power, frozenset())
            )
            removed.extend(gone)
    return AdjustmentOutcome(results, board, removed)


def _removal(
    power: str, order: Disband, owed: int, used: int, board: list[Unit], removed: list[Unit]
) -> OrderResult:
    if owed >= 0:
        return OrderResult(VOID, f"{power.title()} has no removals due")
    left = -owed + used  # used counts down with each removal
    if left <= 0:
        return OrderResult(VOID, f"only {-owed} removal(s) due")
    prov = province_of(order.loc)
    unit = next((u for u in board if u.province == prov), None)
    if unit is None or unit.power != power:
        return OrderResult(VOID, f"{power.title()} has no unit in {prov.upper()}")
    if unit.kind == ARMY_FLEET and order.unit_type == ARMY:
        board[board.index(unit)] = Unit(power, FLEET, unit.loc)
        removed.append(Unit(power, ARMY, unit.loc))
        return OrderResult(SUCCESS, "the army aboard is removed; its fleet stays")
    if unit.kind == ARMY_FLEET:
        if left < 2:
            return OrderResult(
                VOID,
                f"the army/fleet in {prov.upper()} is two units and one removal is due: "
                f"remove its army (Remove A {prov.upper()})",
            )
        board.remove(unit)
        removed.extend([Unit(power, FLEET, unit.loc), Unit(power, ARMY, unit.loc)])
        return OrderResult(SUCCESS, "the fleet and its army are removed")
    board.remove(unit)
    removed.append(unit)
    return OrderResult(SUCCESS)


def adjustments_due(game_map: Map, position: Position) -> dict[str, int]:
    """Builds (capped by the free sites) or removals each power is due in an adjustment phase,
    as far as it is known before it is adjudicated: with retreats still to come (rule 10 a),
    centres are counted as the units on the board would leave them (the Variant record's
    `adjustments_due`, for the desk's question of who owes orders)."""
    from judge.engine.adjudicate import update_centres

    units = list(position.units)
    centers: Mapping[str, frozenset[str]] = position.centers
    owners: Mapping[str, str] = position.owners
    if position.dislodged:
        centers = update_centres(game_map, units, centers)
        owners = build_centres_after(game_map, owners, units)
    due = builds_due(game_map, units, centers, dict(position.state.get("rights", {})))
    occupied = {u.province for u in units}
    out: dict[str, int] = {}
    for power, n in due.items():
        if n > 0:
            n = min(n, len(build_sites(game_map, power, centers, owners) - occupied))
        out[power] = n
    return out
