"""One 1885 phase, whatever its kind: the variant's adjudicator (the `Variant` record's
`adjudicate`), on the monthly calendar (rule 4): a move each month from January 1885, builds
and removals in March, June, September and December.

- A move (moves.py). After a build month's move centres change hands, unless units were
  dislodged: then the adjustment phase follows at once, and its retreats come first (rule 10 a).
  After another month's move dislodged units retreat in a retreat phase of their own.
- The life of an army/fleet (A/F module II b): the position's state keeps, for each army/fleet,
  the moves it has ended with its army aboard ("aboard": province -> count); at the end of the
  fourth the army starves and is removed, its fleet stays.
- Wins (rule 5): 23 units on the board (an army/fleet two), when units are counted; a win of
  two powers claimed together (victory.py).

The variant's state (`Position.state`): "months" (moves played), "aboard", "facing" (the side
each dislodged unit was attacked from, for the right-hand rule), "on_file" (the retreat orders
sent with the move for the units it dislodged, rule 10 a: province -> place), "rights" (rule 11,
between the first build month's move and its builds), "build_seasons". `Position.owners` keeps
the owner of each build centre that changed hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.adjudicate import update_centres
from judge.engine.calendar import (
    ADJUSTMENTS,
    BUILD_MONTHS,
    MONTHLY,
    MONTHS,
    MOVEMENT,
    RETREATS,
    Phase,
    parse_phase,
)
from judge.engine.geography import Map
from judge.engine.orders import Build, Disband, Move, Retreat, Waive
from judge.engine.position import Dislodged, Position, Unit, province_of
from judge.engine.results import ILLEGAL, SUCCESS, VOID, OrderResult, PhaseResult
from judge.engine.rules import Rules
from judge.variants.v1885.adjustments import (
    build_centres_after,
    builds_due,
    first_build_rights,
    resolve_adjustments,
)
from judge.variants.v1885.moves import resolve_move
from judge.variants.v1885.orders import ContingentBuild, RetreatOnFile
from judge.variants.v1885.removals import unit_counts
from judge.variants.v1885.retreats import cannot_retreat, resolve_retreats, retreat_destination
from judge.variants.v1885.victory import SOLO_UNITS

ARMY, FLEET, ARMY_FLEET = "A", "F", "AF"
RATIONS = 4  # the army aboard starves at the end of its fourth move at sea (II b)
# Rule 3: the starting units whose kind their power chooses before the first move.
CHOOSABLE = {"rom": "ITALY"}


def _next(phase: Phase, kind: str) -> str:
    if kind != MOVEMENT:
        return Phase(phase.season, phase.year, kind).name
    index = MONTHS.index(phase.season)
    if index == len(MONTHS) - 1:
        return Phase(MONTHS[0], phase.year + 1, MOVEMENT).name
    return Phase(MONTHS[index + 1], phase.year, MOVEMENT).name


def _aligned(
    orders: Mapping[str, Sequence[Any]], results: Mapping[tuple[str, int], OrderResult]
) -> dict[str, tuple[OrderResult, ...]]:
    return {
        power: tuple(
            results.get((power, i), OrderResult(ILLEGAL, "not an order for this phase"))
            for i in range(len(power_orders))
        )
        for power, power_orders in orders.items()
    }


def _winners(units: Sequence[Unit]) -> tuple[str, ...]:
    return tuple(sorted(p for p, n in unit_counts(units).items() if n >= SOLO_UNITS))


def adjudicate_1885(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Any]], rules: Rules
) -> PhaseResult:
    phase = parse_phase(position.phase, MONTHLY)
    if phase.kind == MOVEMENT:
        return _move(game_map, position, orders, rules, phase)
    if phase.kind == RETREATS:
        return _retreats(game_map, position, orders, phase)
    return _adjustments(game_map, position, orders, phase)


def _move(
    game_map: Map,
    position: Position,
    orders: Mapping[str, Sequence[Any]],
    rules: Rules,
    phase: Phase,
) -> PhaseResult:
    state: dict[str, Any] = dict(position.state)
    build_month = phase.season in BUILD_MONTHS
    if build_month and not state.get("build_seasons"):
        rights = first_build_rights(game_map, position.units)
        if rights:
            state["rights"] = rights
    move = resolve_move(game_map, position, orders, rules, CHOOSABLE)
    units = list(move.units_after)
    dislodged = list(move.dislodged)
    on_file, filed_results = _retreats_on_file(game_map, position, orders, dislodged)
    move.results.update(filed_results)
    # The life of each army/fleet (II b): moves ended with its army aboard.
    before = dict(state.get("aboard", {}))
    aboard: dict[str, int] = {}
    starved: list[Unit] = []
    for i, unit in enumerate(units):
        if unit.kind != ARMY_FLEET:
            continue
        origin = move.carried.get(unit.province)
        count = (before.get(origin, 0) if origin is not None else 0) + 1
        if count >= RATIONS:
            units[i] = Unit(unit.power, FLEET, unit.loc)
            starved.append(Unit(unit.power, ARMY, unit.loc))
        else:
            aboard[unit.province] = count
    for i, d in enumerate(dislodged):
        if d.unit.kind != ARMY_FLEET:
            continue
        origin = move.carried.get(d.unit.province)
        count = (before.get(origin, 0) if origin is not None else 0) + 1
        if count >= RATIONS:
            unit = Unit(d.unit.power, FLEET, d.unit.loc)
            dislodged[i] = Dislodged(unit, d.attacker_from, d.attacker_convoyed, d.retreats, 0)
            starved.append(Unit(d.unit.power, ARMY, d.unit.loc))
        else:
            aboard[d.unit.province] = count
    state["aboard"] = aboard
    state["months"] = int(state.get("months", 0)) + 1
    state["facing"] = {p: side for p, side in move.facing.items() if side}
    if on_file:
        state["on_file"] = on_file
    else:
        state.pop("on_file", None)
    if move.chosen:
        state["chosen"] = dict(move.chosen)
    centers = dict(position.centers)
    owners = dict(position.owners)
    if build_month and not dislodged:
        centers = update_centres(game_map, units, centers)
        owners = build_centres_after(game_map, owners, units)
    if build_month and (dislodged or _adjustments_due(game_map, units, centers, owners, state)):
        nxt = _next(phase, ADJUSTMENTS)
    elif dislodged:
        nxt = _next(phase, RETREATS)
    else:
        nxt = _next(phase, MOVEMENT)
        state.pop("rights", None)
        if build_month:
            state["build_seasons"] = int(state.get("build_seasons", 0)) + 1
    notes = tuple(
        f"The army aboard the army/fleet in {game_map.provinces[u.province].name} has been at "
        f"sea for {RATIONS} moves: it starves (A/F module II b)."
        for u in starved
    )
    return PhaseResult(
        phase=phase.name,
        results=_aligned(orders, move.results),
        units_after=tuple(units),
        centers_after=centers,
        next_phase=nxt,
        dislodged=tuple(dislodged),
        contested=move.contested,
        disbanded=tuple(starved),
        victory=_winners(units),
        notes=notes,
        owners_after=owners,
        state_after=state,
    )


def _retreats_on_file(
    game_map: Map,
    position: Position,
    orders: Mapping[str, Sequence[Any]],
    dislodged: Sequence[Dislodged],
) -> tuple[dict[str, str], dict[tuple[str, int], OrderResult]]:
    """The retreat orders sent with the move (rule 10 a; A/F module IV e "if no Retreat orders
    are on file"): each kept for its unit if the move dislodged it and its place is open to it
    (province -> place), for the retreats that follow; each with its result in the move."""
    start = {u.province: u for u in position.units}
    hit = {d.unit.province: d for d in dislodged}
    latest: dict[str, tuple[str, int]] = {}
    results: dict[tuple[str, int], OrderResult] = {}
    for power, power_orders in orders.items():
        for index, order in enumerate(power_orders):
            if not isinstance(order, RetreatOnFile | Retreat):
                continue
            key = (power, index)
            prov = province_of(order.loc)
            unit = start.get(prov)
            if unit is None or unit.power != power:
                results[key] = OrderResult(VOID, f"{power} has no unit in {prov.upper()}")
                continue
            if prov in latest:
                results[latest[prov]] = OrderResult(
                    VOID, "replaced by a later retreat order for the same unit"
                )
            latest[prov] = key
    on_file: dict[str, str] = {}
    for prov, key in latest.items():
        order = orders[key[0]][key[1]]
        d = hit.get(prov)
        if d is None:
            results[key] = OrderResult(VOID, "the unit was not dislodged")
            continue
        dest = retreat_destination(d.retreats, order.dest)
        if dest is None:
            why = cannot_retreat(game_map, d, d.retreats, order.dest)
            results[key] = OrderResult(
                VOID, f"{why}; without another order it retreats by the right-hand rule"
            )
            continue
        on_file[prov] = dest
    # What really follows (the desk runs a phase as soon as nobody owes an order in it): with
    # no dislodged unit left without a retreat on file, outside civil disorder, a retreat phase
    # runs at once, and no other retreat order can come before it.
    owed = any(
        p not in on_file and d.unit.power not in position.civil_disorder for p, d in hit.items()
    )
    build_month = parse_phase(position.phase, MONTHLY).season in BUILD_MONTHS
    for prov, dest in on_file.items():
        place = game_map.provinces[province_of(dest)].name
        if build_month:
            then = " unless another order for it is sent with the builds"
        elif owed:
            then = (
                " unless another is sent for it before the retreat phase is processed (it waits "
                "for the retreat orders still owed)"
            )
        else:
            then = "; no other retreat is owed, so the retreat phase is processed at once"
        results[latest[prov]] = OrderResult(
            SUCCESS, f"dislodged: it retreats to {place} by this order{then}"
        )
    return on_file, results


def _adjustments_due(
    game_map: Map,
    units: Sequence[Unit],
    centers: Mapping[str, frozenset[str]],
    owners: Mapping[str, str],
    state: Mapping[str, Any],
) -> bool:
    from judge.variants.v1885.adjustments import build_sites

    due = builds_due(game_map, units, centers, state.get("rights", {}))
    occupied = {u.province for u in units}
    for power, n in due.items():
        if n < 0:
            return True
        if n > 0 and build_sites(game_map, power, centers, owners) - occupied:
            return True
    return False


def _carry_aboard(state: dict[str, Any], moved: Mapping[str, str], units: Sequence[Unit]) -> None:
    """An army/fleet that retreated keeps its count of moves at sea under its new province."""
    aboard = dict(state.get("aboard", {}))
    afloat = {u.province for u in units if u.kind == ARMY_FLEET}
    out = {}
    for prov, count in aboard.items():
        there = moved.get(prov, prov)
        if there in afloat:
            out[there] = count
    state["aboard"] = out


def _retreats(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Any]], phase: Phase
) -> PhaseResult:
    state = dict(position.state)
    out = resolve_retreats(
        game_map, position, orders, state.get("facing", {}), on_file=state.get("on_file", {})
    )
    _carry_aboard(state, out.moved, out.units_after)
    state.pop("facing", None)
    state.pop("on_file", None)
    return PhaseResult(
        phase=phase.name,
        results=_aligned(orders, out.results),
        units_after=tuple(out.units_after),
        centers_after=dict(position.centers),
        next_phase=_next(phase, MOVEMENT),
        disbanded=tuple(out.disbanded),
        victory=_winners(out.units_after),
        notes=tuple(out.notes),
        owners_after=dict(position.owners),
        state_after=state,
    )


def _rule_11_notes(
    game_map: Map, centers: Mapping[str, frozenset[str]], rights: Mapping[str, bool]
) -> list[str]:
    """What rule 11 changed in this build month's count, said in the results."""
    from judge.variants.v1885.adjustments import short_homes

    out = []
    for centre, power in sorted(short_homes(game_map).items()):
        if centre not in rights:
            continue
        name = game_map.provinces[centre].name
        who = game_map.powers[power].adjective
        owns = centre in centers.get(power, frozenset())
        if rights[centre] and not owns:
            out.append(
                f"{name} counts for {power.title()} this month: no other power's unit stood in "
                f"it after the February move (rule 11), though it is no longer {who}."
            )
        elif owns and not rights[centre]:
            out.append(
                f"{name} does not count for {power.title()} this month: another power's unit "
                "stood in it after the February move (rule 11)."
            )
    return out


def _is_retreat(position: Position, power: str, order: Any) -> bool:
    """In an adjustment phase with retreats, whether an order is for a dislodged unit."""
    if not isinstance(order, Retreat | Move | Disband):
        return False
    prov = province_of(order.loc)
    waiting = next((d for d in position.dislodged if d.unit.province == prov), None)
    if isinstance(order, Disband):
        return waiting is not None and waiting.unit.power == power
    return True


def _adjustments(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Any]], phase: Phase
) -> PhaseResult:
    state = dict(position.state)
    results: dict[tuple[str, int], OrderResult] = {}
    units = list(position.units)
    centers = dict(position.centers)
    owners = dict(position.owners)
    removed: list[Unit] = []
    notes: list[str] = []
    moved: dict[str, str] = {}
    retreated: dict[str, Unit] = {d.unit.province: d.unit for d in position.dislodged}
    adjustment_orders: dict[str, list[tuple[tuple[str, int], Any]]] = {}
    retreat_keys: set[tuple[str, int]] = set()
    for power, power_orders in orders.items():
        for index, order in enumerate(power_orders):
            if position.dislodged and _is_retreat(position, power, order):
                retreat_keys.add((power, index))
            elif isinstance(order, Build | ContingentBuild | Waive | Disband):
                adjustment_orders.setdefault(power, []).append(((power, index), order))
            else:
                results[(power, index)] = OrderResult(
                    ILLEGAL, "not an order for builds, removals and retreats"
                )
    if position.dislodged:
        out = resolve_retreats(
            game_map,
            position,
            orders,
            state.get("facing", {}),
            only=retreat_keys,
            on_file=state.get("on_file", {}),
        )
        results.update(out.results)
        units, removed, notes, moved = (
            list(out.units_after),
            list(out.disbanded),
            out.notes,
            out.moved,
        )
        _carry_aboard(state, moved, units)
        state.pop("facing", None)
        centers = update_centres(game_map, units, centers)
        owners = build_centres_after(game_map, owners, units)
    notes.extend(_rule_11_notes(game_map, centers, state.get("rights", {})))
    adjusted = resolve_adjustments(
        game_map,
        position,
        units,
        centers,
        owners,
        state.get("rights", {}),
        adjustment_orders,
        moved,
        retreated,
    )
    results.update(adjusted.results)
    removed.extend(adjusted.removed)
    afloat = {u.province for u in adjusted.units_after if u.kind == ARMY_FLEET}
    state["aboard"] = {p: n for p, n in dict(state.get("aboard", {})).items() if p in afloat}
    state.pop("rights", None)
    state.pop("facing", None)
    state.pop("on_file", None)
    state["build_seasons"] = int(state.get("build_seasons", 0)) + 1
    return PhaseResult(
        phase=phase.name,
        results=_aligned(orders, results),
        units_after=tuple(adjusted.units_after),
        centers_after=centers,
        next_phase=_next(phase, MOVEMENT),
        disbanded=tuple(removed),
        victory=_winners(adjusted.units_after),
        notes=tuple(notes),
        owners_after=owners,
        state_after=state,
    )
