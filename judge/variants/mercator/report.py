"""Mercator's results text: each power's orders time scale by time scale with what came of them,
the units dislodged with the time scale of their fall and where they may go, the provinces owned
(rule 5.1), and the supply centres after a build month. One layout for both report styles.
"""

from __future__ import annotations

from typing import Any

from judge.engine.calendar import ADJUSTMENTS, MOVEMENT
from judge.engine.position import Position, province_of
from judge.engine.results import SUCCESS
from judge.language.format import location_name
from judge.reports.judge_style import power_title
from judge.reports.phase import PhaseReport, centre_lines, power_order
from judge.reports.variant_text import closing_line, failure_mark
from judge.variants import UNIT_WORDS
from judge.variants.mercator.adjustments import due as due_adjustments
from judge.variants.mercator.language import format_scaled
from judge.variants.mercator.orders import Board, Disembark, Embark, Land, Scaled
from judge.variants.mercator.ownership import home_provinces, special_provinces


def _mark(result: Any) -> str:
    if result is None:
        return ""
    if result.result == SUCCESS:
        # A success worth a word: a premium build, a spare placed, an army dumped in the ice.
        words = result.reason
        return f"  ({words})" if words and words not in ("landed", "disembarked") else ""
    return failure_mark(result)


def _place_in_report(order: Any) -> tuple[int, int]:
    """Time scale by time scale; in time scale 3 the embarkations and disembarkations before
    the supplementary moves, as they happen."""
    scale = order.time_scale if isinstance(order, Scaled) else 0
    value = order.order if isinstance(order, Scaled) else order
    return (scale, 0 if isinstance(value, Embark | Disembark | Land | Board) else 1)


def _provinces_named(order: Any) -> set[str]:
    value = order.order if isinstance(order, Scaled) else order
    out = set()
    for name in ("loc", "army_loc", "fleet_loc"):
        loc = getattr(value, name, None)
        if isinstance(loc, str):
            out.add(province_of(loc))
    out.update(province_of(f) for f in getattr(value, "fleet_locs", ()))
    return out


def mercator_text(report: PhaseReport) -> str:
    phase = report.phase
    game_map = report.game_map
    kinds = {MOVEMENT: "Movement", ADJUSTMENTS: "Adjustment"}
    title = f"{kinds.get(phase.kind, 'Retreat')} results for {phase.long_name().rsplit(' ', 1)[0]}."
    if report.game:
        seq = f".{report.sequence:03d}" if report.sequence is not None else ""
        title += f"  ({report.game}{seq})"
    out = [title]
    for power in power_order(report):
        orders = report.orders.get(power, ())
        if not orders:
            if phase.kind == MOVEMENT and any(u.power == power for u in report.before.units):
                out += ["", f"{power_title(power)}: no orders; its units hold."]
            continue
        results = report.result.results.get(power, ())
        out += ["", f"{power_title(power)}:"]
        last_scale = None
        pairs = [(o, results[i] if i < len(results) else None) for i, o in enumerate(orders)]
        for order, outcome in sorted(pairs, key=lambda pair: _place_in_report(pair[0])):
            scale = order.time_scale if isinstance(order, Scaled) else 0
            if phase.kind == MOVEMENT and scale != last_scale and scale in (1, 2, 3):
                out.append(f"  Time scale {scale}:")
                last_scale = scale
            out.append(f"    {format_scaled(order, game_map)}.{_mark(outcome)}")
        if phase.kind == MOVEMENT:
            named = {p for order in orders for p in _provinces_named(order)}
            for unit in report.before.units:
                if unit.power == power and unit.province not in named:
                    where = location_name(unit.loc, game_map)
                    out.append(
                        f"  {UNIT_WORDS.get(unit.kind, unit.kind)} {where}: no orders, holds."
                    )
        if power in report.general_orders:
            out.append(f"  ({power_title(power)} sent no orders: its general orders were played.)")
    if report.result.dislodged:
        out += ["", "Dislodged:"]
        for d in report.result.dislodged:
            unit = d.unit
            where = location_name(unit.loc, game_map)
            owner = power_title(unit.power)
            if unit.kind == "AF" and unit.army_power:
                owner += f" with {power_title(unit.army_power)}'s army"
            line = f"  {UNIT_WORDS.get(unit.kind, unit.kind)} {where} ({owner})"
            if d.time_scale:
                line += f", in time scale {d.time_scale}"
            if d.attacker_from:
                line += f", by the attack from {location_name(d.attacker_from, game_map)}"
            options = ", ".join(location_name(r, game_map) for r in d.retreats)
            line += f": may retreat to {options}." if options else ": destroyed, nowhere to go."
            out.append(line)
    if report.result.disbanded:
        out += ["", "Removed:"]
        for unit in report.result.disbanded:
            out.append(
                f"  {power_title(unit.power)} {UNIT_WORDS.get(unit.kind, unit.kind)} "
                f"{location_name(unit.loc, game_map)}"
            )
    # A power's own home and special provinces are its own from the start (rules 5.2, 6.3):
    # named only when they are someone else's.
    natural = {**home_provinces(game_map), **special_provinces(game_map)}
    owners = {
        prov: power
        for prov, power in (report.result.owners_after or {}).items()
        if natural.get(prov) != power
    }
    if owners:
        out += ["", "Provinces owned (not supply centres):"]
        by_power: dict[str, list[str]] = {}
        for prov, power in owners.items():
            by_power.setdefault(power, []).append(game_map.provinces[prov].name)
        for power in sorted(by_power):
            out.append(f"  {power_title(power)}: {', '.join(sorted(by_power[power]))}")
    if report.centres_settled:
        out += ["", "Supply centres:"]
        # Mercator's count (army/fleets twice, dumped armies, spare units kept: adjustments.py),
        # not the regular game's centres less units.
        owed = due_adjustments(
            Position(
                phase.name,
                report.result.units_after,
                report.result.centers_after,
                state=report.result.state_after or {},
            )
        )
        for line in centre_lines(report):
            names = ", ".join(game_map.provinces[c].name for c in line.owned) or "none"
            due = owed.get(line.power, 0)
            change = f"  builds {due}" if due > 0 else (f"  removes {-due}" if due < 0 else "")
            out.append(f"  {power_title(line.power)} ({len(line.owned)}): {names}.{change}")
    out.append("")
    ending = closing_line(report, ", who claimed the win together (rule 10)")
    if ending:
        out.append(ending)
    return "\n".join(out) + "\n"
