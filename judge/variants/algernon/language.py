"""Reading Algernon's order lines through grammar/algernon.lark (which extends grammar/orders.lark):
for adjudication (every line of a case), and at the desk, one line of a player's mail checked
against what that player knows.

Every error names the line and the column and gives nothing away: the grammar reads a line the
same whatever the maze holds, and the desk's checks are made of the player's own knowledge (a
space he has not seen is "unknown to you" whether or not it exists, a portal beyond a space's
count is refused with the count he already knows).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from judge.engine.geography import Map
from judge.engine.results import ILLEGAL, OrderResult
from judge.language.errors import OrderError, OrderSyntaxError
from judge.language.orders import syntax_error
from judge.resources import data_dir
from judge.variants import DeskLine, ReadOrders
from judge.variants.algernon.knowledge import Knowledge, knowledge_of
from judge.variants.algernon.orders import (
    Attack,
    BuildList,
    MazeOrder,
    Remove,
    RetreatList,
    Stand,
    SupportAttack,
    SupportInto,
    SupportOut,
    order_key,
    order_text,
)

# How the grammar's terminals are named to a player, in the order an error lists them.
WORDS = {
    "SPACE": "a space",
    "PORTAL": "a portal number",
    "MOVE_OP": "to",
    "ATTACK": "to",
    "HOLD": "h",
    "SUPPORT": "s",
    "LPAR": "(",
    "RPAR": ")",
    "COMMA": ",",
    "BUILD": "Build",
    "REMOVE": "Remove",
    "DISBAND": "Remove",
    "$END": "end of line",
}


class _At(NamedTuple):
    """A space id or a portal number as written, and its column."""

    value: Any
    column: int


@dataclass(frozen=True)
class Written:
    """An order line read: its value, and the column of each space and portal in it (keys
    `space`, `portal`, `mover`, `mover_portal`, `entry`, `portals.N`, `spaces.N`), so a fault
    found later names where it is."""

    order: MazeOrder
    at: dict[str, int] = field(default_factory=dict)


class _Callbacks:
    """Grammar callbacks (values built during the parse): each rule's children -> a value."""

    def space(self, children: list[Any]) -> _At:
        token = children[0]
        return _At(str(token).lower(), token.column)

    def portal(self, children: list[Any]) -> _At:
        token = children[0]
        return _At(int(str(token)), token.column)

    @staticmethod
    def _parts(children: list[Any]) -> list[_At]:
        return [c for c in children if isinstance(c, _At)]

    def hold(self, children: list[Any]) -> Written:
        (space,) = self._parts(children)[:1]
        return Written(Stand(space.value), {"space": space.column})

    def attack(self, children: list[Any]) -> Written:
        space, portal = self._parts(children)
        return Written(
            Attack(space.value, portal.value), {"space": space.column, "portal": portal.column}
        )

    def support(self, children: list[Any]) -> Written:
        space, portal = self._parts(children)
        return Written(
            SupportOut(space.value, portal.value),
            {"space": space.column, "portal": portal.column},
        )

    def support_attack(self, children: list[Any]) -> Written:
        space, portal, mover, mover_portal = self._parts(children)
        return Written(
            SupportAttack(space.value, portal.value, mover.value, mover_portal.value),
            {
                "space": space.column,
                "portal": portal.column,
                "mover": mover.column,
                "mover_portal": mover_portal.column,
            },
        )

    def support_into(self, children: list[Any]) -> Written:
        space, portal, entry = self._parts(children)
        return Written(
            SupportInto(space.value, portal.value, entry.value),
            {"space": space.column, "portal": portal.column, "entry": entry.column},
        )

    def retreat_list(self, children: list[Any]) -> Written:
        space, *portals = self._parts(children)
        at = {"space": space.column} | {f"portals.{i}": p.column for i, p in enumerate(portals)}
        return Written(RetreatList(space.value, tuple(p.value for p in portals)), at)

    def build_list(self, children: list[Any]) -> Written:
        spaces = self._parts(children)
        at = {f"spaces.{i}": s.column for i, s in enumerate(spaces)}
        return Written(BuildList(tuple(s.value for s in spaces)), at)

    def remove(self, children: list[Any]) -> Written:
        (space,) = self._parts(children)
        return Written(Remove(space.value), {"space": space.column})


_PARSER: Any = None
_LOCK = threading.Lock()


def _parser() -> Any:
    """The Algernon parser (Lark, LALR, contextual lexer, values built during the parse): one
    for every maze, since the grammar never names a space."""
    global _PARSER
    if _PARSER is not None:
        return _PARSER
    from lark import Lark, Transformer

    builder = type("_AlgernonBuilder", (_Callbacks, Transformer), {})
    grammar = data_dir("grammar")
    made = Lark(
        (grammar / "algernon.lark").read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        transformer=builder(),
        import_paths=[str(grammar)],
        propagate_positions=False,
        maybe_placeholders=False,
    )
    with _LOCK:
        _PARSER = made
    return made


def read_line(text: str, line_no: int = 1) -> Written:
    """One order line; OrderSyntaxError names the line, the column and what would fit there."""
    from lark.exceptions import UnexpectedInput

    try:
        written: Written = _parser().parse(text)
    except UnexpectedInput as exc:
        standard = _STANDARD_SHAPE.match(text)
        if standard is not None:  # "A HNS - VQ": the standard game's words, in the maze's
            space = standard.group(1).upper()
            raise OrderSyntaxError(
                OrderError(
                    line_no,
                    standard.start(1) + 1,
                    f"a maze rat is ordered by its space and a portal number, with no A or F "
                    f"and no place beyond the portal: write {space} to N (N a portal number "
                    f"of {space}), {space} h, or {space} s N",
                )
            ) from None
        raise OrderSyntaxError(syntax_error(text, line_no, exc, WORDS)) from None
    return written


# A line in the standard game's shape, a unit kind before the place: `A HNS - VQ` (no space's
# id is a single letter, so no maze order starts so).
_STANDARD_SHAPE = re.compile(r"^\s*(?:a|f|army|fleet|rat)\s+([a-z]{2,3})\b", re.I)


def read_order(text: str, line_no: int = 1) -> MazeOrder:
    """One order line as its value (section I's forms)."""
    return read_line(text, line_no).order


def read_maze_orders(board: Map, orders: Mapping[str, Sequence[str]]) -> ReadOrders:
    """Every power's order lines as order values; a line that is none of the forms is illegal,
    with the reader's words (its line is its place among the power's lines)."""
    out: dict[str, list[Any]] = {}
    unreadable: dict[tuple[str, int], OrderResult] = {}
    for power, lines in orders.items():
        read: list[Any] = []
        for index, line in enumerate(lines):
            try:
                read.append(read_order(line, index + 1))
            except OrderSyntaxError as exc:
                unreadable[(power, index)] = OrderResult(ILLEGAL, f"cannot read the line: {exc}")
        out[power] = read
    return ReadOrders(out, unreadable)


class Problem(NamedTuple):
    """Why a player cannot give an order: where in the line (a key of `Written.at`), and why."""

    where: str
    why: str


def _portal_problem(known: Knowledge, space: str, portal: int, where: str) -> Problem | None:
    count = known.portals_of(space)
    assert count is not None
    if 1 <= portal <= count:
        return None
    plural = "s" if count != 1 else ""
    return Problem(
        where, f"{space.upper()} has {count} portal{plural}: there is no portal {portal}"
    )


def _unknown(space: str, where: str) -> Problem:
    return Problem(where, f"{space.upper()} is unknown to you")


def order_problem(
    board: Map, order: MazeOrder, known: Knowledge, power: str, units: set[str], phase: str
) -> Problem | None:
    """Why the player cannot give this order, in words made of what he knows; None if he can."""
    if isinstance(order, BuildList):
        if not phase.upper().startswith("F"):
            return Problem("spaces.0", "builds are listed in a fall turn (rule 9)")
        homes = board.powers[power].home_centres if power in board.powers else frozenset()
        for index, space in enumerate(order.spaces):
            if not known.knows_space(space):
                return _unknown(space, f"spaces.{index}")
            if space not in homes:
                return Problem(f"spaces.{index}", f"{space.upper()} is not one of your home spaces")
        return None
    space = order.space
    if not known.knows_space(space):
        return _unknown(space, "space")
    if space not in units:
        return Problem("space", f"you have no rat in {space.upper()}")
    if isinstance(order, Remove | Stand):
        return None
    if isinstance(order, RetreatList):
        for index, portal in enumerate(order.portals):
            why = _portal_problem(known, space, portal, f"portals.{index}")
            if why:
                return why
        return None
    why = _portal_problem(known, space, order.portal, "portal")
    if why:
        return why
    if isinstance(order, SupportAttack):
        if not known.knows_space(order.mover):
            return _unknown(order.mover, "mover")
        if order.mover == space:
            return Problem("mover", "a rat cannot support its own attack")
        return _portal_problem(known, order.mover, order.mover_portal, "mover_portal")
    if isinstance(order, SupportInto):
        far = known.behind(space, order.portal)
        if far is not None:
            return _portal_problem(known, far[0], order.entry, "entry")
        if order.entry < 1:
            return Problem("entry", f"there is no portal {order.entry}")
    return None


def read_desk_line(board: Map, line: str, line_no: int, context: dict[str, Any]) -> DeskLine:
    """One order line of a player's mail, checked against his own knowledge."""
    power = str(context["power"])
    position = context["position"]
    try:
        written = read_line(line, line_no)
    except OrderSyntaxError as exc:
        return DeskLine(error=str(exc))
    known = knowledge_of(board, position.state, power)
    units = {u.province for u in position.units if u.power == power}
    found = order_problem(board, written.order, known, power, units, str(context.get("phase", "")))
    if found is not None:
        column = written.at.get(found.where, 1)
        return DeskLine(error=str(OrderError(line_no, column, found.why)))
    text = order_text(written.order)
    return DeskLine(orders=[(order_key(written.order), text, text)])
