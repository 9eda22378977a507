"""Standard Diplomacy, and the standard rules on other boards (Youngstown): the first variant.

Its parts are the engine's own: the standard calendar, the order language of
grammar/orders.lark, and `judge.engine.adjudicate`. Rule sets (postal-1972, key-rule) are
chosen per game or case, none is always on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from judge.engine.adjudicate import adjudicate
from judge.engine.calendar import STANDARD as STANDARD_CALENDAR
from judge.engine.geography import Map
from judge.variants import ReadOrders, Variant
from judge.variants.standard.help import HELP


def read_standard_orders(game_map: Map, texts: Mapping[str, Sequence[str]]) -> ReadOrders:
    """One order a line, in the order language of grammar/orders.lark."""
    from judge.adjudicate_json import parse_power_orders

    orders, unreadable = parse_power_orders(game_map, texts)
    return ReadOrders(orders, unreadable)


STANDARD = Variant(
    name="standard",
    title="Standard",
    default_map="standard",
    maps=("standard",),
    calendar=STANDARD_CALENDAR,
    read_orders=read_standard_orders,
    adjudicate=adjudicate,
    rules_text="The 2023 rulebook with the DATC 3.0 preferred readings (docs/RULES.md)",
    help=HELP,
)

YOUNGSTOWN = replace(
    STANDARD,
    name="youngstown",
    title="Youngstown",
    default_map="youngstown",
    maps=("youngstown",),
    help=None,  # the standard game's forms on another board: HELP standard tells them
)
