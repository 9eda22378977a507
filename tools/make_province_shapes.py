"""Write maps/<board>.shapes.json: every province of a geographic board as polygons on the
board's own canvas, for pictures that look like the map players know.

Inputs, all on this machine when the script runs (nothing is downloaded, and the judge never runs
this script):
- the board, maps/<board>.toml: its provinces, their terrain, adjacency and `at` positions;
- where each province lies on the globe: tools/map_places.py for the standard and Youngstown
  boards (with its projection, PROJECTIONS), the latitude and longitude of 1885's capitals and
  seas written below (FIT_1885) to fit a projection to that board's hand-placed positions, and
  the Mercator world board's own projection (tools/make_mercator_world.py);
- the land mask shipped in the PyPI package global-land-mask 1.0.0 (toddkarin/global-land-mask,
  MIT licence), itself NOAA's GLOBE elevation data at 30 arc-seconds (public domain).

Only this script needs the mask, numpy, scipy and shapely, in a virtual environment of its own:

    python3 -m venv /tmp/shapes && /tmp/shapes/bin/pip install global-land-mask scipy shapely
    /tmp/shapes/bin/python tools/make_province_shapes.py standard [--check]

How: the canvas is cut into square cells (STEP canvas units a side); each cell is land when most
of SUB x SUB samples of the mask inside it are land (water no sea province reaches, a lake, counts
as land). Every province grows from its own points (its place on the globe, projected, and the
few extra points of EXTRA) over cells of its own kind, land provinces over land, seas over sea,
inland provinces never onto a cell at the shore, nearest cells first (a multi-source Dijkstra).
A cell is taken only if every taken cell beside it belongs to the same province or one of its
neighbours on the board, so that non-neighbours do not meet; what is left is then filled without
that rule, and islands no province reached join the nearest land province within ISLAND_REACH
units, or are drawn as impassable land. The cells are turned into polygons, simplified together
(shapely's coverage simplification, so that two provinces keep one shared border), and each
province gets its points (label, unit, supply centre, coasts) well inside it. Borders between
provinces that are not neighbours are written as barriers and neighbours that do not touch as
crossings; maps/README.md describes the file and tests/pictures/test_shapes_truth.py checks it.
--check writes nothing and fails if the file differs from what the script makes.
"""

from __future__ import annotations

import heapq
import json
import math
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

SUB = 3  # mask samples a side in each cell
ISLAND_REACH = 8.0  # canvas units: an island this near a land province joins it
MIN_ISLAND = 30.0  # square canvas units: smaller islands no province takes go to the sea
IMPASSABLE_SLOWNESS = 1.2  # impassable land grows this much slower than provinces
LABEL_FONT = 11.0  # the pictures' label font size, canvas units (DejaVu Sans Bold)
LABEL_EM = 0.62  # width of one character, in ems

# Extra points (latitude, longitude) a province also grows from: islands of its own and long
# provinces whose single middle would lose their far end to a neighbour.
EXTRA: dict[str, dict[str, list[tuple[float, float]]]] = {
    "standard": {
        "nap": [(37.5, 14.2), (40.2, 16.0)],  # Sicily, Calabria
        "den": [(55.4, 11.8), (55.3, 10.3)],  # Zealand, Funen
        "nwy": [(69.0, 18.0), (59.5, 6.5), (70.0, 25.0), (66.0, 14.0)],
        "swe": [(66.5, 20.5), (57.5, 14.0)],
        "fin": [(66.0, 27.0)],
        "stp": [(66.0, 40.0), (68.5, 34.0)],
        "nao": [(62.0, -12.0), (56.5, -9.0), (54.0, -15.0), (53.5, -12.5)],
        "bar": [(72.0, 30.0)],
        "gre": [(38.0, 22.3)],
        "ank": [(40.0, 39.0)],
        "naf": [(35.0, -5.0), (33.0, -7.5)],
        "sev": [(45.0, 41.0), (46.6, 31.0)],
        "eas": [(33.5, 34.5)],
        "bur": [(48.3, 7.3), (49.0, 6.0), (49.2, 4.8)],  # Alsace, Lorraine, Champagne
        "ruh": [(50.3, 7.0)],
        "pie": [(45.6, 9.3)],  # Lombardy
        "tyr": [(46.5, 10.8)],
        "gal": [(49.8, 20.0)],
        "mos": [(54.5, 30.0)],
        "war": [(52.5, 25.0)],
        "rum": [(44.5, 28.3), (47.0, 28.2)],
        "bul": [(43.2, 27.6)],
        "tri": [(42.6, 18.6)],
        "alb": [(42.1, 19.7)],
        "ven": [(43.7, 12.6), (44.5, 11.5), (43.2, 13.5)],
        "apu": [(41.8, 15.0)],
        "rom": [(42.2, 12.8), (41.6, 13.3)],
        "mao": [(47.0, -7.0), (36.0, -11.0), (49.0, -12.0), (49.5, -9.5)],
        "bal": [(54.8, 10.8)],
        "ska": [(57.0, 11.5)],
        "nwg": [(59.8, -2.0)],
        "eng": [(51.0, 1.8), (51.3, 2.4)],
        "mun": [(50.8, 12.5)],
        "sil": [(51.2, 14.8)],
        "nth": [(53.8, 3.5), (52.3, 3.6)],
        "lvp": [(55.0, -4.8)],
    },
}

# Youngstown's Europe is the standard board's, but for the provinces it divides further.
EXTRA["youngstown"] = {
    code: places
    for code, places in EXTRA["standard"].items()
    if code not in ("mun", "sil", "gal", "war", "tri", "alb")
} | {
    "swe": [(66.5, 20.5), (57.5, 14.0), (58.5, 12.0)],
    "eas": [(33.5, 34.5), (32.0, 33.8)],
    "jor": [(31.8, 34.9)],
    "syr": [(34.5, 35.9)],
}


@dataclass(frozen=True)
class Geography:
    """How a board's canvas lies on the globe and where each province grows from."""

    to_globe: Callable[[Any, Any], tuple[Any, Any]]  # canvas x, y arrays -> latitude, longitude
    seeds: dict[str, list[tuple[float, float]]]  # province -> canvas points
    step: float  # canvas units a cell
    wraps: bool


def _extrapolate(value: Any, points: tuple[float, ...], values: tuple[float, ...]) -> Any:
    """np.interp that carries the first and last pieces on past the ends."""
    import numpy as np

    p, v = np.asarray(points, float), np.asarray(values, float)
    if p[0] > p[-1]:
        p, v = p[::-1], v[::-1]
    out = np.interp(value, p, v)
    low, high = value < p[0], value > p[-1]
    out = np.where(low, v[0] + (value - p[0]) * (v[1] - v[0]) / (p[1] - p[0]), out)
    return np.where(high, v[-1] + (value - p[-1]) * (v[-1] - v[-2]) / (p[-1] - p[-2]), out)


def _map_places_geography(name: str, board: dict[str, Any], step: float) -> Geography:
    import map_places

    longitudes, xs, latitudes, ys, _canvas = map_places.PROJECTIONS[name]
    codes = [c for c in board["provinces"]]
    where = map_places.places(name, codes)
    for code, extra in EXTRA.get(name, {}).items():
        for i, place in enumerate(extra):
            where[f"{code}#{i}"] = place
    projected = map_places.project(name, where)
    seeds: dict[str, list[tuple[float, float]]] = {}
    for key, (x, y) in projected.items():
        seeds.setdefault(key.split("#")[0], []).append((x, y))

    def to_globe(x: Any, y: Any) -> tuple[Any, Any]:
        return _extrapolate(y, ys, latitudes), _extrapolate(x, xs, longitudes)

    return Geography(to_globe, seeds, step, bool(board["map"].get("wraps", False)))


def geography(name: str, board: dict[str, Any]) -> Geography:
    if name in ("standard", "youngstown"):
        return _map_places_geography(name, board, 1.0 if name == "standard" else 2.0)
    raise SystemExit(f"no geography for board {name!r}")


def neighbours(board: dict[str, Any]) -> dict[str, set[str]]:
    """Every province's neighbours on the board, by army or fleet, coasts folded in."""
    out: dict[str, set[str]] = {code: set() for code in board["provinces"]}
    for code, p in board["provinces"].items():
        targets = list(p.get("army", [])) + list(p.get("fleet", []))
        for coast in p.get("coasts", {}).values():
            targets += coast
        for t in targets:
            other = t.split("/")[0]
            out[code].add(other)
            out[other].add(code)
    return out


def land_grid(geo: Geography, canvas: tuple[int, int]) -> Any:
    """A boolean grid, rows from the top: True where most of the cell is land."""
    import numpy as np
    from global_land_mask import globe

    width, height = canvas
    columns, rows = math.ceil(width / geo.step), math.ceil(height / geo.step)
    offsets = (np.arange(SUB) + 0.5) / SUB
    xs = ((np.arange(columns)[:, None] + offsets[None, :]) * geo.step).ravel()
    ys = ((np.arange(rows)[:, None] + offsets[None, :]) * geo.step).ravel()
    grid_x, grid_y = np.meshgrid(xs, ys)
    lat, lon = geo.to_globe(grid_x, grid_y)
    lon = (lon + 180.0) % 360.0 - 180.0
    lat = np.clip(lat, -89.999, 89.999)
    land = globe.is_land(lat, lon).astype(float)
    return land.reshape(rows, SUB, columns, SUB).mean(axis=(1, 3)) > 0.5


KINDS = {"sea": "sea", "land": "land", "coast": "land", "canal": "land"}


def grow(
    board: dict[str, Any], geo: Geography, land: Any
) -> tuple[Any, list[str], dict[str, list[tuple[int, int]]]]:
    """The grid of owners (an index into the returned codes; -1 nobody) and each province's
    seed cells."""
    import numpy as np
    from scipy import ndimage

    rows, columns = land.shape
    provinces = board["provinces"]
    codes = sorted(provinces)
    index = {c: i for i, c in enumerate(codes)}
    nbrs = neighbours(board)
    impassable = {c for c in codes if provinces[c]["terrain"] == "impassable"}

    def cell(point: tuple[float, float]) -> tuple[int, int]:
        r = min(max(int(point[1] / geo.step), 0), rows - 1)
        return r, min(max(int(point[0] / geo.step), 0), columns - 1)

    # Water that no sea reaches (lakes) is land.
    water_parts, _ = ndimage.label(~land)
    sea_parts = set()
    for code in codes:
        if KINDS.get(provinces[code]["terrain"]) == "sea" or code in impassable:
            for point in geo.seeds.get(code, []):
                r, c = cell(point)
                if water_parts[r, c]:
                    sea_parts.add(water_parts[r, c])
                elif KINDS.get(provinces[code]["terrain"]) == "sea":
                    _, (ir, ic) = ndimage.distance_transform_edt(land, return_indices=True)
                    sea_parts.add(water_parts[ir[r, c], ic[r, c]])
    land = land | ~np.isin(water_parts, sorted(sea_parts))
    shore = land & ndimage.binary_dilation(~land, structure=np.ones((3, 3), bool))
    _, (land_r, land_c) = ndimage.distance_transform_edt(~land, return_indices=True)
    _, (sea_r, sea_c) = ndimage.distance_transform_edt(land, return_indices=True)

    kind = {}
    seeds: dict[str, list[tuple[int, int]]] = {}
    for code in codes:
        points = geo.seeds.get(code)
        if not points:
            continue
        terrain = provinces[code]["terrain"]
        first = cell(points[0])
        want = KINDS.get(terrain) or ("land" if land[first] else "sea")
        kind[code] = want
        cells = []
        for point in points:
            r, c = cell(point)
            if want == "land":
                r, c = land_r[r, c], land_c[r, c]
                if terrain == "land" and shore[r, c]:
                    inner = land & ~shore
                    _, (ir, ic) = ndimage.distance_transform_edt(~inner, return_indices=True)
                    r, c = ir[r, c], ic[r, c]
            else:
                r, c = sea_r[r, c], sea_c[r, c]
            cells.append((int(r), int(c)))
        seeds[code] = cells

    owner = np.full((rows, columns), -1, dtype=np.int32)
    allowed = [
        {index[n] for n in nbrs[c]} | {index[i] for i in impassable} | {index[c]} for c in codes
    ]
    free_for_all = {index[c] for c in impassable}
    slowness = [IMPASSABLE_SLOWNESS if c in impassable else 1.0 for c in codes]
    is_land = land.tolist()
    is_shore = shore.tolist()
    taken = owner.tolist()
    inland = {index[c] for c in codes if provinces[c]["terrain"] == "land"}
    want_land = {index[c]: kind[c] == "land" for c in kind}
    steps = [(-1, 0, 1.0), (1, 0, 1.0), (0, -1, 1.0), (0, 1, 1.0)]
    steps += [(-1, -1, 1.4142), (-1, 1, 1.4142), (1, -1, 1.4142), (1, 1, 1.4142)]

    def run(constrained: bool, heap: list[tuple[float, int, int, int]]) -> None:
        heapq.heapify(heap)
        while heap:
            d, p, r, c = heapq.heappop(heap)
            if taken[r][c] != -1 or is_land[r][c] != want_land[p]:
                continue
            if constrained:
                if p in inland and is_shore[r][c]:
                    continue
                if p not in free_for_all:
                    ok = True
                    for dr, dc, _ in steps[:4]:
                        rr, cc = r + dr, c + dc
                        if geo.wraps:
                            cc %= columns
                        if 0 <= rr < rows and 0 <= cc < columns:
                            q = taken[rr][cc]
                            if q != -1 and q not in allowed[p]:
                                ok = False
                                break
                    if not ok:
                        continue
            taken[r][c] = p
            for dr, dc, cost in steps:
                rr, cc = r + dr, c + dc
                if geo.wraps:
                    cc %= columns
                inside = 0 <= rr < rows and 0 <= cc < columns
                if inside and taken[rr][cc] == -1 and is_land[rr][cc] == want_land[p]:
                    heapq.heappush(heap, (d + cost * slowness[p], p, rr, cc))

    run(True, [(0.0, index[c], r, c2) for c, cells in seeds.items() for r, c2 in cells])
    # What the rule left: grown into from every taken cell beside it.
    again = []
    for r in range(rows):
        for c in range(columns):
            p = taken[r][c]
            if p == -1:
                continue
            for dr, dc, cost in steps:
                rr, cc = r + dr, (c + dc) % columns if geo.wraps else c + dc
                if 0 <= rr < rows and 0 <= cc < columns and taken[rr][cc] == -1:
                    again.append((cost, p, rr, cc))
    run(False, again)
    owner = np.array(taken, dtype=np.int32)
    return owner, codes, seeds, land


def settle_islands(
    owner: Any, land: Any, codes: list[str], step: float, kinds: dict[str, str]
) -> Any:
    """Land nobody took: an island near a land province joins it; a big one stays nobody's (-2,
    drawn as impassable land); a small one goes to the sea round it."""
    import numpy as np
    from scipy import ndimage

    is_land_owner = np.array([kinds.get(c) == "land" for c in codes] + [False])
    owned_land = (owner >= 0) & is_land_owner[np.where(owner >= 0, owner, len(codes))]
    distance, (lr, lc) = ndimage.distance_transform_edt(~owned_land, return_indices=True)
    owned_sea = (owner >= 0) & ~owned_land
    _, (sr, sc) = ndimage.distance_transform_edt(~owned_sea, return_indices=True)
    parts, count = ndimage.label(owner == -1)
    for part in range(1, count + 1):
        where = parts == part
        if not land[where].any():
            owner[where] = owner[sr[where], sc[where]]
            continue
        near = distance[where].min() * step
        i = np.argmin(np.where(where, distance, np.inf))
        r, c = divmod(int(i), owner.shape[1])
        nearest = owner[lr[r, c], lc[r, c]]
        if near <= ISLAND_REACH and where.sum() <= (owner == nearest).sum() / 3:
            owner[where] = nearest
        elif where.sum() * step * step >= MIN_ISLAND:
            owner[where] = -2
        else:
            owner[where] = owner[sr[where], sc[where]]
    return owner


def polygons(owner: Any, ids: list[int], step: float, tolerance: float) -> dict[int, Any]:
    """Each owner's cells as one shapely geometry, simplified together so shared borders stay
    shared."""
    import shapely
    from shapely.geometry import box

    rows, columns = owner.shape
    boxes: dict[int, list[Any]] = {i: [] for i in ids}
    for r in range(rows):
        line = owner[r].tolist()
        start = 0
        for c in range(1, columns + 1):
            if c == columns or line[c] != line[start]:
                if line[start] in boxes:
                    boxes[line[start]].append(box(start * step, r * step, c * step, (r + 1) * step))
                start = c
    keys = [i for i in ids if boxes[i]]
    merged = [shapely.union_all(boxes[i]).buffer(0) for i in keys]
    simplified = shapely.coverage_simplify(merged, tolerance, simplify_boundary=False)
    return dict(zip(keys, simplified, strict=True))


def rings_of(geometry: Any) -> list[list[list[float]]]:
    """Outer rings one way round, holes the other, rounded to 0.1, first point not repeated."""
    from shapely.geometry import Polygon
    from shapely.geometry.polygon import orient

    parts = getattr(geometry, "geoms", [geometry])
    out = []
    for part in parts:
        if not isinstance(part, Polygon) or part.is_empty:
            continue
        part = orient(part, sign=1.0)
        for ring in [part.exterior, *part.interiors]:
            points: list[list[float]] = []
            for x, y in list(ring.coords)[:-1]:
                p = [round(x, 1), round(y, 1)]
                if not points or p != points[-1]:
                    points.append(p)
            while len(points) > 1 and points[0] == points[-1]:
                points.pop()
            if len(points) >= 3:
                out.append(points)
    return out


def label_size(code: str) -> tuple[float, float]:
    return LABEL_EM * LABEL_FONT * len(code), LABEL_FONT


def place_points(
    codes: list[str], shapes: dict[str, Any], board: dict[str, Any], kinds: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """Label, unit, centre and coast points, each well inside its province, labels apart."""
    from shapely.geometry import box

    provinces = board["provinces"]
    out: dict[str, dict[str, Any]] = {}
    placed: list[Any] = []
    order = sorted(shapes, key=lambda c: shapes[c].area)
    for code in order:
        shape = shapes[code]
        largest = max(getattr(shape, "geoms", [shape]), key=lambda g: g.area)
        candidates = _candidates(largest)
        w, h = label_size(code)

        def free(p: tuple[float, float], w: float = w, h: float = h) -> bool:
            b = box(p[0] - w / 2, p[1] - h / 2, p[0] + w / 2, p[1] + h / 2)
            return not any(b.intersects(o) for o in placed)

        label = next(
            (
                p
                for p, _ in candidates
                if free(p)
                and largest.contains(box(p[0] - w / 2, p[1] - h / 2, p[0] + w / 2, p[1] + h / 2))
            ),
            None,
        ) or next((p for p, _ in candidates if free(p)), None)
        if label is None:
            raise SystemExit(f"{code}: no room for its label")
        placed.append(box(label[0] - w / 2, label[1] - h / 2, label[0] + w / 2, label[1] + h / 2))
        taken = [label]

        def apart(
            points: list[tuple[float, float]], need: float, candidates: list[Any] = candidates
        ) -> tuple[float, float]:
            for p, room in candidates:
                if all(math.dist(p, q) >= need for q in points) and room >= 3:
                    return p
            return max(candidates, key=lambda pr: min(math.dist(pr[0], q) for q in points))[0]

        unit = apart(taken, 16.0)
        taken.append(unit)
        entry: dict[str, Any] = {
            "kind": kinds[code],
            "label": [round(label[0], 1), round(label[1], 1)],
            "unit": [round(unit[0], 1), round(unit[1], 1)],
            "centre": None,
        }
        if provinces[code].get("centre"):
            centre = apart(taken, 12.0)
            taken.append(centre)
            entry["centre"] = [round(centre[0], 1), round(centre[1], 1)]
        out[code] = entry
    return out


def _candidates(shape: Any) -> list[tuple[tuple[float, float], float]]:
    """Points inside `shape` on a fine grid, each with its distance to the shape's edge, the
    most interior first."""
    import numpy as np
    import shapely

    minx, miny, maxx, maxy = shape.bounds
    spacing = max(1.0, min(maxx - minx, maxy - miny) / 24)
    xs = np.arange(minx + spacing / 2, maxx, spacing)
    ys = np.arange(miny + spacing / 2, maxy, spacing)
    gx, gy = (a.ravel() for a in np.meshgrid(xs, ys))
    keep = shapely.contains_xy(shape, gx, gy)
    gx, gy = gx[keep], gy[keep]
    rooms = shapely.distance(shape.boundary, shapely.points(gx, gy))
    order = np.argsort(-rooms, kind="stable")
    return [((float(gx[i]), float(gy[i])), float(rooms[i])) for i in order]


def coast_points(
    code: str, shape: Any, board: dict[str, Any], shapes: dict[str, Any], taken: list[Any]
) -> dict[str, list[float]]:
    """For a two-coast province: a point inside it near each coast's own seas, far from the
    other coasts' seas."""
    from shapely.geometry import Point
    from shapely.ops import unary_union

    coasts = board["provinces"][code].get("coasts", {})
    if len(coasts) < 2:
        return {}
    seas = {
        coast: {t.split("/")[0] for t in targets if t.split("/")[0] in shapes}
        & {c for c, p in board["provinces"].items() if p["terrain"] == "sea"}
        for coast, targets in coasts.items()
    }
    out = {}
    inner = shape.buffer(-2.5)
    for coast, own in seas.items():
        others = set().union(*(s for c, s in seas.items() if c != coast)) - own
        water = unary_union([shapes[s] for s in own])
        away = unary_union([shapes[s] for s in others]) if others else None
        best, score = None, -math.inf
        for p, room in _candidates(shape):
            if room < 2.5 or not inner.contains(Point(p)):
                continue
            near = water.distance(Point(p))
            s = (
                -1000 * max(0.0, near - 14)
                + (away.distance(Point(p)) if away is not None else 0)
                - 2 * near
            )
            s += min(math.dist(p, q) for q in taken) * 0.5 if taken else 0
            if s > score:
                best, score = p, s
        if best is None:
            raise SystemExit(f"{code}/{coast}: no point near its seas")
        taken.append(best)
        out[coast] = [round(best[0], 1), round(best[1], 1)]
    return out


def chain(segments: list[tuple[Any, Any]]) -> list[list[list[float]]]:
    """Segments joined end to end into polylines."""
    ends: dict[Any, list[Any]] = {}
    for a, b in segments:
        ends.setdefault(a, []).append(b)
        ends.setdefault(b, []).append(a)
    used: set[Any] = set()
    lines = []
    starts = [p for p, n in ends.items() if len(n) != 2] + list(ends)
    for start in starts:
        for nxt in ends[start]:
            if (start, nxt) in used:
                continue
            line = [start]
            a, b = start, nxt
            while (a, b) not in used:
                used.add((a, b))
                used.add((b, a))
                line.append(b)
                onward = [n for n in ends[b] if (b, n) not in used]
                if len(ends[b]) != 2 or not onward:
                    break
                a, b = b, onward[0]
            lines.append([list(p) for p in line])
    return lines


def build(name: str) -> dict[str, Any]:
    import numpy as np
    from shapely.ops import nearest_points

    from judge.pictures.shape_checks import shared_borders
    from judge.pictures.shapes import shapes_from_json

    board = tomllib.loads((ROOT / "maps" / f"{name}.toml").read_text())
    canvas = tuple(board["map"].get("canvas", [1000, 800]))
    geo = geography(name, board)
    land = land_grid(geo, canvas)
    owner, codes, seeds, land = grow(board, geo, land)
    provinces = board["provinces"]
    kinds = {}
    for code in codes:
        terrain = provinces[code]["terrain"]
        if code in seeds:
            r, c = seeds[code][0]
            kinds[code] = "land" if land[r, c] else "sea"
        kinds[code] = KINDS.get(terrain, kinds.get(code, "land"))
    owner = settle_islands(owner, land, codes, geo.step, kinds)
    ids = sorted({int(i) for i in np.unique(owner)})
    geometries = polygons(owner, ids, geo.step, geo.step * 1.2)
    passable = [c for c in codes if provinces[c]["terrain"] != "impassable"]
    shapes = {codes[i]: g for i, g in geometries.items() if i >= 0 and codes[i] in passable}
    for code in passable:
        if code not in shapes:
            raise SystemExit(f"{code}: took no cells")
    points = place_points(passable, shapes, board, kinds)
    out_provinces = {}
    for code in sorted(passable):
        entry = {"kind": kinds[code], "rings": rings_of(shapes[code])} | points[code]
        taken = [tuple(entry["label"]), tuple(entry["unit"])]
        coasts = coast_points(code, shapes[code], board, shapes, taken)
        if coasts:
            entry["coasts"] = coasts
        out_provinces[code] = entry
    impassable = [
        {"rings": rings_of(g)}
        for i, g in sorted(geometries.items())
        if i == -2 or (i >= 0 and codes[i] not in passable)
    ]
    data: dict[str, Any] = {
        "board": name,
        "canvas": list(canvas),
        "source": (
            f"tools/make_province_shapes.py from maps/{name}.toml and the land mask of the "
            "PyPI package global-land-mask 1.0.0 (NOAA GLOBE elevation data, public domain; "
            "the package under the MIT licence). Change the script and run it again rather "
            "than editing this file."
        ),
        "provinces": out_provinces,
        "impassable": impassable,
        "barriers": [],
        "crossings": [],
    }
    nbrs = neighbours(board)
    read = shapes_from_json(data)
    borders = shared_borders(read)
    for (a, b), segments in sorted(borders.items()):
        if b not in nbrs[a]:
            data["barriers"] += chain(segments)
    for a in sorted(passable):
        for b in sorted(nbrs[a]):
            if a < b and b in shapes and (a, b) not in borders:
                pa, pb = nearest_points(shapes[a], shapes[b])
                if geo.wraps and pa.distance(pb) > canvas[0] / 2:
                    pa, pb = _across_edge(shapes[a], shapes[b], canvas)
                line = [[round(pa.x, 1), round(pa.y, 1)], [round(pb.x, 1), round(pb.y, 1)]]
                data["crossings"].append([a, b, line])
    return data


def _across_edge(a: Any, b: Any, canvas: tuple[int, int]) -> tuple[Any, Any]:
    """The nearest points of a and b with b moved a canvas width east or west."""
    from shapely.affinity import translate
    from shapely.ops import nearest_points

    best = None
    for shift in (canvas[0], -canvas[0]):
        pa, pb = nearest_points(a, translate(b, xoff=shift))
        if best is None or pa.distance(pb) < best[0].distance(best[1]):
            best = (pa, translate(pb, xoff=-shift))
    assert best is not None
    return best


def report(data: dict[str, Any], board: dict[str, Any]) -> str:
    del board
    barriers = len(data["barriers"])
    crossings = ", ".join(f"{a}-{b}" for a, b, _ in data["crossings"])
    return f"{barriers} barrier lines; crossings: {crossings or 'none'}"


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        print("usage: make_province_shapes.py BOARD [--check]", file=sys.stderr)
        return 2
    name = args[0]
    target = ROOT / "maps" / f"{name}.shapes.json"
    data = build(name)
    text = json.dumps(data, separators=(",", ":")) + "\n"
    if "--check" in sys.argv[1:]:
        if not target.is_file() or target.read_text() != text:
            print(f"{target.relative_to(ROOT)} differs from what the mask makes", file=sys.stderr)
            return 1
        return 0
    target.write_text(text)
    board = tomllib.loads((ROOT / "maps" / f"{name}.toml").read_text())
    print(f"wrote {target.relative_to(ROOT)}: {len(text)} bytes; {report(data, board)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
