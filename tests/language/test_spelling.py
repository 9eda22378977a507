"""Suggestions ranked as people mistype: swapped, doubled, sound-alike and neighbouring keys."""

from __future__ import annotations

import pytest

from judge.engine.geography import Map
from judge.language.command_values import CommandError
from judge.language.commands import read_mail_commands, suggest_commands
from judge.language.names import UnknownName, name_table
from judge.language.orders import parse_line
from judge.language.spelling import nearest, substitution_cost, typo_distance

# Typos of the kinds players make, and the province each meant: a letter for one that sounds
# alike (Galicya, Galiza, Moskow), two letters swapped (Trisete, Bohmeia, Spian), a letter
# doubled or undoubled (Tuscanny, Liverpol, Skagerac), a dropped vowel (Nrth Sea, Englsh),
# a neighbouring key (Holkand, Nwples), a foreign spelling (Gascogne, Picardie), and a prefix
# with a slip in it (Ioanian, Adratic, Norwegain).
PROVINCE_TYPOS = {
    "Galicya": "Galicia",
    "Galiza": "Galicia",
    "Gallicia": "Galicia",
    "Moskow": "Moscow",
    "Trisete": "Trieste",
    "Bohmeia": "Bohemia",
    "Spian": "Spain",
    "Budapset": "Budapest",
    "Tuscanny": "Tuscany",
    "Liverpol": "Liverpool",
    "Skagerac": "Skagerrak",
    "Nrth Sea": "North Sea",
    "Englsh Channel": "English Channel",
    "Denmrk": "Denmark",
    "Holkand": "Holland",
    "Nwples": "Naples",
    "Gascogne": "Gascony",
    "Picardie": "Picardy",
    "Edinborough": "Edinburgh",
    "Constantinopel": "Constantinople",
    "Ioanian": "Ionian Sea",
    "Adratic": "Adriatic Sea",
    "Norwegain": "Norwegian Sea",
    "Tyrhennian": "Tyrrhenian Sea",
    "Mid Atlantik": "Mid-Atlantic Ocean",
    "Blak Sea": "Black Sea",
    "Belguim": "Belgium",
    "Greese": "Greece",
}


@pytest.mark.parametrize(("written", "meant"), sorted(PROVINCE_TYPOS.items()))
def test_a_mistyped_province_is_answered_with_the_province_meant_first(
    standard: Map, written: str, meant: str
) -> None:
    with pytest.raises(UnknownName) as caught:
        name_table(standard).province(written)
    assert caught.value.expected[0] == meant, caught.value.expected


def test_galicya_is_galicia_and_not_the_baltic_sea(standard: Map) -> None:
    """The case that opened the matter: a plain similarity ratio offered the Baltic Sea and
    Apulia beside Galicia; one sound-alike letter away, Galicia stands alone."""
    error = parse_line("A Vie - Galicya", standard, 1).error
    assert error is not None
    assert error.message.endswith("found 'Galicya' (did you mean Galicia?)")
    assert error.expected == ("Galicia",)


def test_near_names_are_all_offered_when_the_slip_could_be_either(standard: Map) -> None:
    with pytest.raises(UnknownName) as caught:
        name_table(standard).province("Norwey")
    assert caught.value.expected[0] == "Norway"
    assert "Norwegian Sea" in caught.value.expected


def test_nothing_is_offered_for_a_word_far_from_every_name(standard: Map) -> None:
    for written in ("Qqq", "Bxx", "Munchen", "xyzzyplugh"):
        with pytest.raises(UnknownName) as caught:
            name_table(standard).province(written)
        assert caught.value.expected == ("a province",), (written, caught.value.expected)


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("SINGON", "SIGNON"),
        ("SIGNNO", "SIGNON"),
        ("PROCES", "PROCESS"),
        ("PORCESS", "PROCESS"),
        ("PRICESS", "PROCESS"),  # i beside o on the keyboard
        ("OBSREVE", "OBSERVE"),
        ("SUMARY", "SUMMARY"),
        ("HISOTRY", "HISTORY"),
        ("RESGIN", "RESIGN"),
        ("BRODCAST", "BROADCAST"),
        ("TERMINTE", "TERMINATE"),
        ("SET DEDLINE", "SET DEADLINE"),
        ("SET GRAICE", "SET GRACE"),
        ("SET ABSENSE", "SET ABSENCE"),
    ],
)
def test_a_mistyped_command_is_answered_with_the_command_meant_first(
    written: str, meant: str
) -> None:
    assert suggest_commands(written)[0] == meant


def test_a_mistyped_command_line_names_the_command_meant() -> None:
    [error] = read_mail_commands("PORCESS S1901M", known_powers=("France",))
    assert isinstance(error, CommandError)
    assert error.message == "'PORCESS' is no command; did you mean PROCESS?"


def test_the_costs_follow_how_hands_and_ears_slip() -> None:
    assert typo_distance("trisete", "trieste") < typo_distance("trxeste", "trieste")  # swap
    assert typo_distance("tuscanny", "tuscany") < typo_distance("tuscanxy", "tuscany")  # double
    assert substitution_cost("y", "i") < substitution_cost("k", "i")  # sound-alike
    assert substitution_cost("o", "i") < substitution_cost("q", "i")  # neighbouring keys
    assert substitution_cost("a", "a") == 0
    assert typo_distance("ioanian", "ioniansea", prefix=True) < typo_distance(
        "ioanian", "ioniansea"
    )


def test_nearest_counts_each_thing_once_and_keeps_a_clear_best_alone() -> None:
    pool = {"galicia": "gal", "gal": "gal", "balticsea": "bal", "bal": "bal", "apulia": "apu"}
    assert nearest("galicya", pool, prefix=True) == ["gal"]
    assert nearest("", pool) == []
