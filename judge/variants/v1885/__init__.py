"""1885 (Fred C. Davis, Jr., 1973; ../shared/seeds/002): nine powers on a Europe of 1885, a move
a month from January 1885, build centres and reserved centres, Italy's choice of unit in Rome,
the Fast Ferry and Davis's army/fleets (the Army/Fleet Rules Module, 1984 revision), retreats by
Just's right-hand rule and sent with the builds, a single win at 23 units and a claimed
alliance victory of two powers at 30.

The package is named v1885 (a module name cannot begin with a digit); players write the
variant's name as `1885`.
"""

from __future__ import annotations

from judge.engine.calendar import MONTHLY
from judge.variants import Desk, Language, Picture, Report, Rulebook, Variant
from judge.variants.v1885.adjustments import adjustments_due
from judge.variants.v1885.checks import check_orders
from judge.variants.v1885.help import HELP, start_notes
from judge.variants.v1885.language import (
    GRAMMAR,
    read_1885_orders,
    read_desk_line,
    retreat_terms,
)
from judge.variants.v1885.phases import adjudicate_1885
from judge.variants.v1885.picture import legend_units, picture_order
from judge.variants.v1885.victory import decide_claims


def _results_text(report: object) -> str:
    """The results layout (judge.variants.v1885.report), imported when results are written."""
    from judge.variants.v1885.report import results_text

    return results_text(report)  # type: ignore[arg-type]


V1885 = Variant(
    name="1885",
    title="1885",
    default_map="1885",
    maps=("1885", "standard"),
    calendar=MONTHLY,
    rules=Rulebook(
        adjudicate=adjudicate_1885,  # type: ignore[arg-type]
        unit_kinds=("A", "F", "AF"),
        adjustments_due=adjustments_due,
        decide_claims=decide_claims,
        check_orders=check_orders,
    ),
    language=Language(
        read_orders=read_1885_orders,
        read_desk_line=read_desk_line,
        order_grammar=GRAMMAR,
    ),
    rules_text="1885 (Fred C. Davis, Jr.) with the A/F Rules Module, 1984 revision, and the "
    "readings in docs/RULES.md",
    desk=Desk(
        help=HELP,
        start_notes=start_notes,
        retreat_terms=retreat_terms,
        claim_terms=(
            "the season is a fall-type move (March, June, September or December) at whose end "
            "the two powers have 30 units on the board between them (rule 5 b: an alliance "
            "victory is of two powers; an army/fleet counts as two units). A single win of 23 "
            "units comes first."
        ),
    ),
    report=Report(results_text=_results_text),
    picture=Picture(order=picture_order, unit_counts=legend_units),
)
