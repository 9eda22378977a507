"""A board with shapes drawn by hand (tests/pictures/shapes/isles.*), read as the picture reads
a board's shapes file (maps/NAME.shapes.json)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.engine.geography import Map
from judge.map_files import load_map_file

HERE = Path(__file__).resolve().parent / "shapes"


@dataclass(frozen=True)
class Province:
    kind: str
    rings: Any
    unit: Any
    label: Any
    centre: Any
    coasts: dict[str, Any]


@dataclass(frozen=True)
class Part:
    rings: Any


@dataclass(frozen=True)
class Shapes:
    board: str
    canvas: Any
    provinces: dict[str, Province]
    impassable: tuple[Part, ...]
    barriers: Any
    crossings: Any


def isles() -> tuple[Map, Shapes]:
    board = load_map_file(HERE / "isles.toml")
    raw = json.loads((HERE / "isles.shapes.json").read_text(encoding="utf-8"))
    shapes = Shapes(
        board=raw["board"],
        canvas=raw["canvas"],
        provinces={code: Province(**p) for code, p in raw["provinces"].items()},
        impassable=tuple(Part(p["rings"]) for p in raw["impassable"]),
        barriers=raw["barriers"],
        crossings=[tuple(c) for c in raw["crossings"]],
    )
    return board, shapes
