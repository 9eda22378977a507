"""A board with shapes drawn by hand (tests/pictures/shapes/isles.*), read as the picture reads
a board's shapes file (maps/NAME.shapes.json)."""

from __future__ import annotations

import json
from pathlib import Path

from judge.engine.geography import Map
from judge.map_files import load_map_file
from judge.pictures.shapes import Shapes, shapes_from_json

HERE = Path(__file__).resolve().parent / "shapes"


def isles() -> tuple[Map, Shapes]:
    board = load_map_file(HERE / "isles.toml")
    raw = json.loads((HERE / "isles.shapes.json").read_text(encoding="utf-8"))
    return board, shapes_from_json(raw)
