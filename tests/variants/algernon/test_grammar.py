"""Algernon's order lines through grammar/algernon.lark: the spellings each form takes, and the
errors, which name the line and the column, use the rules' own words (a space, a portal, `to`)
and give nothing away: the grammar reads a line the same on every maze, and at the desk a
space the player has not seen is "unknown to you" whether or not it exists."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from judge.adjudicate_json import read_variant_case
from judge.language.errors import OrderSyntaxError
from judge.variants.algernon import opening_case
from judge.variants.algernon.generator import generate_maze
from judge.variants.algernon.language import read_desk_line, read_line, read_maze_orders
from judge.variants.algernon.maze import maze_board
from judge.variants.algernon.orders import (
    Attack,
    BuildList,
    Remove,
    RetreatList,
    Stand,
    SupportAttack,
    SupportInto,
    SupportOut,
)
from tests.variants.algernon.test_by_mail import board, engine, started

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desk"))
import test_games_by_mail as mail  # noqa: E402

__all__ = ["engine"]

DEMO = Path(__file__).resolve().parents[2] / "cases" / "maps" / "algernon_demo.toml"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("VT - 3", Attack("vt", 3)),
        ("vt TO 3", Attack("vt", 3)),
        ("VT a 3", Attack("vt", 3)),
        ("VT attacks 3", Attack("vt", 3)),
        ("VT -> 3.", Attack("vt", 3)),
        ("VT holds", Stand("vt")),
        ("VT  ", Stand("vt")),
        ("VT supports 2", SupportOut("vt", 2)),
        ("VT s 4 ( SQ - 6 )", SupportAttack("vt", 4, "sq", 6)),
        ("MK S 1(1)", SupportInto("mk", 1, 1)),
        ("VT ( 3, 2 ,5 )", RetreatList("vt", (3, 2, 5))),
        ("VT(4)", RetreatList("vt", (4,))),
        ("build MK VT", BuildList(("mk", "vt"))),
        ("Builds MK", BuildList(("mk",))),
        ("Disband VT", Remove("vt")),
        ("remove vt", Remove("vt")),
        ("BU to 1", Attack("bu", 1)),  # a space named like the start of a keyword
    ],
)
def test_each_form_in_the_spellings_players_use(text: str, value: Any) -> None:
    assert read_line(text).order == value


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("VT to", 6, "expected a portal number after 'to', found the end of the line"),
        ("VT x 3", 4, "expected 'to', 'h', 's', '(' or end of line after 'VT', found 'x'"),
        ("VT to three", 7, "expected a portal number after 'to', found 'three'"),
        ("VT s 4 (SQ to)", 14, "expected a portal number after 'to', found ')'"),
        ("VT s 4 (SQ h 6)", 12, "expected 'to' after 'SQ', found 'h'"),
        ("VT s 4 (SQ to 6", 16, "expected ')', found the end of the line"),
        ("VT(3,,2)", 6, "expected a portal number after ',', found ','"),
        ("VT(3 2)", 6, "expected ')' or ','"),
        ("VT to 3 4", 9, "expected end of line, found '4'"),
        ("3 to VT", 1, "expected a space, 'Build' or 'Remove', found '3'"),
        ("Build", 6, "expected a space after 'Build', found the end of the line"),
        ("VT3 to 2", 3, "expected 'to', 'h', 's', '(' or end of line after 'VT', found '3'"),
    ],
)
def test_a_line_that_is_no_order_is_answered_with_its_column(
    text: str, column: int, message: str
) -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        read_line(text, 3)
    error = caught.value.error
    assert (error.line_no, error.column) == (3, column), error
    assert message in error.message, error
    assert str(error).startswith(f"line 3, column {column}: ")


def test_the_grammar_reads_a_line_alike_for_a_space_that_exists_and_one_that_does_not() -> None:
    maze = maze_board(generate_maze(4, 5))
    real = next(s.upper() for s in sorted(maze.provinces) if len(s) == 3)
    errors = []
    for space in (real, "QQQ"):
        with pytest.raises(OrderSyntaxError) as caught:
            read_line(f"{space} s 1 ({space} x 3)")
        errors.append(str(caught.value.error).replace(space, "<SPACE>"))
    assert errors[0] == errors[1]


def test_the_desk_names_the_column_and_only_what_the_player_knows() -> None:
    demo = tomllib.loads(DEMO.read_text())
    board = maze_board(demo)
    position = read_variant_case(opening_case(demo, 7)).position
    context = {"position": position, "power": "A", "phase": "F1901M"}

    def error(line: str) -> str | None:
        return read_desk_line(board, line, 2, dict(context)).error

    # SQ exists (B's neighbour), QX does not: unseen, both are unknown, at their column.
    assert error("PZ s 2 (SQ to 1)") == "line 2, column 9: SQ is unknown to you"
    assert error("PZ s 2 (QX to 1)") == "line 2, column 9: QX is unknown to you"
    assert error("PZ(1, 9)") == "line 2, column 7: PZ has 3 portals: there is no portal 9"
    assert error("Build PZ, QV") == "line 2, column 11: QV is unknown to you"  # B's home
    assert error("Build PZ, QX") == "line 2, column 11: QX is unknown to you"
    assert error("PZ x 1") == (
        "line 2, column 4: expected 'to', 'h', 's', '(' or end of line after 'PZ', found 'x'"
    )
    assert error("Remove PZ") is None and error("PZ s 2 (3)") is None


def test_adjudication_names_the_line_among_the_power_s_orders() -> None:
    demo = tomllib.loads(DEMO.read_text())
    read = read_maze_orders(maze_board(demo), {"A": ["PZ h", "PZ to"]})
    result = read.unreadable[("A", 1)]
    assert result.result == "illegal"
    assert result.reason.startswith("cannot read the line: line 2, column 6: expected a portal")


def test_by_mail_a_faulty_line_is_answered_with_its_line_and_column(engine: Engine) -> None:
    seats = started(engine, 3)
    maze = board(engine)
    power = sorted(seats)[0]
    home = sorted(maze.powers[power].home_centres)[0].upper()
    unseen = next(s for s in sorted(maze.provinces) if s not in maze.powers[power].home_centres)
    text = f"{home} h\n{home} x 1\n{home} s 1 ({unseen.upper()} to 1)"
    rows = mail.send(engine, text, sender=seats[power][0], to=seats[power][1])
    body = mail.body_of(rows[0])
    assert f"line 2, column {len(home) + 2}: expected 'to', 'h', 's', '(' or end" in body
    column = len(home) + 7
    assert f"line 3, column {column}: {unseen.upper()} is unknown to you" in body
