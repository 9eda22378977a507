"""build_map: a map is either checked and usable, or refused naming the province and the fault."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from judge.engine.geography import Map, MapError, Terrain, build_map


def tiny() -> dict[str, Any]:
    """A sound little map: two coastal centres with a sea between, one of them two-coasted."""
    return {
        "map": {"name": "tiny", "title": "Tiny", "victory_centres": 2},
        "powers": {
            "ALPHA": {"adjective": "Alphan", "letter": "A", "homes": ["aaa"], "units": ["A aaa"]},
            "BETA": {"adjective": "Betan", "letter": "B", "homes": ["bbb"], "units": ["F bbb/nc"]},
        },
        "provinces": {
            "aaa": {
                "name": "Aland",
                "terrain": "coast",
                "centre": True,
                "aliases": ["Aa"],
                "army": ["bbb", "ccc"],
                "fleet": ["bbb/sc", "sea"],
            },
            "bbb": {
                "name": "Bland",
                "terrain": "coast",
                "centre": True,
                "army": ["aaa"],
                "coasts": {"nc": ["sea"], "sc": ["aaa"]},
            },
            "ccc": {"name": "Cland", "terrain": "land", "centre": True, "army": ["aaa"]},
            "sea": {"name": "The Sea", "terrain": "sea", "fleet": ["aaa", "bbb/nc"]},
            "mnt": {"name": "Mountains", "terrain": "impassable"},
        },
    }


def faults_of(data: dict[str, Any]) -> tuple[str, ...]:
    with pytest.raises(MapError) as info:
        build_map(data)
    return info.value.faults


def broken(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(tiny())
    change(data)
    return data


def test_a_sound_map_builds() -> None:
    m = build_map(tiny())
    assert isinstance(m, Map)
    assert m.supply_centres() == {"aaa", "bbb", "ccc"}
    assert m.neutral_centres() == {"ccc"}
    assert m.army_edges["aaa"] == {"bbb", "ccc"}
    assert m.fleet_edges["bbb/nc"] == {"sea"}
    assert "bbb" not in m.fleet_edges  # a fleet is never at a bare multi-coast province
    assert "mnt" not in m.army_edges and not m.army_may_be_at("mnt")
    assert m.powers["BETA"].starting_units[0].loc == "bbb/nc"
    assert m.powers["ALPHA"].build_sites == {"aaa"}


def test_map_api_answers_from_the_data() -> None:
    m = build_map(tiny())
    assert m.fleet_adjacent("aaa", "bbb/sc") and not m.fleet_adjacent("aaa", "bbb/nc")
    assert m.fleet_targets("sea", "bbb") == ("bbb/nc",)
    assert m.army_adjacent("ccc", "aaa") and not m.army_adjacent("ccc", "bbb")
    assert m.adjacent_provinces("bbb/nc") == {"aaa", "sea"}
    assert m.is_location("bbb/sc") and not m.is_location("bbb/ec") and not m.is_location("zzz")
    assert m.army_may_be_at("ccc") and not m.army_may_be_at("sea")
    assert m.fleet_may_be_at("sea") and not m.fleet_may_be_at("ccc")
    assert m.can_convoy_through("sea") and not m.can_convoy_through("aaa")
    assert m.home_of("bbb") == "BETA" and m.home_of("ccc") is None
    assert m.power_by_letter("b") == "BETA"
    assert m.names()["Aa"] == "aaa" and m.names()["The Sea"] == "sea"
    assert m.canonical_location("bbb/nc") == "bbb/nc" and m.canonical_location("bbb/xx") is None


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change that sets data[a][b][c] = value, for path 'a.b.c'."""

    def change(data: dict[str, Any]) -> None:
        *head, last = path.split(".")
        node = data
        for key in head:
            node = node[key]
        node[last] = value

    return change


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        (
            _set("provinces.ccc.army", []),
            "province 'aaa': army adjacency to 'ccc' is one-way (ccc does not list aaa)",
        ),
        (
            _set("provinces.sea.fleet", ["bbb/nc"]),
            "province 'aaa': fleet adjacency to 'sea' is one-way (sea does not list aaa)",
        ),
        (
            _set("provinces.aaa.fleet", ["bbb/wc", "sea"]),
            "province 'aaa': fleet adjacency to unknown coast 'bbb/wc'",
        ),
        (
            _set("provinces.aaa.fleet", ["bbb", "sea"]),
            "province 'aaa': fleet adjacency to 'bbb' must name the coast (nc, sc)",
        ),
        (
            _set("provinces.aaa.army", ["bbb", "ccc", "zzz"]),
            "province 'aaa': army adjacency to unknown province 'zzz'",
        ),
        (
            _set("provinces.aaa.army", ["bbb", "ccc", "sea"]),
            "province 'aaa': army adjacency to 'sea', where no army may be",
        ),
        (
            _set("provinces.ccc.army", ["aaa", "mnt"]),
            "province 'ccc': army adjacency to 'mnt', where no army may be",
        ),
        (
            _set("map.victory_centres", 4),
            "[map]: victory_centres 4 is more than the 3 supply centres",
        ),
        (
            _set("powers.ALPHA.homes", ["aaa", "sea"]),
            "power 'ALPHA': home centre 'sea' is not a supply centre",
        ),
        (
            _set("powers.ALPHA.homes", ["aaa", "bbb"]),
            "power 'BETA': home centre 'bbb' is also a home centre of ALPHA",
        ),
        (
            _set("powers.ALPHA.units", ["F ccc"]),
            "province 'ccc': a fleet cannot stand at 'ccc': no fleet may be there (ALPHA's starting unit)",
        ),
        (
            _set("powers.BETA.units", ["F bbb"]),
            "province 'bbb': a fleet cannot stand at 'bbb': name the coast (nc, sc) (BETA's starting unit)",
        ),
        (
            _set("powers.ALPHA.units", ["A sea"]),
            "province 'sea': an army cannot stand at 'sea' (ALPHA's starting unit)",
        ),
        (
            _set("powers.BETA.units", ["A aaa"]),
            "province 'aaa': holds two starting units",
        ),
        (_set("provinces.ccc.terrain", "swamp"), "province 'ccc': unknown terrain 'swamp'"),
        (
            _set("provinces.ccc.aliases", ["AA"]),
            "province 'ccc': alias 'AA' also names province 'aaa'",
        ),
        (
            _set("provinces.ccc.aliases", ["a.a"]),
            "province 'ccc': alias 'a.a' also names province 'aaa'",
        ),
        (
            _set("provinces.ccc.name", "The  Sea"),
            "province 'sea': alias 'The Sea' also names province 'ccc'",
        ),
        (_set("powers.BETA.letter", "A"), "power 'BETA': letter 'A' is also ALPHA's"),
        (_set("provinces.ccc.centr", True), "province 'ccc': unknown field 'centr'"),
        (
            _set("provinces.sea.centre", True),
            "province 'sea': a sea space cannot be a supply centre",
        ),
        (
            _set("provinces.mnt.army", ["ccc"]),
            "province 'mnt': an impassable space has no adjacency",
        ),
        (
            _set("provinces.ccc.fleet", []),
            "province 'ccc': an inland province has army adjacency only",
        ),
        (
            _set("provinces.bbb.fleet", ["sea"]),
            "province 'bbb': a province with named coasts lists its fleet adjacency per coast",
        ),
        (
            _set("provinces.bbb.coast_aliases", {"wc": "ec"}),
            "province 'bbb': coast alias 'wc' names unknown coast 'ec'",
        ),
        (
            _set("powers.ALPHA.builds", ["aaa"]),
            "power 'ALPHA': build site 'aaa' is a supply centre (list it as home or reserved)",
        ),
        (_set("powers.ALPHA.builds", ["mnt"]), "power 'ALPHA': build site 'mnt' can hold no unit"),
        (
            _set("powers.ALPHA.reserved", ["bbb"]),
            "power 'ALPHA': reserved centre 'bbb' is a home centre of BETA",
        ),
        (
            _set("map.victory_centres", 0),
            "[map]: 'victory_centres' must be a positive whole number",
        ),
        (
            _set("provinces.ccc.portals", {"1": "zzz"}),
            "province 'ccc': portal 1 leads to unknown space 'zzz'",
        ),
        (
            _set("crossings", [{"moves": [["aaa", "ccc"], ["sea", "ccc"]]}]),
            "crossing 1: 'sea' - 'ccc' is not a move on this map",
        ),
    ],
)
def test_a_broken_map_is_refused_naming_province_and_fault(
    change: Callable[[dict[str, Any]], None], fault: str
) -> None:
    assert fault in faults_of(broken(change))


def test_every_fault_is_reported_at_once() -> None:
    def two_faults(data: dict[str, Any]) -> None:
        data["provinces"]["ccc"]["army"] = []
        data["powers"]["ALPHA"]["homes"] = ["aaa", "sea"]

    faults = faults_of(broken(two_faults))
    assert len(faults) == 2
    error = MapError(faults).prefixed("maps/tiny.toml")
    assert all(line.startswith("maps/tiny.toml: ") for line in str(error).splitlines())


def test_reserved_centre_goes_to_one_power_only() -> None:
    def both(data: dict[str, Any]) -> None:
        data["powers"]["ALPHA"]["reserved"] = ["ccc"]
        data["powers"]["BETA"]["reserved"] = ["ccc"]

    assert "power 'BETA': reserved centre 'ccc' is also reserved to ALPHA" in faults_of(
        broken(both)
    )


def test_special_features_are_reachable_through_the_map() -> None:
    def add_features(data: dict[str, Any]) -> None:
        prov = data["provinces"]
        prov["sea"]["fleet"].append("cnl")
        prov["ea2"] = {"name": "Other Sea", "terrain": "sea", "fleet": ["cnl"]}
        prov["cnl"] = {
            "name": "Canal Land",
            "terrain": "canal",
            "joins": ["sea", "ea2"],
            "army": [],
            "fleet": ["sea", "ea2"],
        }
        prov["ice"] = {"name": "Ice", "terrain": "polar", "army": []}
        prov["ccc"]["portals"] = {"1": "aaa", "2": "ccc"}
        data["powers"]["ALPHA"]["builds"] = ["cnl"]
        data["powers"]["ALPHA"]["reserved"] = ["ccc"]
        data["crossings"] = [{"moves": [["aaa", "ccc"], ["sea", "cnl"]]}]

    m = build_map(broken(add_features))
    assert m.provinces["cnl"].terrain is Terrain.CANAL and m.provinces["cnl"].joins == (
        "sea",
        "ea2",
    )
    assert m.fleet_adjacent("sea", "cnl") and m.fleet_adjacent("cnl", "ea2")
    assert not m.can_convoy_through("cnl")
    assert m.army_may_be_at("ice") and not m.fleet_may_be_at("ice")
    assert m.through_portal("ccc", 2) == "ccc" and m.through_portal("ccc", 3) is None
    alpha = m.powers["ALPHA"]
    assert alpha.build_only == {"cnl"} and alpha.reserved_centres == {"ccc"}
    assert alpha.build_sites == {"aaa", "cnl", "ccc"}
    assert m.crosses(("ccc", "aaa"), ("cnl", "sea")) and not m.crosses(
        ("aaa", "ccc"), ("aaa", "bbb")
    )


def test_a_canal_must_touch_the_seas_it_joins() -> None:
    def canal(data: dict[str, Any]) -> None:
        data["provinces"]["cnl"] = {
            "name": "Canal Land",
            "terrain": "canal",
            "joins": ["sea", "aaa"],
            "fleet": [],
        }

    faults = faults_of(broken(canal))
    assert "province 'cnl': canal joins 'aaa', which is not a sea" in faults
    assert "province 'cnl': canal joins 'sea' but has no fleet adjacency to it" in faults


def test_a_polar_space_is_never_a_centre() -> None:
    change = _set("provinces.ice", {"name": "Ice", "terrain": "polar", "centre": True})
    assert "province 'ice': a polar space cannot be a supply centre" in faults_of(broken(change))


def test_the_canvas_and_its_wrap_are_read_and_positions_checked_against_it() -> None:
    """`[map] canvas` sets the picture `at` points are given on; `wraps` joins its edges."""
    plain = build_map(tiny())
    assert plain.canvas == (1000, 800) and plain.wraps is False

    def world(data: dict[str, Any]) -> None:
        data["map"].update(canvas=[2000, 1200], wraps=True)
        data["provinces"]["aaa"]["at"] = [1900, 1100]

    made = build_map(broken(world))
    assert made.canvas == (2000, 1200) and made.wraps is True
    assert made.provinces["aaa"].at == (1900.0, 1100.0)

    def outside(data: dict[str, Any]) -> None:
        data["provinces"]["aaa"]["at"] = [1900, 1100]

    assert any("'at' must be [x, y]" in f for f in faults_of(broken(outside)))

    def bad_canvas(data: dict[str, Any]) -> None:
        data["map"].update(canvas=[0, "tall"], wraps="yes")

    faults = faults_of(broken(bad_canvas))
    assert any("'canvas' must be [width, height]" in f for f in faults)
    assert any("'wraps' must be true or false" in f for f in faults)


def test_an_inset_is_a_part_of_the_canvas() -> None:
    """`[map] inset = [x, y, width, height]`: the part a picture draws again larger."""
    assert build_map(tiny()).inset is None

    def europe(data: dict[str, Any]) -> None:
        data["map"].update(canvas=[2000, 1400], inset=[890, 200, 380, 360])

    assert build_map(broken(europe)).inset == (890, 200, 380, 360)
    for wrong in ([900, 200, 1200, 100], [0, 0, 0, 10], [1, 2, 3], "europe", [1.5, 2, 3, 4]):

        def bad(data: dict[str, Any], wrong: Any = wrong) -> None:
            data["map"].update(inset=wrong)

        faults = faults_of(broken(bad))
        assert any("'inset' must be [x, y, width, height]" in f for f in faults), wrong
