"""What HELP 1885 answers: Davis's notation for orders, several to a line, Italy's choice in
Rome, retreats sent with the move and builds contingent on retreats (rules text: seed 002)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.variants import ExampleMail, OrderForm, VariantHelp, paragraphs_text

HELP = VariantHelp(
    intro="""\
1885 (Fred C. Davis Jr.): nine powers (Austria, England, France, Germany,
Italy, Russia, Spain, Sweden, Turkey) on a map of Europe. Each move is a month,
January 1885 first; March, June, September and December are build seasons.
23 units on the board win; two powers may claim an alliance victory with 30
units between them at the end of a fall move (SET CLAIM, see HELP).

Italy chooses whether the unit in Rome is an army or a fleet, privately, with
the January orders (Rome: Fleet or Rome: Army); the others learn it with the
results. Build centres: Russia may build in Archangel, Turkey in Levant and
Italy in Sicily while they own them; England in Ireland and Spain in Portugal
while they own those supply centres. Turkey has no unit in Macedonia at the
start, and builds for it in March if she still owns it.

An army boards its own fleet at sea and travels with it as an army/fleet A/F
until it disembarks. Orders may share a line, separated by ";" or ",".""",
    forms=(
        OrderForm("A Par - Bur", "move, hold, support and convoy as in the standard game", "Moves"),
        OrderForm("A Mar boards F GoL", "an army boards the fleet next to it"),
        OrderForm("A/F GoL - WMed", "the army/fleet moves as one unit"),
        OrderForm("A GoL disembarks Pie", "the army aboard in GoL goes ashore"),
        OrderForm("F WMed Fast Ferry A Val - Alg", "a convoy across one sea space (also FF, F/F)"),
        OrderForm("A Mar boards F GoL; A/F GoL - WMed", "several orders on one line"),
        OrderForm("Rome: Fleet", "Italy's unit in Rome is a fleet (January)"),
        OrderForm("A Vie - Bud, retreat to Boh", "a retreat sent with the move", "Retreats"),
        OrderForm("A Ser R Alb if dislodged", "the same, on a line of its own"),
        OrderForm("A Ser R Alb", "a retreat in the retreat phase"),
        OrderForm("Build A Con", "a build", "Builds"),
        OrderForm(
            "Build A Con if Austrian A Ser retreats to Bul",
            "a build that stands only if that retreat is made",
        ),
        OrderForm("Remove F Lon", "a removal"),
    ),
    forms_power="TURKEY",
    notes="""\
A unit dislodged without a retreat order retreats by Just's right-hand rule;
after a fall move a retreat may be sent with the builds, and builds may be made
contingent on it. A retreat is never "disband" or "off the board": a unit is
removed only when no retreat is left to it.""",
    examples=(
        ExampleMail(
            "ITALY",
            "January 1885, choosing a fleet in Rome",
            ("Rome: Fleet", "F Rom - Tys; A Ven - Pie", "F Nap - Ion"),
        ),
        ExampleMail(
            "AUSTRIA",
            "a move with a retreat sent for a unit that may be dislodged",
            ("A Vie - Tyr", "A Bud - Gal", "A Clu H; if dislodged R Ser", "F Spl H"),
        ),
        ExampleMail(
            "TURKEY",
            "a build season, the build hanging on Austria's retreat",
            ("Build A Con if Austrian A Ser retreats to Bul",),
        ),
    ),
)


def start_notes(case: Mapping[str, Any], power: str | None) -> str:
    """What a 1885 game's start mail says to `power` (None: the GM or an observer): the
    calendar, Italy's choice in Rome (told to Italy how to make it), the build centres."""
    from judge.variants import game_board

    board = game_board("1885", case)

    def names(places: frozenset[str]) -> str:
        return ", ".join(board.provinces[p].name for p in sorted(places))

    extra = [
        f"{p.title()} in {names(info.build_only | info.reserved_centres)}"
        for p, info in sorted(board.powers.items())
        if info.build_only | info.reserved_centres
    ]
    paragraphs = [
        "1885: each move is a month, January 1885 first; March, June, September and "
        "December are build seasons. 23 units win; two powers with 30 units between them at "
        "the end of a fall move may claim an alliance victory (SET CLAIM).",
        "Build centres beyond the home centres: "
        + "; ".join(extra)
        + " (each only while owned; Archangel, Levant and Sicily are no supply centres). "
        "Turkey has no unit in Macedonia at the start, and builds for it in March if she "
        "still owns it after February.",
    ]
    rome = board.powers.get("ITALY")
    if rome is not None:
        if power == "ITALY":
            paragraphs.append(
                "Rome: your unit in Rome is an army or a fleet, as you choose. Write Rome: "
                "Fleet (or Rome: Army) with your January orders, then order the unit as that "
                "kind (F Rom - Tys). Nobody else learns your choice before January's results; "
                "without the line it is an army."
            )
        else:
            paragraphs.append(
                "Italy chooses whether its unit in Rome is an army or a fleet; everyone "
                "learns which with January's results."
            )
    paragraphs.append(
        "Several orders may share a line; a retreat may be sent with the move (A Ser H; if "
        "dislodged R Alb). HELP 1885 shows every order form with example mails."
    )
    return paragraphs_text(paragraphs)
