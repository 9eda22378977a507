"""Standard Diplomacy, and the standard rules on other boards (Youngstown): the first variant.

Its parts are the engine's own: the standard calendar, the order language of
grammar/orders.lark, and `judge.engine.adjudicate`. Rule sets (postal-1972, key-rule) are
chosen per game or case, none is always on.
"""

from __future__ import annotations

from dataclasses import replace

from judge.engine.adjudicate import adjudicate
from judge.engine.calendar import STANDARD as STANDARD_CALENDAR
from judge.variants import Desk, Language, Rulebook, Variant
from judge.variants.standard.help import HELP
from judge.variants.standard.reading import read_standard_orders

STANDARD = Variant(
    name="standard",
    title="Standard",
    default_map="standard",
    maps=("standard",),
    calendar=STANDARD_CALENDAR,
    rules=Rulebook(adjudicate=adjudicate),
    language=Language(read_orders=read_standard_orders),
    desk=Desk(help=HELP),
    rules_text="The 2023 rulebook with the DATC 3.0 preferred readings (docs/RULES.md)",
)

YOUNGSTOWN = replace(
    STANDARD,
    name="youngstown",
    title="Youngstown",
    default_map="youngstown",
    maps=("youngstown",),
    desk=replace(STANDARD.desk, help=None),  # HELP standard tells the forms on any board
)
