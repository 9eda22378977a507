"""Every board's picture tells the truth about the board: every province drawn and labelled (labels
unique), every unit and centre of its starting position and of a crowded position present, each
unit on its own province; and the PNG renders at the SVG's size. A board drawn as markers (no
shapes file) keeps the marker rules: no two provinces that are not neighbours drawn touching, no
link passing over a third province (a board with shapes has its own truth tests,
tests/pictures/test_shapes_truth.py).
"""

from __future__ import annotations

import math
import re
import struct
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from judge.engine.geography import Map, Terrain
from judge.engine.position import Dislodged, Position, Unit
from judge.map_files import available_maps, load_map, load_map_file
from judge.pictures.board import board_scene, neighbours_of, positions_of, where
from judge.pictures.layout import LABEL_ROOM, MARKER_RADIUS, faults
from judge.pictures.png import MAX_PNG_PIXELS, MAX_PNG_WIDTH, png_of
from judge.pictures.shapes import load_shapes
from judge.pictures.source import board_picture_svg
from judge.pictures.svg import draw
from judge.variants.algernon.maze import maze_board

CASES = Path(__file__).resolve().parents[1] / "cases" / "maps"
TEST_BOARDS = ("features", "mercator_test")
SVG = "{http://www.w3.org/2000/svg}"


def boards() -> list[tuple[str, Map]]:
    found = [(name, load_map(name)) for name in available_maps()]
    found += [(name, load_map_file(CASES / f"{name}.toml")) for name in TEST_BOARDS]
    maze = tomllib.loads((CASES / "algernon_demo.toml").read_text(encoding="utf-8"))
    found.append(("algernon_demo", maze_board(maze)))
    return found


BOARDS = boards()
IDS = [name for name, _ in BOARDS]
MARKED = [(name, board) for name, board in BOARDS if load_shapes(board.name) is None]
MARKED_IDS = [name for name, _ in MARKED]


def drawn_provinces(board: Map) -> list[str]:
    """The provinces a picture draws with an id and a label: all, or on a board with shapes
    those with a shape (impassable land without one is drawn grey, unnamed)."""
    shapes = load_shapes(board.name)
    if shapes is None:
        return sorted(board.provinces)
    return sorted(c for c in board.provinces if c in shapes.provinces)


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_id(root: ET.Element) -> dict[str, ET.Element]:
    return {e.attrib["id"]: e for e in root.iter() if "id" in e.attrib}


def labels(root: ET.Element) -> list[str]:
    return [
        "".join(e.itertext())
        for e in root.iter(f"{SVG}text")
        if e.attrib.get("id", "").startswith("l-")
    ]


@pytest.mark.parametrize(("name", "board"), MARKED, ids=MARKED_IDS)
def test_no_two_provinces_look_neighbours_that_are_not(name: str, board: Map) -> None:
    at, (width, _height) = positions_of(board)
    assert set(at) == set(board.provinces)
    assert faults(at, neighbours_of(board), width, board.wraps) == []


@pytest.mark.parametrize(("name", "board"), BOARDS, ids=IDS)
def test_every_province_is_drawn_and_labelled_once(name: str, board: Map) -> None:
    root = parsed(board_picture_svg(board))
    ids = by_id(root)
    drawn = drawn_provinces(board)
    assert len(drawn) >= len(board.provinces) - len(board.special_provinces(Terrain.IMPASSABLE))
    for code in drawn:
        assert f"p-{code}" in ids, code
        assert "".join(ids[f"l-{code}"].itertext()) == code.upper()
    # Once on the map (a crowded part drawn again larger under it repeats its own, their ids
    # ending in "-2").
    the_map = next(e for e in root.iter(f"{SVG}g") if e.get("id") == "board")
    shown = labels(the_map)
    assert len(shown) == len(set(shown)) == len(drawn)
    every = [e.attrib["id"] for e in root.iter() if "id" in e.attrib]
    assert len(every) == len(set(every))
    if load_shapes(board.name) is not None:
        return
    # Links join exactly the neighbours: as many lines as neighbour pairs (none wraps twice here
    # unless the board wraps).
    pairs = {frozenset((a, b)) for a, near in neighbours_of(board).items() for b in near}
    lines = list(ids["links"].iter(f"{SVG}line"))
    assert len(pairs) <= len(lines) <= (2 * len(pairs) if board.wraps else len(pairs))


@pytest.mark.parametrize(("name", "board"), BOARDS, ids=IDS)
def test_the_starting_position_shows_every_unit_and_centre(name: str, board: Map) -> None:
    ids = by_id(parsed(board_picture_svg(board)))
    for power in board.powers.values():
        for unit in power.starting_units:
            assert f"u-{power.name}-{unit.loc}" in ids, unit
        for home in power.home_centres:
            assert f"c-{home}" in ids
    for code in board.supply_centres():
        assert f"c-{code}" in ids


def crowded(board: Map) -> Position:
    """A unit in every space a unit can stand in (fleets on coasts, armies inland), the powers
    taking turns; a dislodged unit beside every third one; every centre owned."""
    powers = sorted(board.powers)
    units = []
    dislodged = []
    for i, (code, province) in enumerate(sorted(board.provinces.items())):
        power = powers[i % len(powers)]
        if province.terrain is Terrain.IMPASSABLE:
            continue
        if province.coasts:
            unit = Unit(power, "F", f"{code}/{province.coasts[0]}")
        elif board.fleet_may_be_at(code):
            unit = Unit(power, "F", code)
        elif board.army_may_be_at(code):
            unit = Unit(power, "A", code)
        else:
            continue
        units.append(unit)
        if i % 3 == 0 and board.army_may_be_at(code):
            other = powers[(i + 1) % len(powers)]
            dislodged.append(Dislodged(Unit(other, "A", code), None, False))
    centres: dict[str, set[str]] = {}
    for i, code in enumerate(sorted(board.supply_centres())):
        centres.setdefault(powers[i % len(powers)], set()).add(code)
    return Position(
        phase=board.start_phase,
        units=tuple(units),
        centers={p: frozenset(c) for p, c in centres.items()},
        dislodged=tuple(dislodged),
    )


@pytest.mark.parametrize(("name", "board"), BOARDS, ids=IDS)
def test_a_crowded_position_shows_every_unit_and_centre(name: str, board: Map) -> None:
    position = crowded(board)
    shapes = load_shapes(board.name)
    svg = draw(board_scene(board, position, title="crowded", shapes=shapes))
    root = parsed(svg)
    ids = by_id(root)
    for unit in position.units:
        assert f"u-{unit.power}-{unit.loc}" in ids
        assert "".join(ids[f"u-{unit.power}-{unit.loc}"].itertext()).endswith(unit.kind)
    for d in position.dislodged:
        assert f"d-{d.unit.power}-{d.unit.loc}" in ids
    colours = dict(re.findall(r'fill="(#[0-9a-f]{6})"[^>]*/><text[^>]*>([A-Za-z_-]+):', svg)[::-1])
    for power, centres in position.centers.items():
        for code in centres:
            assert ids[f"c-{code}"].attrib["fill"] == next(
                c for c, name in colours.items() if name.upper() == power
            )
    shown = labels(next(e for e in root.iter(f"{SVG}g") if e.get("id") == "board"))
    assert len(shown) == len(set(shown)) == len(drawn_provinces(board))
    # Each unit stands on its province's marker or unit point (or its coast's), never elsewhere.
    for unit in position.units:
        shape = ids[f"u-{unit.power}-{unit.loc}"][2]
        x = float(shape.attrib.get("x", "nan")) if shape.tag == f"{SVG}rect" else None
        if x is not None:
            assert abs(x + float(shape.attrib["width"]) / 2 - where(board, unit.loc, shapes)[0]) < 1


def test_centres_are_drawn_in_their_owners_colour() -> None:
    board = load_map("standard")
    position = Position("S1901M", (), {"FRANCE": frozenset({"par", "bel"})})
    ids = by_id(parsed(draw(board_scene(board, position, title="t"))))
    colours = {ids["c-par"].attrib["fill"], ids["c-bel"].attrib["fill"]}
    assert colours == {"#4dbbec"}  # France's colour on the standard board
    assert ids["c-mun"].attrib["fill"] == "#ffffff"  # unowned


@pytest.mark.parametrize("name", ["standard", "youngstown", "mercator-world"])
def test_the_png_renders_at_the_svgs_size_or_at_most_max_width(name: str) -> None:
    svg = board_picture_svg(load_map(name))
    png = png_of(svg)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    root = parsed(svg)
    wide, high = int(root.attrib["width"]), int(root.attrib["height"])
    if wide <= MAX_PNG_WIDTH and wide * high <= MAX_PNG_PIXELS:
        assert (width, height) == (wide, high)
    else:  # a wider or larger picture drawn smaller, in proportion
        assert width <= MAX_PNG_WIDTH and width * height <= MAX_PNG_PIXELS * 1.01
        assert width >= MAX_PNG_WIDTH or width * height >= MAX_PNG_PIXELS * 0.99
        assert abs(height - high * width / wide) <= 1


def test_markers_are_as_large_as_the_truth_check_assumes() -> None:
    svg = draw(board_scene(load_map("standard"), Position("S1901M", ()), title="t"))
    radii = set(re.findall(r'<circle id="p-[a-z0-9]+" cx="[^"]+" cy="[^"]+" r="([0-9.]+)"', svg))
    assert radii == {f"{MARKER_RADIUS:.0f}"}


def test_owned_provinces_are_ringed_in_their_owners_colour() -> None:
    """Mercator's province ownership: an owned province (centre or not) shows its owner."""
    board = load_map("standard")
    position = Position(
        "JAN1901M",
        (Unit("FRANCE", "A", "wal"),),
        {"FRANCE": frozenset({"par"})},
        owners={"wal": "FRANCE"},
    )
    ids = by_id(parsed(draw(board_scene(board, position, title="t"))))
    assert ids["p-wal"].attrib["stroke"] == "#4dbbec"
    assert ids["p-par"].attrib["stroke"] == "#4dbbec"
    assert ids["p-lon"].attrib["stroke"] != "#4dbbec"
    # Without ownership (the standard game) no province is ringed.
    plain = by_id(parsed(draw(board_scene(board, Position("S1901M", (), {}), title="t"))))
    assert {plain[f"p-{c}"].attrib["stroke"] for c in board.provinces} == {"#4d5560"}


@pytest.mark.parametrize(("name", "board"), MARKED, ids=MARKED_IDS)
def test_markers_stand_far_enough_apart_to_read_their_labels(name: str, board: Map) -> None:
    """Neighbours too: two markers closer than LABEL_ROOM run their labels together."""
    at, _ = positions_of(board)
    codes = sorted(at)
    closest = min(
        (math.dist(at[a], at[b]), a, b) for i, a in enumerate(codes) for b in codes[i + 1 :]
    )
    assert closest[0] >= LABEL_ROOM - 1, closest
