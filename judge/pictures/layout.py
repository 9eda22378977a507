"""Where markers stand on a picture: the truth rules every picture keeps, and a layout for boards
that give no positions.

A picture shows provinces as markers joined by links where a unit may move between them. It
tells the truth about the board when no two markers of provinces that are not neighbours touch
and no link passes over a third province's marker (`faults` names every breach; the tests ask it
of every board). `spread` moves markers until that holds, and `graph_layout` places the
provinces of a board without `at` positions (the small test boards, a player's part of an
Algernon maze) by a deterministic spring layout, then spreads them. Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

# Marker radius and the gaps kept, in canvas pixels. tools/map_places.py spreads the generated
# boards' `at` positions with these same numbers.
MARKER_RADIUS = 10.0
MARKER_GAP = 4.0  # between markers of provinces that are not neighbours (beyond the two radii)
LINK_GAP = 3.0  # between a link and a third province's marker (beyond its radius)
EDGE_MARGIN = 14.0
# How far apart any two markers are kept, neighbours too, so their labels do not run together
# (only the two rules above are a picture's truth; this is for reading it).
LABEL_ROOM = 30.0
# How far apart a board laid out without positions keeps its markers: room between two
# markers for a space's label and note and the portal numbers at its links' ends.
GRAPH_ROOM = 56.0

Point = list[float]


def segment_distance(
    p: Sequence[float], a: Sequence[float], b: Sequence[float]
) -> tuple[float, float]:
    """Distance from p to the segment a-b, and where along it the nearest point lies (0 to 1)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0
    if length:
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy), t


def link_segments(
    a: Sequence[float], b: Sequence[float], width: float, wraps: bool
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The straight pieces a link is drawn as: one; or, on a board whose east edge joins its
    west, two through the edges when that way round is the shorter."""
    if not wraps or abs(a[0] - b[0]) <= width / 2:
        return [((a[0], a[1]), (b[0], b[1]))]
    left, right = (a, b) if a[0] < b[0] else (b, a)
    span = left[0] + width - right[0]
    y_edge = right[1] + (left[1] - right[1]) * (width - right[0]) / span
    return [((right[0], right[1]), (width, y_edge)), ((left[0], left[1]), (0.0, y_edge))]


def links_of(neighbours: Mapping[str, frozenset[str]]) -> list[tuple[str, str]]:
    """Each neighbour pair once, in a fixed order."""
    return sorted(
        {(a, b) if a < b else (b, a) for a, near in neighbours.items() for b in near if b != a}
    )


def faults(
    at: Mapping[str, Sequence[float]],
    neighbours: Mapping[str, frozenset[str]],
    width: float,
    wraps: bool = False,
) -> list[str]:
    """Every place where the picture would show a neighbour the board does not have: markers of
    non-neighbours that touch, links that pass over a third marker."""
    found: list[str] = []
    codes = sorted(at)
    apart = 2 * MARKER_RADIUS + MARKER_GAP
    clear = MARKER_RADIUS + LINK_GAP
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            if b in neighbours.get(a, ()):
                continue
            if math.dist(at[a], at[b]) < apart:
                found.append(f"{a} touches {b}")
    for a, b in links_of(neighbours):
        for start, end in link_segments(at[a], at[b], width, wraps):
            for c in codes:
                if c in (a, b):
                    continue
                d, t = segment_distance(at[c], start, end)
                if d < clear and 0.0 < t < 1.0:
                    found.append(f"link {a}-{b} passes over {c}")
    return found


def spread(
    at: dict[str, Point],
    neighbours: Mapping[str, frozenset[str]],
    size: tuple[float, float],
    wraps: bool = False,
    rounds: int = 400,
    crowded: float = 0.0,
) -> list[str]:
    """Move markers until `faults` finds nothing; return what is still wrong after `rounds`.
    With `crowded`, neighbours are also kept that far apart (so their labels do not collide).
    Each round looks only at markers near each other (a grid of cells), in a fixed order, so a
    board of hundreds of provinces spreads in a moment and always the same way."""
    width, height = size
    codes = sorted(at)
    links = links_of(neighbours)
    slack = 1.0  # a little beyond what `faults` asks, so positions rounded to whole pixels pass
    apart = 2 * MARKER_RADIUS + MARKER_GAP + slack
    clear = MARKER_RADIUS + LINK_GAP + slack
    cell = max(apart, crowded, 2 * clear)
    for _ in range(rounds):
        moved = False
        grid = _grid(at, codes, cell)
        for a in codes:
            pa = at[a]
            for b in _near(grid, pa[0] - cell, pa[1] - cell, pa[0] + cell, pa[1] + cell, cell):
                if b <= a:
                    continue
                need = crowded if b in neighbours.get(a, ()) else max(apart, crowded)
                pb = at[b]
                d = math.dist(pa, pb)
                if d >= need:
                    continue
                moved = True
                ux, uy = ((pa[0] - pb[0]) / d, (pa[1] - pb[1]) / d) if d else (1.0, 0.0)
                push = (need - d) / 2 + 0.5
                pa[0] += ux * push
                pa[1] += uy * push
                pb[0] -= ux * push
                pb[1] -= uy * push
        grid = _grid(at, codes, cell)
        for a, b in links:
            for start, end in link_segments(at[a], at[b], width, wraps):
                low_x, high_x = sorted((start[0], end[0]))
                low_y, high_y = sorted((start[1], end[1]))
                box = (low_x - clear, low_y - clear, high_x + clear, high_y + clear)
                for c in _near(grid, *box, cell):
                    if c in (a, b):
                        continue
                    d, t = segment_distance(at[c], start, end)
                    if d >= clear or not 0.0 < t < 1.0:
                        continue
                    moved = True
                    dx, dy = end[0] - start[0], end[1] - start[1]
                    ox = at[c][0] - (start[0] + t * dx)
                    oy = at[c][1] - (start[1] + t * dy)
                    if d == 0:
                        ox, oy = -dy, dx
                        d = math.hypot(ox, oy) or 1.0
                    push = clear - d + 0.5
                    at[c][0] += ox / d * push
                    at[c][1] += oy / d * push
                    for end_code in (a, b):  # and the link a little the other way
                        at[end_code][0] -= ox / d * push * 0.25
                        at[end_code][1] -= oy / d * push * 0.25
        for p in at.values():
            p[0] = min(max(p[0], EDGE_MARGIN), width - EDGE_MARGIN)
            p[1] = min(max(p[1], EDGE_MARGIN), height - EDGE_MARGIN)
        if not moved:
            return []
    return faults(at, neighbours, width, wraps)


def _grid(
    at: Mapping[str, Point], codes: Sequence[str], cell: float
) -> dict[tuple[int, int], list[str]]:
    """The markers by the grid cell they stand in, each cell's in the codes' order."""
    grid: dict[tuple[int, int], list[str]] = {}
    for code in codes:
        x, y = at[code]
        grid.setdefault((int(x // cell), int(y // cell)), []).append(code)
    return grid


def _near(
    grid: Mapping[tuple[int, int], list[str]],
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    cell: float,
) -> list[str]:
    """The markers in the cells that the box (x1, y1)-(x2, y2) touches, in a fixed order."""
    found: list[str] = []
    for cx in range(int(x1 // cell), int(x2 // cell) + 1):
        for cy in range(int(y1 // cell), int(y2 // cell) + 1):
            found.extend(grid.get((cx, cy), ()))
    found.sort()
    return found


def graph_size(count: int) -> tuple[int, int]:
    """A canvas for a board of `count` provinces drawn without positions."""
    side = max(640, int(math.sqrt(max(count, 1)) * 170))
    return side, int(side * 0.75)


def graph_layout(
    codes: Sequence[str], neighbours: Mapping[str, frozenset[str]]
) -> tuple[dict[str, Point], tuple[int, int]]:
    """Positions for a board that gives none: a spring layout started on a circle in the codes'
    order (the same board always comes out the same), scaled to the canvas, then spread.
    Returns (positions, size)."""
    ordered = sorted(codes)
    size = graph_size(len(ordered))
    width, height = size
    n = len(ordered)
    at: dict[str, Point] = {}
    for i, code in enumerate(ordered):
        angle = 2 * math.pi * i / max(n, 1)
        at[code] = [math.cos(angle), math.sin(angle)]
    ideal = 1.6 / math.sqrt(max(n, 1))
    temperature = 0.2
    pairs = [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]
    for _ in range(150):
        force = {c: [0.0, 0.0] for c in ordered}
        for a, b in pairs:
            dx, dy = at[a][0] - at[b][0], at[a][1] - at[b][1]
            d = math.hypot(dx, dy) or 1e-3
            push = ideal * ideal / d
            if b in neighbours.get(a, ()):
                push -= d * d / ideal
            force[a][0] += dx / d * push
            force[a][1] += dy / d * push
            force[b][0] -= dx / d * push
            force[b][1] -= dy / d * push
        for c in ordered:
            fx, fy = force[c]
            f = math.hypot(fx, fy) or 1.0
            step = min(f, temperature)
            at[c][0] += fx / f * step
            at[c][1] += fy / f * step
        temperature = max(temperature * 0.97, 0.002)
    margin = 60.0
    xs = [p[0] for p in at.values()]
    ys = [p[1] for p in at.values()]
    span_x = (max(xs) - min(xs)) or 1.0
    span_y = (max(ys) - min(ys)) or 1.0
    for p in at.values():
        p[0] = margin + (p[0] - min(xs)) / span_x * (width - 2 * margin)
        p[1] = margin + (p[1] - min(ys)) / span_y * (height - 2 * margin)
    spread(at, neighbours, size, crowded=GRAPH_ROOM)
    return at, size


# How far a marker's move drags the land around it (`dragged`), in canvas pixels.
DRAG_REACH = 60.0


def dragged(
    outlines: Sequence[Sequence[tuple[float, float]]],
    before: Mapping[str, Sequence[float]],
    after: Mapping[str, Sequence[float]],
) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Outlines of land moved as the markers near them were moved by `spread` (from `before` to
    `after`), so a marker spread out of a crowded coast still stands on its own side of it:
    each point moves by the mean of the moves of the markers within DRAG_REACH, the nearest
    weighing most (a marker that did not move holds its surroundings in place)."""
    moves = [
        (before[c][0], before[c][1], after[c][0] - before[c][0], after[c][1] - before[c][1])
        for c in sorted(before)
        if c in after
    ]
    if not any(dx or dy for _, _, dx, dy in moves):
        return tuple(tuple((x, y) for x, y in outline) for outline in outlines)
    reach2 = DRAG_REACH * DRAG_REACH
    out = []
    for outline in outlines:
        moved = []
        for x, y in outline:
            sx = sy = sw = 0.0
            for mx, my, dx, dy in moves:
                d2 = (x - mx) ** 2 + (y - my) ** 2
                if d2 <= reach2:
                    w = (d2 + 4.0) ** -1.5
                    sx += w * dx
                    sy += w * dy
                    sw += w
            moved.append((x + sx / sw, y + sy / sw) if sw else (x, y))
        out.append(tuple(moved))
    return tuple(out)


def simplify(points: list[tuple[float, float]], tolerance: float) -> list[tuple[float, float]]:
    """Douglas-Peucker on a closed outline, keeping its first point and the one farthest from it
    (tools/make_world_land.py's outlines, and the shapes drawn small beside a reader's part)."""
    if len(points) < 4:
        return points
    far = max(range(len(points)), key=lambda i: _distance2(points[i], points[0]))
    return _dp(points[: far + 1], tolerance)[:-1] + _dp(points[far:] + [points[0]], tolerance)[:-1]


def _distance2(a: tuple[float, float], b: tuple[float, float]) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _dp(points: list[tuple[float, float]], tolerance: float) -> list[tuple[float, float]]:
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        ax, ay = points[first]
        bx, by = points[last]
        length = math.hypot(bx - ax, by - ay) or 1e-9
        best, index = 0.0, -1
        for i in range(first + 1, last):
            px, py = points[i]
            d = abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length
            if d > best:
                best, index = d, i
        if best > tolerance:
            keep[index] = True
            stack += [(first, index), (index, last)]
    return [p for p, k in zip(points, keep, strict=True) if k]
