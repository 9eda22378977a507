"""One phase, whatever its kind: the engine's single entry point for the desk and the CLI."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.engine.adjustments import adjustments_due, resolve_adjustments
from judge.engine.calendar import (
    ADJUSTMENTS,
    ANY,
    MOVEMENT,
    RETREATS,
    following_phase,
    parse_phase,
)
from judge.engine.geography import Map
from judge.engine.orders import Order
from judge.engine.position import Position, Unit
from judge.engine.resolve import resolve_movement
from judge.engine.results import PhaseResult
from judge.engine.retreats import resolve_retreats
from judge.engine.rules import Rules
from judge.engine.topology import topology


def update_centres(
    game_map: Map, units: Sequence[Unit], centers: Mapping[str, frozenset[str]]
) -> dict[str, frozenset[str]]:
    """After a fall turn every supply centre with a unit in it belongs to that unit's power."""
    owner = {c: p for p, owned in centers.items() for c in owned}
    scs = topology(game_map).supply_centres
    for unit in units:
        prov = unit.province
        if prov in scs:
            owner[prov] = unit.power
    out: dict[str, set[str]] = {p: set() for p in centers}
    for centre, power in owner.items():
        out.setdefault(power, set()).add(centre)
    return {p: frozenset(c) for p, c in out.items()}


def winners(
    game_map: Map, units: Sequence[Unit], centers: Mapping[str, frozenset[str]], rules: Rules
) -> tuple[str, ...]:
    need = rules.victory_count or game_map.victory_centres
    if rules.victory_by_units:
        counts: dict[str, int] = {}
        for unit in units:
            counts[unit.power] = counts.get(unit.power, 0) + 1
    else:
        counts = {p: len(c) for p, c in centers.items()}
    return tuple(sorted(p for p, n in counts.items() if n >= need))


def adjudicate(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Order]], rules: Rules
) -> PhaseResult:
    # The phase is written in its variant's calendar, which may differ from the board's (the
    # standard game on the monthly 1885 board): the name itself says which calendar it is.
    phase = parse_phase(position.phase, ANY)
    centers = dict(position.centers)
    dislodged: tuple = ()
    contested: frozenset[str] = frozenset()
    disbanded: tuple[Unit, ...] = ()
    if phase.kind == MOVEMENT:
        outcome = resolve_movement(game_map, position, orders, rules)
        results, units = outcome.results, outcome.units_after
        dislodged, contested = outcome.dislodged, outcome.contested
        if phase.is_fall and not dislodged:
            centers = update_centres(game_map, units, centers)
    elif phase.kind == RETREATS:
        outcome_r = resolve_retreats(game_map, position, orders, rules)
        results, units, disbanded = outcome_r.results, outcome_r.units_after, outcome_r.disbanded
        if phase.is_fall:
            centers = update_centres(game_map, units, centers)
    else:
        assert phase.kind == ADJUSTMENTS
        outcome_a = resolve_adjustments(game_map, position, orders)
        results, units, disbanded = outcome_a.results, outcome_a.units_after, outcome_a.disbanded
    nxt = following_phase(
        phase,
        retreats_due=bool(dislodged),
        adjustments_due=phase.is_fall and adjustments_due(game_map, units, centers),
    )
    return PhaseResult(
        phase=phase.name,
        results=results,
        units_after=tuple(units),
        centers_after=centers,
        next_phase=nxt.name,
        dislodged=tuple(dislodged),
        contested=contested,
        disbanded=disbanded,
        victory=winners(game_map, units, centers, rules),
    )
