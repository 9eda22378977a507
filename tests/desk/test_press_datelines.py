"""Datelines read and checked on their own (judge.desk.press.read_dateline), without mail."""

from __future__ import annotations

import pytest

from judge.desk.press import read_dateline
from judge.engine.position import Position, Unit
from judge.map_files import load_map

MAP = load_map("standard")
BOARD = Position(
    phase="S1901M",
    units=(Unit("TURKEY", "F", "ank"), Unit("FRANCE", "A", "bur")),
    centers={"TURKEY": frozenset({"ank", "con", "smy"}), "FRANCE": frozenset({"par"})},
)


@pytest.mark.parametrize(
    ("text", "power", "printed", "rest"),
    [
        ("(Ankara) - The Turkish government today...", "TURKEY", "(Ankara)", " - The Turkish"),
        ("((Ankara)) - still the Turk's own city", "TURKEY", "(Ankara)", " - still"),
        ("(Ankara) - The French ambassador...", "FRANCE", "((Ankara))", " - The French"),
        ("\n\n   (ank) indented, after blank lines", "TURKEY", "(Ankara)", " indented"),
        ("(Constantinople) - held, no unit there", "TURKEY", "(Constantinople)", " - held"),
        ("(Burgundy) a French army stands here", "FRANCE", "(Burgundy)", " a French"),
        ("(Burgundy) but not a German one", "GERMANY", "((Burgundy))", " but"),
        ("(Picardy) nobody stands here", "FRANCE", "((Picardy))", " nobody"),
        ("(Paris) the GM or an observer", None, "((Paris))", " the GM"),
        ("(Geneva) off the board", "FRANCE", "((Geneva))", " off"),
    ],
)
def test_datelines(text: str, power: str | None, printed: str, rest: str) -> None:
    dateline = read_dateline(text, MAP, BOARD, power)
    assert dateline.printed == printed
    assert dateline.text.startswith(rest)


@pytest.mark.parametrize(
    "text",
    [
        "No dateline at all (Ankara) here.",
        "(1901) a year is no city",
        "(this aside runs to far more than four words) and goes on",
        "()",
        "",
    ],
)
def test_no_dateline(text: str) -> None:
    dateline = read_dateline(text, MAP, BOARD, "TURKEY")
    assert dateline.printed is None and dateline.text == text


def test_before_the_start_no_dateline_is_anyone_s() -> None:
    assert read_dateline("(Paris) hello", MAP, None, "FRANCE").printed == "((Paris))"


def test_an_unknown_city_names_the_nearest_provinces() -> None:
    note = read_dateline("(Ankra) hello", MAP, BOARD, "TURKEY").note
    assert note is not None and "Ankara" in note and "((Ankra))" in note
