"""Province, coast and power names: every spelling a player uses, and what an unclear one says."""

from __future__ import annotations

import pytest

from judge.engine.geography import Map, Province, Terrain
from judge.language.names import AmbiguousName, NameTable, UnknownName, compact, name_table


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("nth", "nth"),
        ("NTH", "nth"),
        ("North Sea", "nth"),
        ("north   sea", "nth"),
        ("NORTHSEA", "nth"),
        ("Norsea", "nth"),  # an alias
        ("Nor", "nwy"),  # an alias wins over the prefix of North ...
        ("Norweg", "nwg"),  # a unique prefix of a full name
        ("St. Petersburg", "stp"),
        ("Saint Petersburg", "stp"),
        ("St-Petersburg", "stp"),
        ("Mid-Atlantic Ocean", "mao"),
        ("Mid Atlantic", "mao"),
        ("mid-atlantic", "mao"),
        ("Gulf of Lyon", "lyo"),
        ("Gulf Lyon", "lyo"),  # "of" left out
        ("Gulf of Bothnia", "bot"),
        ("Heligoland Bight", "hel"),
        ("Tyrrhenian", "tys"),
        ("Liverp", "lvp"),
        ("Livon", "lvn"),
        ("Constantinople", "con"),
        ("Constant", "con"),
    ],
)
def test_province_spellings(standard: Map, written: str, code: str) -> None:
    assert name_table(standard).province(written) == code


def test_liv_is_ambiguous_and_lists_both(standard: Map) -> None:
    with pytest.raises(AmbiguousName) as caught:
        name_table(standard).province("Liv")
    assert str(caught.value) == "'Liv' matches both Liverpool and Livonia"
    assert caught.value.expected == ("Liverpool", "Livonia")


def test_an_ambiguous_prefix_lists_every_match(standard: Map) -> None:
    with pytest.raises(AmbiguousName) as caught:
        name_table(standard).province("North")
    assert set(caught.value.expected) == {"North Africa", "North Atlantic Ocean", "North Sea"}
    assert "matches North Africa, North Atlantic Ocean and North Sea" in str(caught.value)


def test_an_unknown_name_suggests_near_ones(standard: Map) -> None:
    with pytest.raises(UnknownName) as caught:
        name_table(standard).province("Burgndy")
    assert "Burgundy" in caught.value.expected
    assert "did you mean" in str(caught.value)


def test_short_prefixes_are_not_guessed(standard: Map) -> None:
    with pytest.raises(UnknownName):
        name_table(standard).province("Bo")  # Bohemia? Bothnia? too short to say


@pytest.mark.parametrize(
    ("words", "coast_words", "loc"),
    [
        (["StP"], ["nc"], "stp/nc"),
        (["StP"], ["north", "coast"], "stp/nc"),
        (["StP", "nc"], [], "stp/nc"),
        (["St", "Petersburg", "south", "coast"], [], "stp/sc"),
        (["Spain", "NC"], [], "spa/nc"),
        (["Bul"], ["e.c."], "bul/ec"),
        (["Bulgaria", "east"], [], "bul/ec"),
        (["Spain"], [], "spa"),
        (["North", "Sea"], [], "nth"),  # "North" here is a name, not a coast
    ],
)
def test_locations_with_coasts(
    standard: Map, words: list[str], coast_words: list[str], loc: str
) -> None:
    assert name_table(standard).location(words, coast_words) == loc


def test_a_coast_the_province_lacks(standard: Map) -> None:
    table = name_table(standard)
    with pytest.raises(UnknownName) as caught:
        table.location(["Spain"], ["ec"])
    assert (
        str(caught.value) == "Spain has no coast 'ec'; its coasts are north coast and south coast"
    )
    with pytest.raises(UnknownName) as caught:
        table.location(["Paris"], ["nc"])
    assert "Paris has no coasts" in str(caught.value)


@pytest.mark.parametrize(
    ("written", "power"),
    [
        ("England", "ENGLAND"),
        ("ENGLISH", "ENGLAND"),
        ("eng", "ENGLAND"),
        ("E", "ENGLAND"),
        ("Turkish", "TURKEY"),
    ],
)
def test_power_spellings(standard: Map, written: str, power: str) -> None:
    assert name_table(standard).power(written) == power


def test_an_unknown_power_lists_the_game_s_powers(standard: Map) -> None:
    with pytest.raises(UnknownName) as caught:
        name_table(standard).power("Spain")
    assert caught.value.expected == (
        "AUSTRIA",
        "ENGLAND",
        "FRANCE",
        "GERMANY",
        "ITALY",
        "RUSSIA",
        "TURKEY",
    )


def test_compact_form() -> None:
    assert compact("St. Petersburg") == "stpetersburg"
    assert compact("Mid-Atlantic  Ocean") == "midatlanticocean"
    assert compact("Mid_Atlantic") == "midatlantic"


def test_the_table_is_built_once_per_map(standard: Map) -> None:
    assert name_table(standard) is name_table(standard)


def _tiny_map() -> Map:
    """Two provinces sharing an alias, and a hyphenated name: what the standard map lacks."""
    provinces = {
        "ab": Province("ab", "Aberdeen", Terrain.COAST, aliases=("Abd", "Port")),
        "po": Province(
            "po", "Port-au-Prince", Terrain.COAST, coasts=("wc", "ec"), aliases=("Port",)
        ),
    }
    return Map(
        name="tiny",
        title="Tiny",
        provinces=provinces,
        powers={},
        army_edges={"ab": frozenset({"po"}), "po": frozenset({"ab"})},
        fleet_edges={},
        victory_centres=1,
    )


def test_an_alias_two_provinces_share_is_ambiguous() -> None:
    table = NameTable(_tiny_map())
    with pytest.raises(AmbiguousName) as caught:
        table.province("port")
    assert caught.value.expected == ("Aberdeen", "Port-au-Prince")


def test_a_map_s_own_coasts_and_hyphens() -> None:
    from judge.engine.orders import Move
    from judge.language.orders import parse_order

    tiny = _tiny_map()
    assert parse_order("A Port-au-Prince west coast - Abd", tiny) == Move("A", "po/wc", "ab")
    assert parse_order("A Abd-Port-au-Prince(ec)", tiny) == Move("A", "ab", "po/ec")
