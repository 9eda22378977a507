"""The standard game's order reading: one order a line, in the order language of
grammar/orders.lark; compiled with the engine (judge/compiled.py), as every standard case and
game phase reads its lines here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.engine.geography import Map
from judge.engine.orders import Order
from judge.engine.results import ILLEGAL, OrderResult
from judge.language.orders import OrderSyntaxError, order_scanner, parse_order
from judge.variants import ReadOrders


def read_standard_orders(game_map: Map, texts: Mapping[str, Sequence[str]]) -> ReadOrders:
    """Every power's lines read; the unreadable ones become `illegal` results, kept by power
    and line index. The common notations take the scanner; the rest Lark's parser."""
    parsed: dict[str, list[Order]] = {}
    unreadable: dict[tuple[str, int], OrderResult] = {}
    scan = order_scanner(game_map)
    for power, lines in texts.items():
        readable: list[Order] = []
        for index, line in enumerate(lines):
            order = scan(line)
            if order is not None:
                readable.append(order)
                continue
            try:
                readable.append(parse_order(line, game_map))
            except OrderSyntaxError as exc:
                unreadable[(power, index)] = OrderResult(ILLEGAL, f"cannot read the order: {exc}")
        parsed[power] = readable
    return ReadOrders(parsed, unreadable)
