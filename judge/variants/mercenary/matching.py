"""Whether an order named in a money line is the order a unit was given: an offer's condition
(rule 5 b) and a bid's order (rule 6 e) name an order as a player writes it.

Two orders match when they are for the same unit and say the same thing: the unit types written
do not matter (the unit is known by its place, as in DATC 4.C.2), nor does a coast left out on
one side; a move "via convoy" is another order than the same move overland.
"""

from __future__ import annotations

from judge.engine.orders import Convoy, Hold, Move, Order, Support
from judge.engine.position import province_of


def _same_place(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return a is b
    if province_of(a) != province_of(b):
        return False
    return a == b or "/" not in a or "/" not in b


def same_order(named: Order, given: Order) -> bool:
    """Does the order `named` in a money line describe the order `given`?"""
    if type(named) is not type(given) or province_of(named.loc) != province_of(given.loc):  # type: ignore[union-attr]
        return False
    if isinstance(named, Hold):
        return True
    if isinstance(named, Move):
        assert isinstance(given, Move)
        return _same_place(named.dest, given.dest) and named.via_convoy == given.via_convoy
    if isinstance(named, Support):
        assert isinstance(given, Support)
        return province_of(named.target) == province_of(given.target) and _same_place(
            named.dest, given.dest
        )
    if isinstance(named, Convoy):
        assert isinstance(given, Convoy)
        return province_of(named.army_loc) == province_of(given.army_loc) and _same_place(
            named.dest, given.dest
        )
    return named == given


def is_movement_order(order: object) -> bool:
    return isinstance(order, Hold | Move | Support | Convoy)


def order_code(order: Order) -> str:
    """A movement order in map codes (``A PAR - BUR``), as reasons and ledger entries name it."""
    unit = f"{order.unit_type} " if order.unit_type else ""  # type: ignore[union-attr]
    unit += order.loc.upper()  # type: ignore[union-attr]
    if isinstance(order, Hold):
        return f"{unit} H"
    if isinstance(order, Move):
        return f"{unit} - {order.dest.upper()}" + (" VIA CONVOY" if order.via_convoy else "")
    if isinstance(order, Support):
        target = f"{order.target_type} " if order.target_type else ""
        text = f"{unit} S {target}{order.target.upper()}"
        return text + (f" - {order.dest.upper()}" if order.dest else "")
    if isinstance(order, Convoy):
        return f"{unit} C A {order.army_loc.upper()} - {order.dest.upper()}"
    return unit
