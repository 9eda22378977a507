"""The orders of the scripted 1885 year (test_scripted_1885.py): what each power mails in each
phase, and what the results must then say. Powers not named in a month mail holds for every
unit they have (the script reads them from the store), so no one misses a move.

January: Italy makes its unit in Rome a fleet (rule 3), in private, and sails it; Spain's fleet
puts to sea; Turkey's fleet sails into the Black Sea; Austria enters Serbia.
February: Spain's army in Cadiz boards the fleet in the Western Mediterranean, which carries it
across a second sea (the Mid-Atlantic), where it lands in Portugal (the A/F module's II a);
Turkey's fleet ferries the army of Constantinople across the Black Sea to Rumania (the Fast
Ferry, rule 7), after a first convoy order across a second sea is refused.
March: Austria takes Macedonia; Turkey, which controlled it after February, still builds for it
(rule 11), two builds in all; Austria and Spain build.
April: Turkey, Italy and Spain take positions.
May: Turkey dislodges the Austrian army in Macedonia; France's army tries to board the Italian
fleet in the Gulf of Lyon and is refused (an army/fleet of two powers); Austria's retreat "A
Mac disband" is refused (rule 10 b), and with no retreat order the army goes by the right-hand
rule to Greece.
June: Italy dislodges the French army in Marseilles; after this fall-type move France sends its
retreat with the builds, to Spain's Valencia, and Spain had made one build contingent on it
(rule 10 a): the contingent build fails, its build in its reserved Portugal stands.
July to December: everyone holds; no builds fall due in September or December.
"""

from __future__ import annotations

POWERS = (
    "Austria",
    "England",
    "France",
    "Germany",
    "Italy",
    "Russia",
    "Spain",
    "Sweden",
    "Turkey",
)

# Movement orders by month; powers left out hold.
MOVES: dict[str, dict[str, str]] = {
    "JAN1885M": {
        "Italy": "Rome: Fleet\nF Rome - Tyrrhenian Sea\nF Nap H\nA Ven H",
        "Spain": "F Val - WMed\nA Mad H\nA Cad H",
        "Turkey": "F Sin - Bla\nA Smy - Arm\nA Con H",
        "Austria": "A Bud - Ser\nA Vie H\nA Clu H\nF Spl H",
    },
    "FEB1885M": {
        "Spain": "A Cad boards F WMed; A/F WMed - MAO; A disembarks Por\nA Mad H",
        "Turkey": "F Bla Fast Ferry A Con - Rum\nA Con - Rum via Fast Ferry\nA Arm H",
    },
    "MAR1885M": {"Austria": "A Ser - Mac\nA Vie H\nA Clu H\nF Spl H"},
    "APR1885M": {
        "Turkey": "A Rum - Bul\nF Smy - Aeg\nA Con H\nA Arm H\nF Bla H",
        "Italy": "A Ven - Pie\nF Tys - GoL\nF Nap H",
        "Spain": "A Por - Bas\nF MAO - Mor\nA Mad H\nA Cad H",
    },
    "MAY1885M": {"Turkey": "A Bul - Mac\nA Con S A Bul - Mac\nF Aeg H\nA Arm H\nF Bla H"},
    "JUN1885M": {"Italy": "A Pie - Mar\nF GoL S A Pie - Mar\nF Nap H"},
}
MONTHS = (
    "JAN1885M",
    "FEB1885M",
    "MAR1885M",
    "APR1885M",
    "MAY1885M",
    "JUN1885M",
    "JUL1885M",
    "AUG1885M",
    "SEP1885M",
    "OCT1885M",
    "NOV1885M",
    "DEC1885M",
)
# The phases between the moves, and who mails what in them.
BETWEEN: dict[str, tuple[str, dict[str, str]]] = {
    "MAR1885M": (
        "MAR1885A",
        {"Turkey": "Build A Con\nBuild F Smy", "Austria": "Build A Bud", "Spain": "Build A Cad"},
    ),
    "MAY1885M": ("MAY1885R", {}),
    "JUN1885M": (
        "JUN1885A",
        {
            "France": "A Mar R Val",
            "Spain": "Build F Val unless French A Mar retreats to Val\nBuild F Por",
            "Italy": "Build A Ven",
        },
    ),
}
# Lines mailed first and refused, each with the error the echo must give: (power, phase, text,
# error).
REFUSED = (
    (
        "Turkey",
        "FEB1885M",
        "F Bla Fast Ferry A Con - Lev",
        "ERROR: line 1: the Fast Ferry crosses one sea only (rule 7): the fleet in Black Sea "
        "cannot carry an army from Constantinople to Levant by itself",
    ),
    (
        "France",
        "MAY1885M",
        "A Mar boards F GoL",
        "ERROR: line 1: an army/fleet is of one power only (A/F module II a): the fleet in "
        "Gulf of Lyon is Italian",
    ),
    (
        "Austria",
        "MAY1885R",
        "A Mac disband",
        "ERROR: line 1: no disband or off-the-board retreat orders (rule 10 b)",
    ),
)
# What every reader's results of a phase must say.
SAYS: dict[str, tuple[str, ...]] = {
    "JAN1885M": (
        "The unit in Rome is a fleet.  (revealed: a fleet)",
        "Fleet Rome -> Tyrrhenian Sea.",
        "The next phase is February 1885 Movement",
    ),
    "FEB1885M": (
        "Army Cadiz boards Fleet Western Mediterranean.",
        "Army/Fleet Western Mediterranean -> Mid-Atlantic Ocean.",
        "Army Western Mediterranean disembarks in Portugal.",
        "Fleet Black Sea Fast Ferry Army Constantinople -> Rumania.",
        "Army Constantinople -> Rumania via Fast Ferry.",
    ),
    "MAR1885M": (
        "Army Serbia -> Macedonia.",
        "Turkey (4 centres, 3 units): Constantinople, Rumania, Sinope, Smyrna.",
        "The next phase is March 1885 Adjustments",
    ),
    "MAR1885A": (
        "Builds an army in Constantinople.",
        "Builds a fleet in Smyrna.",
        "Builds an army in Budapest.",
        "Builds an army in Cadiz.",
        "Macedonia counts for Turkey this month: no other power's unit stood in it after the "
        "February move (rule 11), though it is no longer Turkish.",
    ),
    "MAY1885M": ("Army Bulgaria -> Macedonia.", "The next phase is May 1885 Retreats"),
    "MAY1885R": ("Austrian Army Macedonia retreats to Greece by the right-hand rule.",),
    "JUN1885M": (
        "Army Piedmont -> Marseilles.",
        "Retreats are sent with the builds",
        "The next phase is June 1885 Adjustments",
    ),
    "JUN1885A": (
        "Army Marseilles retreats to Valencia.",
        "Builds a fleet in Valencia unless French Army Marseilles retreats to Valencia.  "
        "(*void*: its condition was not met)",
        "Builds a fleet in Portugal.",
        "Builds an army in Venice.",
        "France (3 centres, 3 units): Brest, Paris, Valencia.",
    ),
    "DEC1885M": ("The next phase is January 1886 Movement",),
}
