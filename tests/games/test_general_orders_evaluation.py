"""The pure reading of general orders: conditions on the board, validity, nesting, which general
order applies, and the orders a power can no longer give being dropped."""

from __future__ import annotations

import pytest

from judge.engine.position import Dislodged, Position, Unit
from judge.games import general_orders as go
from judge.language import command_values as cv
from judge.language.commands import read_mail_commands
from judge.map_files import load_map

MAP = load_map("standard")

BOARD = Position(
    phase="F1902M",
    units=(
        Unit("FRANCE", "A", "bur"),
        Unit("FRANCE", "F", "mao"),
        Unit("FRANCE", "A", "mar"),
        Unit("RUSSIA", "A", "gal"),
        Unit("GERMANY", "F", "hol"),
        Unit("ENGLAND", "F", "eng"),
    ),
    centers={"FRANCE": frozenset({"par", "bre", "mar", "spa"}), "GERMANY": frozenset({"hol"})},
)


def block(text: str) -> cv.GeneralOrders:
    values = read_mail_commands(text)
    assert len(values) == 1 and isinstance(values[0], cv.GeneralOrders), values
    return values[0]


def filed(text: str, power: str = "FRANCE") -> go.GeneralOrder:
    general, problems = go.bind(block(text), MAP, power)
    assert general is not None, problems
    return general


def condition(text: str, power: str = "FRANCE") -> go.Condition:
    general = filed(f"GENERAL\nIF {text}\nA Bur H\nENDIF\nENDGENERAL", power)
    choice = general.items[0]
    assert isinstance(choice, go.Choice)
    return choice.branches[0][0]


@pytest.mark.parametrize(
    ("text", "holds"),
    [
        ("Russian Army in Galicia", True),
        ("Russia A Gal", True),
        ("Rus Gal", True),
        ("A Gal", True),
        ("Gal", True),
        ("any unit in Galicia", True),
        ("Fleet Galicia", False),
        ("Russian Fleet in Galicia", False),
        ("German Army in Galicia", False),
        ("English Channel", True),  # a province of two words, not an English unit in "Channel"
        ("English Fleet in English Channel", True),
        ("my Army in Burgundy", True),
        ("my Army in Galicia", False),
        ("any Fleet at Holland", True),
        ("NOT A Gal", False),
        ("NOT NOT A Gal", True),
        ("A Gal AND A Bur", True),
        ("A Gal AND A Par", False),
        ("A Par OR A Bur", True),
        ("A Par OR A Pic OR NOT Gal", False),
        ("A Par AND A Pic OR A Bur", True),  # AND binds tighter than OR
        ("A Par AND (A Pic OR A Bur)", False),
        ("Holland owned by Germany", True),
        ("Germany owns Hol", True),
        ("G owns Hol", True),
        ("Bel owned by nobody", True),
        ("Spa owned by France", True),
        ("Spa owned by me", True),
        ("Spa owned by nobody", False),
        ("PHASE FALL", True),
        ("FALL", True),
        ("autumn", True),
        ("SPRING", False),
        ("PHASE MOVE", True),
        ("Movement", True),
        ("RETREAT", False),
        ("PHASE BUILDS", False),
    ],
)
def test_a_condition_is_read_on_the_board(text: str, holds: bool) -> None:
    assert condition(text).holds(BOARD, "F1902M") is holds


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("Galiza", "line 2, column 4: no province: found 'Galiza' (did you mean Galicia"),
        (
            "Russian Navy in Gal",
            "line 2, column 12: no province: found 'Navy in Gal'; a unit is written Army, Fleet",
        ),
        ("Bel owned by Spain", "line 2, column 17: 'Spain' is no power (Austria, England"),
        ("Bur owned by France", "line 2, column 4: Burgundy is no supply centre"),
        ("Russia", "line 2, column 4: no province: found 'Russia'"),
    ],
)
def test_a_condition_the_map_cannot_read_is_named(text: str, fault: str) -> None:
    general, problems = go.bind(block(f"GENERAL\nIF {text}\nENDIF\nENDGENERAL"), MAP, "FRANCE")
    assert general is None
    assert len(problems) == 1 and problems[0].startswith(fault), problems


def test_order_lines_are_read_with_the_order_grammar_and_another_powers_refused() -> None:
    text = "GENERAL\nA Par - Xyz\nGermany: A Mun - Ruh\nF Bre - MAO\nENDGENERAL"
    general, problems = go.bind(block(text), MAP, "FRANCE")
    assert general is None
    assert problems == [
        "line 2, column 9: expected a province after '-', found 'Xyz'",
        "line 3, column 1: you play France, not Germany",
    ]


def test_the_period_must_not_end_before_it_starts() -> None:
    general, problems = go.bind(block("GENERAL FROM 1903 TO 1902\nENDGENERAL"), MAP, "FRANCE")
    assert general is None
    assert problems == ["line 1: the period ends (W1902A) before it starts (S1903M)"]


NESTED = """GENERAL
A Bur - Bel
IF A Gal
  IF PHASE SPRING
    A Mar - Pie
  ELSE IF Hol owned by Germany
    A Mar - Spa
    IF English Fleet in English Channel
      F MAO - Bre
    ENDIF
  ELSE
    A Mar H
  ENDIF
ELSE
  A Mar - Bur
ENDIF
ENDGENERAL"""


def test_nested_groups_choose_the_first_branch_that_holds() -> None:
    general = filed(NESTED)
    assert go.orders_for([general], BOARD, "F1902M", MAP) == [
        "A BUR - BEL",
        "A MAR - SPA",
        "F MAO - BRE",
    ]
    assert go.orders_for([general], BOARD, "S1903M", MAP) == ["A BUR - BEL", "A MAR - PIE"]
    without_russian = Position("F1902M", BOARD.units[:3], BOARD.centers)
    assert go.orders_for([general], without_russian, "F1902M", MAP) == [
        "A BUR - BEL",
        "A MAR - BUR",
    ]


def test_the_stored_short_form_reads_back_to_the_same_general_order() -> None:
    general = filed(NESTED)
    stored = "\n".join(go.lines(general.items, MAP))
    again = filed(f"GENERAL\n{stored}\nENDGENERAL")
    assert again.items == general.items
    assert go.lines(general.items, MAP, full=True)[:3] == [
        "Army Burgundy -> Belgium",
        "IF any Army in Galicia",
        "  IF PHASE SPRING",
    ]


def test_validity_covers_both_ends() -> None:
    period = go.Validity("F1902M", "S1903M")
    assert [
        p for p in ("S1902M", "F1902M", "F1902R", "W1902A", "S1903M", "S1903R") if period.covers(p)
    ] == [
        "F1902M",
        "F1902R",
        "W1902A",
        "S1903M",
    ]
    assert go.Validity().covers("S1901M") and go.Validity(None, "W1901A").covers("S1901M")
    assert not go.Validity("S1902M", None).covers("W1901A")
    assert go.Validity("F1902M", "F1902M").words() == "for F1902M only"
    assert go.Validity().words() == "for every phase"


def test_the_shortest_period_applies_and_of_equal_ones_the_newest() -> None:
    always = filed("GENERAL\nA Bur H\nENDGENERAL")
    year = filed("GENERAL FROM 1902 TO 1902\nA Bur - Bel\nENDGENERAL")
    fall = filed("GENERAL FROM F1902M TO F1902M\nA Bur - Mun\nENDGENERAL")
    newer_year = filed("GENERAL FROM S1902M TO W1902A\nA Bur - Pic\nENDGENERAL")
    assert go.applicable([always, year, fall], "F1902M") is fall
    assert go.applicable([fall, year, always], "F1902M") is fall  # not the newest: the shortest
    assert go.applicable([always, year, fall], "S1902M") is year
    assert go.applicable([always, year, fall], "S1903M") is always
    assert go.applicable([always, year, newer_year], "S1902M") is newer_year
    assert go.applicable([year, fall], "S1903M") is None
    assert go.orders_for([year, fall], BOARD, "S1903M", MAP) is None


def test_orders_for_units_the_power_no_longer_has_are_dropped() -> None:
    general = filed(
        "GENERAL\nA Par - Bur\nF Bur - Bel\nA Mar - Pie\nF MAO - Por\nA Gal - War\n"
        "Build A Par\nENDGENERAL"
    )
    # No French unit in Paris; Burgundy is an army not a fleet; Galicia is Russian; a build is
    # not a movement order.
    assert go.orders_for([general], BOARD, "F1902M", MAP) == ["A MAR - PIE", "F MAO - POR"]


def test_two_orders_for_one_unit_the_later_wins() -> None:
    general = filed("GENERAL\nA Bur - Bel\nIF A Gal\n  A Bur - Mun\nENDIF\nENDGENERAL")
    assert go.orders_for([general], BOARD, "F1902M", MAP) == ["A BUR - MUN"]


def test_retreat_and_adjustment_phases_take_their_own_orders() -> None:
    general = filed(
        "GENERAL\nA Bur - Bel\nIF PHASE RETREAT\n  A Mar - Gas\nENDIF\n"
        "IF PHASE ADJUST\n  Build A Par\n  Remove F MAO\n  Remove A Pic\nENDIF\nENDGENERAL"
    )
    retreat_board = Position(
        "F1902R",
        BOARD.units[:1],
        BOARD.centers,
        dislodged=(Dislodged(Unit("FRANCE", "A", "mar"), "pie", retreats=("gas",)),),
    )
    assert go.orders_for([general], retreat_board, "F1902R", MAP) == ["A MAR - GAS"]
    assert go.orders_for([general], BOARD, "W1902A", MAP) == ["A PAR B", "F MAO D"]


def test_a_general_order_with_no_lines_plays_nothing() -> None:
    assert go.orders_for([filed("GENERAL\nENDGENERAL")], BOARD, "F1902M", MAP) == []


def test_phases_are_ranked_as_played() -> None:
    phases = ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M"]
    assert sorted(reversed(phases), key=go.phase_rank) == phases


def test_monthly_phases_are_ranked_as_played_and_a_year_spans_its_months() -> None:
    phases = ["JAN1885M", "JAN1885R", "FEB1885M", "MAR1885M", "MAR1885A", "DEC1885A", "JAN1886M"]
    assert sorted(reversed(phases), key=go.phase_rank) == phases
    year = go.Validity("S1885M", "W1885A")  # GENERAL FROM 1885 TO 1885
    assert year.covers("JAN1885M") and year.covers("DEC1885A")
    assert not year.covers("JAN1886M")


@pytest.mark.parametrize(
    ("phase", "season"),
    [
        ("JAN1885M", "SPRING"),
        ("FEB1885R", "SPRING"),
        ("MAR1885M", "FALL"),
        ("DEC1885R", "FALL"),
        ("MAR1885A", "WINTER"),
    ],
)
def test_on_the_monthly_calendar_a_build_month_is_a_fall(phase: str, season: str) -> None:
    for part in ("SPRING", "FALL", "WINTER"):
        assert go.PhaseOf(part).holds(BOARD, phase) == (part == season), (phase, part)
