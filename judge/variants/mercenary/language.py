"""Reading Mercenary's lines: grammar/mercenary.lark for the money lines and second orders, the
standard reader (judge.language.orders) for every plain order, and the lines written back.

A line the standard reader takes is a standard order; any other line goes to the Mercenary
grammar, which names the line and column of a fault as the standard reader does ("line 3,
column 9: 'purple' is no currency of this game ...").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from judge.engine.geography import Map
from judge.engine.orders import Order
from judge.engine.results import ILLEGAL, OrderResult
from judge.language.board_parsers import BoardParsers
from judge.language.errors import OrderError
from judge.language.format import format_order
from judge.language.names import NameLookupError, UnknownName, name_table
from judge.language.orders import (
    LocationCallbacks,
    NameFault,
    OrderSyntaxError,
    name_error,
    parse_order,
    syntax_error,
)
from judge.variants import ReadOrders
from judge.variants.mercenary.orders import (
    AllianceWish,
    Bid,
    Conversion,
    LeaveAlliance,
    Offer,
    SecondOrder,
)

# First words that make a line a money line whatever else it holds.
_MONEY_WORDS = re.compile(
    r"\s*(?:pay|transfer|give|bids?|convert|exchange|alliance|a\.?o\.?c\b|leave|quit)\b",
    re.IGNORECASE,
)
_IF_WORD = re.compile(r"\bif\b", re.IGNORECASE)


def _sum(token: Any) -> int:
    return int(str(token).replace(",", ""))


class _MercenaryCallbacks(LocationCallbacks):  # type: ignore[misc, valid-type]
    """Grammar callbacks: each rule's children -> a value. The standard order rules imported
    from orders.lark keep their callbacks under Lark's ``orders__`` names."""

    def _power_named(self, token: Any, what: str) -> str:
        try:
            return str(self.table.power(str(token)))
        except NameLookupError as fault:
            raise NameFault(fault, getattr(token, "column", 0), what) from None

    def currency(self, children: list[Any]) -> str:
        token = children[0]
        try:
            return str(self.table.power(str(token)))
        except NameLookupError:
            names = ", ".join(p.title() for p in self.table.power_names)
            fault = UnknownName(
                f"{str(token)!r} is no currency of this game: a currency is named by its power "
                f"({names})",
                tuple(self.table.power_names),
            )
            raise NameFault(fault, getattr(token, "column", 0), "a currency") from None

    def order(self, children: list[Any]) -> Order:
        return children[0]  # type: ignore[no-any-return]

    def plain_order(self, children: list[Any]) -> Order:
        return children[0]  # type: ignore[no-any-return]

    def second_order(self, children: list[Any]) -> SecondOrder:
        # [order, IF, payer, PAYS, SUM, currency?]
        currency = children[5] if len(children) > 5 else None
        return SecondOrder(
            children[0], self._power_named(children[2], "a power"), _sum(children[4]), currency
        )

    def offer(self, children: list[Any]) -> Offer:
        # [PAY, SUM, currency?, TO, payee, (IF, order)?]
        rest = children[2:]
        currency = None
        if rest and getattr(rest[0], "type", None) != "TO":
            currency, rest = rest[0], rest[1:]
        payee = self._power_named(rest[1], "a power")
        condition = rest[3] if len(rest) > 3 else None
        return Offer(_sum(children[1]), currency, payee, condition)

    def bid(self, children: list[Any]) -> Bid:
        # [BID, SUM, currency?, ON, order]
        currency = children[2] if len(children) > 4 else None
        return Bid(_sum(children[1]), currency, children[-1])

    def conversion(self, children: list[Any]) -> Conversion:
        # [CONVERT, SUM, currency?, TO, currency]
        source = children[2] if len(children) > 4 else None
        return Conversion(_sum(children[1]), source, children[-1])

    def alliance(self, children: list[Any]) -> AllianceWish:
        names = [c for c in children[1:] if getattr(c, "type", None) == "WORD"]
        return AllianceWish(tuple(self._power_named(n, "a power") for n in names))

    def leave_alliance(self, _children: list[Any]) -> LeaveAlliance:
        return LeaveAlliance()


def _namespaced(cls: type) -> type:
    """The standard callbacks again under the names Lark gives the rules it imports."""
    extra = {
        f"orders__{name}": getattr(cls, name)
        for name in dir(LocationCallbacks)
        if not name.startswith("_") and callable(getattr(LocationCallbacks, name))
    }
    return type("_MercenaryBuilder", (cls,), extra)


# The Mercenary parser of each board (contextual lexer: its money words and the standard
# orders share one line).
_PARSERS = BoardParsers(
    "mercenary",
    lambda transformer: _namespaced(type("_Callbacks", (_MercenaryCallbacks, transformer), {})),
    lexer="contextual",
)


def _parser(game_map: Map) -> Any:
    return _PARSERS(game_map)[0]


def is_money_line(text: str) -> bool:
    """A line the Mercenary grammar must read (a money word first, or a second order's IF)."""
    return bool(_MONEY_WORDS.match(text) or _IF_WORD.search(text))


def parse_line(text: str, game_map: Map, line_no: int = 1) -> Any:
    """One line -> an order, a second order or a money line; raises OrderSyntaxError naming
    the line and column."""
    if not is_money_line(text):
        try:
            return parse_order(text, game_map)
        except OrderSyntaxError as exc:
            raise OrderSyntaxError(replace(exc.error, line_no=line_no)) from None
    from lark.exceptions import UnexpectedInput

    table = name_table(game_map)
    glued = text
    if table.hyphen_re is not None and "-" in glued:
        glued = table.hyphen_re.sub(lambda m: m.group().replace("-", "_"), glued)
    try:
        return _parser(game_map).parse(glued)
    except NameFault as fault:
        raise OrderSyntaxError(name_error(text, line_no, fault)) from None
    except UnexpectedInput as exc:
        raise OrderSyntaxError(_powers_named(text, syntax_error(text, line_no, exc))) from None


_WORD_BEFORE = re.compile(r"([^\s,]+)\s*$")
# After these words a money line names a power, which the order grammar's WORD calls a province.
_POWER_AFTER = frozenset({"to", "with", "and", "&", "aoc", "alliance", "currency"})


def _powers_named(text: str, error: OrderError) -> OrderError:
    """The grammar's error with "a province" said as "a power" where a power goes (after TO,
    WITH, AND, or a second order's IF)."""
    match = _WORD_BEFORE.search(text[: error.column - 1])
    before = match.group(1).lower() if match else ""
    second_order_if = before == "if" and not _MONEY_WORDS.match(text)
    if before not in _POWER_AFTER and not second_order_if:
        return error
    expected = tuple("a power" if w == "a province" else w for w in error.expected)
    return replace(error, message=error.message.replace("a province", "a power"), expected=expected)


def read_mercenary_orders(game_map: Map, texts: Mapping[str, Sequence[str]]) -> ReadOrders:
    """Every power's lines of a phase (the Variant's `read_orders`): orders, second orders and
    money lines as values; a line that cannot be read is `illegal` with the reader's words,
    which name the line (its place among the power's lines)."""
    orders: dict[str, list[Any]] = {}
    unreadable: dict[tuple[str, int], OrderResult] = {}
    for power, lines in texts.items():
        values: list[Any] = []
        for index, line in enumerate(lines):
            try:
                values.append(parse_line(line, game_map, index + 1))
            except OrderSyntaxError as exc:
                unreadable[(power, index)] = OrderResult(ILLEGAL, f"cannot read the line: {exc}")
        orders[power] = values
    return ReadOrders(orders, unreadable)


# --- writing lines back --------------------------------------------------------------------------
def _pounds(amount: int, currency: str, game_map: Map) -> str:
    info = game_map.powers.get(currency)
    adjective = info.adjective if info is not None else currency.title()
    return f"{amount} {adjective} pound{'' if amount == 1 else 's'}"


def _names(powers: Sequence[str]) -> str:
    titles = [p.title() for p in powers]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else "".join(titles)


def _currency_word(currency: str, game_map: Map) -> str:
    info = game_map.powers.get(currency)
    return info.adjective.upper() if info is not None else currency


def short_text(value: Any, power: str, game_map: Map) -> str:
    """A line that reads back alone to the same value, every currency written out
    (``PAY 200 GERMAN TO FRANCE IF A PAR - BUR``)."""

    def money(currency: str | None, default: str) -> str:
        return _currency_word(currency or default, game_map)

    if isinstance(value, SecondOrder):
        short = format_order(value.order, game_map, "short")
        return f"{short} IF {value.payer} PAYS {value.amount} {money(value.currency, value.payer)}"
    if isinstance(value, Offer):
        text = f"PAY {value.amount} {money(value.currency, power)} TO {value.payee}"
        if value.condition is not None:
            text += f" IF {format_order(value.condition, game_map, 'short')}"
        return text
    if isinstance(value, Bid):
        short = format_order(value.order, game_map, "short")
        return f"BID {value.amount} {money(value.currency, power)} ON {short}"
    if isinstance(value, Conversion):
        source, target = money(value.source, power), money(value.target, power)
        return f"CONVERT {value.amount} {source} TO {target}"
    if isinstance(value, AllianceWish):
        return "ALLIANCE OF CURRENCY WITH " + ", ".join(value.partners)
    if isinstance(value, LeaveAlliance):
        return "LEAVE ALLIANCE OF CURRENCY"
    return format_order(value, game_map, "short")


def full_text(value: Any, power: str, game_map: Map) -> str:
    """A line in words, as the echo and the results write it."""
    if isinstance(value, SecondOrder):
        pounds = _pounds(value.amount, value.currency or value.payer, game_map)
        return (
            f"{format_order(value.order, game_map, 'full')}, if {value.payer.title()} pays "
            f"{pounds} (second order)"
        )
    if isinstance(value, Offer):
        pounds = _pounds(value.amount, value.currency or power, game_map)
        if value.condition is None:
            return f"Pays {pounds} to {value.payee.title()}"
        condition = format_order(value.condition, game_map, "full")
        return f"Pays {pounds} to {value.payee.title()} if ordered: {condition}"
    if isinstance(value, Bid):
        pounds = _pounds(value.amount, value.currency or power, game_map)
        return f"Bids {pounds} on {format_order(value.order, game_map, 'full')}"
    if isinstance(value, Conversion):
        source = _pounds(value.amount, value.source or power, game_map)
        target = game_map.powers[value.target].adjective if value.target in game_map.powers else ""
        return f"Converts {source} into {target} pounds"
    if isinstance(value, AllianceWish):
        return f"Asks for an Alliance of Currency with {_names(value.partners)}"
    if isinstance(value, LeaveAlliance):
        return "Leaves its Alliance of Currency"
    return format_order(value, game_map, "full")
