"""Orders checked when they arrive, by the rules that adjudicate them (the Variant record's
`check_orders`; this module holds the standard game's check and the pieces variants share).

A check is given one power's orders in the order they stand (the ones already taken, then the
new ones) and says of each why it can never be carried out, or None. Only what the board and
the power's own orders decide is judged: a move the unit cannot make, a retreat outside the
places it was offered, a build where none can be, more builds than are due. What depends on
other powers' orders (a support matched, a convoy, a partner's boarding) is left to the
adjudication. Pure: the engine and the standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from judge.engine.adjustments import adjustment_counts, build_problem
from judge.engine.calendar import ADJUSTMENTS, ANY, MOVEMENT, RETREATS, parse_phase
from judge.engine.geography import Map
from judge.engine.orders import Build, Disband, Hold, Move, Retreat, Support, Waive
from judge.engine.position import Position, Unit, province_of
from judge.engine.resolve import never_succeeding, reachable
from judge.engine.results import ILLEGAL, VOID, PhaseResult
from judge.engine.rules import Rules

UNIT_WORDS = {"A": "Army", "F": "Fleet", "AF": "Army/Fleet"}
# (board, position, rules, power, the power's orders, new ones last) -> a reason per order
OrderCheck = Callable[[Map, Position, Rules, str, Sequence[Any]], list[str | None]]


def phase_kind(position: Position) -> str:
    return parse_phase(position.phase, ANY).kind


def place_name(game_map: Map, loc: str) -> str:
    prov = province_of(loc)
    return game_map.provinces[prov].name if prov in game_map.provinces else loc.upper()


def places_text(game_map: Map, places: Sequence[str]) -> str:
    names = [place_name(game_map, p) for p in places]
    return ", ".join(names) if names else "nowhere"


def unit_title(game_map: Map, unit: Unit) -> str:
    return f"{UNIT_WORDS.get(unit.kind, unit.kind)} {place_name(game_map, unit.loc)}"


def for_the_unit_there(order: Any, unit: Unit | None) -> Any:
    """The order as it reads for the unit that is really there when its letter names another
    kind (`A Lon - NTH` where London holds a fleet: `F Lon - NTH`), or the order itself. Whether
    the order then stands for that unit is the check's to say (docs/RULES.md, "The wrong unit
    kind")."""
    written = getattr(order, "unit_type", None)
    if unit is None or written is None or written == unit.kind:
        return order
    if {written, unit.kind} != {"A", "F"}:
        return order  # an army/fleet's letters name its parts (1885, Mercator): as written
    if not isinstance(order, Hold | Move | Support | Retreat | Disband):
        return order
    return replace(order, unit_type=unit.kind)


def kind_note(game_map: Map, written: str, unit: Unit) -> str:
    """What the echo says of an order taken for the unit really there."""
    words = {"A": "an army", "F": "a fleet", "AF": "an army/fleet"}
    there = UNIT_WORDS.get(unit.kind, unit.kind).lower()
    return (
        f"{place_name(game_map, unit.loc)} holds {words.get(unit.kind, unit.kind)}, not "
        f"{words.get(written, written)}: the order is taken for the {there}"
    )


def refused_by_adjudication(
    adjudicate: Callable[[Map, Position, Mapping[str, Sequence[Any]], Rules], PhaseResult],
    game_map: Map,
    position: Position,
    rules: Rules,
    power: str,
    orders: Sequence[Any],
) -> list[str | None]:
    """The power's orders adjudicated alone by the variant's own adjudicator: each one it
    finds illegal or void, with its reason. For retreat and adjustment phases, where no other
    power's order can make an illegal or void order good."""
    result = adjudicate(game_map, position, {power: list(orders)}, rules)
    out: list[str | None] = []
    for found in result.results.get(power, ()):
        out.append(found.reason or found.result if found.result in (ILLEGAL, VOID) else None)
    out.extend([None] * (len(orders) - len(out)))
    return out


def standard_order_problems(
    game_map: Map, position: Position, rules: Rules, power: str, orders: Sequence[Any]
) -> list[str | None]:
    """The standard game's check (the record's default): a move the unit cannot make or a
    support out of reach (the resolver's own checks, `never_succeeds`), a retreat outside the
    places the position gives the unit, a build where none can be or beyond those due."""
    kind = phase_kind(position)
    if kind == MOVEMENT:
        found = never_succeeding(game_map, position, power, orders, rules)
        return [
            None if why is None else _movement_problem(game_map, position, order, why)
            for order, why in zip(orders, found, strict=True)
        ]
    if kind == RETREATS:
        return [_retreat_problem(game_map, position, o) for o in orders]
    if kind == ADJUSTMENTS:
        return _adjustment_problems(game_map, position, power, orders)
    return [None] * len(orders)


def _movement_problem(game_map: Map, position: Position, order: Any, why: str) -> str:
    """The resolver's reason in the desk's words, with the places the unit can reach."""
    unit = position.unit_in(province_of(order.loc))
    assert unit is not None
    return cannot_reach(game_map, unit, order) or f"{unit_title(game_map, unit)}: {why}"


def cannot_reach(game_map: Map, unit: Unit, order: Any, title: str | None = None) -> str | None:
    """A move to a place the unit cannot reach, with the places it can (`title`: the unit as
    the sentence names it, where it moves as another kind: an army/fleet as its fleet)."""
    if not isinstance(order, Move) or province_of(order.dest) in reachable(game_map, unit):
        return None
    return (
        f"{title or unit_title(game_map, unit)} cannot reach {place_name(game_map, order.dest)}; it can "
        f"move to {places_text(game_map, reachable(game_map, unit))}"
    )


def outside_offered(game_map: Map, unit: Unit, dest: str, offered: Sequence[str]) -> str | None:
    """A retreat to a place the unit was not offered, with the places it was."""
    if province_of(dest) in {province_of(r) for r in offered}:
        return None
    return f"{unit_title(game_map, unit)} cannot retreat to {place_name(game_map, dest)}; " + (
        f"it may retreat to {places_text(game_map, offered)} or disband"
        if offered
        else "it can only disband"
    )


def _retreat_problem(game_map: Map, position: Position, order: Any) -> str | None:
    if not isinstance(order, Retreat):
        return None
    waiting = next(
        (d for d in position.dislodged if d.unit.province == province_of(order.loc)), None
    )
    if waiting is None:
        return None
    return outside_offered(game_map, waiting.unit, order.dest, waiting.retreats)


def _adjustment_problems(
    game_map: Map, position: Position, power: str, orders: Sequence[Any]
) -> list[str | None]:
    owed = adjustment_counts(position.units, position.centers).get(power, 0)
    title = power.title()
    occupied = {u.province for u in position.units}
    owned = position.centers.get(power, frozenset())
    out: list[str | None] = []
    builds = 0
    for order in orders:
        why: str | None = None
        if isinstance(order, Build | Waive):
            if owed <= 0:
                why = f"{title} has no builds due"
            elif isinstance(order, Build):
                why = build_problem(game_map, power, order, occupied, owned)
            if why is None:
                if builds >= owed:
                    why = f"only {owed} build{'' if owed == 1 else 's'} due, and {builds} ordered"
                else:
                    builds += 1
        elif isinstance(order, Disband) and owed >= 0:
            why = f"{title} has no removals due"
        out.append(why)
    return out
