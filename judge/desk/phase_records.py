"""A stored phase (PhaseRecord) read back into the values the reports are written from.

HISTORY sends past results as they were announced, so the report is built from what was
recorded (the board before, the orders as given, the results the engine gave then), not from a
new adjudication: a later change to the engine or the rules must not rewrite a game's past.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from judge.adjudicate_json import read_variant_case
from judge.desk.secret_boards import master_writer
from judge.engine.calendar import MONTHS, PhaseError, parse_phase
from judge.engine.position import Dislodged, Unit
from judge.engine.results import OrderResult, Payment, PhaseResult
from judge.reports import PhaseReport
from judge.store.games import Game, PhaseRecord


def _unit(raw: Mapping[str, Any]) -> Unit:
    army_power = raw.get("army_power")
    return Unit(raw["power"], raw["type"], raw["loc"], army_power)


def phase_result(results: Mapping[str, Any], skipped: Mapping[str, set[int]]) -> PhaseResult:
    """The engine's PhaseResult from a stored results document (docs/ADJUDICATE.md's output).

    `skipped` holds, per power, the indices of orders that could not be read: they are in the
    stored results (as illegal) but were never handed to the engine, so the report's order
    values do not include them either.
    """
    per_power = {}
    for power, lines in results.get("results", {}).items():
        drop = skipped.get(power, set())
        per_power[power] = tuple(
            OrderResult(line["result"], line.get("reason", ""), line.get("time_scale", 0))
            for index, line in enumerate(lines)
            if index not in drop
        )
    return PhaseResult(
        phase=results["phase"],
        results=per_power,
        units_after=tuple(_unit(u) for u in results.get("units_after", ())),
        centers_after={p: frozenset(c) for p, c in results.get("centers_after", {}).items()},
        next_phase=results["next_phase"],
        dislodged=tuple(
            Dislodged(
                unit=_unit(d),
                attacker_from=d.get("attacker_from"),
                attacker_convoyed=bool(d.get("attacker_convoyed", False)),
                retreats=tuple(d.get("retreats", ())),
                time_scale=d.get("time_scale", 0),
            )
            for d in results.get("dislodged", ())
        ),
        contested=frozenset(results.get("contested", ())),
        disbanded=tuple(_unit(u) for u in results.get("disbanded", ())),
        victory=tuple(results.get("victory", ())),
        owners_after=results.get("owners_after"),
        state_after=results.get("state_after"),
        notes=tuple(results.get("notes", ())),
        payments=tuple(
            Payment(p["from"], p["to"], p["currency"], p["amount"], p["why"])
            for p in results.get("payments", ())
        ),
    )


def phase_report(game: Game, record: PhaseRecord, sequence: int) -> PhaseReport:
    """The report of one stored phase as its results mail told it, without the deadline line
    (a past deadline means nothing to a reader of the history). Raises judge.adjudicate_json's
    CaseError when the stored board is one this judge can no longer read."""
    case = read_variant_case(record.position_before, rules=list(game.rules))
    texts = {power: list(lines) for power, lines in record.orders.items()}
    read = case.variant.language.read_orders(case.game_map, texts)
    skipped: dict[str, set[int]] = {}
    for power, lines in texts.items():
        entry = 0  # the stored results have no entry for a heading, one per order of a line
        for index in range(len(lines)):
            if (power, index) in read.headings:
                continue
            if (power, index) in read.unreadable:
                skipped.setdefault(power, set()).add(entry)
                entry += 1
                continue
            entry += len(read.parts.get((power, index), [None]))
    result = phase_result(record.results, skipped)
    fields = case.variant.rules.case_fields
    if fields is not None:  # a variant's own fields of the result (Mercenary's money after it)
        own = fields.read(fields.carry(record.results), case.game_map)
        result = replace(result, state_after={**(result.state_after or {}), **own})
    return PhaseReport(
        game_map=case.game_map,
        before=case.position,
        orders=read.orders,
        result=result,
        game=game.name,
        sequence=sequence,
        civil_disorder=case.position.civil_disorder,
        text_writer=(
            master_writer(case.variant.secret_board)
            if case.variant.secret_board is not None
            else case.variant.report.results_text
        ),
    )


def phase_order(name: str, calendar: str = "standard") -> tuple[int, int, int] | None:
    """A key that sorts phase names in the order they are played; None for a name the
    calendar does not know."""
    try:
        phase = parse_phase(name, calendar)
    except PhaseError:
        return None
    season = MONTHS.index(phase.season) if phase.is_monthly else "SFW".index(phase.season)
    return (phase.year, season, "MRA".index(phase.kind))
