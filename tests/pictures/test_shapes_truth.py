"""The province shapes of every board that has them (maps/NAME.shapes.json) tell the truth about
the board: provinces share a border only where the board makes them neighbours (or the border is
drawn as a barrier), neighbours share a border or a crossing, every unit, coast, centre and
label point lies inside its own province and no other, no two labels overlap, every ring is a
simple polygon. judge.pictures.shape_checks holds the rules; these tests run them on each board,
and on copies moved across a border to see them fail."""

from __future__ import annotations

import dataclasses
import json

import pytest

from judge.engine.geography import Map, Terrain
from judge.map_files import available_maps, load_map, maps_dir
from judge.pictures.shape_checks import faults, inside, shared_borders
from judge.pictures.shapes import Crossing, ProvinceShape, Shapes, load_shapes

WITH_SHAPES = [n for n in available_maps() if (maps_dir() / f"{n}.shapes.json").is_file()]


def neighbours_of(board: Map) -> dict[str, set[str]]:
    return {
        code: set(board.adjacent_provinces(code)) - set(board.special_provinces(Terrain.IMPASSABLE))
        for code, p in board.provinces.items()
        if p.terrain is not Terrain.IMPASSABLE
    }


def test_the_geographic_boards_have_shapes() -> None:
    assert {"standard", "youngstown", "1885", "mercator-world"} <= set(WITH_SHAPES)


@pytest.mark.parametrize("name", WITH_SHAPES)
def test_shapes_tell_the_truth(name: str) -> None:
    shapes = load_shapes(name)
    assert shapes is not None
    board = load_map(name)
    assert shapes.board == name
    assert list(shapes.canvas) == list(board.canvas)
    assert faults(shapes, neighbours_of(board)) == []


@pytest.mark.parametrize("name", WITH_SHAPES)
def test_the_file_is_small_and_rounded(name: str) -> None:
    path = maps_dir() / f"{name}.shapes.json"
    limit = 1_000_000 if load_map(name).wraps else 300_000
    assert path.stat().st_size < limit
    data = json.loads(path.read_text())
    for p in data["provinces"].values():
        for ring in p["rings"]:
            assert ring[0] != ring[-1]
            assert all(round(v, 1) == v for point in ring for v in point)


@pytest.mark.parametrize("name", WITH_SHAPES)
def test_no_unit_stands_on_another_province_s_label(name: str) -> None:
    """A unit drawn on a neighbour's label reads as the neighbour's (the world board's army in
    Liverpool stood on the EDI label): every unit point keeps 8 canvas units from every other
    province's label point (tools/make_province_shapes.py, NEAR_LABELS)."""
    import math

    shapes = load_shapes(name)
    assert shapes is not None
    close = [
        (code, other, round(math.dist(shape.unit, there.label), 1))
        for code, shape in shapes.provinces.items()
        for other, there in shapes.provinces.items()
        if other != code and math.dist(shape.unit, there.label) < 8.0
    ]
    assert close == []


@pytest.mark.parametrize("name", WITH_SHAPES)
def test_no_two_provinces_units_stand_on_one_spot(name: str) -> None:
    """Two units drawn on one spot read as one, and neither as its own province's (the world
    board's armies in Rome and Tuscany stood 1.4 canvas units apart, at the corner their
    provinces share): every unit and coast point keeps 10 canvas units from every other
    province's (tools/make_province_shapes.py, place_units)."""
    import math

    shapes = load_shapes(name)
    assert shapes is not None
    points = [
        (code, at)
        for code, shape in shapes.provinces.items()
        for at in (shape.unit, *shape.coasts.values())
    ]
    close = [
        (code, other, round(math.dist(a, b), 1))
        for i, (code, a) in enumerate(points)
        for other, b in points[i + 1 :]
        if other != code and math.dist(a, b) < 10.0
    ]
    assert close == []


def test_a_board_without_a_file_has_no_shapes() -> None:
    assert load_shapes("no-such-board") is None


def _moved(shape: ProvinceShape, dx: float, dy: float) -> ProvinceShape:
    def move(p: tuple[float, float]) -> tuple[float, float]:
        return (round(p[0] + dx, 1), round(p[1] + dy, 1))

    return dataclasses.replace(
        shape,
        rings=tuple(tuple(move(p) for p in ring) for ring in shape.rings),
        unit=move(shape.unit),
        label=move(shape.label),
        centre=move(shape.centre) if shape.centre else None,
        coasts={c: move(p) for c, p in shape.coasts.items()},
    )


def _with(shapes: Shapes, **provinces: ProvinceShape) -> Shapes:
    return dataclasses.replace(shapes, provinces={**shapes.provinces, **provinces})


def test_a_province_moved_across_a_border_is_caught() -> None:
    shapes = load_shapes("standard")
    assert shapes is not None
    nbrs = neighbours_of(load_map("standard"))
    # Belgium pushed east over Ruhr: its borders with Holland and the sea no longer meet, and
    # its points stand in another province.
    found = faults(_with(shapes, bel=_moved(shapes.provinces["bel"], 40, 0)), nbrs)
    assert any("bel-" in f and "no border" in f for f in found)
    assert any(f.startswith("bel: its") and "inside" in f for f in found)


def test_two_shapes_swapped_are_caught() -> None:
    """Munich's shape given to Berlin and Berlin's to Munich: each now borders the other's
    neighbours, which are not its own."""
    shapes = load_shapes("standard")
    assert shapes is not None
    mun, ber = shapes.provinces["mun"], shapes.provinces["ber"]
    found = faults(_with(shapes, mun=ber, ber=mun), neighbours_of(load_map("standard")))
    assert any("not neighbours" in f for f in found)


def test_a_border_between_non_neighbours_needs_a_barrier() -> None:
    """Standard's Helgoland Bight and Baltic, or whatever pair the file lists as a barrier:
    without the barrier the shared border is a fault."""
    shapes = load_shapes("standard")
    assert shapes is not None
    nbrs = neighbours_of(load_map("standard"))
    strangers = [(a, b) for (a, b) in shared_borders(shapes) if b not in nbrs[a]]
    assert strangers, "the standard board has borders drawn as impassable"
    found = faults(dataclasses.replace(shapes, barriers=()), nbrs)
    assert any(
        f"{a}-{b}: share a border but are not neighbours" in " ".join(found) for a, b in strangers
    )


def test_neighbours_with_no_border_need_a_crossing() -> None:
    """Belgium moved off into the sea keeps no border with Holland; a crossing drawn between
    them answers for it, and a crossing between provinces that are not neighbours is a fault."""
    shapes = load_shapes("standard")
    assert shapes is not None
    nbrs = neighbours_of(load_map("standard"))
    apart = _with(shapes, bel=_moved(shapes.provinces["bel"], 0, 300))
    assert "bel-hol: neighbours with no border and no crossing" in faults(apart, nbrs)
    line = (shapes.provinces["bel"].unit, shapes.provinces["hol"].unit)
    bridged = dataclasses.replace(apart, crossings=(Crossing("hol", "bel", line),))
    assert "bel-hol: neighbours with no border and no crossing" not in faults(bridged, nbrs)
    wrong = dataclasses.replace(shapes, crossings=(Crossing("bel", "mun", line),))
    assert faults(wrong, nbrs) == ["bel-mun: a crossing between provinces that are not neighbours"]


def test_a_point_outside_its_province_and_labels_on_each_other_are_caught() -> None:
    shapes = load_shapes("standard")
    assert shapes is not None
    nbrs = neighbours_of(load_map("standard"))
    par, bur = shapes.provinces["par"], shapes.provinces["bur"]
    assert inside(bur.unit, bur.rings)
    found = faults(_with(shapes, par=dataclasses.replace(par, unit=bur.unit)), nbrs)
    assert any(f.startswith("par: its unit point") and "outside" in f for f in found)
    near = (bur.label[0] + 3, bur.label[1] + 2)
    assert inside(near, bur.rings)
    found = faults(_with(shapes, bur=dataclasses.replace(bur, unit=near, label=bur.label)), nbrs)
    assert found == []  # a unit may stand near a label
    moved = dataclasses.replace(shapes.provinces["ruh"], label=(bur.label[0] + 5, bur.label[1] + 3))
    found = faults(_with(shapes, ruh=moved), nbrs)
    assert "bur-ruh: labels overlap" in found


def test_a_ring_that_crosses_itself_is_caught() -> None:
    shapes = load_shapes("standard")
    assert shapes is not None
    bur = shapes.provinces["bur"]
    ring = list(bur.rings[0])
    ring[1], ring[len(ring) // 2] = ring[len(ring) // 2], ring[1]
    twisted = dataclasses.replace(bur, rings=(tuple(ring), *bur.rings[1:]))
    found = faults(_with(shapes, bur=twisted), neighbours_of(load_map("standard")))
    assert any(f.startswith("bur: a ring that is not a simple polygon") for f in found)


@pytest.mark.parametrize("name", WITH_SHAPES)
def test_every_board_catches_a_province_moved_over_its_neighbour(name: str) -> None:
    """On each board, a land province moved by its own width onto its neighbours: it loses its
    borders and its points stand in other provinces."""
    shapes = load_shapes(name)
    assert shapes is not None
    nbrs = neighbours_of(load_map(name))
    code = max(
        (c for c, s in shapes.provinces.items() if s.kind == "land"),
        key=lambda c: len(nbrs[c]),
    )
    shape = shapes.provinces[code]
    xs = [p[0] for ring in shape.rings for p in ring]
    found = faults(_with(shapes, **{code: _moved(shape, max(xs) - min(xs), 0)}), nbrs)
    assert any(f.startswith(f"{code}: its unit point") for f in found)
    assert any(code in f and ("no border" in f or "not neighbours" in f) for f in found)


def test_shapes_are_read_once() -> None:
    assert load_shapes("standard") is load_shapes("standard")
