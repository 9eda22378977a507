"""The shipped maps hold the published facts; broken map files are refused naming file and fault."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from judge.engine.geography import MapError, Terrain, build_map
from judge.map_files import (
    available_maps,
    load_map,
    load_map_file,
    map_summary,
    maps_dir,
    start_case,
)
from judge.resources import data_dir

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "cases" / "maps"


def count(m_terrain: dict[str, Terrain], terrain: Terrain) -> int:
    return sum(1 for t in m_terrain.values() if t is terrain)


# --- the standard map: facts from five public sources that agree ---------------------------------

STANDARD_UNITS = {
    "AUSTRIA": {"A bud", "A vie", "F tri"},
    "ENGLAND": {"F edi", "F lon", "A lvp"},
    "FRANCE": {"F bre", "A mar", "A par"},
    "GERMANY": {"F kie", "A ber", "A mun"},
    "ITALY": {"F nap", "A rom", "A ven"},
    "RUSSIA": {"A war", "A mos", "F sev", "F stp/sc"},
    "TURKEY": {"F ank", "A con", "A smy"},
}


def test_standard_map_counts() -> None:
    m = load_map("standard")
    terrain = {c: p.terrain for c, p in m.provinces.items()}
    assert len(m.provinces) == 76
    assert [c for c, t in terrain.items() if t is Terrain.IMPASSABLE] == ["swi"]
    assert count(terrain, Terrain.SEA) == 19
    assert count(terrain, Terrain.COAST) == 42
    assert count(terrain, Terrain.LAND) == 14
    assert sum(len(v) for v in m.army_edges.values()) == 222
    assert sum(len(v) for v in m.fleet_edges.values()) == 282
    assert len(m.supply_centres()) == 34
    assert len(m.home_centres()) == 22
    neutral = {"bel", "bul", "den", "gre", "hol", "nwy", "por", "rum", "ser", "spa", "swe", "tun"}
    assert m.neutral_centres() == neutral
    assert m.victory_centres == 18
    assert (m.calendar, m.start_phase) == ("standard", "S1901M")


def test_standard_powers_homes_and_units() -> None:
    m = load_map("standard")
    assert {n: p.letter for n, p in m.powers.items()} == {
        "AUSTRIA": "A", "ENGLAND": "E", "FRANCE": "F", "GERMANY": "G",
        "ITALY": "I", "RUSSIA": "R", "TURKEY": "T",
    }  # fmt: skip
    assert m.powers["RUSSIA"].home_centres == {"mos", "sev", "stp", "war"}
    assert m.powers["ENGLAND"].adjective == "English"
    for name, units in STANDARD_UNITS.items():
        power = m.powers[name]
        assert {f"{u.kind} {u.loc}" for u in power.starting_units} == units
        assert all(u.power == name for u in power.starting_units)
        assert power.build_sites == power.home_centres


def test_standard_coasts_and_the_canal_like_provinces() -> None:
    m = load_map("standard")
    assert {c: p.coasts for c, p in m.provinces.items() if p.coasts} == {
        "bul": ("ec", "sc"),
        "spa": ("nc", "sc"),
        "stp": ("nc", "sc"),
    }
    assert not any(loc in m.fleet_edges for loc in ("bul", "spa", "stp"))
    assert m.fleet_targets("mao", "spa") == ("spa/nc", "spa/sc")
    assert m.fleet_edges["stp/nc"] == {"bar", "nwy"}
    assert m.fleet_edges["bul/ec"] == {"bla", "con", "rum"}
    assert m.fleet_adjacent("gas", "spa/nc") and not m.fleet_adjacent("gas", "spa/sc")
    # Kiel and Constantinople let fleets through by their adjacency alone.
    assert {"bal", "hel"} <= m.fleet_edges["kie"] and {"bla", "aeg"} <= m.fleet_edges["con"]
    assert m.provinces["kie"].terrain is Terrain.COAST
    # Army-only and fleet-only neighbours.
    assert m.army_adjacent("ank", "smy") and not m.fleet_adjacent("ank", "smy")
    assert m.fleet_adjacent("bla", "ank") and not m.army_adjacent("bla", "ank")
    assert m.army_adjacent("apu", "rom") and not m.fleet_adjacent("apu", "rom")
    assert not m.army_may_be_at("swi") and "swi" not in m.adjacent_provinces("mun")


def test_standard_names_players_write() -> None:
    names = {_key(k): v for k, v in load_map("standard").names().items()}
    expected = {
        "North Sea": "nth", "Nth": "nth", "Nwy": "nwy", "Nwg": "nwg", "NAO": "nao",
        "Lvp": "lvp", "Lpl": "lvp", "Mid": "mao", "MAO": "mao", "Eng": "eng", "ENC": "eng",
        "English Channel": "eng", "StP": "stp", "St Petersburg": "stp",
        "Saint Petersburg": "stp", "St. Petersburg": "stp", "Gol": "lyo", "Lyo": "lyo",
        "Gulf of Lyon": "lyo", "Hel": "hel", "Helgoland Bight": "hel", "Bot": "bot",
        "GoB": "bot", "Tyn": "tys", "Tys": "tys", "Tyrrhenian": "tys", "Adr": "adr",
        "Aeg": "aeg", "Bla": "bla", "Eas": "eas", "EMed": "eas", "Wes": "wes", "WMed": "wes",
        "Ion": "ion", "Bal": "bal", "Ska": "ska", "Iri": "iri", "Marseilles": "mar",
        "Marseille": "mar",
    }  # fmt: skip
    for written, code in expected.items():
        assert names.get(_key(written)) == code, written
    # "Liv" must stay ambiguous between Livonia and Liverpool.
    assert "liv" not in names


def _key(written: str) -> str:
    return "".join(ch for ch in written.casefold() if ch.isalnum())


# --- Youngstown ------------------------------------------------------------------------------

YOUNGSTOWN_HOMES = {
    "AUSTRIA": "bud klu tri vie",
    "CHINA": "can han pek",
    "ENGLAND": "edi joh lvp lon",
    "FRANCE": "bre mar par sai",
    "GERMANY": "ber kie mun pos",
    "INDIA": "cal del mad",
    "ITALY": "mog nap rom ven",
    "JAPAN": "kyo osa tok",
    "RUSSIA": "mos oms sev stp vla war",
    "TURKEY": "ank bag con smy",
}
YOUNGSTOWN_UNITS = {
    "AUSTRIA": "F tri, A vie, A bud, A klu",
    "CHINA": "F can, A han, A pek",
    "ENGLAND": "F edi, F lon, F joh, F lvp",
    "FRANCE": "A mar, F bre, A par, F sai",
    "GERMANY": "A ber, A mun, F kie, A pos",
    "INDIA": "A del, F mad, A cal",
    "ITALY": "A ven, F nap, A rom, F mog",
    "JAPAN": "F tok, F kyo, F osa",
    "RUSSIA": "A war, A mos, F stp/sc, F sev, F vla, A oms",
    "TURKEY": "F ank, A bag, A smy, A con",
}


def test_youngstown_counts() -> None:
    m = load_map("youngstown")
    terrain = {c: p.terrain for c, p in m.provinces.items()}
    assert len(m.provinces) == 184
    assert count(terrain, Terrain.SEA) == 50
    assert count(terrain, Terrain.COAST) == 96
    assert count(terrain, Terrain.LAND) == 34
    assert m.special_provinces(Terrain.IMPASSABLE) == ("aci", "cas", "him", "swi")
    assert len(m.supply_centres()) == 72
    assert len(m.home_centres()) == 39 and len(m.neutral_centres()) == 33
    assert sum(len(v) for v in m.army_edges.values()) == 496
    assert sum(len(v) for v in m.fleet_edges.values()) == 700
    assert m.victory_centres == 37


def test_youngstown_powers() -> None:
    m = load_map("youngstown")
    assert {n: p.letter for n, p in m.powers.items()} == {
        "AUSTRIA": "A", "CHINA": "C", "ENGLAND": "E", "FRANCE": "F", "GERMANY": "G",
        "INDIA": "N", "ITALY": "I", "JAPAN": "J", "RUSSIA": "R", "TURKEY": "T",
    }  # fmt: skip
    for name, homes in YOUNGSTOWN_HOMES.items():
        assert m.powers[name].home_centres == set(homes.split()), name
        written = {f"{u.kind} {u.loc}" for u in m.powers[name].starting_units}
        assert written == set(YOUNGSTOWN_UNITS[name].split(", ")), name


def test_youngstown_special_spaces() -> None:
    m = load_map("youngstown")
    multi = {c: p.coasts for c, p in m.provinces.items() if p.coasts}
    assert multi == {
        "bul": ("ec", "sc"), "egy": ("ec", "nc"), "jor": ("nc", "wc"), "nej": ("ec", "wc"),
        "spa": ("nc", "sc"), "stp": ("nc", "sc"), "tha": ("ec", "wc"),
    }  # fmt: skip
    # njudge's Jordan "south coast" is the west coast under another name.
    assert m.canonical_location("jor/sc") == "jor/wc"
    assert m.fleet_edges["jor/wc"] == {"egy/ec", "nej/wc", "red"}
    # Suez: a sea inside Egypt, next to both Egyptian coasts, the East Med and the Red Sea.
    assert m.provinces["sue"].terrain is Terrain.SEA and m.can_convoy_through("sue")
    assert m.fleet_edges["sue"] == {"egy/ec", "egy/nc", "eas", "red"}
    assert not m.fleet_adjacent("sue", "jor/nc") and not m.fleet_adjacent("sue", "jor/wc")
    # Omsk's arctic coast (ice breakers).
    assert m.fleet_edges["oms"] == {"sib", "stp/nc"}
    # Off-board boxes wrap the map: NAO's box, and boxes joining each other.
    assert m.fleet_adjacent("nao", "oba") and m.fleet_adjacent("oba", "obl")
    assert m.army_adjacent("sah", "obe") and not m.fleet_may_be_at("obe")
    names = {_key(k): v for k, v in m.names().items()}
    assert "liv" not in names and names["lpl"] == "lvp"


# --- loading, caching, summaries, starting cases ----------------------------------------------


def test_available_maps_and_cache() -> None:
    assert {"standard", "youngstown"} <= set(available_maps())
    assert load_map("standard") is load_map("standard")


def test_unknown_map_is_refused_by_name() -> None:
    with pytest.raises(MapError, match="no map called 'atlantis'"):
        load_map("atlantis")
    with pytest.raises(MapError):
        load_map("../tests/cases/maps/features")


@pytest.mark.parametrize(
    ("file", "fault"),
    [
        (
            "one_way_fleet",
            "province 'bel': fleet adjacency to 'hol' is one-way (hol does not list bel)",
        ),
        (
            "one_way_army",
            "province 'bel': army adjacency to 'hol' is one-way (hol does not list bel)",
        ),
        ("unknown_coast", "province 'gas': fleet adjacency to unknown coast 'spa/wc'"),
        ("home_not_centre", "power 'ALPHA': home centre 'yor' is not a supply centre"),
        ("unit_on_land", "province 'mun': a fleet cannot stand at 'mun'"),
        ("unknown_terrain", "province 'pri': unknown terrain 'swamp'"),
        ("duplicate_alias", "province 'lvn': alias 'Liv' also names province 'lvp'"),
        ("not_toml", "not valid TOML"),
    ],
)
def test_broken_map_file_is_refused(file: str, fault: str) -> None:
    with pytest.raises(MapError) as info:
        load_map_file(CASES / f"{file}.toml")
    assert str(info.value).startswith(f"maps/{file}.toml: {fault}")
    assert len(info.value.faults) == 1  # each file is broken in one way only


def test_special_feature_map_loads_and_answers() -> None:
    m = load_map_file(CASES / "features.toml")
    assert m.special_provinces(Terrain.CANAL) == ("kan",)
    assert m.provinces["kan"].joins == ("wes", "eas")
    assert m.fleet_adjacent("wes", "kan") and m.fleet_adjacent("kan", "eas")
    assert m.army_adjacent("hom", "kan") and m.army_adjacent("kan", "arc")
    assert m.special_provinces(Terrain.POLAR) == ("ice",)
    assert m.fleet_may_be_at("ice") and not m.army_may_be_at("ice")
    assert m.army_adjacent("nap", "sic") and not m.fleet_adjacent("nap", "sic")
    assert m.crosses(("sic", "nap"), ("ion", "tys"))
    assert not m.crosses(("nap", "sic"), ("nap", "tys"))
    north = m.powers["NORTH"]
    assert north.build_only == {"arc"} and "arc" not in m.supply_centres()
    assert north.reserved_centres == {"ire"} and "ire" in m.neutral_centres()
    assert north.build_sites == {"hom", "arc", "ire"}
    assert "ire" not in m.powers["SOUTH"].build_sites
    assert [m.through_portal("dl", n) for n in (1, 2, 3)] == ["mn", "pz", None]
    assert m.canonical_location("spa/wc") == "spa/sc"
    assert not m.army_may_be_at("alp") and not m.fleet_may_be_at("alp")
    summary = map_summary(m)
    for words in ("canal kan joins wes, eas", "polar: ice", "nap-sic crosses tys-ion",
                  "may also build in arc", "alone may build in neutral ire", "impassable: alp"):  # fmt: skip
        assert words in summary


def test_start_case_is_an_adjudicate_input() -> None:
    case = start_case(load_map("standard"))
    assert case["variant"] == "standard" and case["phase"] == "S1901M"
    assert case["orders"] == {}
    assert len(case["units"]) == 22
    assert {"power": "RUSSIA", "type": "F", "loc": "stp/sc"} in case["units"]
    assert case["centers"]["RUSSIA"] == ["mos", "sev", "stp", "war"]
    assert sum(len(v) for v in case["centers"].values()) == 22


def test_map_summary_tells_a_gm_what_the_map_holds() -> None:
    text = map_summary(load_map("youngstown"))
    assert "37 of 72 supply centres win" in text
    assert "INDIA (Indian, N): homes cal, del, mad" in text
    assert "jor (nc/wc)" in text and "impassable: aci, cas, him, swi" in text


# --- the maps travel with the package --------------------------------------------------------


def test_maps_are_found_and_packed_into_the_wheel() -> None:
    assert maps_dir() == data_dir("maps")
    assert (maps_dir() / "standard.toml").is_file() and (maps_dir() / "youngstown.toml").is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = project["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert include["maps"] == "judge/_data/maps"


def test_every_map_has_its_sources_written_beside_it() -> None:
    for name in available_maps():
        note = maps_dir() / f"{name}.md"
        assert note.is_file(), f"maps/{name}.md is missing"
        text = note.read_text(encoding="utf-8").lower()
        assert "icen" in text and "commit" in text, f"maps/{name}.md names no licence or commit"


SOURCES = ROOT.parent / "shared" / "map-sources"


@pytest.mark.skipif(
    not (SOURCES / "standard").is_dir(), reason="map sources not beside the checkout"
)
def test_shipped_maps_are_what_the_conversion_script_makes() -> None:
    """The generated TOML is never edited by hand out of step with its sources and script."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "convert_map_sources.py"), "--check", str(SOURCES)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "222 army and 282 fleet moves agree" in done.stdout


# --- Mercator's keys: win numbers for combines, home provinces, colonies ---------------------


def _mercator_test_data() -> dict[str, Any]:
    return tomllib.loads((CASES / "mercator_test.toml").read_text(encoding="utf-8"))


def test_win_numbers_home_provinces_and_colonies_are_read() -> None:
    data = _mercator_test_data()
    data["map"].update(two_way_centres=4, three_way_centres=5)
    data["powers"]["GERMANY"]["home_provinces"] = ["kie"]
    data["powers"]["FRANCE"]["colonies"] = ["bur"]
    m = build_map(data)
    assert (m.two_way_centres, m.three_way_centres) == (4, 5)
    assert m.powers["GERMANY"].home_provinces == {"kie"}
    assert m.powers["FRANCE"].colonies == {"bur"}
    # Neither changes where the standard game builds: a power's build sites stay as they were.
    assert m.powers["GERMANY"].build_sites == {"ber", "mun", "pru"}
    plain = build_map(_mercator_test_data())
    assert plain.two_way_centres is None and plain.powers["FRANCE"].colonies == frozenset()
    summary = map_summary(m)
    assert "4 of 5 supply centres win (4 for two powers, 5 for three together)." in summary
    assert "    home provinces (not centres): kie" in summary
    assert "    colonies (home for removals): bur" in summary


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        ({"map": {"two_way_centres": 3}}, "[map]: two_way_centres 3 is less than the 4"),
        ({"map": {"two_way_centres": 6}}, "[map]: two_way_centres 6 is more than the 5 supply"),
        (
            {"map": {"two_way_centres": 5, "three_way_centres": 4}},
            "[map]: three_way_centres 4 is less than the 5 a single win needs",
        ),
        ({"map": {"three_way_centres": "many"}}, "[map]: 'three_way_centres' must be a positive"),
        ({"GERMANY": {"home_provinces": ["mun"]}}, "home province 'mun' is a supply centre"),
        ({"GERMANY": {"home_provinces": ["atl"]}}, "home province 'atl' is not a province"),
        ({"GERMANY": {"home_provinces": ["pru"]}}, "home province 'pru' is also a special"),
        (
            {"GERMANY": {"home_provinces": ["kie"]}, "FRANCE": {"home_provinces": ["kie"]}},
            "power 'FRANCE': home province 'kie' is also GERMANY's",
        ),
        ({"GERMANY": {"home_provinces": ["nao"]}}, "home province 'nao' is not land"),
        ({"FRANCE": {"colonies": ["nao"]}}, "power 'FRANCE': colony 'nao' is not land"),
        ({"FRANCE": {"colonies": ["par"]}}, "colony 'par' is already part of the home country"),
        ({"FRANCE": {"colonies": ["ber"]}}, "power 'FRANCE': colony 'ber' is in the home country"),
        ({"FRANCE": {"colonies": ["pru"]}}, "colony 'pru' is a special province of GERMANY"),
        (
            {"FRANCE": {"colonies": ["bur"]}, "GERMANY": {"colonies": ["bur"]}},
            "power 'FRANCE': colony 'bur' is also GERMANY's",
        ),
    ],
)
def test_mercator_keys_are_checked(change: dict[str, Any], fault: str) -> None:
    data = _mercator_test_data()
    for section, values in change.items():
        (data["map"] if section == "map" else data["powers"][section]).update(values)
    with pytest.raises(MapError) as info:
        build_map(data)
    assert any(f.startswith(fault) or fault in f for f in info.value.faults), info.value.faults
    assert len(info.value.faults) == 1, info.value.faults
