"""What HELP standard answers: the order forms of the standard game, with example mails."""

from __future__ import annotations

from judge.variants import ExampleMail, OrderForm, VariantHelp

HELP = VariantHelp(
    intro="""\
Standard Diplomacy: seven powers on the map of Europe, a spring and a fall move
each year, retreats after a move that dislodged a unit, and builds or removals
in the winter. A power that holds 18 supply centres wins.

One order a line; write units and places by their names or the usual
three-letter abbreviations (A = army, F = fleet). The last order for a unit
wins until the phase is processed; a unit without an order holds.""",
    forms=(
        OrderForm("A Par - Bur", "move (also A Par-Bur, Army Paris -> Burgundy)", "Moves"),
        OrderForm("A Mun H", "hold"),
        OrderForm("A Mar S A Par - Bur", "support a move"),
        OrderForm("A Mun S A Ber", "support a unit that holds"),
        OrderForm("F NTH C A Lon - Nwy", "convoy an army (which writes A Lon - Nwy)"),
        OrderForm("F StP/SC - Bot", "a fleet on a coast names it (/NC, /SC, /EC)"),
        OrderForm("A Bur R Pic", "retreat a dislodged unit", "Retreats"),
        OrderForm("A Bur disband", "disband it (so does no order)"),
        OrderForm("Build A Par", "build in a free home centre you own", "Adjustments (winter)"),
        OrderForm("Remove A Bur", "remove a unit (more units than centres)"),
        OrderForm("Waive", "give up a build"),
    ),
    forms_power="FRANCE",
    examples=(
        ExampleMail(
            "FRANCE", "the spring of 1901", ("A Par - Bur", "A Mar S A Par - Bur", "F Bre - MAO")
        ),
        ExampleMail("ENGLAND", "a spring with a convoy", ("F NTH C A Lon - Nwy", "A Lon - Nwy")),
        ExampleMail("GERMANY", "a retreat phase", ("A Bur R Ruh",)),
        ExampleMail("FRANCE", "a winter with a build due", ("Build A Par",)),
    ),
)
