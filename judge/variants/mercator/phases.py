"""One Mercator phase, whatever its kind: the variant's adjudicator (the `Variant` record's
`adjudicate`). A month's moves are time scales 1 to 3 (month.py), its retreats time scale 4
(retreats.py), and the build months end with adjustments (adjustments.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.adjudicate import update_centres
from judge.engine.calendar import ADJUSTMENTS, MOVEMENT, following_phase, parse_phase
from judge.engine.geography import Map
from judge.engine.position import Position
from judge.engine.results import OrderResult, PhaseResult
from judge.engine.rules import Rules
from judge.variants.mercator.adjustments import resolve_mercator_adjustments
from judge.variants.mercator.month import resolve_month
from judge.variants.mercator.orders import Scaled
from judge.variants.mercator.ownership import owners_after_month
from judge.variants.mercator.retreats import resolve_mercator_retreats
from judge.variants.mercator.victory import claim_thresholds, claimed_win, solo_winners

MONTHLY = "monthly"


def _aligned(
    orders: Mapping[str, Sequence[Any]], results: Mapping[tuple[str, int], OrderResult]
) -> dict[str, tuple[OrderResult, ...]]:
    return {
        power: tuple(results[(power, i)] for i in range(len(power_orders)))
        for power, power_orders in orders.items()
    }


def _state_with_dumped(state: Mapping[str, Any], dumped: Mapping[str, int]) -> dict[str, Any]:
    out = dict(state)
    if dumped:
        counts = dict(out.get("dumped", {}))
        for power, n in dumped.items():
            counts[power] = counts.get(power, 0) + n
        out["dumped"] = counts
    return out


def adjudicate_mercator(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Scaled]], rules: Rules
) -> PhaseResult:
    phase = parse_phase(position.phase, MONTHLY)
    centers = dict(position.centers)
    if phase.kind == ADJUSTMENTS:
        return resolve_mercator_adjustments(game_map, position, orders, rules)
    if phase.kind == MOVEMENT:
        month = resolve_month(game_map, position, orders, rules)
        units, dislodged = month.units_after, month.dislodged
        owners = owners_after_month(game_map, position.owners, month.moments)
        state = _state_with_dumped(position.state, month.dumped)
        state["months"] = int(state.get("months", 0)) + 1
        if month.spares:
            state["spares"] = dict(month.spares)
        results = _aligned(orders, month.results)
        disbanded: tuple = ()
        contested = month.contested
        if phase.is_fall and not dislodged:
            centers = update_centres(game_map, units, centers)
    else:
        retreat = resolve_mercator_retreats(game_map, position, orders)
        units, dislodged, disbanded = retreat.units_after, (), retreat.disbanded
        owners = owners_after_month(game_map, position.owners, (tuple(units),))
        state = dict(position.state)
        results = _aligned(orders, retreat.results)
        contested = frozenset()
        if phase.is_fall:
            centers = update_centres(game_map, units, centers)
    nxt = following_phase(phase, retreats_due=bool(dislodged), adjustments_due=phase.is_fall)
    counts = {power: len(owned) for power, owned in centers.items()}
    settled = phase.is_fall and not dislodged
    victory = solo_winners(counts, game_map.victory_centres) if settled else ()
    return PhaseResult(
        phase=phase.name,
        results=results,
        units_after=tuple(units),
        centers_after=centers,
        next_phase=nxt.name,
        dislodged=tuple(dislodged),
        contested=contested,
        disbanded=tuple(disbanded),
        owners_after=owners,
        state_after=state,
        victory=victory,
    )


def decide_claims(
    game_map: Map, result: PhaseResult, claims: Mapping[str, frozenset[str]]
) -> tuple[str, ...]:
    """The combine that wins by its claims this season (rule 10), or ()."""
    counts = {power: len(owned) for power, owned in result.centers_after.items()}
    thresholds = claim_thresholds(len(game_map.supply_centres()), game_map.victory_centres)
    return claimed_win(counts, claims, thresholds)
