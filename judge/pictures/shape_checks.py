"""Whether a board's shapes tell the truth about the board (judge.pictures.shapes).

Two provinces share a border when their rings have a piece of outline in common (the shapes
tool simplifies all borders together, so neighbours' outlines meet vertex for vertex). The
rules, each fault a line of `faults`:
- provinces that share a border are neighbours on the board, or that border is a barrier;
- neighbours share a border, or are a crossing;
- every province's unit, label, centre and coast points lie inside its own rings;
- no two labels' boxes overlap (LABEL_FONT-unit DejaVu Sans Bold, LABEL_EM of it a character);
- no such point lies inside another province, and every ring is a simple polygon.
Plain Python: the judge needs no geometry package.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping

from judge.pictures.shapes import Point, Ring, Shapes

LABEL_FONT = 11.0  # canvas units: the pictures' label font size
LABEL_EM = 0.62  # a character's width, in ems (DejaVu Sans Bold, upper case)
MIN_BORDER = 0.5  # canvas units of common outline that make a border

Segment = tuple[Point, Point]


def _segment(a: Point, b: Point) -> Segment:
    return (a, b) if a <= b else (b, a)


def ring_segments(ring: Ring) -> Iterable[Segment]:
    for i, a in enumerate(ring):
        b = ring[(i + 1) % len(ring)]
        if a != b:
            yield _segment(a, b)


def shared_borders(shapes: Shapes) -> dict[tuple[str, str], list[Segment]]:
    """(a, b) with a < b -> the pieces of outline the two provinces have in common."""
    owners: dict[Segment, set[str]] = defaultdict(set)
    for code, shape in shapes.provinces.items():
        for ring in shape.rings:
            for segment in ring_segments(ring):
                owners[segment].add(code)
    out: dict[tuple[str, str], list[Segment]] = defaultdict(list)
    for segment, codes in owners.items():
        ordered = sorted(codes)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                out[(a, b)].append(segment)
    return {
        pair: segments
        for pair, segments in out.items()
        if sum(math.dist(*s) for s in segments) >= MIN_BORDER
    }


def inside(point: Point, rings: Iterable[Ring]) -> bool:
    """Even-odd rule over all the rings (holes open)."""
    x, y = point
    found = False
    for ring in rings:
        for i, (ax, ay) in enumerate(ring):
            bx, by = ring[(i + 1) % len(ring)]
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                found = not found
    return found


def label_box(code: str, at: Point) -> tuple[float, float, float, float]:
    width = LABEL_EM * LABEL_FONT * len(code)
    return (at[0] - width / 2, at[1] - LABEL_FONT / 2, at[0] + width / 2, at[1] + LABEL_FONT / 2)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_meet(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Whether two segments have a point in common (touching counts)."""
    d1, d2 = _cross(r, s, p), _cross(r, s, q)
    d3, d4 = _cross(p, q, r), _cross(p, q, s)
    if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and (
        (d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0)
    ):
        return True

    def on(a: Point, b: Point, c: Point, d: float) -> bool:
        return (
            d == 0
            and min(a[0], b[0]) <= c[0] <= max(a[0], b[0])
            and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])
        )

    return on(r, s, p, d1) or on(r, s, q, d2) or on(p, q, r, d3) or on(p, q, s, d4)


def ring_is_simple(ring: Ring, cell: float = 16.0) -> bool:
    """No two edges of the ring meet except neighbours at their common vertex, and no vertex
    repeats."""
    n = len(ring)
    if n < 3 or len(set(ring)) != n:
        return False
    buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i in range(n):
        a, b = ring[i], ring[(i + 1) % n]
        for gx in range(int(min(a[0], b[0]) // cell), int(max(a[0], b[0]) // cell) + 1):
            for gy in range(int(min(a[1], b[1]) // cell), int(max(a[1], b[1]) // cell) + 1):
                buckets[(gx, gy)].append(i)
    seen: set[tuple[int, int]] = set()
    for edges in buckets.values():
        for x, i in enumerate(edges):
            for j in edges[x + 1 :]:
                if (i, j) in seen or abs(i - j) == 1 or abs(i - j) == n - 1:
                    continue
                seen.add((i, j))
                if _segments_meet(ring[i], ring[(i + 1) % n], ring[j], ring[(j + 1) % n]):
                    return False
    return True


def _bounds(rings: Iterable[Ring]) -> tuple[float, float, float, float]:
    xs = [p[0] for ring in rings for p in ring]
    ys = [p[1] for ring in rings for p in ring]
    return (min(xs), min(ys), max(xs), max(ys))


def _boxes_overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def faults(shapes: Shapes, neighbours: Mapping[str, set[str]]) -> list[str]:
    """Every way the shapes misstate the board whose provinces' neighbours are `neighbours`
    (impassable provinces, which the file draws as land that is no province, left out)."""
    out: list[str] = []
    provinces = shapes.provinces
    for code in sorted(set(neighbours) - set(provinces)):
        out.append(f"{code}: the board's province has no shape")
    for code in sorted(set(provinces) - set(neighbours)):
        out.append(f"{code}: a shape for no province of the board")
    borders = shared_borders(shapes)
    barrier_segments = {
        _segment(a, b) for line in shapes.barriers for a, b in zip(line, line[1:], strict=False)
    }
    crossing_pairs = {tuple(sorted((c.a, c.b))) for c in shapes.crossings}
    for (a, b), segments in sorted(borders.items()):
        if b in neighbours.get(a, set()):
            continue
        loose = [s for s in segments if s not in barrier_segments]
        if sum(math.dist(*s) for s in loose) >= MIN_BORDER:
            out.append(f"{a}-{b}: share a border but are not neighbours (at {loose[0][0]})")
    for a in sorted(neighbours):
        for b in sorted(neighbours[a]):
            known = (a, b) in borders or (a, b) in crossing_pairs
            if a < b and a in provinces and b in provinces and not known:
                out.append(f"{a}-{b}: neighbours with no border and no crossing")
    for a, b in sorted(crossing_pairs):
        if b not in neighbours.get(a, set()):
            out.append(f"{a}-{b}: a crossing between provinces that are not neighbours")
    bounds = {code: _bounds(shape.rings) for code, shape in provinces.items()}
    for code, shape in sorted(provinces.items()):
        points = {"unit": shape.unit, "label": shape.label}
        if shape.centre is not None:
            points["centre"] = shape.centre
        points |= {f"coast {c}": p for c, p in shape.coasts.items()}
        for what, point in points.items():
            if not inside(point, shape.rings):
                out.append(f"{code}: its {what} point {point} is outside it")
            for other, other_shape in provinces.items():
                x0, y0, x1, y1 = bounds[other]
                if other == code or not (x0 <= point[0] <= x1 and y0 <= point[1] <= y1):
                    continue
                if inside(point, other_shape.rings):
                    out.append(f"{code}: its {what} point {point} is inside {other}")
        for ring in shape.rings:
            if not ring_is_simple(ring):
                out.append(f"{code}: a ring that is not a simple polygon (near {ring[0]})")
    boxes = sorted((label_box(c, s.label), c) for c, s in provinces.items())
    for i, (box, code) in enumerate(boxes):
        for other_box, other in boxes[i + 1 :]:
            if other_box[0] >= box[2]:
                break
            if _boxes_overlap(box, other_box):
                out.append(f"{code}-{other}: labels overlap")
    return out
