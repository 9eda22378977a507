"""Mercator's orders checked when they arrive (the Variant record's `check_orders`), by the
code that adjudicates the month (month.py's checks, the standard resolver's, the retreat and
adjustment phases' own adjudication).

What can be known when an order arrives is what the board at the start of the month and the
power's own orders decide:
- time scale 1 acts on the board as it stands (`language.time_scale_1_problem`);
- a time scale 2 order for a unit none of the power's orders of time scale 1 touches is judged
  on the board at the start of the month as the month judges it (its kind, rule 2.4; a move it
  cannot make, with the places it can reach; a support out of reach); one for a place where the
  power has no unit and none of its armies aboard could land is refused;
- in time scale 3 no support or convoy, no supplementary move from a land province or to one
  (rule 2.5);
- retreats (time scale 4) and adjustments, and the spare units of the first month (rule 9), are
  adjudicated for the power alone: what that finds illegal or void no other power's order mends.
What depends on other powers' orders (a partner's boarding, a landing opposed, what a fleet
carries by time scale 3) is left to the adjudication.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from judge.engine.calendar import ADJUSTMENTS, MOVEMENT, RETREATS
from judge.engine.geography import Map, Terrain
from judge.engine.orders import Build, Convoy, Hold, Move, Retreat, Support
from judge.engine.position import Position, Unit, province_of
from judge.engine.resolve import never_succeeding
from judge.engine.results import ILLEGAL, VOID
from judge.engine.rules import Rules
from judge.variants.mercator.month import ARMY_FLEET, _as_fleet, _Month, _untyped
from judge.variants.mercator.orders import (
    Board,
    ChainConvoy,
    FastFerry,
    Land,
    PlaceSpare,
    Scaled,
)
from judge.variants.order_checks import (
    UNIT_WORDS,
    cannot_reach,
    outside_offered,
    phase_kind,
    place_name,
    places_text,
    refused_by_adjudication,
    unit_title,
)


def check_orders(
    game_map: Map, position: Position, rules: Rules, power: str, orders: Sequence[Any]
) -> list[str | None]:
    from judge.variants.mercator.phases import adjudicate_mercator

    kind = phase_kind(position)
    if kind != MOVEMENT:
        out = refused_by_adjudication(adjudicate_mercator, game_map, position, rules, power, orders)
        if kind == ADJUSTMENTS:
            out = [
                _with_build_places(game_map, position, rules, power, o, why)
                for o, why in zip(orders, out, strict=True)
            ]
        if kind == RETREATS:
            out = [
                _with_places(game_map, position, o, why) for o, why in zip(orders, out, strict=True)
            ]
        return out
    scaled = [o if isinstance(o, Scaled) else Scaled(2, o, None) for o in orders]
    month = _Month(game_map, position, {power: scaled}, rules)
    month.place_spares()
    touched = _touched_by_own_orders(scaled)
    landing = _landing_places(month, power)
    out: list[str | None] = []
    asked: list[tuple[int, Unit, Any]] = []  # (index, unit, order) for the resolver's checks
    for index, order in enumerate(scaled):
        found = month.results.get((power, index))
        why: str | None = None
        if isinstance(order.order, PlaceSpare):
            if found is not None and found.result in (ILLEGAL, VOID):
                why = found.reason
        elif order.time_scale == 1:
            from judge.variants.mercator.language import time_scale_1_problem

            why = time_scale_1_problem(game_map, position, power, order.order)
        elif order.time_scale == 2:
            judged = _time_scale_2_problem(month, power, order, touched, landing)
            if isinstance(judged, Unit):
                asked.append((index, judged, _untyped(order.order, {})))
            else:
                why = judged
        elif order.time_scale == 3:
            why = _time_scale_3_problem(month, power, order)
        out.append(why)
    if asked:
        # Time scale 2 is the standard resolver's, each army/fleet standing as its fleet.
        board = Position(phase="", units=tuple(_as_fleet(u) for u in position.units))
        plain = [order for _i, _u, order in asked]
        for (index, unit, order), why in zip(
            asked, never_succeeding(game_map, board, power, plain, rules), strict=True
        ):
            if why is not None:
                title = unit_title(game_map, unit)
                reach = cannot_reach(game_map, _as_fleet(unit), order, title=title)
                out[index] = reach or f"{title}: {why}"
    return out


def _touched_by_own_orders(orders: Sequence[Scaled]) -> set[str]:
    """The provinces whose unit the power's own orders may change before or while its time
    scale 2 order is carried out (a landing's army/fleet and its place, a boarding's army and
    fleet, the fleets of a ferry or an extended convoy) or fill (a spare unit placed)."""
    out: set[str] = set()
    for scaled in orders:
        order = scaled.order
        if isinstance(order, Land):
            out |= {province_of(order.army_loc), province_of(order.dest)}
        elif isinstance(order, Board):
            out |= {province_of(order.army_loc), province_of(order.fleet_loc)}
        elif isinstance(order, PlaceSpare):
            out.add(province_of(order.loc))
        elif isinstance(order, ChainConvoy):  # the army handed over to the last fleet (3 (d))
            out |= {province_of(f) for f in order.fleet_locs}
        elif isinstance(order, FastFerry):
            out.add(province_of(order.fleet_loc))
    return out


def _landing_places(month: _Month, power: str) -> set[str]:
    """Where an army of the power's aboard a fleet might land in time scale 1 (by its own
    order or, in a mixed army/fleet, by the fleet's, rule 2.6)."""
    out: set[str] = set()
    for unit in month.board.values():
        if unit.kind == ARMY_FLEET and power in (unit.army_power or unit.power, unit.power):
            out |= {p for p in month.map.provinces if month.fleet_touches(unit.province, p)}
    return out


def _time_scale_2_problem(
    month: _Month, power: str, scaled: Scaled, touched: set[str], landing: set[str]
) -> str | Unit | None:
    """Why a time scale 2 order can never stand, or the unit to ask the resolver about (its
    move or support judged on the board at the start of the month), or None."""
    order = scaled.order
    if not isinstance(order, Hold | Move | Support | Convoy):
        return None  # a fast ferry or chain convoy: its fleets and army are the month's to find
    prov = province_of(order.loc)
    game_map = month.map
    if prov in touched:
        return None  # its unit is what the power's own time scale 1 makes it
    unit = month.board.get(prov)
    if unit is None or unit.power != power:
        if prov in landing:
            return None
        whose = (
            f" (the {UNIT_WORDS[unit.kind].lower()} there is {_adjective(game_map, unit.power)})"
            if unit is not None
            else ""
        )
        return (
            f"{power.title()} has no unit in {place_name(game_map, prov)}{whose}, and none of "
            "its armies aboard a fleet can land there in time scale 1"
        )
    if isinstance(order, Support) and province_of(order.target) in touched | landing:
        # the unit it supports is what time scale 1 makes it
        scaled = Scaled(2, replace(order, target_type=None), None)
    why = month.check_standard(2, scaled)
    partner = unit.kind == ARMY_FLEET and (unit.army_power or power) != power
    if why is not None and why[0] == ILLEGAL and not partner:
        # (a partner's army aboard may land by its own order and leave the fleet alone)
        return f"{unit_title(game_map, unit)}: {why[1]}"
    return unit if isinstance(order, Move | Support | Convoy) else None


def _time_scale_3_problem(month: _Month, power: str, scaled: Scaled) -> str | None:
    """What rule 2.5 forbids in time scale 3 whatever the unit is by then (month.py's own
    check, given a unit of the kind the order names where the order names it)."""
    order = scaled.order
    if not isinstance(order, Hold | Move | Support | Convoy):
        return None
    prov = province_of(order.loc)
    kind = order.unit_type or "F"
    there = month.board.get(prov)
    month.board[prov] = Unit(power, kind, order.loc)
    sea = month.map.provinces[prov].terrain in (Terrain.SEA, Terrain.CANAL)
    month.ts3_movers = {prov} if sea and kind != "A" else set()
    why = month.check_standard(3, scaled)
    if there is None:  # the board as it was, for the orders after this one
        del month.board[prov]
    else:
        month.board[prov] = there
    if why is None or why[0] != ILLEGAL:
        return None
    if isinstance(order, Move) and not month.ts3_movers:
        return (
            f"{why[1]}: the unit in {place_name(month.map, prov)} may not move in time scale 3 "
            "(write its move in time scale 2)"
        )
    return why[1]


def _with_places(game_map: Map, position: Position, order: Any, why: str | None) -> str | None:
    """A retreat refused, with the places its unit was offered."""
    value = order.order if isinstance(order, Scaled) else order
    if why is None or not isinstance(value, Retreat | Move):
        return why
    d = next((d for d in position.dislodged if d.unit.province == province_of(value.loc)), None)
    if d is None:
        return why
    offered = outside_offered(game_map, d.unit, value.dest, d.retreats)
    return offered or why


def _with_build_places(
    game_map: Map, position: Position, rules: Rules, power: str, order: Any, why: str | None
) -> str | None:
    """A build refused for its place, with the places where the same build would be taken (each
    tried alone by the adjustment phase's own adjudication)."""
    from judge.variants.mercator.phases import adjudicate_mercator

    value = order.order if isinstance(order, Scaled) else order
    info = game_map.powers.get(power)
    if why is None or not isinstance(value, Build) or info is None:
        return why

    def refused(loc: str) -> str | None:
        build = Scaled(0, Build(value.unit_type, loc), value.unit_type)
        return refused_by_adjudication(
            adjudicate_mercator, game_map, position, rules, power, [build]
        )[0]

    if refused(value.loc) != why:
        return why  # not the place but the count refuses it: no other place would do
    places = [
        p
        for p in sorted(info.home_centres | info.home_provinces | info.build_only)
        if p != province_of(value.loc) and refused(p) is None
    ]
    kind = {"A": "an army", "F": "a fleet"}.get(value.unit_type or "", "a unit")
    if not places:
        return f"{why}; {power.title()} can build {kind} nowhere else"
    return f"{why}; {power.title()} may build {kind} in {places_text(game_map, places)}"


def _adjective(game_map: Map, power: str) -> str:
    info = game_map.powers.get(power)
    return f"{info.adjective}" if info is not None else power.title()
