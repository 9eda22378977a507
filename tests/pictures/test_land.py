"""The land under a board's markers (maps/NAME.land.json, traced by tools/make_world_land.py from
published coastline data) tells the truth: it fits the board's canvas, every land or coast
province's marker stands on land or touches it, every sea's marker stands at sea or touches a
coast, where the markers stand after being spread apart (the land is dragged with them). A board
without a land file draws none."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import pytest

from judge.engine.geography import Map, Terrain
from judge.engine.position import Position
from judge.map_files import available_maps, land_outlines, load_map, maps_dir
from judge.pictures.board import board_scene, positions_of
from judge.pictures.layout import MARKER_RADIUS, dragged
from judge.pictures.source import board_picture_svg
from judge.pictures.svg import draw

Outline = Sequence[tuple[float, float]]
WITH_LAND = [n for n in available_maps() if (maps_dir() / f"{n}.land.json").is_file()]


def on_land(point: tuple[float, float], land: Sequence[Outline]) -> bool:
    """Inside an odd number of outlines (a lake inside land is sea)."""
    x, y = point
    crossings = 0
    for outline in land:
        for (ax, ay), (bx, by) in zip(outline, [*outline[1:], outline[0]], strict=True):
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                crossings += 1
    return crossings % 2 == 1


def to_coast(point: tuple[float, float], land: Sequence[Outline]) -> float:
    best = math.inf
    px, py = point
    for outline in land:
        for (ax, ay), (bx, by) in zip(outline, [*outline[1:], outline[0]], strict=True):
            dx, dy = bx - ax, by - ay
            length = dx * dx + dy * dy
            t = (
                0.0
                if not length
                else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
            )
            best = min(best, math.hypot(px - ax - t * dx, py - ay - t * dy))
    return best


def test_the_world_board_has_its_land() -> None:
    assert "mercator-world" in WITH_LAND


@pytest.mark.parametrize("name", WITH_LAND)
def test_the_land_fits_the_boards_canvas(name: str) -> None:
    board = load_map(name)
    raw = json.loads((maps_dir() / f"{name}.land.json").read_text(encoding="utf-8"))
    assert tuple(raw["canvas"]) == tuple(board.canvas)
    assert "global-land-mask" in raw["about"]  # where the coastlines came from
    land = land_outlines(board)
    assert len(land) == len(raw["outlines"]) > 50
    width, height = board.canvas
    for outline in land:
        assert len(outline) >= 3
        assert all(-STEP_SLACK <= x <= width + STEP_SLACK for x, _ in outline)
        assert all(-STEP_SLACK <= y <= height + STEP_SLACK for _, y in outline)


STEP_SLACK = 2.0  # the outlines close one grid step beyond the canvas's edge


@pytest.mark.parametrize("name", WITH_LAND)
def test_every_marker_stands_on_its_own_side_of_the_coast(name: str) -> None:
    board = load_map(name)
    start = Position(phase=board.start_phase, units=(), centers={})
    scene = board_scene(board, start, title=name, land=land_outlines(board))
    at, _ = positions_of(board)
    wrong = []
    for code, province in board.provinces.items():
        if province.terrain in (Terrain.POLAR, Terrain.CANAL):
            continue  # a cap runs along the canvas's edge; a canal is a strip of either
        point = at[code]
        wants_land = province.terrain in (Terrain.LAND, Terrain.COAST)
        if on_land(point, scene.land) != wants_land and to_coast(point, scene.land) > MARKER_RADIUS:
            wrong.append((code, province.terrain.value, round(to_coast(point, scene.land), 1)))
    assert wrong == []


def test_the_land_is_dragged_with_the_markers_spread_apart() -> None:
    # Without the drag, markers spread out of crowded Europe stand on the wrong side of coasts.
    board = load_map("mercator-world")
    at, _ = positions_of(board)
    land = land_outlines(board)
    wrong = [
        code
        for code, p in board.provinces.items()
        if p.terrain in (Terrain.LAND, Terrain.SEA)
        and on_land(at[code], land) != (p.terrain == Terrain.LAND)
        and to_coast(at[code], land) > MARKER_RADIUS
    ]
    assert wrong, "the spread no longer moves markers across coasts: this test has lost its point"


def test_dragging_moves_land_near_a_moved_marker_and_leaves_the_rest() -> None:
    outline = ((0.0, 0.0), (10.0, 0.0), (500.0, 500.0))
    before = {"a": (0.0, 0.0), "b": (500.0, 500.0)}
    after = {"a": (20.0, 0.0), "b": (500.0, 500.0)}
    (moved,) = dragged([outline], before, after)
    assert moved[0] == pytest.approx((20.0, 0.0))
    assert moved[1] == pytest.approx((30.0, 0.0))  # its only marker within reach moved 20
    assert moved[2] == (500.0, 500.0)
    assert dragged([outline], before, before) == (outline,)


def graph_picture(board: Map) -> str:
    """The board drawn as a graph over its land, as a board without shapes is (the world board
    has shapes now: its pictures draw those, with no land or inset)."""
    start = Position(
        board.start_phase,
        tuple(u for power in board.powers.values() for u in power.starting_units),
        {name: frozenset(p.home_centres) for name, p in board.powers.items()},
    )
    return draw(board_scene(board, start, title=board.title, land=land_outlines(board)))


def test_the_svg_draws_the_land_under_the_board_and_none_where_there_is_none() -> None:
    world = graph_picture(load_map("mercator-world"))
    assert world.index('<path id="land"') < world.index('<g id="links"')
    assert '<path id="land"' not in graph_picture(load_map("standard"))
    # A board with shapes draws them instead.
    assert '<path id="land"' not in board_picture_svg(load_map("mercator-world"))


def test_the_world_board_draws_its_crowded_part_again_larger_beside_the_legend() -> None:
    board = load_map("mercator-world")
    svg = graph_picture(board)
    x, y, w, h = board.inset or (0, 0, 0, 0)
    assert (w, h) == (380, 360)
    # The same drawing, not a second one: the board's group used again, clipped to the part.
    assert '<g id="board">' in svg
    assert f'<clipPath id="inset-part"><rect x="{x}" y="{y}" width="{w}" height="{h}"/>' in svg
    assert 'translate(10,1430.0) scale(1.8) translate(-890,-200)"><use href="#board"' in svg
    assert svg.count('id="l-par"') == 1  # every label still once: `use` copies no ids
    # The legend stands beside the inset, under the map, drawn larger to read 800 pixels wide.
    assert '<g transform="translate(704.0,1400.0) scale(1.875)">\n<g id="legend">' in svg
    assert 'height="2088"' in svg  # the map, then the inset's band (1.8 x 360 and margins)
    assert 'id="inset"' not in graph_picture(load_map("standard"))
    assert 'id="inset"' not in board_picture_svg(board)  # its shapes need none
