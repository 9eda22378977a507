"""The Mercator world board (maps/mercator-world.toml) against the checks every board passes and
the facts its Mark promises: thirteen powers, 108 centres, the Suez, Panama and Kiel canals with
the seas they join, the two polar caps, Sardinia Italian and Hokkaido Japanese (rule 6.3), the
direct passages of 6.4, the spare units of rule 9, special provinces and colonies, the win
numbers, and a world that wraps east to west."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import deque
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from judge.engine.geography import Map, Terrain
from judge.engine.position import province_of
from judge.map_files import load_map, maps_dir, start_case

ROOT = Path(__file__).resolve().parents[1]
JUDGE = [sys.executable, "-m", "judge.cli"]
sys.path.insert(0, str(ROOT / "tools"))

import make_mercator_world  # noqa: E402


@pytest.fixture(scope="module")
def board() -> Map:
    return load_map("mercator-world")


def _component(start: str, edges: Mapping[str, Iterable[str]]) -> set[str]:
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in edges.get(queue.popleft(), ()):
            prov = province_of(nxt)
            key = nxt if nxt in edges else prov
            if key not in seen:
                seen.add(key)
                queue.append(key)
    return seen


# --- the checks every board passes -------------------------------------------------------------


def test_the_file_is_what_the_data_makes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_mercator_world.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_adjacency_is_symmetric(board: Map) -> None:
    for edges in (board.army_edges, board.fleet_edges):
        for src, dests in edges.items():
            for dst in dests:
                assert src in edges[dst], (src, dst)


def test_names_are_unique(board: Map) -> None:
    spoken: dict[str, str] = {}
    for code, p in board.provinces.items():
        for written in {code, p.name, *p.aliases}:
            key = re.sub(r"[^0-9a-z]", "", written.casefold())
            assert spoken.setdefault(key, code) == code, (written, code, spoken[key])


def test_every_space_is_reachable(board: Map) -> None:
    neighbours = {code: board.adjacent_provinces(code) for code in board.provinces}
    assert _component("mos", neighbours) == set(board.provinces)
    # Fleets reach every sea, coast, canal and polar cap from any sea.
    assert _component("nth", board.fleet_edges) == set(board.fleet_edges)
    # Every province is a fleet's or an army's place; no army ever stands in a cap or a sea.
    for code, p in board.provinces.items():
        assert code in board.army_edges or any(province_of(f) == code for f in board.fleet_edges)
        if p.terrain in (Terrain.SEA, Terrain.POLAR):
            assert not board.army_may_be_at(code), code


def test_starting_units_are_legal(board: Map) -> None:
    occupied: set[str] = set()
    for name, power in board.powers.items():
        assert len(power.starting_units) == len(power.home_centres), name
        for unit in power.starting_units:
            assert unit.province in power.home_centres, (name, unit)
            assert unit.province not in occupied
            occupied.add(unit.province)
            if unit.kind == "A":
                assert board.army_may_be_at(unit.loc), unit
            else:
                assert board.fleet_may_be_at(unit.loc), unit


def test_every_place_is_on_the_wrapped_canvas(board: Map) -> None:
    assert board.canvas == (2000, 1400) and board.wraps
    width, height = board.canvas
    for code, p in board.provinces.items():
        assert p.at is not None, code
        x, y = p.at
        assert 0 <= x <= width and 0 <= y <= height, code
    at = {code: p.at for code, p in board.provinces.items()}
    # x runs west to east from 180 W; y grows southwards, faster towards the poles (Mercator).
    assert at["sfr"][0] < at["nyk"][0] < at["lon"][0] < at["mos"][0] < at["pek"][0]
    assert at["stp"][1] < at["lon"][1] < at["rom"][1] < at["egy"][1] < at["cape"][1]
    assert at["arc"] == (1000.0, 8.0) and at["ant"] == (1000.0, 1392.0)
    equator_to_rome = at["sum"][1] - at["rom"][1]  # 0 to 42 N
    rome_to_arkhangelsk = at["rom"][1] - at["ark"][1]  # 42 N to 65 N
    assert rome_to_arkhangelsk > equator_to_rome * (65 - 42) / 42


# --- the facts of the Mark ---------------------------------------------------------------------

POWERS = {
    "ENGLAND": {"edi", "lon", "lvp"},
    "FRANCE": {"bre", "mar", "par"},
    "GERMANY": {"ber", "kie", "mun"},
    "ITALY": {"nap", "rom", "ven"},
    "RUSSIA": {"mos", "sev", "stp", "war"},
    "TURKEY": {"ank", "con", "smy"},
    "AMERICA": {"chc", "nol", "nyk", "sfr"},
    "BRAZIL": {"bah", "pra", "rio", "sao"},
    "ARGENTINA": {"bbl", "bue", "cdb"},
    "AUSTRALIA": {"bri", "mel", "pth", "syd"},
    "JAPAN": {"nag", "osa", "toh", "tok"},
    "CHINA": {"can", "han", "pek", "sha"},
    "INDIA": {"bom", "cal", "del", "mad"},
}


def test_thirteen_powers_and_108_centres(board: Map) -> None:
    assert {name: set(p.home_centres) for name, p in board.powers.items()} == POWERS
    assert len(board.supply_centres()) == 108
    assert len(board.home_centres()) == 46 and len(board.neutral_centres()) == 62
    assert len({p.letter for p in board.powers.values()}) == 13
    assert {"AUSTRALIA", "BRAZIL", "JAPAN"} <= set(board.powers)  # the Marks' (seed 000, reviews)


def test_the_calendar_and_the_win_numbers(board: Map) -> None:
    assert (board.calendar, board.start_phase) == ("monthly", "JAN1901M")
    assert board.victory_centres == 55  # more than half of 108
    assert (board.two_way_centres, board.three_way_centres) == (72, 81)


def test_the_canals_join_the_right_seas(board: Map) -> None:
    """6.1: Suez, Panama and Kiel are canal provinces; fleets pass between the seas each joins,
    and armies walk in from the land either side."""
    assert board.special_provinces(Terrain.CANAL) == ("kie", "pan", "suz")
    joins = {c: set(board.provinces[c].joins) for c in ("kie", "pan", "suz")}
    assert joins == {"kie": {"hel", "bal"}, "pan": {"car", "epa"}, "suz": {"eas", "red"}}
    for canal, seas in joins.items():
        assert board.fleet_edges[canal] == seas  # a canal's fleets go to its seas only
    assert board.army_edges["suz"] == {"egy", "syr", "hej"}
    assert board.army_edges["pan"] == {"cam", "col"}
    assert board.army_edges["kie"] == {"ber", "den", "hol", "mun", "ruh"}
    assert board.provinces["kie"].supply_centre  # Germany's home centre, as on the regular map
    assert not board.provinces["suz"].supply_centre and not board.provinces["pan"].supply_centre


def test_the_polar_caps(board: Map) -> None:
    """6.2: an Arctic and an Antarctic cap, where no army walks and no fleet moves; the seas
    that touch them are where fleets may dump armies."""
    assert board.special_provinces(Terrain.POLAR) == ("ant", "arc")
    assert board.fleet_edges["arc"] == {"bar", "kar", "lap", "ess", "bea", "baf", "grs"}
    assert board.fleet_edges["ant"] == {"dra", "wed", "sos", "sio", "ros", "ams"}
    for cap in ("arc", "ant"):
        assert cap not in board.army_edges
        assert all(board.provinces[s].terrain is Terrain.SEA for s in board.fleet_edges[cap])
        assert not board.provinces[cap].supply_centre


def test_the_direct_passages_of_rule_6_4(board: Map) -> None:
    """Spain to North Africa for armies (across Gibraltar), the Black Sea to the Aegean for
    fleets (past Constantinople without stopping)."""
    assert "mor" in board.army_edges["spa"] and "spa" in board.army_edges["mor"]
    assert "aeg" in board.fleet_edges["bla"] and "bla" in board.fleet_edges["aeg"]
    # The other straits an army crosses alone: the Bosporus, the Sound, Tsugaru, Shimonoseki.
    assert {"ank", "smy"} <= board.army_edges["con"]
    assert "swe" in board.army_edges["den"]
    assert "hok" in board.army_edges["toh"] and "nag" in board.army_edges["osa"]


def test_sardinia_is_italian_and_hokkaido_japanese(board: Map) -> None:
    """6.3: island home provinces, not centres."""
    assert "srd" in board.powers["ITALY"].home_provinces
    assert "hok" in board.powers["JAPAN"].home_provinces
    for island in ("srd", "hok"):
        assert not board.provinces[island].supply_centre
        assert island not in board.army_edges[island]
    assert board.provinces["srd"].name == "Sardinia" and board.provinces["hok"].name == "Hokkaido"
    assert board.army_edges["srd"] == frozenset()  # an island: fleets and armies aboard reach it
    assert board.fleet_edges["srd"] == {"lyo", "tys", "wes"}


def test_germany_and_russia_have_a_spare_unit(board: Map) -> None:
    spares = {name: p.spare_units for name, p in board.powers.items() if p.spare_units}
    assert spares == {"GERMANY": 1, "RUSSIA": 1}


def test_special_provinces_and_colonies(board: Map) -> None:
    """5.2: one or two special provinces a power, outside its home country, never centres; 7:
    colonies count as home for the GM's removals (Cambodia for France)."""
    homes = {prov for p in board.powers.values() for prov in p.home_centres | p.home_provinces}
    taken: set[str] = set()
    for name, power in board.powers.items():
        assert 1 <= len(power.build_only) <= 2, name
        for prov in power.build_only:
            assert not board.provinces[prov].supply_centre and prov not in homes, (name, prov)
            assert prov not in taken
            taken.add(prov)
    assert board.powers["FRANCE"].colonies == {"cmb", "alg", "mdg"}
    assert board.provinces["cmb"].name == "Cambodia"
    assert board.powers["FRANCE"].build_only == {"sen", "ton"}
    assert board.powers["AMERICA"].build_only == {"ala", "pan"}
    assert board.powers["RUSSIA"].build_only == {"vla"}
    colonies = [c for p in board.powers.values() for c in p.colonies]
    assert len(colonies) == len(set(colonies)) and not set(colonies) & (homes | taken)


WRAPPED = {
    ("bes", "kam"),
    ("bes", "nwp"),
    ("bes", "chk"),
    ("ess", "bea"),
    ("ess", "bes"),
    ("nwp", "nop"),
    ("nwp", "cpa"),
    ("wpa", "cpa"),
    ("tas", "ros"),
    ("sop", "cor"),
    ("sop", "fij"),
    ("sop", "nzl"),
    ("sop", "tas"),
    ("sop", "wpa"),
}


def test_the_world_wraps_across_the_180th_meridian(board: Map) -> None:
    """Neighbours across the 180th meridian sit at the canvas's two ends: their positions are
    more than half the canvas apart, and the Pacific is one sea lane, not two ends of a map."""
    width = board.canvas[0]
    across = set()
    for code, p in board.provinces.items():
        for other in board.adjacent_provinces(code):
            a, b = p.at, board.provinces[other].at
            assert a is not None and b is not None
            if abs(a[0] - b[0]) > width / 2 and code < other:
                across.add((code, other))
    expected = {tuple(sorted(pair)) for pair in WRAPPED}
    assert expected <= across, expected - across
    # Only the Pacific wraps: one end of each such pair is west of 135 W, the other east of
    # 135 E (or a polar cap, which spans the whole edge).
    for a, b in across:
        xs = sorted(x for x, _y in (board.provinces[a].at, board.provinces[b].at))  # type: ignore[misc]
        assert (xs[0] < width / 8 and xs[1] > width * 7 / 8) or {a, b} & {"arc", "ant"}, (a, b)


def test_judge_map_prints_the_summary() -> None:
    done = subprocess.run(
        [*JUDGE, "map", "mercator-world"], capture_output=True, text=True, timeout=60, check=True
    )
    text = done.stdout
    assert text.startswith("Mercator World (mercator-world)\n")
    assert (
        "Calendar monthly, first phase JAN1901M; 55 of 108 supply centres win "
        "(72 for two powers, 81 for three together)." in text
    )
    assert "The board wraps east to west (canvas 2000 x 1400)." in text
    assert "ITALY (Italian, I): homes nap, rom, ven; units F nap, A rom, A ven" in text
    assert "    home provinces (not centres): apu, pie, srd, tus" in text
    assert "    colonies (home for removals): alg, cmb, mdg" in text
    assert "    may also build in nat, nfl (not centres)" in text
    assert "    spare units: 1 (placed before the first move)" in text
    assert "  canal pan joins car, epa" in text
    assert "  polar: ant, arc" in text
    done = subprocess.run(
        [*JUDGE, "map", "mercator-world", "--start"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    case = json.loads(done.stdout)
    assert case == start_case(load_map("mercator-world"))
    assert case["phase"] == "JAN1901M" and len(case["units"]) == 46


def test_the_balance_figures_in_the_notes_are_the_boards(board: Map) -> None:
    """maps/mercator-world.md prints the centres near each power's homes; they are this board's."""
    notes = (maps_dir() / "mercator-world.md").read_text(encoding="utf-8")
    for name, homes, one, two, three, rivals in make_mercator_world.balance(board):
        row = f"| {name.title()} | {homes} | {one} | {two} | {three} | {rivals} |"
        assert row in notes, row
