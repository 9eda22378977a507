"""Mercator's order language: the seed's notations, sections, mixed nationality, and errors."""

from __future__ import annotations

import pytest

from judge.engine.orders import Convoy, Disband, Move, Retreat, Support
from judge.language.orders import OrderSyntaxError, parse_order
from judge.map_files import load_map
from judge.variants.mercator.language import (
    format_scaled,
    format_scaled_short,
    read_line,
    read_mercator_orders,
)
from judge.variants.mercator.orders import (
    Board,
    ChainConvoy,
    Disembark,
    Embark,
    FastFerry,
    Land,
    PlaceSpare,
    Scaled,
    SupportLanding,
)

MAP = load_map("standard")


@pytest.mark.parametrize(
    ("text", "scale", "value"),
    [
        ("A(ENC) L Lon", 1, Land("eng", "lon")),
        ("F(ENC) S A(ENC) L Lon", 1, SupportLanding("eng", "eng", "lon")),
        ("A(Lon) B F (NTH)", 1, Board("lon", "nth")),
        ("A Lon B F NTH", 1, Board("lon", "nth")),
        ("A (Den) B F (NTH)", 1, Board("den", "nth")),
        ("German A(Bel) B F(ENC)", 1, Board("bel", "eng", army_power="GERMANY")),
        ("A(Bel) B French F(ENC)", 1, Board("bel", "eng", fleet_power="FRANCE")),
        ("A(Spa) E F (MAO)", 3, Embark("spa", "mao")),
        ("A(NTH) D Hol", 3, Disembark("nth", "hol")),
        ("A (MAO) D Gas", 3, Disembark("mao", "gas")),
        ("A/F(MAO) – NAO", 2, Move("AF", "mao", "nao")),
        ("a/F(ENC) – NTH", 2, Move("AF", "eng", "nth")),
        ("A/f(ENC) – NTH", 2, Move("AF", "eng", "nth")),
        ("F(IRI) S F(ENC) – MAO", 2, Support("F", "iri", "F", "eng", "mao")),
        ("A(Par) S A(Lon) – Bre", 2, Support("A", "par", "A", "lon", "bre")),
        ("F(ENC) F/F A(Lon) – Bre", 2, FastFerry("eng", "lon", "bre")),
        (
            "F(NTH), F(ENC) & F(MAO) C A(Den) – Por",
            2,
            ChainConvoy(("nth", "eng", "mao"), "den", "por"),
        ),
        ("F(ENC) & F (MAO) C A(Lon) – Por", 2, ChainConvoy(("eng", "mao"), "lon", "por")),
        ("F(ENC) C A(Lon) - Bre", 2, Convoy("F", "eng", "lon", "bre")),
    ],
)
def test_the_seeds_notations(text: str, scale: int, value: object) -> None:
    reading = read_line(MAP, text, None)
    assert reading.error is None, reading.error
    assert reading.orders == [Scaled(scale, value, getattr(value, "unit_type", None))]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Place A Mun", PlaceSpare("A", "mun")),
        ("PLACE A(Mun)", PlaceSpare("A", "mun")),
        ("place army Munich", PlaceSpare("A", "mun")),
        ("Place F (Kie)", PlaceSpare("F", "kie")),
        ("Spare A Mun", PlaceSpare("A", "mun")),
        ("SPARE fleet Kiel", PlaceSpare("F", "kie")),
    ],
)
def test_a_spare_unit_is_placed_by_spare_or_place(text: str, value: PlaceSpare) -> None:
    """Rule 9: the spare "is placed" by the player: `Place` is the spare's order as `Spare` is,
    in any letter case, before any heading or in a section (it comes before time scale 1)."""
    for section in (None, 2):
        reading = read_line(MAP, text, section)
        assert reading.error is None, reading.error
        assert reading.orders == [Scaled(0, value, value.unit_type)]


def test_place_opens_an_order_of_mercator_but_not_of_the_standard_language() -> None:
    """What tells the command reader that `Place A Mun` is an order line of a Mercator game
    (and not a mistyped PHASE) is grammar/mercator.lark's first token, not a list of words."""
    from judge.language import command_values as cv
    from judge.language.commands import opens_an_order, read_mail_commands
    from judge.variants import variant

    grammar = variant("mercator").language.order_grammar
    assert grammar is not None
    for word in ("Place", "PLACE", "place", "Spare", "A", "Army"):
        assert opens_an_order(word, grammar), word
    for word in ("Placement", "Plaice", "Phase"):
        assert not opens_an_order(word, grammar), word
    assert not opens_an_order("Place") and opens_an_order("Build")
    (read,) = read_mail_commands("Place A Mun")
    assert isinstance(read, cv.CommandError) and read.order_word == "Place"


def test_headings_however_written_open_a_section() -> None:
    for heading in ("TS1", "TS 1", "Time scale 1:", "Timescale 1", "T.S.1", "ts1:"):
        reading = read_line(MAP, heading, None)
        assert reading.heading_only and reading.section == 1, heading
    reading = read_line(MAP, "A/F(MAO) - NAO", 3)
    assert reading.orders[0].time_scale == 3  # a supplementary move of time scale 3


def test_two_sections_on_one_line_as_the_rules_write_them() -> None:
    reading = read_line(MAP, "TS1 A (ENC) L Lon TS2 F(IRI) S F(ENC) – MAO", None)
    assert [o.time_scale for o in reading.orders] == [1, 2]
    assert reading.texts == ["A (ENC) L Lon", "F(IRI) S F(ENC) – MAO"]
    assert reading.section == 2


def test_an_order_in_the_wrong_section_names_its_own() -> None:
    reading = read_line(MAP, "A(Lon) L Wal", 3, line_no=4)
    assert reading.error == "line 4: a landing (L) belongs in time scale 1, not time scale 3"
    reading = read_line(MAP, "A(Spa) E F(MAO)", 1, line_no=2)
    assert reading.error == ("line 2: an embarkation (E) belongs in time scale 3, not time scale 1")


def test_retreats_split_and_whole() -> None:
    reading = read_line(MAP, "A(MAO) – Por, F(MAO) – WMS", 4)
    assert [o.order for o in reading.orders] == [
        Retreat("A", "mao", "por"),
        Retreat("F", "mao", "wes"),
    ]
    reading = read_line(MAP, "A/F(MAO) D", 4)
    assert reading.orders[0].order == Disband("AF", "mao")


def test_unknown_province_is_named_with_the_nearest() -> None:
    reading = read_line(MAP, "A(Lon) B F(Nrth Sea)", 1)
    assert reading.error is not None and "North Sea" in reading.error


def test_a_whole_power_read_with_headings_and_results_per_order() -> None:
    read = read_mercator_orders(
        MAP, {"FRANCE": ["TS1", "A(Lon) B F(NTH)", "TS2", "A/F(NTH) - HEL", "TS3", "A(HEL) D Den"]}
    )
    assert read.headings == frozenset({("FRANCE", 0), ("FRANCE", 2), ("FRANCE", 4)})
    assert [o.time_scale for o in read.orders["FRANCE"]] == [1, 2, 3]
    assert not read.unreadable


def test_a_mercator_line_in_a_standard_game_is_refused_by_the_standard_reader() -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order("A(Lon) B F(NTH)", MAP)
    assert "line 1" in str(caught.value)


def test_orders_are_written_back_in_full_and_as_lines_that_read_back() -> None:
    order = Scaled(1, Board("bel", "eng", army_power="GERMANY"))
    assert format_scaled(order, MAP) == "German Army Belgium boards Fleet English Channel"
    short = format_scaled_short(order, MAP)
    assert short == "TS1 German A(BEL) B F(ENG)"
    assert read_line(MAP, short, None).orders == [order]
    for line in (
        "TS2 A/F(ENG) - MAO",
        "TS3 A(MAO) D POR",
        "TS2 F(NTH), F(ENG) & F(MAO) C A(DEN) - POR",
    ):
        assert format_scaled_short(read_line(MAP, line, None).orders[0], MAP) == line


SCANNED = [
    "A(Lon) B F(NTH)",
    "a(lon) b f(nth)",
    "A(Spa) E F(MAO)",
    "A/F(MAO) - NAO",
    "a/F(ENC) – NTH",
    "A/f(ENC) – NTH",
    "A / F (MAO) -> NAO",
    "A(ENC) L Lon",
    "A(NTH) D Hol",
    "F(IRI) S F(ENC) - MAO",
    "A(Par) S A(Lon) – Bre",
    "A(Bud) S F(Tri)",
    "A(Ven) H",
    "F(BAL) D",
    "F(ENC) L Lon",
]


@pytest.mark.parametrize("text", SCANNED)
def test_the_quick_reader_reads_as_the_grammar(text: str) -> None:
    from judge.language.names import name_table
    from judge.variants.mercator.language import _parse_with_grammar
    from judge.variants.mercator.reading import scan

    grammar = _parse_with_grammar(text, MAP, 1)  # also teaches the name table the names
    scanned = scan(text, name_table(MAP).known_locations)
    assert scanned is not None, "the quick reader should take this line"
    assert [scanned] == grammar
