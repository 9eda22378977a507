"""Write maps/<board>.shapes.json: every province of a geographic board as polygons on the
board's own canvas, for pictures that look like the map players know.

Inputs, all on this machine when the script runs (nothing is downloaded, and the judge never runs
this script):
- the board, maps/<board>.toml: its provinces, their terrain, adjacency and `at` positions;
- where each province lies on the globe: tools/map_places.py for the standard and Youngstown
  boards (with its projection, PROJECTIONS); for 1885 the latitude and longitude of twenty
  capitals and seas written below (FIT_1885) to fit a projection to that board's hand-placed
  positions, and of its own provinces (PLACES_1885); the Mercator world board's own projection
  (tools/make_mercator_world.py) and positions; a few further points per province (EXTRA);
- the land mask shipped in the PyPI package global-land-mask 1.0.0 (toddkarin/global-land-mask,
  MIT licence), itself NOAA's GLOBE elevation data at 30 arc-seconds (public domain).

Only this script needs the mask, numpy, scipy and shapely, in a virtual environment of its own:

    python3 -m venv /tmp/shapes && /tmp/shapes/bin/pip install global-land-mask scipy shapely
    /tmp/shapes/bin/python tools/make_province_shapes.py standard [--check]

How: the canvas is cut into square cells (one canvas unit a side on the standard and 1885
boards, two on the larger Youngstown and world boards); each cell is land when most
of SUB x SUB samples of the mask inside it are land (water no sea province reaches, a lake, counts
as land). Every province grows from its own points (its place on the globe, projected, and the
few extra points of EXTRA) over cells of its own kind, land provinces over land, seas over sea,
inland provinces never onto a cell at the shore, nearest cells first (a multi-source Dijkstra).
A cell is taken only if every taken cell beside it belongs to the same province or one of its
neighbours on the board, so that non-neighbours do not meet; what is left is then filled without
that rule. An island no province reached joins the nearest land province within ISLAND_REACH
units if it is no bigger than a third of it, or else is drawn as impassable land (a small one
goes to the sea round it); a province's own island too small for the canvas is drawn
MIN_ISLAND_RADIUS units round its point. The cells are turned into polygons, simplified together
(shapely's coverage simplification, so that two provinces keep one shared border), and each
province gets its points well inside it: its label where the box of its code fits clear of
every other label (the smallest provinces first; labels still in each other's way are moved
among their own points by a seeded annealing), its unit and supply centre apart from the label,
and each coast of a two-coast province COAST_INSET units from that coast's own seas. Borders between
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
MIN_ISLAND_RADIUS = 5.0  # canvas units: a province's island no bigger is drawn this size
MIN_ISLAND = 30.0  # square canvas units: smaller islands no province takes go to the sea
IMPASSABLE_SLOWNESS = 1.2  # impassable land grows this much slower than provinces
COAST_INSET = 6.0  # canvas units from its seas where a fleet on a coast is drawn
NEAR_LABELS = 60.0  # canvas units: other provinces' labels and units a unit point keeps clear of
UNITS_APART = 16.0  # canvas units a unit point keeps from those, and from its own label
UNIT_ROUNDS = 6  # rounds of placing each unit again among its neighbours' (`place_units`)
OWN_LABEL_SHARE = 0.4  # of a small province's breadth its unit keeps from its own label

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
    "nth": [(53.8, 3.5), (52.3, 3.6), (53.0, 1.5), (56.0, -1.0)],
    "gal": [(49.8, 20.0), (50.0, 19.0)],
    "vie": [(48.5, 17.5)],
    "war": [(52.5, 25.0)],
    "pos": [(52.0, 15.2)],
    "sax": [(51.5, 14.5)],
    "lyo": [(41.5, 3.0), (43.5, 8.5)],
    "ion": [(34.5, 14.0), (34.0, 22.0)],
    "sah": [(29.0, 5.0), (27.0, 10.0)],
    "fez": [(22.0, 20.0)],
    "egy": [(25.0, 26.0)],
    "red": [(25.0, 35.5), (28.0, 33.5)],
    "osa": [(34.7, 135.5)],
    "fuj": [(35.3, 138.7)],
    "kyo": [(35.8, 136.2)],
    "aki": [(39.5, 140.5)],
    "vla": [(43.0, 131.5)],
    "kor": [(41.5, 129.5)],
    "sib": [(60.0, 135.0), (64.0, 160.0), (60.0, 150.0)],
    "bag": [(30.5, 47.8)],
    "yem": [(23.0, 56.0), (20.0, 52.0)],
    "ira": [(26.0, 60.0)],
    "sud": [(19.0, 36.0)],
    "sue": [(29.5, 32.8)],
    "del": [(31.0, 74.0)],
    "cal": [(25.0, 85.0), (26.5, 88.3)],
    "ser": [(42.0, 21.5)],
    "gre": [(40.8, 22.5)],
    "mad": [(8.5, 77.5)],
    "wio": [(5.0, 76.0)],
}

# The world board's Europe is the standard board's (maps/mercator-world.md).
EXTRA["mercator-world"] = dict(EXTRA["standard"]) | {
    "nao": [(62.0, -12.0), (56.5, -9.0), (54.0, -15.0), (53.5, -12.5), (48.0, -20.0)],
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
        if code not in board["provinces"]:
            continue
        for i, place in enumerate(extra):
            where[f"{code}#{i}"] = place
    projected = map_places.project(name, where)
    seeds: dict[str, list[tuple[float, float]]] = {}
    for key, (x, y) in projected.items():
        seeds.setdefault(key.split("#")[0], []).append((x, y))

    def to_globe(x: Any, y: Any) -> tuple[Any, Any]:
        return _extrapolate(y, ys, latitudes), _extrapolate(x, xs, longitudes)

    return Geography(to_globe, seeds, step, bool(board["map"].get("wraps", False)))


# Where some of 1885's provinces are on the globe (latitude, longitude of the capital or the
# middle of the sea), to fit that board's hand-placed positions to the globe.
FIT_1885 = {
    "lon": (51.5, -0.1), "par": (48.9, 2.35), "ber": (52.5, 13.4), "vie": (48.2, 16.4),
    "rom": (41.9, 12.5), "con": (41.0, 29.0), "mos": (55.75, 37.6), "mad": (40.4, -3.7),
    "edi": (55.95, -3.2), "mun": (48.1, 11.6), "bud": (47.5, 19.0), "nap": (40.85, 14.25),
    "sev": (44.6, 33.5), "stp": (59.9, 30.3), "mar": (43.3, 5.4), "war": (52.2, 21.0),
    "sto": (59.3, 18.1), "den": (55.7, 12.6), "bla": (43.0, 34.0), "nth": (56.0, 3.0),
}  # fmt: skip


# Where 1885's own provinces lie (latitude, longitude of the region's middle); the others are
# the standard board's regions (tools/map_places.py), and a few grow from EXTRA's points too.
PLACES_1885 = {
    "arc": (64.5, 45.0), "bas": (43.0, -2.5), "cad": (37.5, -5.5), "clu": (46.8, 23.6),
    "cro": (45.5, 16.0), "dre": (51.0, 13.0), "egy": (29.0, 30.0), "got": (58.0, 13.0),
    "ire": (53.2, -8.0), "lap": (67.5, 22.0), "lev": (34.0, 37.5), "mac": (41.3, 22.5),
    "mad": (40.4, -3.7), "mal": (56.0, 14.0), "nav": (42.0, -0.5), "per": (37.0, 47.0),
    "sib": (58.0, 58.0), "sic": (37.5, 14.2), "sin": (41.0, 36.0), "spl": (43.8, 16.8),
    "sto": (61.0, 16.0), "val": (39.5, -0.8), "alg": (35.0, 3.0), "mor": (33.0, -6.0),
    "arm": (40.0, 42.0), "smy": (38.5, 29.0), "bul": (42.8, 25.5), "fin": (63.0, 27.0),
}  # fmt: skip
EXTRA["1885"] = {
    code: EXTRA["standard"][code]
    for code in (
        "bur", "ruh", "pie", "tyr", "ven", "rom", "apu", "mao", "nth", "eng", "bal", "ska",
        "nao", "nwg", "war", "mos",
    )
} | {
    "nwy": [(59.5, 6.5), (66.0, 14.0), (69.0, 17.0)], "mor": [(31.0, -9.0)],
    "lap": [(68.5, 24.0)], "arc": [(67.8, 35.0), (66.0, 33.0)], "sto": [(64.5, 19.5), (58.7, 16.3)],
    "fin": [(65.5, 25.0)], "mal": [(56.8, 15.8)], "mao": [(51.0, -10.5), (47.0, -7.0)],
    "nwg": [(70.5, 12.0)], "bar": [(71.5, 25.0)], "kie": [(53.0, 9.5)], "mun": [(50.5, 10.0)],
    "vie": [(49.0, 17.5)], "gal": [(49.8, 20.0), (48.3, 25.5)], "rum": [(47.5, 26.5)],
    "spl": [(44.8, 17.5)], "bud": [(45.8, 18.5)], "mac": [(41.0, 24.5)], "con": [(41.2, 26.5)],
    "mar": [(45.8, 6.3)], "per": [(40.0, 48.0)], "sev": [(44.0, 46.0)],
}  # fmt: skip


def _positions_geography(board: dict[str, Any], fit: dict[str, tuple[float, float]]) -> Geography:
    """A board whose `at` points were placed by hand: longitude and latitude each fitted to x
    and y by least squares over the provinces of `fit`; each province grows from its real
    place, projected so."""
    import numpy as np

    at = {c: p["at"] for c, p in board["provinces"].items() if "at" in p}
    lon = np.array([fit[c][1] for c in fit])
    lat = np.array([fit[c][0] for c in fit])
    xs = np.array([at[c][0] for c in fit], float)
    ys = np.array([at[c][1] for c in fit], float)
    ax, bx = np.polyfit(xs, lon, 1)
    ay, by = np.polyfit(ys, lat, 1)

    def to_globe(x: Any, y: Any) -> tuple[Any, Any]:
        return ay * y + by, ax * x + bx

    import map_places

    places = {**map_places.EUROPE, **PLACES_1885}
    seeds: dict[str, list[tuple[float, float]]] = {}
    for code in at:
        for lat, lon in [places[code], *EXTRA["1885"].get(code, [])]:
            seeds.setdefault(code, []).append(((lon - bx) / ax, (lat - by) / ay))
    return Geography(to_globe, seeds, 1.0, False)


def _mercator_geography(board: dict[str, Any]) -> Geography:
    """The world board: x from 180 W to 180 E, y by Mercator's projection at the canvas's scale
    (tools/make_mercator_world.py); each province grows from its `at`."""
    import numpy as np

    width, height = board["map"]["canvas"]
    scale = width / (2 * math.pi)

    def to_globe(x: Any, y: Any) -> tuple[Any, Any]:
        lat = np.degrees(2 * np.arctan(np.exp((height / 2 - y) / scale)) - math.pi / 2)
        return lat, x / width * 360.0 - 180.0

    seeds = {c: [(float(p["at"][0]), float(p["at"][1]))] for c, p in board["provinces"].items()}
    for code, p in board["provinces"].items():
        if p["terrain"] == "polar":  # a polar cap stretches along its whole edge
            edge = 1.0 if p["at"][1] < height / 2 else height - 1.0
            seeds[code] += [(x + 0.5, edge) for x in range(0, width, 50)]
    for code, places in EXTRA.get(board["map"]["name"], {}).items():
        if code in seeds:
            for lat, lon in places:
                y = height / 2 - scale * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
                seeds[code].append(((lon + 180.0) / 360.0 * width, y))
    return Geography(to_globe, seeds, 2.0, True)


def geography(name: str, board: dict[str, Any]) -> Geography:
    if name in ("standard", "youngstown"):
        return _map_places_geography(name, board, 1.0 if name == "standard" else 2.0)
    if name == "1885":
        return _positions_geography(board, FIT_1885)
    if name == "mercator-world":
        return _mercator_geography(board)
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


def land_grid(
    geo: Geography, canvas: tuple[int, int], land_seeds: list[tuple[float, float]]
) -> Any:
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
    share = land.reshape(rows, SUB, columns, SUB).mean(axis=(1, 3))
    out = share > 0.5
    # A land province's island too small for the canvas is drawn a little larger than it is.
    cx = (np.arange(columns) + 0.5) * geo.step
    cy = (np.arange(rows) + 0.5) * geo.step
    for x, y in land_seeds:
        near = np.hypot(cx[None, :] - x, cy[:, None] - y)
        if (out & (near <= ISLAND_REACH)).any():
            continue
        if (share[near <= ISLAND_REACH] > 0).any():
            out |= (near <= ISLAND_REACH) & (share > 0)
        else:
            out |= near <= max(MIN_ISLAND_RADIUS, geo.step * 1.5)
    return out


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


def _label_box(code: str, p: tuple[float, float]) -> Any:
    """The box the pictures' label of `code` covers, centred on `p`."""
    from shapely.geometry import box

    from judge.pictures.shape_checks import label_box

    return box(*label_box(code, p))


def place_labels(shapes: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Each province's label point, inside it, its box clear of every other label's and inside
    the province where it fits, the smallest provinces first; a province that finds no room
    moves the labels in its way to other points of theirs if they have one."""
    cands = {code: _candidates(_largest(shape)) for code, shape in shapes.items()}
    placed: dict[str, Any] = {}
    labels: dict[str, tuple[float, float]] = {}

    def free(code: str, p: tuple[float, float], ignore: str = "") -> bool:
        b = _label_box(code, p)
        return not any(b.intersects(o) for c, o in placed.items() if c not in (code, ignore))

    for code in sorted(shapes, key=lambda c: shapes[c].area):
        largest = _largest(shapes[code])
        options = [p for p, _ in cands[code]]
        label = next(
            (p for p in options if free(code, p) and largest.contains(_label_box(code, p))), None
        ) or next((p for p in options if free(code, p)), None)
        if label is None:
            label = options[0]
        labels[code], placed[code] = label, _label_box(code, label)
    return _untangle(labels, placed, cands)


def _untangle(
    labels: dict[str, tuple[float, float]],
    placed: dict[str, Any],
    cands: dict[str, list[tuple[tuple[float, float], float]]],
) -> dict[str, tuple[float, float]]:
    """Labels that still overlap move, one at a time, to the point of theirs that overlaps
    the others least (more interior points first among equals), until none overlaps or no
    move helps."""
    from shapely.strtree import STRtree

    def overlap(code: str, box: Any) -> float:
        return sum(box.intersection(b).area for c, b in placed.items() if c != code)

    anneals = 0
    for _round in range(200):
        codes = list(placed)
        tree = STRtree([placed[c] for c in codes])
        tangled = sorted(
            {
                codes[k]
                for i, c in enumerate(codes)
                for k in tree.query(placed[c], predicate="intersects")
                if codes[k] != c
            }
        )
        if not tangled:
            break
        moved = False
        for code in tangled:
            now = overlap(code, placed[code])
            if now == 0:
                continue
            best, score = labels[code], now
            for p, _room in cands[code][:400]:
                box = _label_box(code, p)
                o = overlap(code, box)
                if o < score - 1e-9:
                    best, score = p, o
                    if o == 0:
                        break
            if best != labels[code]:
                labels[code], placed[code] = best, _label_box(code, best)
                moved = True
        if not moved:
            if anneals == 6:
                break
            _anneal(tangled, labels, placed, cands, seed=anneals)
            anneals += 1
    for code in placed:
        if overlap(code, placed[code]) > 0:
            print(f"{code}: its label overlaps another", file=sys.stderr)
    return labels


def _anneal(
    tangled: list[str],
    labels: dict[str, tuple[float, float]],
    placed: dict[str, Any],
    cands: dict[str, list[tuple[tuple[float, float], float]]],
    seed: int,
) -> None:
    """Where moving one label at a time is stuck, the labels near the tangle take random
    points of theirs, worse ones too while the temperature is high (simulated annealing with a
    fixed seed, so the file is the same every run)."""
    import random

    chance = random.Random(seed)
    centre = [labels[c] for c in tangled]
    group = [c for c in placed if min(math.dist(labels[c], q) for q in centre) <= 80]

    def overlap(code: str, box: Any) -> float:
        return sum(box.intersection(placed[c]).area for c in group if c != code)

    total = sum(overlap(c, placed[c]) for c in group) / 2
    steps = 30000
    for step in range(steps):
        if total <= 0:
            break
        heat = 20.0 * (1 - step / steps) + 0.01
        code = chance.choice(group)
        p, _room = chance.choice(cands[code][:300])
        box = _label_box(code, p)
        delta = overlap(code, box) - overlap(code, placed[code])
        if delta <= 0 or chance.random() < math.exp(-delta / heat):
            labels[code], placed[code] = p, box
            total += delta


def _largest(shape: Any) -> Any:
    return max(getattr(shape, "geoms", [shape]), key=lambda g: g.area)


def place_points(
    codes: list[str], shapes: dict[str, Any], board: dict[str, Any], kinds: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """Label, unit and centre points, each well inside its province, labels apart, each unit
    apart from the labels and the units round it (`place_units`)."""
    provinces = board["provinces"]
    labels = place_labels(shapes)
    candidates = {code: _candidates(_largest(shapes[code])) for code in codes}
    units = place_units(codes, shapes, labels, candidates)
    out: dict[str, dict[str, Any]] = {}
    for code in codes:
        label, unit = labels[code], units[code]
        entry: dict[str, Any] = {
            "kind": kinds[code],
            "label": [round(label[0], 1), round(label[1], 1)],
            "unit": [round(unit[0], 1), round(unit[1], 1)],
            "centre": None,
        }
        if provinces[code].get("centre"):
            centre = _apart(candidates[code], [label, unit], 12.0)
            entry["centre"] = [round(centre[0], 1), round(centre[1], 1)]
        out[code] = entry
    return out


def place_units(
    codes: list[str],
    shapes: dict[str, Any],
    labels: dict[str, tuple[float, float]],
    candidates: dict[str, list[tuple[tuple[float, float], float]]],
) -> dict[str, tuple[float, float]]:
    """Each province's unit point: the most interior of its points UNITS_APART from the labels
    of the provinces round it (a unit drawn on one reads as that province's: the world board's
    Liverpool by the EDI label) and the units round it (two units on one spot read as one: the
    world board's Rome and Tuscany met at their common corner), and apart from its own label by
    as much, or by a part of the province's breadth where it is small (Liverpool's army pushed
    to a corner by its own label stood by Edinburgh's); where a province is too small for that
    (the world board's Europe), the point farthest from the nearest of them. Each unit is placed
    again while one moves (a few rounds), so that each answers its neighbours' last places."""
    near = {
        code: [o for o in codes if o != code and math.dist(labels[o], labels[code]) < NEAR_LABELS]
        for code in codes
    }
    own = {code: min(UNITS_APART, _breadth(shapes[code]) * OWN_LABEL_SHARE) for code in codes}
    units = {code: _apart(candidates[code], [], UNITS_APART, labels[code], own[code]) for code in codes}
    for _round in range(UNIT_ROUNDS):
        moved = False
        for code in codes:
            others = [labels[o] for o in near[code]] + [units[o] for o in near[code]]
            unit = _apart(candidates[code], others, UNITS_APART, labels[code], own[code])
            if unit != units[code]:
                units[code], moved = unit, True
        if not moved:
            break
    return units


def _breadth(shape: Any) -> float:
    """A province's breadth: the shorter side of its largest part's bounds."""
    minx, miny, maxx, maxy = _largest(shape).bounds
    return float(min(maxx - minx, maxy - miny))


def _apart(
    candidates: list[tuple[tuple[float, float], float]],
    points: list[tuple[float, float]],
    need: float,
    own: tuple[float, float] | None = None,
    own_need: float = 0.0,
) -> tuple[float, float]:
    """The first (most interior) candidate with room round it `need` from every one of
    `points` and `own_need` from `own`, else the candidate farthest from the nearest of them
    (`own` counted as nearer by need / own_need)."""
    for p, room in candidates:
        if (
            room >= 3
            and all(math.dist(p, q) >= need for q in points)
            and (own is None or math.dist(p, own) >= own_need)
        ):
            return p
    weight = need / own_need if own is not None and own_need > 0 else 1.0

    def clearance(pr: tuple[tuple[float, float], float]) -> tuple[float, float]:
        near = [math.dist(pr[0], q) for q in points]
        if own is not None:
            near.append(math.dist(pr[0], own) * weight)
        return (min(near, default=0.0), pr[1])

    return max(candidates, key=clearance)[0]


def _candidates(shape: Any) -> list[tuple[tuple[float, float], float]]:
    """Points inside `shape` on a fine grid, each with its distance to the shape's edge, the
    most interior first."""
    import numpy as np
    import shapely

    minx, miny, maxx, maxy = shape.bounds
    spacing = max(1.0, min(maxx - minx, maxy - miny) / 24)
    for fine in (spacing, spacing / 4):
        xs = np.arange(minx + fine / 2, maxx, fine)
        ys = np.arange(miny + fine / 2, maxy, fine)
        gx, gy = (a.ravel() for a in np.meshgrid(xs, ys))
        keep = shapely.contains_xy(shape, gx, gy)
        if keep.any():
            break
    gx, gy = gx[keep], gy[keep]
    if not len(gx):  # a sliver: the one point shapely finds inside it
        inner = shape.representative_point()
        gx, gy = np.array([inner.x]), np.array([inner.y])
    rooms = shapely.distance(shape.boundary, shapely.points(gx, gy))
    order = np.argsort(-rooms, kind="stable")
    out = [((float(gx[i]), float(gy[i])), float(rooms[i])) for i in order]
    # Rounded to 0.1 a point this far inside stays inside.
    return [pr for pr in out if pr[1] >= 0.2] or out


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
                - 2 * abs(near - COAST_INSET)
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
    land_seeds = [
        point
        for code, points in geo.seeds.items()
        if code in board["provinces"] and KINDS.get(board["provinces"][code]["terrain"]) == "land"
        for point in points[:1]
    ]
    land = land_grid(geo, canvas, land_seeds)
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
