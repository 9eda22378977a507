"""One adjudicated phase as the reports see it, and the facts both report styles are written from.

The engine hands back results aligned with the orders given; a report also needs the unit each
order was for, the units nobody ordered, what was dislodged and where centres went. Working that
out once here keeps the judge and postal writers to layout alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from judge.engine.calendar import ADJUSTMENTS, ANY, MOVEMENT, RETREATS, Phase, parse_phase
from judge.engine.geography import Map
from judge.engine.orders import Build, Disband, Order, Waive
from judge.engine.position import Dislodged, Position, Unit, province_of
from judge.engine.results import SUCCESS, OrderResult, PhaseResult


@dataclass(frozen=True)
class PhaseReport:
    """Everything a results mail says about one phase: the board before, the orders, the outcome.

    The game facts after `result` are the caller's (the engine does not know them): the game's
    name, its turn number (njudge prints it as ``game.007``), the next deadline, the powers that
    agreed a draw or the power conceded to, and the powers in civil disorder.
    """

    game_map: Map
    before: Position
    orders: Mapping[str, Sequence[Order]]
    result: PhaseResult
    game: str = ""
    sequence: int | None = None
    next_deadline: datetime | None = None
    draw: tuple[str, ...] = ()
    concession: str | None = None
    claimed: tuple[str, ...] = ()  # a win the powers claimed together (Mercator's rule 10)
    # The wins claimed this phase (SET CLAIM) that it did not grant, each combine once.
    claims_not_won: tuple[tuple[str, ...], ...] = ()
    civil_disorder: frozenset[str] = frozenset()
    # Powers that sent no orders and whose general orders (seed 004 I.C) were played instead.
    general_orders: frozenset[str] = frozenset()
    # A variant's own results layout (its Variant record's `results_text`); None: the standard
    # game's styles. It reads `style` where its layout follows the reader's style.
    text_writer: Callable[[PhaseReport], str] | None = None
    # The report style the reader asked for (SET REPORT): "judge" or "postal".
    style: str = "judge"

    @property
    def phase(self) -> Phase:
        return parse_phase(self.result.phase, ANY)

    @property
    def next_phase(self) -> Phase:
        return parse_phase(self.result.next_phase, ANY)

    @property
    def game_over(self) -> bool:
        return bool(self.result.victory or self.draw or self.concession or self.claimed)

    @property
    def centres_settled(self) -> bool:
        """Ownership changes after the fall: after its movement if nothing retreats, else after
        the retreats."""
        phase = self.phase
        if not phase.is_fall:
            return False
        if phase.kind == MOVEMENT:
            return self.next_phase.kind != RETREATS
        return phase.kind == RETREATS

    def restricted_to(self, powers: Iterable[str]) -> PhaseReport:
        """The same phase with only the orders and units of `powers`: the shape a private view
        takes (centre ownership stays public)."""
        keep = frozenset(powers)
        orders = {p: o for p, o in self.orders.items() if p in keep}
        results = {p: r for p, r in self.result.results.items() if p in keep}
        before = replace(
            self.before,
            units=tuple(u for u in self.before.units if u.power in keep),
            dislodged=tuple(d for d in self.before.dislodged if d.unit.power in keep),
        )
        result = replace(
            self.result,
            results=results,
            units_after=tuple(u for u in self.result.units_after if u.power in keep),
            dislodged=tuple(d for d in self.result.dislodged if d.unit.power in keep),
            disbanded=tuple(u for u in self.result.disbanded if u.power in keep),
        )
        return replace(
            self,
            orders=orders,
            before=before,
            result=result,
            general_orders=self.general_orders & keep,
        )


@dataclass(frozen=True)
class Entry:
    """One line of a report: an order with its outcome, or a unit that had no order.

    `unit` is the unit the order moved (None where there is none, as for a build or an order
    naming an empty province); `dislodged` is set when that unit was dislodged this phase.
    """

    power: str
    order: Order | None
    outcome: OrderResult | None
    unit: Unit | None
    dislodged: Dislodged | None = None

    @property
    def succeeded(self) -> bool:
        return self.outcome is not None and self.outcome.result == SUCCESS

    @property
    def failed(self) -> bool:
        """The order did not do what it said (bounced, cut, void, illegal ...)."""
        return self.order is not None and not self.succeeded


@dataclass(frozen=True)
class CentreLine:
    """A power's supply centres after a fall turn, with what changed and the adjustment due."""

    power: str
    owned: tuple[str, ...]  # province codes, by name
    gained: frozenset[str]
    lost: tuple[str, ...]
    units: int
    home: frozenset[str] = field(default_factory=frozenset)

    @property
    def adjustment(self) -> int:
        """Builds (positive) or removals (negative) due."""
        return len(self.owned) - self.units


def power_order(report: PhaseReport) -> list[str]:
    """Powers in the map's order, then any others that appear in the orders."""
    names = list(report.game_map.powers)
    names += sorted(p for p in report.orders if p not in report.game_map.powers)
    return names


def entries(report: PhaseReport) -> dict[str, list[Entry]]:
    """Each power's report lines for this phase, orders first in the order given, then the units
    that had none (they held, or, in a retreat or adjustment phase, were removed)."""
    kind = report.phase.kind
    out: dict[str, list[Entry]] = {}
    for power in power_order(report):
        orders = report.orders.get(power, ())
        results = report.result.results.get(power, ())
        lines = [
            Entry(power, order, results[i] if i < len(results) else None, None)
            for i, order in enumerate(orders)
        ]
        if kind == MOVEMENT:
            lines = _movement(report, power, lines)
        elif kind == RETREATS:
            lines = _retreats(report, power, lines)
        else:
            assert kind == ADJUSTMENTS
            lines = _adjustments(report, power, lines)
        if lines:
            out[power] = lines
    return out


def _ordered_provinces(orders: Iterable[Order]) -> set[str]:
    return {province_of(o.loc) for o in orders if not isinstance(o, Waive)}


def _movement(report: PhaseReport, power: str, lines: list[Entry]) -> list[Entry]:
    dislodged = {d.unit.province: d for d in report.result.dislodged}
    out = []
    for line in lines:
        assert line.order is not None
        unit = None
        if not isinstance(line.order, Waive):
            found = report.before.unit_in(province_of(line.order.loc))
            unit = found if found is not None and found.power == power else None
        hit = dislodged.get(unit.province) if unit is not None else None
        out.append(replace(line, unit=unit, dislodged=hit))
    ordered = _ordered_provinces(e.order for e in out if e.order is not None)
    for unit in report.before.units:
        if unit.power == power and unit.province not in ordered:
            out.append(Entry(power, None, None, unit, dislodged.get(unit.province)))
    return out


def _retreats(report: PhaseReport, power: str, lines: list[Entry]) -> list[Entry]:
    waiting = {d.unit.province: d for d in report.before.dislodged}
    out = []
    for line in lines:
        assert line.order is not None
        d = None if isinstance(line.order, Waive) else waiting.get(province_of(line.order.loc))
        unit = d.unit if d is not None and d.unit.power == power else None
        out.append(replace(line, unit=unit))
    ordered = _ordered_provinces(e.order for e in out if e.order is not None)
    for d in report.before.dislodged:
        # A unit with nowhere to go was reported destroyed with the movement results.
        if d.unit.power == power and d.unit.province not in ordered and d.retreats:
            out.append(Entry(power, None, None, d.unit))
    return out


def _adjustments(report: PhaseReport, power: str, lines: list[Entry]) -> list[Entry]:
    out = []
    removed_by_order = set()
    for line in lines:
        order = line.order
        unit = None
        if isinstance(order, Disband):
            found = report.before.unit_in(province_of(order.loc))
            unit = found if found is not None and found.power == power else None
            if unit is not None and line.succeeded:
                removed_by_order.add(unit)
        elif isinstance(order, Build):
            unit = Unit(power, order.unit_type or "A", order.loc)
        out.append(replace(line, unit=unit))
    for unit in report.result.disbanded:
        if unit.power == power and unit not in removed_by_order:
            out.append(Entry(power, None, None, unit))
    return out


def unused_builds(report: PhaseReport, power: str) -> int:
    """Builds a power was due in an adjustment phase and neither made nor waived."""
    if report.phase.kind != ADJUSTMENTS:
        return 0
    due = len(report.before.centers.get(power, ())) - sum(
        1 for u in report.before.units if u.power == power
    )
    if due <= 0:
        return 0
    results = report.result.results.get(power, ())
    used = sum(
        1
        for order, outcome in zip(report.orders.get(power, ()), results, strict=False)
        if isinstance(order, Build | Waive) and outcome.result == SUCCESS
    )
    return max(0, due - used)


def centre_lines(report: PhaseReport) -> list[CentreLine]:
    """Ownership after a fall turn, one line per power that holds centres or units or lost some."""
    names = {c: p.name for c, p in report.game_map.provinces.items()}
    before = report.before.centers
    after = report.result.centers_after
    units: dict[str, int] = {}
    for unit in report.result.units_after:
        units[unit.power] = units.get(unit.power, 0) + 1
    out = []
    for power in power_order(report):
        owned = after.get(power, frozenset())
        had = before.get(power, frozenset())
        if not owned and not had and not units.get(power):
            continue
        info = report.game_map.powers.get(power)
        out.append(
            CentreLine(
                power=power,
                owned=tuple(sorted(owned, key=lambda c: names.get(c, c))),
                gained=frozenset(owned - had),
                lost=tuple(sorted(had - owned, key=lambda c: names.get(c, c))),
                units=units.get(power, 0),
                home=info.home_centres if info is not None else frozenset(),
            )
        )
    return out
