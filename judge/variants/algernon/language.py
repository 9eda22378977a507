"""Reading Algernon's order lines: for adjudication (every line of a case), and at the desk, one
line of a player's mail checked against what that player knows (nothing in a refusal tells him
more than he knew: a space he has not seen is "unknown to you" whether or not it exists, and a
portal beyond a space's count is refused with the count he already knows)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.geography import Map
from judge.engine.results import ILLEGAL, OrderResult
from judge.variants import DeskLine, ReadOrders
from judge.variants.algernon.knowledge import Knowledge, knowledge_of
from judge.variants.algernon.orders import (
    BuildList,
    MazeOrder,
    OrderSyntax,
    Remove,
    RetreatList,
    SupportAttack,
    SupportInto,
    order_key,
    order_text,
    read_order,
)


def read_maze_orders(board: Map, orders: Mapping[str, Sequence[str]]) -> ReadOrders:
    """Every power's order lines as order values; a line that is none of the forms is illegal."""
    out: dict[str, list[Any]] = {}
    unreadable: dict[tuple[str, int], OrderResult] = {}
    for power, lines in orders.items():
        read: list[Any] = []
        for index, line in enumerate(lines):
            try:
                read.append(read_order(line))
            except OrderSyntax as exc:
                unreadable[(power, index)] = OrderResult(ILLEGAL, str(exc))
        out[power] = read
    return ReadOrders(out, unreadable)


def _portal_problem(known: Knowledge, space: str, portal: int) -> str | None:
    count = known.portals_of(space)
    assert count is not None
    if 1 <= portal <= count:
        return None
    return f"{space.upper()} has {count} portal{'s' if count != 1 else ''}: there is no portal {portal}"


def order_problem(
    board: Map, order: MazeOrder, known: Knowledge, power: str, units: set[str], phase: str
) -> str | None:
    """Why the player cannot give this order, in words made of what he knows; None if he can."""
    if isinstance(order, BuildList):
        if not phase.upper().startswith("F"):
            return "builds are listed in a fall turn (rule 9)"
        homes = board.powers[power].home_centres if power in board.powers else frozenset()
        for space in order.spaces:
            if not known.knows_space(space):
                return f"{space.upper()} is unknown to you"
            if space not in homes:
                return f"{space.upper()} is not one of your home spaces"
        return None
    space = order.space
    if not known.knows_space(space):
        return f"{space.upper()} is unknown to you"
    if space not in units:
        return f"you have no rat in {space.upper()}"
    if isinstance(order, Remove):
        return None
    if isinstance(order, RetreatList):
        for portal in order.portals:
            why = _portal_problem(known, space, portal)
            if why:
                return why
        return None
    why = _portal_problem(known, space, getattr(order, "portal", 1))
    if why:
        return why
    if isinstance(order, SupportAttack):
        if not known.knows_space(order.mover):
            return f"{order.mover.upper()} is unknown to you"
        if order.mover == space:
            return "a rat cannot support its own attack"
        return _portal_problem(known, order.mover, order.mover_portal)
    if isinstance(order, SupportInto):
        far = known.behind(space, order.portal)
        if far is not None:
            return _portal_problem(known, far[0], order.entry)
        if order.entry < 1:
            return f"there is no portal {order.entry}"
    return None


def read_desk_line(board: Map, line: str, line_no: int, context: dict[str, Any]) -> DeskLine:
    """One order line of a player's mail, checked against his own knowledge."""
    power = str(context["power"])
    position = context["position"]
    try:
        order = read_order(line)
    except OrderSyntax as exc:
        return DeskLine(error=f"line {line_no}: {exc}")
    known = knowledge_of(board, position.state, power)
    units = {u.province for u in position.units if u.power == power}
    why = order_problem(board, order, known, power, units, str(context.get("phase", "")))
    if why is not None:
        return DeskLine(error=f"line {line_no}: {why}")
    text = order_text(order)
    return DeskLine(orders=[(order_key(order), text, text)])
