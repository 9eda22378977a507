"""Mercator (the 1985 rules, ../shared/seeds/000): army/fleets, three time scales a month, the
Key rule in each, province ownership and premium builds. Played on the project's own world board
(maps/mercator-world.toml, maps/mercator-world.md); the rules' examples use the standard board,
which a game may still name (`CREATE name password mercator standard`).
"""

from __future__ import annotations

from judge.engine.calendar import MONTHLY
from judge.variants import Desk, Language, Picture, Report, Rulebook, Variant
from judge.variants.mercator.adjustments import adjustments_due
from judge.variants.mercator.checks import check_orders
from judge.variants.mercator.help import HELP, start_notes
from judge.variants.mercator.language import (
    GRAMMAR,
    adjustments_used,
    read_desk_line,
    read_mercator_orders,
)
from judge.variants.mercator.phases import adjudicate_mercator, decide_claims
from judge.variants.mercator.picture import legend_units, picture_order


def _results_text(report: object) -> str:
    """The results layout (judge.variants.mercator.report), imported when results are written:
    `judge adjudicate` never needs the reports."""
    from judge.variants.mercator.report import mercator_text

    return mercator_text(report)  # type: ignore[arg-type]


MERCATOR = Variant(
    name="mercator",
    title="Mercator",
    default_map="mercator-world",
    maps=("mercator-world", "standard"),
    calendar=MONTHLY,
    rules=Rulebook(
        adjudicate=adjudicate_mercator,  # type: ignore[arg-type]
        rule_sets=("key-rule",),
        unit_kinds=("A", "F", "AF"),
        adjustments_due=adjustments_due,
        decide_claims=decide_claims,
        check_orders=check_orders,
    ),
    language=Language(
        read_orders=read_mercator_orders,
        read_desk_line=read_desk_line,
        order_grammar=GRAMMAR,
    ),
    rules_text="Mercator Rules (1985 edition), with the readings in docs/RULES.md",
    desk=Desk(
        help=HELP,
        start_notes=start_notes,
        adjustments_used=adjustments_used,
        claim_terms=(
            "together they hold the centres the board asks for. A single win on the board comes "
            "first, a 2-way win before a 3-way win, and of two claimed 2-way (or 3-way) wins "
            "the combine with the more centres wins."
        ),
    ),
    report=Report(results_text=_results_text),
    picture=Picture(order=picture_order, unit_counts=legend_units),
)
