"""General orders in the command language: GENERAL blocks, njudge's PHASE, IF/ELSE/ENDIF and
their conditions, GENERAL CLEAR and GENERAL LIST, and every way a block can go wrong."""

from __future__ import annotations

import random

import pytest

from judge.language import command_values as cv
from judge.language.commands import read_mail_commands

GAL = cv.UnitThere(cv.Words(("A", "Gal")))


def only(text: str) -> cv.CommandLine:
    values = read_mail_commands(text)
    assert len(values) == 1, values
    return values[0]


def errors(text: str) -> list[str]:
    values = read_mail_commands(text)
    assert all(isinstance(v, cv.CommandError) for v in values), values
    return [str(v) for v in values]


@pytest.mark.parametrize(
    ("head", "start", "end"),
    [
        ("GENERAL", None, None),
        ("general from S1902M", "S1902M", None),
        ("GENERAL TO f1903r", None, "F1903R"),
        ("GENERAL FROM 1902 TO 1903", "S1902M", "W1903A"),
        ("GENERAL FROM Fall 1902 TO Fall 1902", "F1902M", "F1902R"),
        ("GENERAL FROM Spring 1902 Retreats TO Winter 1902", "S1902R", "W1902A"),
        ("GENERAL TO autumn 1902 movement FROM 1901", "S1901M", "F1902M"),
    ],
)
def test_a_general_block_and_its_period(head: str, start: str | None, end: str | None) -> None:
    value = only(f"{head}\nA Par - Bur\nENDGENERAL")
    assert value == cv.GeneralOrders(
        line_no=1,
        valid_from=start,
        valid_to=end,
        body=(cv.OrderLine(2, "A Par - Bur"),),
        end_line=3,
    )


def test_njudge_phase_opens_orders_for_one_phase_up_to_the_next_command() -> None:
    values = read_mail_commands("PHASE Fall 1902\nA Par - Bur\nPHASE S1903M\nA Bur - Mun\nSET WAIT")
    assert values == [
        cv.GeneralOrders(
            line_no=1,
            valid_from="F1902M",
            valid_to="F1902M",
            body=(cv.OrderLine(2, "A Par - Bur"),),
            end_line=2,
        ),
        cv.GeneralOrders(
            line_no=3,
            valid_from="S1903M",
            valid_to="S1903M",
            body=(cv.OrderLine(4, "A Bur - Mun"),),
            end_line=4,
        ),
        cv.SetWait(line_no=5),
    ]
    assert only("PHASE W1902A\nBuild A Par\nEND PHASE").valid_to == "W1902A"  # type: ignore[union-attr]


def test_if_groups_nest_with_else_if_and_else() -> None:
    text = (
        "GENERAL\n"
        "IF A Gal\n"
        "  A Vie - Bud\n"
        "  IF NOT PHASE FALL\n"
        "    F Tri - Adr\n"
        "  ENDIF\n"
        "ELSEIF Bel owned by France\n"
        "ELSE\n"
        "  A Vie H\n"
        "END IF\n"
        "ENDGENERAL"
    )
    inner = cv.IfBlock(
        (cv.Branch(4, cv.Not(cv.PhaseIs("FALL")), (cv.OrderLine(5, "    F Tri - Adr"),)),),
        end_line=6,
    )
    owned = cv.OwnedBy(cv.Words(("Bel",)), cv.Words(("France",)))
    outer = cv.IfBlock(
        (
            cv.Branch(2, GAL, (cv.OrderLine(3, "  A Vie - Bud"), inner)),
            cv.Branch(7, owned, ()),
        ),
        otherwise=(cv.OrderLine(9, "  A Vie H"),),
        else_line=8,
        end_line=10,
    )
    assert only(text) == cv.GeneralOrders(line_no=1, body=(outer,), end_line=11)


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("A Gal", GAL),
        (
            "Russian Army in Galicia",
            cv.UnitThere(cv.Words(("Russian", "Army", "in", "Galicia"))),
        ),
        ("France owns Bel", cv.OwnedBy(cv.Words(("Bel",)), cv.Words(("France",)))),
        ("Bel OWNED BY nobody", cv.OwnedBy(cv.Words(("Bel",)), cv.Words(("nobody",)))),
        ("PHASE Spring", cv.PhaseIs("SPRING")),
        ("autumn", cv.PhaseIs("FALL")),
        ("builds", cv.PhaseIs("ADJUST")),
        ("RETREATS", cv.PhaseIs("RETREAT")),
        ("NOT A Gal", cv.Not(GAL)),
        (
            "A Gal AND FALL OR MOVE",
            cv.AnyOf((cv.AllOf((GAL, cv.PhaseIs("FALL"))), cv.PhaseIs("MOVE"))),
        ),
        (
            "A Gal AND (FALL OR MOVE)",
            cv.AllOf((GAL, cv.AnyOf((cv.PhaseIs("FALL"), cv.PhaseIs("MOVE"))))),
        ),
        ("NOT (A Gal OR FALL)", cv.Not(cv.AnyOf((GAL, cv.PhaseIs("FALL"))))),
    ],
)
def test_conditions_read_and_write_back(text: str, condition: cv.Condition) -> None:
    value = only(f"GENERAL\nIF {text}\nENDIF\nENDGENERAL")
    assert isinstance(value, cv.GeneralOrders)
    block = value.body[0]
    assert isinstance(block, cv.IfBlock)
    assert block.branches[0].condition == condition
    again = only(value.redacted())
    assert isinstance(again, cv.GeneralOrders)
    assert again.body[0].branches[0].condition == condition  # type: ignore[union-attr]


def test_the_echo_reads_back_to_the_same_block() -> None:
    text = "GENERAL FROM 1902\nA Par - Bur\nIF A Gal\nF Bre H\nELSE\nF Bre - MAO\nENDIF\nENDGENERAL"
    value = only(text)
    assert value.redacted() == (
        "GENERAL FROM S1902M\nA Par - Bur\nIF A Gal\n  F Bre H\nELSE\n  F Bre - MAO\nENDIF\nENDGENERAL"
    )
    assert cv.general_body_lines(only(value.redacted()).body) == cv.general_body_lines(value.body)  # type: ignore[union-attr]


def test_clear_and_list() -> None:
    assert only("GENERAL CLEAR") == cv.ClearGeneral(line_no=1)
    assert only("general clear from 1902 to 1902") == cv.ClearGeneral(
        line_no=1, valid_from="S1902M", valid_to="W1902A"
    )
    assert only("GENERAL LIST") == cv.ListGeneral(line_no=1)
    assert only("GENERAL LIST france") == cv.ListGeneral(line_no=1, power="FRANCE")
    assert only("GENERAL CLEAR FROM 1902").redacted() == "GENERAL CLEAR FROM S1902M"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "GENERAL\nA Par - Bur\n",
            [
                "line 1, column 1: GENERAL has no ENDGENERAL after it, so nothing was filed "
                "(line 2 was taken as its orders)"
            ],
        ),
        (
            "GENERAL\nIF A Gal\nA Par H\nENDGENERAL",
            ["line 2, column 1: this IF has no ENDIF before the end of the block"],
        ),
        (
            "GENERAL\nENDIF\nELSE\nELSE IF A Gal\nENDGENERAL",
            [
                "line 2, column 1: ENDIF without an IF before it",
                "line 3, column 1: ELSE without an IF before it",
                "line 4, column 1: ELSE IF without an IF before it",
            ],
        ),
        (
            "GENERAL\nIF A Gal\nELSE\nELSE\nENDIF\nENDGENERAL",
            ["line 4, column 1: ELSE after ELSE"],
        ),
        (
            "GENERAL\nIF\nA Par H\nELSE\nA Par - Bur\nENDIF\nENDGENERAL",
            [
                "line 2, column 3: expected a condition (A Gal, Russian Army in Galicia, Bel owned "
                "by France, PHASE FALL), ( or NOT after 'IF', found the end of the line"
            ],
        ),
        (
            "GENERAL\nIF (A Gal OR FALL\nENDIF\nENDGENERAL",
            ["line 2, column 18: expected ) after 'FALL', found the end of the line"],
        ),
        (
            "GENERAL\nIF Bel owned France\nENDIF\nENDGENERAL",
            ["line 2, column 14: expected BY after 'owned', found 'France'"],
        ),
        (
            "GENERAL FROM W1902M\nENDGENERAL",
            ["line 1, column 14: phase 'W1902M': Winter has no Movement phase"],
        ),
        (
            "GENERAL FROM tomorrow\nA Par H\nENDGENERAL",
            [
                "line 1, column 14: expected a phase (S1902M, 1902 or Fall 1902) after 'FROM', "
                "found 'tomorrow'"
            ],
        ),
        (
            "GENERAL FROM 1902 FROM 1903\nENDGENERAL",
            ["line 1, column 19: FROM is given twice"],
        ),
        (
            "GENERAL FROM 02\nENDGENERAL",
            ["line 1, column 14: '02' is no year: write it in full (1902)"],
        ),
        (
            "PHASE 1902\nA Par H",
            [
                "line 1, column 7: PHASE names one phase: a season and a year (PHASE Fall 1902) or "
                "S1902M; for a whole year write GENERAL FROM 1902 TO 1902"
            ],
        ),
        (
            "IF A Gal",
            [
                "line 1, column 1: IF is read only inside general orders (GENERAL ... "
                "ENDGENERAL, or after PHASE)"
            ],
        ),
        (
            "ENDIF",
            [
                "line 1, column 1: ENDIF is read only inside general orders (GENERAL ... "
                "ENDGENERAL, or after PHASE)"
            ],
        ),
        (
            "ELSE IF A Gal",
            [
                "line 1, column 1: ELSE IF is read only inside general orders "
                "(GENERAL ... ENDGENERAL, or after PHASE)"
            ],
        ),
    ],
)
def test_faults_are_named_and_nothing_is_filed(text: str, expected: list[str]) -> None:
    assert errors(text) == expected


def test_a_block_cut_short_leaves_the_commands_after_it_alone() -> None:
    values = read_mail_commands("GENERAL\nA Par H\nSET WAIT\nA Mar H")
    assert [type(v) for v in values] == [cv.CommandError, cv.SetWait, cv.OrderLine]
    assert values[2] == cv.OrderLine(4, "A Mar H")


def test_signoff_and_a_signature_end_a_block_and_the_mail() -> None:
    values = read_mail_commands("GENERAL\nA Par H\nSIGNOFF\nA Mar H")
    assert [type(v) for v in values] == [cv.CommandError, cv.SignOff]
    values = read_mail_commands("PHASE F1902M\nA Par H\n-- \nA Mar H")
    assert values == [
        cv.GeneralOrders(
            line_no=1,
            valid_from="F1902M",
            valid_to="F1902M",
            body=(cv.OrderLine(2, "A Par H"),),
            end_line=2,
        )
    ]


def test_a_bad_header_skips_its_block_without_leaking_orders() -> None:
    values = read_mail_commands("GENERAL FROM xyz\nA Par H\nENDGENERAL\nA Mar H")
    assert [type(v) for v in values] == [cv.CommandError, cv.OrderLine]
    assert values[1] == cv.OrderLine(4, "A Mar H")


def test_a_bad_clear_or_list_opens_no_block() -> None:
    values = read_mail_commands("GENERAL CLEAR FROM xyz\nA Par H\nGENERAL LIST a b\nA Mar H")
    assert [type(v) for v in values] == [
        cv.CommandError,
        cv.OrderLine,
        cv.CommandError,
        cv.OrderLine,
    ]


def test_a_mistyped_general_gets_the_spelling() -> None:
    error = only("GENRAL FROM 1902")
    assert isinstance(error, cv.CommandError)
    assert "GENERAL" in error.suggestions


def test_clear_alone_is_njudges_and_points_to_general_clear() -> None:
    error = only("CLEAR")
    assert isinstance(error, cv.CommandError)
    assert "write GENERAL CLEAR" in error.message


def test_random_blocks_never_break_the_reader() -> None:
    pieces = [
        "GENERAL", "ENDGENERAL", "IF", "ELSE", "ELSE IF", "ENDIF", "PHASE", "FROM", "TO", "1902",
        "S1902M", "Fall", "A", "Gal", "owned", "by", "owns", "France", "NOT", "AND", "OR", "(",
        ")", "Par", "-", "Bur", "H", "CLEAR", "LIST", "SIGNOFF", "-- ", "",
    ]  # fmt: skip
    rng = random.Random(1902)
    for _ in range(400):
        lines = [
            " ".join(rng.choice(pieces) for _ in range(rng.randint(0, 5)))
            for _ in range(rng.randint(1, 8))
        ]
        text = "\n".join(lines)
        for value in read_mail_commands(text):
            assert isinstance(value, cv.Command | cv.OrderLine | cv.Prose | cv.CommandError), value
            assert 1 <= value.line_no <= len(lines)
            value.redacted()
            if isinstance(value, cv.CommandError):
                assert value.message != "this line could not be read", (value, text)
