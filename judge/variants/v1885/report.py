"""1885's results text: each power's orders in full with what came of them (several on a line
of Davis's notation are an order each), the units that had none, the units dislodged with the
places they may go, the retreats the right-hand rule made and the armies lost, the owners of the
build centres, and the units and centres after a build month. One layout for both styles.
"""

from __future__ import annotations

from typing import Any

from judge.engine.calendar import ADJUSTMENTS, MOVEMENT, RETREATS
from judge.engine.orders import Retreat
from judge.engine.position import province_of
from judge.engine.results import SUCCESS
from judge.language.format import location_name
from judge.reports.judge_style import power_title
from judge.reports.phase import PhaseReport, power_order
from judge.reports.variant_text import closing_line, failure_mark
from judge.variants import UNIT_WORDS
from judge.variants.v1885.language import format_full
from judge.variants.v1885.orders import Board, ChooseUnit, Disembark, RetreatOnFile
from judge.variants.v1885.removals import unit_counts


def _mark(result: Any) -> str:
    if result is None:
        return ""
    if result.result == SUCCESS:
        return f"  ({result.reason})" if result.reason else ""
    return failure_mark(result)


def _named(order: Any) -> set[str]:
    """Provinces whose unit an order of the move is for (a boarding: the army and its fleet;
    a retreat sent with the move is none: the unit holds unless ordered otherwise)."""
    if isinstance(order, RetreatOnFile | Retreat):
        return set()
    if isinstance(order, Board):
        return {order.army_loc, order.fleet_loc}
    if isinstance(order, Disembark | ChooseUnit):
        return {province_of(order.army_loc if isinstance(order, Disembark) else order.loc)}
    loc = getattr(order, "loc", None)
    return {province_of(loc)} if isinstance(loc, str) else set()


def _in_turn(order: Any) -> int:
    """Orders in the order things happen: Rome's choice, boardings, the moves, the landings;
    otherwise as the power gave them (the sort is stable)."""
    if isinstance(order, ChooseUnit):
        return 0
    if isinstance(order, Board):
        return 1
    if isinstance(order, Disembark):
        return 3
    return 2


def results_text(report: PhaseReport) -> str:
    phase = report.phase
    game_map = report.game_map
    kinds = {MOVEMENT: "Movement", ADJUSTMENTS: "Adjustment", RETREATS: "Retreat"}
    month = phase.long_name().rsplit(" ", 1)[0]
    title = f"{kinds[phase.kind]} results for {month}."
    if report.game:
        seq = f".{report.sequence:03d}" if report.sequence is not None else ""
        title += f"  ({report.game}{seq})"
    out = [title]
    for power in power_order(report):
        orders = report.orders.get(power, ())
        results = report.result.results.get(power, ())
        holding = [u for u in report.before.units if u.power == power and phase.kind == MOVEMENT]
        if not orders and not holding:
            continue
        out += ["", f"{power_title(power)}:"]
        pairs = [(o, results[i] if i < len(results) else None) for i, o in enumerate(orders)]
        for order, outcome in sorted(pairs, key=lambda pair: _in_turn(pair[0])):
            out.append(f"    {format_full(order, game_map)}.{_mark(outcome)}")
        named = {p for order in orders for p in _named(order)}
        for unit in holding:
            if unit.province not in named:
                where = location_name(unit.loc, game_map)
                out.append(f"    {UNIT_WORDS[unit.kind]} {where}: no order, holds.")
        if power in report.general_orders:
            out.append(f"  ({power_title(power)} sent no orders: its general orders were played.)")
    if report.result.dislodged:
        out += ["", "Dislodged:"]
        for d in report.result.dislodged:
            unit = d.unit
            line = (
                f"  {power_title(unit.power)} {UNIT_WORDS[unit.kind]} "
                f"{location_name(unit.loc, game_map)}"
            )
            if d.attacker_from:
                line += f", by the attack from {location_name(d.attacker_from, game_map)}"
            options = ", ".join(location_name(r, game_map) for r in d.retreats)
            line += f": may retreat to {options}." if options else ": nowhere to go, removed."
            out.append(line)
        if phase.kind == MOVEMENT and report.next_phase.kind == ADJUSTMENTS:
            out.append(
                "  Retreats are sent with the builds; a unit without a retreat order retreats "
                "by the right-hand rule (rule 10 a)."
            )
    if report.result.notes:
        out += [""] + [f"  {note}" for note in report.result.notes]
    if report.result.disbanded:
        out += ["", "Removed:"]
        for unit in report.result.disbanded:
            out.append(
                f"  {power_title(unit.power)} {UNIT_WORDS[unit.kind]} "
                f"{location_name(unit.loc, game_map)}"
            )
    owners = report.result.owners_after or {}
    if owners:
        out += ["", "Build centres held by another power than their own, or taken back (rule 6 a):"]
        for prov, power in sorted(owners.items()):
            out.append(f"  {game_map.provinces[prov].name}: {power_title(power)}")
    build_month = phase.season in ("MAR", "JUN", "SEP", "DEC")
    settled = phase.kind == ADJUSTMENTS or (
        build_month and phase.kind == MOVEMENT and not report.result.dislodged
    )
    if settled:
        counts = unit_counts(report.result.units_after)
        out += ["", "Supply centres and units:"]
        for power in power_order(report):
            owned = report.result.centers_after.get(power, frozenset())
            units = counts.get(power, 0)
            if not owned and not units:
                continue
            names = ", ".join(sorted(game_map.provinces[c].name for c in owned)) or "none"
            count = f"{len(owned)} centre{'' if len(owned) == 1 else 's'}, {units} unit" + (
                "" if units == 1 else "s"
            )
            out.append(f"  {power_title(power)} ({count}): {names}.")
    out.append("")
    ending = closing_line(report, ", an alliance victory claimed by both (rule 5 b)")
    if ending and _retreats_all_on_file(report):
        ending = (
            f"The next phase is {report.next_phase.long_name()}; it is processed at once: every "
            "dislodged unit's retreat order was sent with the move."
        )
    if ending:
        out.append(ending)
    return "\n".join(out) + "\n"


def _retreats_all_on_file(report: PhaseReport) -> bool:
    """Whether the retreat phase that follows owes no order (each dislodged unit's retreat sent
    with the move, or its power in civil disorder), so that the desk processes it at once."""
    result = report.result
    if report.next_phase.kind != RETREATS or not result.dislodged or report.game_over:
        return False
    on_file = (result.state_after or {}).get("on_file", {})
    return all(
        d.unit.province in on_file or d.unit.power in report.before.civil_disorder
        for d in result.dislodged
    )
