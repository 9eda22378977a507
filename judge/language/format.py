"""Writing orders back as text: the long form players read in replies, the short form tools read.

``full``: ``Army Paris -> Burgundy``, ``Fleet North Sea convoys Army London -> Norway``,
``Fleet St Petersburg (north coast) build``. ``short``: ``A PAR - BUR``, ``F NTH C A LON - NWY``,
``F STP/NC B``. Both read back through judge.language.orders to the same order.
"""

from __future__ import annotations

from typing import Literal

from judge.engine.geography import Map
from judge.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    Waive,
)
from judge.engine.position import province_of
from judge.language.names import coast_name

Style = Literal["full", "short"]

_UNIT_WORDS = {"A": "Army", "F": "Fleet", "AF": "Army/Fleet"}


def format_order(order: Order, game_map: Map, style: Style = "full") -> str:
    """`order` as text in the given style; raises ValueError for an unknown style."""
    if style == "short":
        return _short(order)
    if style == "full":
        return _full(order, game_map)
    raise ValueError(f"unknown order style {style!r} (full or short)")


# --- short: map codes in capitals, one-letter verbs ---------------------------------------------
def _short_unit(unit_type: str | None, loc: str) -> str:
    return f"{unit_type} {loc.upper()}" if unit_type else loc.upper()


def _short(order: Order) -> str:
    if isinstance(order, Waive):
        return "WAIVE"
    unit = _short_unit(order.unit_type, order.loc)
    if isinstance(order, Hold):
        return f"{unit} H"
    if isinstance(order, Move):
        via = " VIA CONVOY" if order.via_convoy else ""
        return f"{unit} - {order.dest.upper()}{via}"
    if isinstance(order, Support):
        target = _short_unit(order.target_type, order.target)
        if order.dest is None:
            return f"{unit} S {target}"
        return f"{unit} S {target} - {order.dest.upper()}"
    if isinstance(order, Convoy):
        return f"{unit} C A {order.army_loc.upper()} - {order.dest.upper()}"
    if isinstance(order, Retreat):
        return f"{unit} R {order.dest.upper()}"
    if isinstance(order, Disband):
        return f"{unit} D"
    if isinstance(order, Build):
        # "PAR B" would read as a power prefix; a build with no type is written verb first.
        return f"{unit} B" if order.unit_type else f"BUILD {unit}"
    raise TypeError(f"not an order: {order!r}")


# --- full: names and words, as the classic judges echoed orders --------------------------------
def location_name(loc: str, game_map: Map) -> str:
    """``"stp/nc"`` -> ``"St Petersburg (north coast)"``; an unknown code is shown as written."""
    prov = province_of(loc)
    province = game_map.provinces.get(prov)
    name = province.name if province is not None else loc.upper()
    if prov != loc:
        name += f" ({coast_name(loc[len(prov) + 1 :])})"
    return name


def _full_unit(unit_type: str | None, loc: str, game_map: Map) -> str:
    name = location_name(loc, game_map)
    return f"{_UNIT_WORDS.get(unit_type, unit_type)} {name}" if unit_type else name


def _full(order: Order, game_map: Map) -> str:
    if isinstance(order, Waive):
        return "waive"
    unit = _full_unit(order.unit_type, order.loc, game_map)
    if isinstance(order, Hold):
        return f"{unit} holds"
    if isinstance(order, Move):
        via = " via convoy" if order.via_convoy else ""
        return f"{unit} -> {location_name(order.dest, game_map)}{via}"
    if isinstance(order, Support):
        target = _full_unit(order.target_type, order.target, game_map)
        if order.dest is None:
            return f"{unit} supports {target}"
        return f"{unit} supports {target} -> {location_name(order.dest, game_map)}"
    if isinstance(order, Convoy):
        army = location_name(order.army_loc, game_map)
        return f"{unit} convoys Army {army} -> {location_name(order.dest, game_map)}"
    if isinstance(order, Retreat):
        return f"{unit} retreats to {location_name(order.dest, game_map)}"
    if isinstance(order, Disband):
        return f"{unit} disband"
    if isinstance(order, Build):
        return f"{unit} build" if order.unit_type else f"build {unit}"
    raise TypeError(f"not an order: {order!r}")
