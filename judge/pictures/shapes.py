"""The province shapes of a geographic board (maps/NAME.shapes.json), read once per process.

The file is data made by tools/make_province_shapes.py (maps/README.md describes it): each
province's polygons on the board's own canvas (the one its `at` points use), the points where
its unit, label, supply centre and coasts are drawn, land that is no province, the borders of
provinces that are not neighbours (drawn as impassable) and the neighbours that share no border
(drawn as a line between two points). A province's rings are drawn as one path: outer rings go
one way round and holes the other, so both fill rules leave the holes open. A board without a
file (a generated maze, the small test boards) has no shapes: `load_shapes` returns None.
tests/pictures/test_shapes_truth.py checks every file against its board.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from judge.resources import data_dir

Point = tuple[float, float]
Ring = tuple[Point, ...]


@dataclass(frozen=True)
class ProvinceShape:
    kind: str  # "land" or "sea"
    rings: tuple[Ring, ...]
    unit: Point
    label: Point
    centre: Point | None  # where the supply centre's mark goes; None for no centre
    coasts: dict[str, Point]  # two-coast provinces: coast -> where a fleet there is drawn


@dataclass(frozen=True)
class Crossing:
    """Two neighbours that share no border (a strait, a canal, the world board's wrap). On a
    board that wraps, a line longer than half the canvas's width is drawn the short way round,
    out through one edge and in through the other."""

    a: str
    b: str
    line: tuple[Point, Point]


@dataclass(frozen=True)
class Shapes:
    board: str
    canvas: tuple[int, int]
    source: str
    provinces: dict[str, ProvinceShape]
    impassable: tuple[tuple[Ring, ...], ...]  # land that is no province, each as its rings
    barriers: tuple[tuple[Point, ...], ...]  # polylines between provinces that are not neighbours
    crossings: tuple[Crossing, ...]


def _point(raw: list[float]) -> Point:
    return (float(raw[0]), float(raw[1]))


def _rings(raw: list[list[list[float]]]) -> tuple[Ring, ...]:
    return tuple(tuple(_point(p) for p in ring) for ring in raw)


def shapes_from_json(data: dict) -> Shapes:
    """Shapes from the file's JSON (the format maps/README.md gives)."""
    provinces = {
        code: ProvinceShape(
            kind=p["kind"],
            rings=_rings(p["rings"]),
            unit=_point(p["unit"]),
            label=_point(p["label"]),
            centre=_point(p["centre"]) if p.get("centre") else None,
            coasts={coast: _point(at) for coast, at in p.get("coasts", {}).items()},
        )
        for code, p in data["provinces"].items()
    }
    return Shapes(
        board=data["board"],
        canvas=(int(data["canvas"][0]), int(data["canvas"][1])),
        source=data.get("source", ""),
        provinces=provinces,
        impassable=tuple(_rings(part["rings"]) for part in data.get("impassable", [])),
        barriers=tuple(tuple(_point(p) for p in line) for line in data.get("barriers", [])),
        crossings=tuple(
            Crossing(a, b, (_point(line[0]), _point(line[1])))
            for a, b, line in data.get("crossings", [])
        ),
    )


@cache
def load_shapes(board_name: str) -> Shapes | None:
    """The shapes of the board `board_name`, or None when it has no shapes file."""
    path = data_dir("maps") / f"{board_name}.shapes.json"
    if not path.is_file():
        return None
    return shapes_from_json(json.loads(path.read_text(encoding="utf-8")))
