"""Reading and writing army/fleet orders: what Mercator's and 1885's order languages share.

Both grammars (grammar/mercator.lark, grammar/v1885.lark) extend grammar/orders.lark, read a unit
as a letter (A, F, A/F) and a place, and build their values during the parse. What they share is
here: the callbacks that make the standard order values out of a unit and its places, the
lookup of a power named in an order, the parse itself (the lean loop first, Lark for the line it
cannot take, the board's hyphenated names glued, a name or syntax fault said as the standard
reader says it), the fallback to the standard language for the adjustment orders, and the words
a unit is written back in. What each variant adds (its own orders, its sections, its checks)
stays in its own language.py.

It sits beside aboard.py, where the two variants' shared adjudication lives, rather than in
judge/language/: only army/fleet variants use it, and the variants' floor stands on the
language's floor, never the other way round.

A unit, as the grammars' ``unit`` callbacks give it, is a `UnitAt`: (the power written before it
or None, its kind, its place).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from judge.engine.geography import Map
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from judge.language.board_parsers import BoardParsers
from judge.language.errors import OrderError
from judge.language.format import location_name
from judge.language.names import NameLookupError, name_table
from judge.language.orders import (
    FAILED,
    LocationCallbacks,
    NameFault,
    OrderSyntaxError,
    name_error,
    parse_order,
    syntax_error,
)

UnitAt = tuple[str | None, str, str]  # (power written before the unit or None, kind, place)

UNIT_WORDS = {"A": "Army", "F": "Fleet", "AF": "Army/Fleet"}
BUILT_KIND = {"A": "an army", "F": "a fleet"}


class ArmyFleetCallbacks(LocationCallbacks):  # type: ignore[misc, valid-type]
    """Grammar callbacks both army/fleet grammars read alike: each rule's children -> a value
    (places resolved by the map). ``c[0]`` of an order is its unit, a `UnitAt`."""

    def orders__word_loc(self, children: list[Any]) -> str:  # noqa: N802 - Lark's name
        return self.word_loc(children)

    def power_named(self, token: Any) -> str:
        """The power a token names (``French A(Bre)``); a name fault at its column otherwise."""
        try:
            return str(self.table.power(str(token)))
        except NameLookupError as fault:
            raise NameFault(fault, getattr(token, "column", 0), "a power") from None

    def hold(self, c: list[Any]) -> Hold:
        return Hold(c[0][1], c[0][2])

    def move(self, c: list[Any]) -> Move:
        return Move(c[0][1], c[0][2], c[2], False)

    def move_via(self, c: list[Any]) -> Move:
        return Move(c[0][1], c[0][2], c[2], True)

    def support_hold(self, c: list[Any]) -> Support:
        return Support(c[0][1], c[0][2], c[2][1], c[2][2], None)

    def support_move(self, c: list[Any]) -> Support:
        return Support(c[0][1], c[0][2], c[2][1], c[2][2], c[4])

    def convoy(self, c: list[Any]) -> Convoy:
        return Convoy(c[0][1], c[0][2], c[2][2], c[4])

    def disband(self, c: list[Any]) -> Disband:
        return Disband(c[0][1], c[0][2])

    def retreat(self, c: list[Any]) -> Retreat:
        return Retreat(c[0][1], c[0][2], c[-1])


def parse_with_grammar(
    parsers: BoardParsers,
    text: str,
    game_map: Map,
    line_no: int,
    faults: Mapping[type[Exception], str] | None = None,
) -> list[Any]:
    """The orders the variant's grammar reads in `text`; OrderSyntaxError naming the line and
    what was expected otherwise. `faults`: the variant's own callback errors, each with the
    message that says at column 1 what the line lacks."""
    from lark.exceptions import UnexpectedInput

    lark, fast = parsers(game_map)
    try:
        try:
            result = fast.parse(text)
        except NameFault as fault:
            if fault.column:
                raise
            result = FAILED  # Lark's own tokens carry the column the message needs
        if result is not FAILED:
            return list(result)
        table = name_table(game_map)
        glued = text
        if table.hyphen_re is not None and "-" in glued:
            glued = table.hyphen_re.sub(lambda m: m.group().replace("-", "_"), glued)
        return list(lark.parse(glued))
    except NameFault as fault:
        raise OrderSyntaxError(name_error(text, line_no, fault)) from None
    except UnexpectedInput as exc:
        raise OrderSyntaxError(syntax_error(text, line_no, exc)) from None
    except Exception as exc:
        message = (faults or {}).get(type(exc))
        if message is None:
            raise
        raise OrderSyntaxError(OrderError(line_no, 1, message)) from None


def grammar_or_standard(
    parse: Callable[[], list[Any]],
    text: str,
    game_map: Map,
    kinds: type | tuple[type, ...],
    standard_error: Callable[[OrderSyntaxError], OrderSyntaxError | None] | None = None,
) -> list[Any]:
    """The grammar's reading of a line (`parse`), or the standard language's where that is one
    of `kinds` (the adjustment orders the variant leaves to it); the grammar's error where
    neither reads it, unless `standard_error` makes one of the standard language's."""
    try:
        return parse()
    except OrderSyntaxError as mine:
        try:
            standard = parse_order(text, game_map)
        except OrderSyntaxError as theirs:
            instead = standard_error(theirs) if standard_error is not None else None
            if instead is not None:
                raise instead from None
            raise mine from None
        if isinstance(standard, kinds):
            return [standard]
        raise mine from None


def unit_words(game_map: Map, kind: str | None, loc: str, power: str | None = None) -> str:
    """A unit in full: ``French Army/Fleet Mid-Atlantic Ocean``."""
    owner = f"{game_map.powers[power].adjective} " if power and power in game_map.powers else ""
    return f"{owner}{UNIT_WORDS.get(kind or '', 'Unit')} {location_name(loc, game_map)}"


def kind_letter(kind: str | None) -> str:
    """A unit's kind as a line that reads back writes it (``A/F`` for an army/fleet)."""
    return {"AF": "A/F"}.get(kind or "", kind or "")


def adjustment_words(game_map: Map, order: Any, removal: bool = True) -> str | None:
    """A build, a waive or (with `removal`) a removal in full (``Builds a fleet in London``,
    ``Waives a build``, ``Removes French Army Paris``); None for any other order."""
    if isinstance(order, Build):
        kind = BUILT_KIND.get(order.unit_type or "", "a unit")
        return f"Builds {kind} in {location_name(order.loc, game_map)}"
    if isinstance(order, Waive):
        return "Waives a build"
    if removal and isinstance(order, Disband):
        return f"Removes {unit_words(game_map, order.unit_type, order.loc)}"
    return None
