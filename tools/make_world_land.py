"""Write maps/mercator-world.land.json: the land of the Mercator world board's picture, as
outlines on the board's canvas.

The outlines are traced from the land mask that the package global-land-mask ships (NOAA's GLOBE
elevation data at 30 arc-seconds, public domain, packaged under the MIT licence), projected as
tools/make_mercator_world.py projects each province's position, so the picture's coasts and its
markers agree. The mask is not a dependency of the judge: only this script needs it, in a virtual
environment of its own:

    python3 -m venv /tmp/land && /tmp/land/bin/pip install global-land-mask
    /tmp/land/bin/python tools/make_world_land.py [--check]

Each point of a grid (STEP canvas pixels apart) holds the share of land among SUB x SUB samples
around it; the outlines are that share's 0.5 contour (marching squares), simplified to within
TOLERANCE pixels, without islands smaller than MIN_AREA square pixels unless a land or coast
province's marker stands within ISLAND_REACH pixels of one. --check writes nothing and fails if the file differs from what the mask makes.
"""

from __future__ import annotations

import json
import math
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.pictures.layout import simplify  # noqa: E402

BOARD = ROOT / "maps" / "mercator-world.toml"
TARGET = ROOT / "maps" / "mercator-world.land.json"
STEP = 2.0  # canvas pixels between grid points
SUB = 3  # samples a side within each grid point's square
TOLERANCE = 0.8  # canvas pixels an outline may move when simplified
MIN_AREA = 12.0  # square canvas pixels: smaller islands are left out, but for a province's own
ISLAND_REACH = 12.0  # canvas pixels from a land or coast province's marker: its own island

Point = tuple[float, float]


def _latitude(y: float, canvas: tuple[int, int]) -> float:
    """The inverse of make_mercator_world.position's y (unclipped)."""
    width, height = canvas
    scale = width / (2 * math.pi)
    return math.degrees(2 * math.atan(math.exp((height / 2 - y) / scale)) - math.pi / 2)


def land_share(canvas: tuple[int, int], markers: list[tuple[float, float]]) -> list[list[float]]:
    """The share of land around each grid point, rows from the top, with a ring of sea round
    the edge so that every outline closes. Within ISLAND_REACH of a land or coast province's
    marker any land counts as most of its square, so that a province's island too small for
    the canvas (Samoa, the Marianas) is drawn, a little larger than it is."""
    import numpy as np
    from global_land_mask import globe

    width, height = canvas
    columns, rows = int(width / STEP), int(height / STEP)
    offsets = (np.arange(SUB) + 0.5) / SUB - 0.5
    xs = ((np.arange(columns)[:, None] + 0.5 + offsets[None, :]) * STEP).ravel()
    ys = ((np.arange(rows)[:, None] + 0.5 + offsets[None, :]) * STEP).ravel()
    lons = np.clip(xs / width * 360.0 - 180.0, -180.0, 179.999)
    lats = np.clip(np.array([_latitude(y, canvas) for y in ys]), -89.999, 89.999)
    grid_lat, grid_lon = np.meshgrid(lats, lons, indexing="ij")
    land = globe.is_land(grid_lat, grid_lon).astype(float)
    blocks = land.reshape(rows, SUB, columns, SUB)
    share = blocks.mean(axis=(1, 3))
    centre_x = (np.arange(columns) + 0.5) * STEP
    centre_y = (np.arange(rows) + 0.5) * STEP
    near = np.zeros((rows, columns), dtype=bool)
    for mx, my in markers:
        near |= np.hypot(centre_x[None, :] - mx, centre_y[:, None] - my) <= ISLAND_REACH
    share = np.where(near & (blocks.max(axis=(1, 3)) > 0), np.maximum(share, 0.75), share)
    padded = np.zeros((rows + 2, columns + 2))
    padded[1:-1, 1:-1] = share
    return padded.tolist()


def _grid_point(row: float, column: float) -> Point:
    """A point between grid points in canvas pixels (the padded grid starts one step out)."""
    return ((column - 0.5) * STEP, (row - 0.5) * STEP)


def contours(share: list[list[float]], level: float = 0.5) -> list[list[Point]]:
    """Closed outlines of the places where share > level, land on the left going round."""
    rows, columns = len(share), len(share[0])

    def cut(r0: int, c0: int, r1: int, c1: int) -> Point:
        a, b = share[r0][c0], share[r1][c1]
        t = (level - a) / (b - a)
        return _grid_point(r0 + (r1 - r0) * t, c0 + (c1 - c0) * t)

    following: dict[Point, Point] = {}
    for r in range(rows - 1):
        for c in range(columns - 1):
            tl, tr = share[r][c] > level, share[r][c + 1] > level
            bl, br = share[r + 1][c] > level, share[r + 1][c + 1] > level
            if tl == tr == bl == br:
                continue
            top = cut(r, c, r, c + 1) if tl != tr else None
            right = cut(r, c + 1, r + 1, c + 1) if tr != br else None
            bottom = cut(r + 1, c, r + 1, c + 1) if bl != br else None
            left = cut(r, c, r + 1, c) if tl != bl else None
            for start, end in _segments(tl, tr, br, bl, top, right, bottom, left):
                following[start] = end
    loops: list[list[Point]] = []
    while following:
        first, point = following.popitem()
        loop = [first, point]
        while point != first:
            point = following.pop(point)
            loop.append(point)
        loops.append(loop[:-1])
    return loops


def _segments(
    tl: bool, tr: bool, br: bool, bl: bool, *edges: Point | None
) -> list[tuple[Point, Point]]:
    """The pieces of outline in one square, all pointed the same way round the land."""
    top, right, bottom, left = edges
    if tl == br and tr == bl:  # a saddle: land at two opposite corners, joined across
        if tl:
            return [(top, right), (bottom, left)]  # type: ignore[list-item]
        return [(left, top), (right, bottom)]  # type: ignore[list-item]
    # Walk the square's edges clockwise from the top left: the piece runs from the edge where
    # the walk leaves land to the edge where it comes back onto land. Every square orders its
    # pieces so, so each piece starts where its neighbour's ends and the outlines chain up.
    order = ((top, tl, tr), (right, tr, br), (bottom, br, bl), (left, bl, tl))
    leaves = next(e for e, a, b in order if e is not None and a and not b)
    enters = next(e for e, a, b in order if e is not None and not a and b)
    return [(leaves, enters)]


def area(points: list[Point]) -> float:
    """Signed area (shoelace): positive for land outlines on this canvas's downward y."""
    return (
        sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1], strict=True))
        / 2
    )


def inside(point: Point, outline: list[Point]) -> bool:
    x, y = point
    found = False
    for (ax, ay), (bx, by) in zip(outline, outline[1:] + outline[:1], strict=True):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            found = not found
    return found


def build() -> dict[str, Any]:
    board = tomllib.loads(BOARD.read_text())
    width, height = board["map"]["canvas"]
    markers = [
        tuple(p["at"])
        for p in board["provinces"].values()
        if "at" in p and p["terrain"] in ("land", "coast")
    ]
    outlines = []
    for loop in contours(land_share((width, height), markers)):
        shape = simplify(loop, TOLERANCE)
        if len(shape) < 3:
            continue
        if abs(area(shape)) < MIN_AREA and not any(
            math.dist(m, point) <= ISLAND_REACH for m in markers for point in shape
        ):
            continue
        outlines.append([[round(x, 1), round(y, 1)] for x, y in shape])
    outlines.sort(key=lambda o: (min(p[0] for p in o), min(p[1] for p in o)))
    return {
        "about": (
            "The land of the Mercator world board's picture: outlines on the board's canvas, "
            "land on the left going round (a lake or sea inside land goes the other way). "
            "Traced by tools/make_world_land.py from the land mask of the package "
            "global-land-mask 1.0.0 (NOAA's GLOBE elevation data, public domain; the package "
            "under the MIT licence), projected as tools/make_mercator_world.py projects the "
            "provinces. Change the script and run it again rather than editing this file."
        ),
        "canvas": [width, height],
        "outlines": outlines,
    }


def main() -> int:
    text = json.dumps(build(), separators=(",", ":")) + "\n"
    if "--check" in sys.argv[1:]:
        if TARGET.read_text() != text:
            print(f"{TARGET.relative_to(ROOT)} differs from what the mask makes", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text)
    print(
        f"wrote {TARGET.relative_to(ROOT)}: {len(json.loads(text)['outlines'])} outlines, "
        f"{len(text)} bytes"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
