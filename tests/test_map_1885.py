"""The 1885 board against every fact of its rules text (seeds/002), and the map format's
clockwise rings, checked on that board broken one way at a time."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

from judge.engine.calendar import MONTHLY, following_phase, parse_phase
from judge.engine.geography import BOARD_EDGE, Map, MapError, Terrain, build_map
from judge.engine.orders import Move
from judge.language.errors import OrderSyntaxError
from judge.language.orders import parse_order
from judge.map_files import load_map, map_summary, maps_dir, start_case

JUDGE = [sys.executable, "-m", "judge.cli"]


@pytest.fixture(scope="module")
def board() -> Map:
    return load_map("1885")


def units_of(m: Map, power: str) -> set[str]:
    return {f"{u.kind} {u.loc}" for u in m.powers[power].starting_units}


# --- rules 2 and 3: centres, powers, homes, starting units --------------------------------------

HOMES = {
    "AUSTRIA": {"bud", "vie", "spl", "clu"},
    "ENGLAND": {"edi", "lon", "lvp"},
    "FRANCE": {"bre", "mar", "par"},
    "GERMANY": {"ber", "kie", "mun", "dre"},
    "ITALY": {"nap", "rom", "ven"},
    "RUSSIA": {"mos", "sev", "stp", "war"},
    "SPAIN": {"mad", "cad", "val"},
    "SWEDEN": {"nwy", "mal", "sto"},
    "TURKEY": {"con", "smy", "sin", "mac"},
}
# Rule 3 over the standard units: Austria A Cluj, F Split (no Trieste); England F Liverpool
# instead of A; Germany adds A Dresden; Spain and Sweden new; Turkey F Sinope (no Ankara) and
# no unit in Macedonia (rule 11). Rome is listed as the standard army (Italy may choose).
UNITS = {
    "AUSTRIA": {"A bud", "A vie", "A clu", "F spl"},
    "ENGLAND": {"F edi", "F lon", "F lvp"},
    "FRANCE": {"F bre", "A mar", "A par"},
    "GERMANY": {"F kie", "A ber", "A mun", "A dre"},
    "ITALY": {"F nap", "A rom", "A ven"},
    "RUSSIA": {"A war", "A mos", "F sev", "F stp"},
    "SPAIN": {"A mad", "A cad", "F val"},
    "SWEDEN": {"F nwy", "A mal", "F sto"},
    "TURKEY": {"F sin", "A con", "A smy"},
}
NEUTRAL = {
    # the standard neutral centres that stay (Serbia is not a centre: maps/1885.md)
    "bel", "bul", "den", "gre", "hol", "por", "rum", "tun",
    # rule 2's new ones
    "swi", "bas", "ire", "egy", "mor", "per",
}  # fmt: skip


def test_counts_of_rule_2(board: Map) -> None:
    assert len(board.supply_centres()) == 45
    assert len(board.powers) == 9
    assert set(board.powers) == set(HOMES)
    assert len(board.home_centres()) == 31
    assert board.neutral_centres() == NEUTRAL
    assert (board.calendar, board.start_phase, board.victory_centres) == (
        "monthly",
        "JAN1885M",
        23,
    )
    terrain = [p.terrain for p in board.provinces.values()]
    assert len(terrain) == 94
    assert terrain.count(Terrain.SEA) == 19
    assert terrain.count(Terrain.COAST) == 54
    assert terrain.count(Terrain.LAND) == 21
    assert not board.special_provinces(Terrain.IMPASSABLE)


def test_homes_and_starting_units_of_rule_3(board: Map) -> None:
    for power, homes in HOMES.items():
        assert board.powers[power].home_centres == homes, power
        assert units_of(board, power) == UNITS[power], power
    # "Austria, Germany, and Russia start out with 4 units on the board. All other Powers begin
    # the game with 3 units on the board."
    counts = {name: len(p.starting_units) for name, p in board.powers.items()}
    assert {name for name, n in counts.items() if n == 4} == {"AUSTRIA", "GERMANY", "RUSSIA"}
    assert all(n == 3 for name, n in counts.items() if name not in {"AUSTRIA", "GERMANY", "RUSSIA"})
    # Rule 11: Turkey has four centres and starts with three units, none in Macedonia.
    turkey = board.powers["TURKEY"]
    assert len(turkey.home_centres) == 4 and len(turkey.starting_units) == 3
    assert "mac" not in {u.province for u in turkey.starting_units}
    # Italy's unit in Rome may be a fleet: Rome is a coast a fleet can stand on.
    assert board.army_may_be_at("rom") and board.fleet_may_be_at("rom")
    assert {"A", "F"} == {u.kind for u in board.powers["ITALY"].starting_units}


def test_build_centres_and_reserved_centres_of_rule_6(board: Map) -> None:
    build_only = {name: p.build_only for name, p in board.powers.items() if p.build_only}
    assert build_only == {"RUSSIA": {"arc"}, "TURKEY": {"lev"}, "ITALY": {"sic"}}
    reserved = {name: p.reserved_centres for name, p in board.powers.items() if p.reserved_centres}
    assert reserved == {"ENGLAND": {"ire"}, "SPAIN": {"por"}}
    assert not {"arc", "lev", "sic"} & board.supply_centres()
    assert {"ire", "por"} <= board.neutral_centres()
    for name, power in board.powers.items():
        assert power.build_sites == power.home_centres | power.build_only | power.reserved_centres
        others = {"arc", "lev", "sic", "ire", "por"} - power.build_only - power.reserved_centres
        assert not others & power.build_sites, name


# --- the provinces the text names --------------------------------------------------------------

NAMED = {
    # rule 3's units and rule 2's centres
    "Cluj": "clu", "Split": "spl", "Liverpool": "lvp", "Dresden": "dre", "Madrid": "mad",
    "Cadiz": "cad", "Valencia": "val", "Norway": "nwy", "Malmo": "mal", "Stockholm": "sto",
    "Sinope": "sin", "Rome": "rom", "Switzerland": "swi", "Basque": "bas", "Ireland": "ire",
    "Egypt": "egy", "Morocco": "mor", "Persia": "per",
    # rules 6, 9, 11 and 12, and the introduction
    "Archangel": "arc", "Levant": "lev", "Sicily": "sic", "Portugal": "por", "Naples": "nap",
    "Tyrrhenian Sea": "tys", "Ionian Sea": "ion", "Macedonia": "mac", "Croatia": "cro",
    "Navarre": "nav", "Skagerrak": "ska", "Baltic": "bal", "Siberia": "sib", "Lapland": "lap",
    "Serbia": "ser", "Bulgaria": "bul", "Albania": "alb", "Greece": "gre", "Denmark": "den",
    "Tunis": "tun", "Zara": "spl", "Transylvania": "clu", "Marseilles": "mar",
    "Western Med": "wes", "Gulf of Lyon": "lyo",
}  # fmt: skip
# Rule 12: "New abbreviations on the Map".
ABBREVIATIONS = {"Cro.": "cro", "Dres.": "dre", "Mal.": "mal", "Mac.": "mac", "Nav.": "nav"}


def test_every_province_the_text_names_is_on_the_board(board: Map) -> None:
    names = {_key(written): code for written, code in board.names().items()}
    for written, code in {**NAMED, **ABBREVIATIONS}.items():
        assert names.get(_key(written)) == code, written
    for written, code in ABBREVIATIONS.items():
        assert written in board.provinces[code].aliases


@pytest.mark.parametrize(
    ("line", "order"),
    [
        ("A Dres - Mun", Move("A", "dre", "mun")),
        ("A Dres. - Sil", Move("A", "dre", "sil")),
        ("A Cro. - Vie", Move("A", "cro", "vie")),
        ("F Mal. - Ska", Move("F", "mal", "ska")),
        ("A Mal - Den", Move("A", "mal", "den")),
        ("A Mac. - Ser", Move("A", "mac", "ser")),
        ("A Nav. - Gas", Move("A", "nav", "gas")),
        ("A Naples - Sicily", Move("A", "nap", "sic")),
        ("F Sinope - Black Sea", Move("F", "sin", "bla")),
    ],
)
def test_rule_12_abbreviations_are_read_by_the_order_parser(
    board: Map, line: str, order: Move
) -> None:
    assert parse_order(line, board) == order


def test_there_is_no_trieste_and_no_ankara(board: Map) -> None:
    assert "tri" not in board.provinces and "ank" not in board.provinces
    names = {_key(written) for written in board.names()}
    assert not {"tri", "trieste", "ank", "ankara", "angora"} & names
    for line in ("F Tri - Adr", "A Trieste - Vie", "F Ank - Bla", "A Ankara - Arm"):
        with pytest.raises(OrderSyntaxError, match="expected a province"):
            parse_order(line, board)


def test_the_special_spaces_of_the_introduction(board: Map) -> None:
    p = board.provinces
    # "Siberia is passable, and Persia is both passable and a Supply center."
    assert p["sib"].terrain is Terrain.LAND and not p["sib"].supply_centre
    assert p["per"].terrain is Terrain.LAND and p["per"].supply_centre
    assert board.army_adjacent("mos", "sib") and board.army_adjacent("sib", "per")
    assert board.army_adjacent("per", "arm") and board.army_adjacent("per", "sev")
    # "Switzerland is both passable and a Supply Center, where it can be taken by France or
    # Germany, or even Austria."
    assert p["swi"].terrain is Terrain.LAND and p["swi"].supply_centre
    assert {"mar", "bur", "mun", "tyr", "pie"} == board.army_edges["swi"]
    # "The Swedish boundary has been extended across Lapland to touch Russia."
    assert {"arc", "fin"} <= board.army_edges["lap"]
    assert not board.army_adjacent("nwy", "stp") and not board.army_adjacent("nwy", "fin")
    # Turkish Macedonia and Albania, Bulgaria free, Serbia and Split out of Turkish hands.
    assert board.home_of("mac") == "TURKEY"
    assert board.home_of("spl") == "AUSTRIA" and board.home_of("ser") is None
    assert "bul" in board.neutral_centres() and not p["ser"].supply_centre
    assert not p["alb"].supply_centre
    # Island centres: Ireland holds an army but no army walks there.
    assert board.army_may_be_at("ire") and not board.army_edges["ire"]


# --- rule 9 and rule 12's note: the direct passage, no two-coast province --------------------


def test_naples_sicily_direct_passage_is_a_four_point_meet(board: Map) -> None:
    assert board.army_adjacent("nap", "sic") and board.army_adjacent("sic", "nap")
    # "attacks and supports may be made by BOTH Armies and Fleets"
    assert board.fleet_adjacent("nap", "sic") and board.fleet_adjacent("sic", "nap")
    # "This does NOT prevent Fleets from moving and supporting directly between Tyrrhenian and
    # Ionian Seas."
    assert board.fleet_adjacent("tys", "ion")
    four = ("nap", "sic", "tys", "ion")
    for a in four:
        assert set(four) - {a} <= board.adjacent_provinces(a), a
    assert board.crosses(("nap", "sic"), ("tys", "ion"))
    assert board.crosses(("ion", "tys"), ("sic", "nap"))
    assert not board.crosses(("nap", "sic"), ("nap", "tys"))
    assert "nap-sic crosses tys-ion" in map_summary(board)


def test_no_province_has_two_coasts(board: Map) -> None:
    assert not any(p.coasts for p in board.provinces.values())
    assert all("/" not in loc for loc in board.fleet_edges)
    # "Fleets in Malmo move in coastal waters in moving from the Skaggerak to the Baltic coast."
    assert {"ska", "bal"} <= board.fleet_edges["mal"]
    # Bulgaria and St Petersburg, two-coasted on the standard board, have one coast each.
    assert board.fleet_edges["bul"] == {"bla", "con", "rum"}
    assert board.fleet_edges["stp"] == {"bot", "fin", "lvn"}
    assert "spa" not in board.provinces


# --- adjacency, reachability, rings, positions ---------------------------------------------


def test_adjacency_is_symmetric(board: Map) -> None:
    for edges in (board.army_edges, board.fleet_edges):
        for src, dests in edges.items():
            for dst in dests:
                assert src in edges[dst], (src, dst)


def test_every_space_is_reachable(board: Map) -> None:
    neighbours = {code: board.adjacent_provinces(code) for code in board.provinces}
    assert _component("mos", neighbours) == set(board.provinces)
    # Fleets reach every sea and coast from any sea.
    assert _component("nth", board.fleet_edges) == set(board.fleet_edges)
    # Armies walk within four land masses (Sicily by the direct passage); the rest is by sea.
    masses = set()
    left = set(board.army_edges)
    while left:
        part = frozenset(_component(min(left), board.army_edges))
        masses.add(part)
        left -= part
    britain = {"cly", "edi", "lvp", "yor", "wal", "lon"}
    maghreb = {"mor", "alg", "tun"}
    continent = set(board.army_edges) - britain - maghreb - {"ire"}
    assert masses == {
        frozenset({"ire"}),
        frozenset(britain),
        frozenset(maghreb),
        frozenset(continent),
    }
    assert {"sic", "mal", "lap", "egy", "per", "sib", "cad"} <= continent


def test_every_province_has_its_clockwise_ring(board: Map) -> None:
    for code, p in board.provinces.items():
        assert set(p.around) == board.adjacent_provinces(code), code
        assert len(p.around) == len(set(p.around)), code
        assert BOARD_EDGE not in p.around
    assert board.provinces["sib"].around == ("arc", "per", "sev", "mos")
    assert board.provinces["sic"].around == ("nap", "ion", "tys")


def test_every_meeting_point_turns_clockwise_on_the_picture(board: Map) -> None:
    """The positions are good enough to draw from: wherever a province meets two neighbours that
    meet each other, the three positions turn clockwise, as the ring says."""
    at = {code: p.at for code, p in board.provinces.items()}
    turns = 0
    for code, ring in _raw_rings().items():
        px, py = _on_picture(at[code])
        for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
            if BOARD_EDGE in (a, b) or b not in board.adjacent_provinces(a):
                continue
            (ax, ay), (bx, by) = _on_picture(at[a]), _on_picture(at[b])
            assert (ax - px) * (by - py) - (ay - py) * (bx - px) > 0, (code, a, b)
            turns += 1
    assert turns == 516


# --- the format's ring checks, on the 1885 board broken one way ---------------------------------


def _broken(change: Callable[[dict[str, Any]], None]) -> tuple[str, ...]:
    data = copy.deepcopy(_data())
    change(data)
    with pytest.raises(MapError) as info:
        build_map(data)
    return info.value.faults


def _ring(code: str) -> Callable[[dict[str, Any]], list[str]]:
    return lambda data: data["provinces"][code]["around"]


def test_a_ring_lacking_or_adding_a_neighbour_is_refused() -> None:
    assert _broken(lambda d: _ring("mun")(d).remove("swi")) == (
        "province 'mun': 'around' lacks neighbour 'swi'",
    )
    assert _broken(lambda d: _ring("mun")(d).append("vie")) == (
        "province 'mun': 'around' lists 'vie', which is not a neighbour",
    )
    assert _broken(lambda d: _ring("mun")(d).append("kie")) == (
        "province 'mun': 'around' lists 'kie' more than once",
    )
    assert _broken(lambda d: _ring("mun")(d).append("xyz")) == (
        "province 'mun': 'around' names unknown province 'xyz'",
    )
    assert _broken(lambda d: d["provinces"]["sib"].pop("around")) == (
        "province 'sib': has no 'around' while other provinces have one (give every province "
        "its neighbours in clockwise order)",
    )


def test_a_ring_out_of_order_is_refused() -> None:
    def swap(data: dict[str, Any]) -> None:
        ring = _ring("bur")(data)  # bel ruh mun swi ...: ruh and mun swapped
        ring[1], ring[2] = ring[2], ring[1]

    faults = _broken(swap)
    assert faults[0] == (
        "province 'bur': 'around' puts 'bel' next to 'mun', which do not meet (neither "
        "neighbours, nor at a crossing's point, nor with the board's edge '-' between them)"
    )
    assert all("'bur'" in fault for fault in faults)


def test_a_ring_without_the_board_edge_is_refused() -> None:
    assert _broken(lambda d: _ring("sib")(d).remove(BOARD_EDGE)) == (
        "province 'sib': 'around' puts 'arc' next to 'per', which do not meet (neither "
        "neighbours, nor at a crossing's point, nor with the board's edge '-' between them)",
    )


def test_a_counter_clockwise_ring_is_named() -> None:
    assert _broken(lambda d: _ring("mun")(d).reverse()) == (
        "province 'mun': 'around' runs counter-clockwise (reversed, it fits)",
    )
    # Sicily's three neighbours all meet each other: only the turning shows the fault.
    assert _broken(lambda d: _ring("sic")(d).reverse()) == (
        "province 'sic': 'around' runs counter-clockwise (reversed, it fits)",
    )


def test_a_ring_turning_against_its_neighbours_is_refused() -> None:
    # Around the North Atlantic, Ireland and the Mid-Atlantic swapped: each still meets the next
    # (Irish Sea, Mid-Atlantic, Ireland, edge), but the rings round Ireland disagree.
    def swap(data: dict[str, Any]) -> None:
        ring = _ring("nao")(data)
        i, j = ring.index("ire"), ring.index("mao")
        ring[i], ring[j] = ring[j], ring[i]

    faults = _broken(swap)
    assert not any("do not meet" in fault or "counter-clockwise" in fault for fault in faults)
    assert (
        "province 'nao': 'around' goes from 'iri' to 'mao' clockwise, so around 'iri' 'mao' must "
        "be followed by 'nao', not 'ire' (one of the two is out of order)"
    ) in faults


def test_all_rings_mirrored_are_refused_by_the_positions() -> None:
    def mirror(data: dict[str, Any]) -> None:
        for entry in data["provinces"].values():
            entry["around"].reverse()

    (fault,) = _broken(mirror)
    assert fault.startswith("map file: the 'around' rings run counter-clockwise by the 'at'")


def test_a_position_off_the_picture_is_refused() -> None:
    assert _broken(lambda d: d["provinces"]["sib"].__setitem__("at", [1001, 10])) == (
        "province 'sib': 'at' must be [x, y] with 0 <= x <= 1000 and 0 <= y <= 800",
    )
    assert _broken(lambda d: d["provinces"]["sib"].__setitem__("at", [10])) == (
        "province 'sib': 'at' must be [x, y] with 0 <= x <= 1000 and 0 <= y <= 800",
    )


def test_maps_without_rings_keep_empty_ones() -> None:
    standard = load_map("standard")
    assert all(p.around == () for p in standard.provinces.values())
    # Its picture positions are given without rings (tools/map_places.py, judge/pictures).
    assert all(p.at is not None for p in standard.provinces.values())


# --- `judge map 1885`, the start, the calendar ---------------------------------------------------


def test_judge_map_prints_the_summary_and_the_start() -> None:
    done = subprocess.run(
        [*JUDGE, "map", "1885"], capture_output=True, text=True, timeout=60, check=True
    )
    text = done.stdout
    assert "Calendar monthly, first phase JAN1885M; 23 of 45 supply centres win." in text
    assert "TURKEY (Turkish, T): homes con, mac, sin, smy; units F sin, A con, A smy" in text
    assert "may also build in arc (not centres)" in text
    assert "alone may build in neutral por" in text
    assert "clockwise neighbours (around) of 94 spaces; picture positions of 94" in text
    done = subprocess.run(
        [*JUDGE, "map", "1885", "--start"], capture_output=True, text=True, timeout=60, check=True
    )
    case = json.loads(done.stdout)
    assert case == start_case(load_map("1885"))
    assert case["phase"] == "JAN1885M"
    assert len(case["units"]) == 31 - 1  # one unit a home centre, less Turkey's in Macedonia
    assert case["centers"]["TURKEY"] == ["con", "mac", "sin", "smy"]


def test_the_monthly_calendar_has_what_1885_needs() -> None:
    """Rule 4: January 1885 first, a move a month, builds in March, June, September, December."""
    phase = parse_phase("JAN1885M", MONTHLY)
    seen = [phase.name]
    while phase.name != "JAN1886M" and len(seen) < 30:
        phase = following_phase(phase, retreats_due=False, adjustments_due=True)
        seen.append(phase.name)
    assert seen[:5] == ["JAN1885M", "FEB1885M", "MAR1885M", "MAR1885A", "APR1885M"]
    assert [n for n in seen if n.endswith("A")] == ["MAR1885A", "JUN1885A", "SEP1885A", "DEC1885A"]
    assert len(seen) == 17  # twelve moves, four adjustments, and the next January
    assert [parse_phase(m, MONTHLY).is_fall for m in ("MAR1885M", "FEB1885M")] == [True, False]


# --- helpers -----------------------------------------------------------------------------------


def _key(written: str) -> str:
    return "".join(ch for ch in written.casefold() if ch.isalnum())


def _data() -> dict[str, Any]:
    return tomllib.loads((maps_dir() / "1885.toml").read_text(encoding="utf-8"))


def _raw_rings() -> dict[str, list[str]]:
    return {code: entry["around"] for code, entry in _data()["provinces"].items()}


def _on_picture(at: tuple[float, float] | None) -> tuple[float, float]:
    assert at is not None and 0 <= at[0] <= 1000 and 0 <= at[1] <= 800
    return at


def _component(start: str, edges: Mapping[str, Iterable[str]]) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
