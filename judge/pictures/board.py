"""The scene of a public board. A board with shapes (maps/NAME.shapes.json): every province its
shape, land in its owner's colour, each unit at its province's (or coast's) own point. A board
without: every province a marker where the map places it (`at` on its canvas, or a spring
layout for a board that gives no positions) with links between neighbours. Either way supply
centres in their owner's colour, every unit and dislodged unit, the phase's orders as arrows,
and, on a board too wide to read whole, the reader's own part of it. Pure: the board, the
position and the orders in, a Scene out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from judge.engine.geography import Map, Terrain
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from judge.engine.position import Position, Unit, province_of
from judge.engine.results import SUCCESS
from judge.pictures.layout import (
    GRAPH_ROOM,
    LABEL_ROOM,
    dragged,
    graph_layout,
    links_of,
    simplify,
    spread,
)
from judge.pictures.scene import (
    BUILD,
    CONVOY,
    DISBAND,
    IMPASSABLE,
    LAND,
    MOVE,
    RETREAT,
    SEA,
    SUPPORT,
    VIEW_PICTURE,
    Area,
    Arrow,
    Link,
    Node,
    Part,
    Scene,
    UnitMark,
    power_colours,
    with_changes,
)
from judge.pictures.shapes import Shapes

# (an order value of a variant's own) -> (kind of arrow, the locations it passes), or None.
OrderShape = Callable[[Any], tuple[str, tuple[str, ...]] | None]
COAST_OFFSET = 15.0  # how far a coast's point stands from its province's marker


def _memo(board: Map, key: str, make: Callable[[], Any]) -> Any:
    """A table derived once per board and kept on it, as the engine keeps its topology."""
    found = board.__dict__.get(key)
    if found is None:
        found = make()
        object.__setattr__(board, key, found)
    return found


def neighbours_of(board: Map) -> dict[str, frozenset[str]]:
    """Provinces a unit may move between, either kind of move: the links a picture draws."""
    return _memo(
        board,
        "_picture_neighbours",
        lambda: {code: board.adjacent_provinces(code) - {code} for code in board.provinces},
    )


def positions_of(board: Map) -> tuple[dict[str, tuple[float, float]], tuple[float, float]]:
    """Each province's point and the canvas: the map's `at` where every province has one, else
    a layout of the adjacency graph (the small test boards, a maze)."""
    return _memo(board, "_picture_positions", lambda: _positions(board))


def _positions(board: Map) -> tuple[dict[str, tuple[float, float]], tuple[float, float]]:
    if all(p.at is not None for p in board.provinces.values()):
        # The map's points, moved apart where they would show neighbours the board lacks or
        # markers too close to read (a board placed by hand, 1885's); the generated boards are
        # spread already.
        placed = {c: [p.at[0], p.at[1]] for c, p in board.provinces.items() if p.at is not None}
        # A maze's spaces carry a note and portal numbers: they need more room.
        room = GRAPH_ROOM if any(p.portals for p in board.provinces.values()) else LABEL_ROOM
        spread(placed, neighbours_of(board), board.canvas, board.wraps, crowded=room)
        return {c: (p[0], p[1]) for c, p in placed.items()}, board.canvas
    at, size = graph_layout(sorted(board.provinces), neighbours_of(board))
    return {c: (p[0], p[1]) for c, p in at.items()}, (float(size[0]), float(size[1]))


def _locations(board: Map, shapes: Shapes | None = None) -> dict[str, tuple[float, float]]:
    """Every location's point. With shapes: each province's unit point and each coast's own.
    Without: a province's marker, and each named coast a little off it towards the seas that
    coast touches."""
    if shapes is not None:
        size = label_size(float(shapes.canvas[0]))
        return _memo(board, "_picture_shape_places", lambda: _shape_points(shapes, size))
    return _memo(board, "_picture_locations", lambda: _coast_points(board))


def _shape_points(shapes: Shapes, label_size: float) -> dict[str, tuple[float, float]]:
    """Each province's unit point and each coast's, moved a little where the unit drawn there
    would cover its province's label (still inside the province, and clear of the labels of
    the provinces round it: a small province's unit is better on its own label than on its
    neighbour's)."""
    out: dict[str, tuple[float, float]] = {}
    labels = {
        code: _label_box(code, shape.label, label_size) for code, shape in shapes.provinces.items()
    }
    for code, shape in shapes.provinces.items():
        x, y = shape.label
        near = [
            box
            for other, box in labels.items()
            if other != code
            and abs(shapes.provinces[other].label[0] - x) < NEAR_LABEL
            and abs(shapes.provinces[other].label[1] - y) < NEAR_LABEL
        ]
        points = {code: shape.unit, **{f"{code}/{c}": p for c, p in shape.coasts.items()}}
        for loc, point in points.items():
            out[loc] = clear_of(point, UNIT_BOX, [labels[code], *near], shape.rings)
    return out


# How near (canvas pixels, either way) another province's label must be to keep a unit moved
# off its own label from moving onto it.
NEAR_LABEL = 60.0


def unit_rooms(board: Map, shapes: Shapes) -> dict[str, float]:
    """Each location's room for a unit, against its usual size (`UnitMark.room`): the
    distance from its point to the nearest other province's, over UNIT_ROOM; only those under
    1 are given."""

    def make() -> dict[str, float]:
        places = _locations(board, shapes)
        items = list(places.items())
        out = {}
        for loc, (x, y) in items:
            code = province_of(loc)
            near = min(
                (math.hypot(x - u, y - v) for other, (u, v) in items if province_of(other) != code),
                default=UNIT_ROOM,
            )
            if near < UNIT_ROOM:
                out[loc] = round(near / UNIT_ROOM, 2)
        return out

    return _memo(board, "_picture_unit_rooms", make)


# How far apart two units' points stand for each to be drawn its usual size without covering
# the other (canvas pixels: a unit is 22 wide, 30 an army/fleet, and the room round it).
UNIT_ROOM = 26.0
# The room a unit takes on the picture (its mark and halo), and a supply centre's mark.
UNIT_BOX = (26.0, 20.0)
CENTRE_BOX = (13.0, 13.0)


def _label_box(code: str, at: tuple[float, float], size: float) -> tuple[float, ...]:
    """Where a province's label stands: its code in bold at `size`, centred on `at`."""
    width = len(code) * size * 0.68
    return (at[0] - width / 2, at[1] - size * 0.55, at[0] + width / 2, at[1] + size * 0.55)


def _inside(point: tuple[float, float], rings: Sequence[Sequence[tuple[float, float]]]) -> bool:
    """Whether a point is inside a shape's rings (even-odd: a ring inside another is a hole)."""
    x, y = point
    inside = False
    for ring in rings:
        n = len(ring)
        for i in range(n):
            (x1, y1), (x2, y2) = ring[i], ring[i - 1]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def clear_of(
    point: tuple[float, float],
    size: tuple[float, float],
    obstacles: Sequence[Sequence[float]],
    rings: Sequence[Sequence[tuple[float, float]]],
) -> tuple[float, float]:
    """`point`, or the nearest point to it (up to 16 pixels off) where a box of `size` centred
    on it overlaps none of the `obstacles` boxes and which is inside `rings`."""

    def free(p: tuple[float, float]) -> bool:
        x1, y1 = p[0] - size[0] / 2, p[1] - size[1] / 2
        x2, y2 = x1 + size[0], y1 + size[1]
        return not any(x1 < b[2] and b[0] < x2 and y1 < b[3] and b[1] < y2 for b in obstacles)

    if free(point):
        return point
    for reach in range(2, 17, 2):
        for step in range(16):
            angle = step * math.pi / 8
            p = (point[0] + reach * math.cos(angle), point[1] + reach * math.sin(angle))
            if free(p) and _inside(p, rings):
                return (round(p[0], 1), round(p[1], 1))
    return point


def _coast_points(board: Map) -> dict[str, tuple[float, float]]:
    at, _ = positions_of(board)
    out = dict(at)
    for code, province in board.provinces.items():
        x, y = at[code]
        for coast in province.coasts:
            loc = f"{code}/{coast}"
            targets = [at[province_of(t)] for t in board.fleet_edges.get(loc, ())]
            dx = sum(t[0] - x for t in targets)
            dy = sum(t[1] - y for t in targets)
            d = math.hypot(dx, dy) or 1.0
            out[loc] = (x + dx / d * COAST_OFFSET, y + dy / d * COAST_OFFSET)
    return out


def where(board: Map, loc: str, shapes: Shapes | None = None) -> tuple[float, float]:
    """The point of a location on the picture (a coast's, or its province's)."""
    places = _locations(board, shapes)
    return places.get(loc) or places[province_of(loc)]


def dislodged_point(board: Map, loc: str, shapes: Shapes | None) -> tuple[float, float]:
    """Where a dislodged unit stands: beside its location, up and left (a marker's label is
    below it, its centre up and right); on a board with shapes, moved on from there until it
    covers neither the unit in its place nor the province's label, inside the province."""
    x, y = where(board, loc, shapes)
    beside = (x - 15, y - 11)
    if shapes is None:
        return beside
    code = province_of(loc)
    shape = shapes.provinces[code]
    kept: dict[str, tuple[float, float]] = _memo(board, "_picture_dislodged", dict)
    if loc not in kept:
        unit = (x - UNIT_BOX[0] / 2, y - UNIT_BOX[1] / 2, x + UNIT_BOX[0] / 2, y + UNIT_BOX[1] / 2)
        label = _label_box(code, shape.label, label_size(float(shapes.canvas[0])))
        kept[loc] = clear_of(beside, UNIT_BOX, [unit, label], shape.rings)
    return kept[loc]


def order_shape(order: Any, own: OrderShape | None = None) -> tuple[str, tuple[str, ...]] | None:
    """What an order looks like on the picture: an engine order by its kind; a variant's own
    order by the variant's `picture.order`; a wrapped order (Mercator's time scale) by what it
    wraps."""
    inner = order
    while hasattr(inner, "order") and not isinstance(inner, Move | Support | Convoy):
        inner = inner.order
    if isinstance(inner, Move):
        return MOVE, (inner.loc, inner.dest)
    if isinstance(inner, Retreat):
        return RETREAT, (inner.loc, inner.dest)
    if isinstance(inner, Support):
        dest = inner.dest
        return SUPPORT, (inner.loc, inner.target) if dest is None else (
            inner.loc,
            inner.target,
            dest,
        )
    if isinstance(inner, Convoy):
        return CONVOY, (inner.loc, inner.army_loc, inner.dest)
    if isinstance(inner, Build):
        return BUILD, (inner.loc,)
    if isinstance(inner, Disband):
        return DISBAND, (inner.loc,)
    if isinstance(inner, Hold | Waive) or own is None:
        return None
    return own(inner)


def arrow(
    board: Map,
    power: str,
    shape: tuple[str, tuple[str, ...]],
    ok: bool,
    text: str,
    shapes: Shapes | None = None,
) -> Arrow:
    """An order's arrow: a support ends on the middle of the move it supports, a convoy on the
    middle of the army's way."""
    kind, locs = shape
    points = [where(board, loc, shapes) for loc in locs]
    if kind in (SUPPORT, CONVOY) and len(points) == 3:
        (ax, ay), (bx, by) = points[1], points[2]
        points = [points[0], (ax + (bx - ax) * 0.55, ay + (by - ay) * 0.55)]
    return Arrow(kind, power, tuple(points), ok, text)


def _unit_marks(
    board: Map, shapes: Shapes | None
) -> Callable[[Sequence[Unit], bool], list[UnitMark]]:
    """Units' marks (dislodged or not), kept on the board: a unit at its place looks the same
    in every picture, and a picture keeps what it drew of it by the mark."""
    made: dict[tuple[Unit, bool], UnitMark] = _memo(
        board, f"_picture_unit_marks_{shapes is not None}", dict
    )
    if len(made) > 50_000:
        made.clear()
    return _UnitMarks(board, shapes, made)


class _UnitMarks:
    """The marks of units (`_unit_marks`), each made once and kept in `made`. An object rather
    than nested functions, which would refer to each other and be left in cycles."""

    __slots__ = ("board", "letters", "made", "rooms", "shapes")

    def __init__(
        self, board: Map, shapes: Shapes | None, made: dict[tuple[Unit, bool], UnitMark]
    ) -> None:
        self.board = board
        self.shapes = shapes
        self.made = made
        self.letters = {name: power.letter for name, power in board.powers.items()}
        self.rooms = unit_rooms(board, shapes) if shapes is not None else {}

    def __call__(self, units: Sequence[Unit], dislodged: bool) -> list[UnitMark]:
        made = self.made
        return [made.get((unit, dislodged)) or self.mark(unit, dislodged) for unit in units]

    def mark(self, unit: Unit, dislodged: bool) -> UnitMark:
        board, shapes = self.board, self.shapes
        if dislodged:
            x, y = dislodged_point(board, unit.loc, shapes)
        else:
            x, y = where(board, unit.loc, shapes)
        found = self.made[(unit, dislodged)] = UnitMark(
            unit.power,
            unit.kind,
            unit.loc,
            x,
            y,
            army_power=unit.army_power,
            dislodged=dislodged,
            letter=self.letters.get(unit.power, ""),
            room=1.0 if dislodged else self.rooms.get(unit.loc, 1.0),
        )
        return found


def board_scene(
    board: Map,
    shown: Position,
    orders: Sequence[tuple[str, Any, str, str]] = (),
    *,
    title: str,
    notes: Sequence[str] = (),
    own_orders: OrderShape | None = None,
    land: tuple[tuple[tuple[float, float], ...], ...] = (),
    shapes: Shapes | None = None,
    unit_counts: Callable[[Position], Mapping[str, int]] | None = None,
    reader: str | None = None,
) -> Scene:
    """The whole board with the position `shown` and the orders (power, order value, result,
    text) drawn as arrows: as its `shapes` where it has them (judge.pictures.shapes), else as
    markers over the board's `land` where it has outlines of it. `unit_counts` gives each
    power's units as the legend counts them (the variant's rules: an army/fleet is two in
    Mercator and 1885; None: one a unit). A `reader` who is one of the powers gets his own part of a board too wide to read
    whole (`reader_part`)."""
    colours = power_colours(list(board.powers))
    centre_owner = {c: power for power, centres in shown.centers.items() for c in centres}
    owners = dict(shown.owners)
    if shapes is not None:
        width, height = float(shapes.canvas[0]), float(shapes.canvas[1])
        nodes: list[Node] = []
        links: list[Link] = []
        areas = _areas(board, shapes, centre_owner, owners)
    else:
        at, (width, height) = positions_of(board)
        nodes = _nodes(board, at, centre_owner, owners)
        links = _memo(
            board, "_picture_links", lambda: [Link(a, b) for a, b in links_of(neighbours_of(board))]
        )
        areas = []
    marks = _unit_marks(board, shapes)
    units = marks(shown.units, False) + marks([d.unit for d in shown.dislodged], True)
    arrows = []
    for power, order, result, text in orders:
        shape = order_shape(order, own_orders)
        if shape is not None and all(_known(board, loc) for loc in shape[1]):
            arrows.append(arrow(board, power, shape, result == SUCCESS, text, shapes))
    unit_count = dict(unit_counts(shown)) if unit_counts is not None else one_each(shown)
    powers = {
        name: (
            colours[name],
            f"{name.title()}: {len(shown.centers.get(name, ()))} centres, "
            f"{unit_count.get(name, 0)} units",
        )
        for name in sorted(board.powers)
    }
    scene = Scene(
        title=title,
        width=width,
        height=height,
        nodes=nodes,
        links=links,
        units=units,
        arrows=arrows,
        powers=powers,
        notes=list(notes),
        wraps=board.wraps,
        land=_memo(board, "_picture_land", lambda: _land_under(board, land))
        if land and shapes is None
        else (),
        inset=board.inset if shapes is None else None,
        static=links if shapes is None else _memo(board, "_picture_static", object),
        areas=areas,
        label_size=label_size(width),
    )
    if shapes is not None:
        scene.impassable, scene.barriers, scene.crossings = _memo(
            board, "_picture_shape_lines", lambda: _shape_lines(shapes)
        )
        if board.inset is not None and not readable_whole(width):
            scene.parts = (_detail(scene, board.inset),)
    return scene if reader is None else for_reader(scene, board, shown, reader, shapes)


def for_reader(
    scene: Scene, board: Map, shown: Position, reader: str, shapes: Shapes | None
) -> Scene:
    """The scene as `reader` is shown it: his own part, where he is a power on a board too wide
    to read whole (`own_picture`), else the scene itself."""
    if not own_picture(board, shapes, reader):
        return scene
    places = scene.shared.get("unit places")
    if places is None:  # each power's units, found once for the pictures of the phase
        places = scene.shared["unit places"] = unit_places(shown)
    assert isinstance(places, dict)
    mine = places.get(reader, set())
    locs = scene.shared.get("unit locations")
    if locs is None:  # each power's units' locations, found once for the pictures of the phase
        locs = scene.shared["unit locations"] = _unit_locations(shown)
    assert isinstance(locs, dict)
    # A power's windows follow from where his units stand: kept on the board by that, as most
    # of his units stand where they stood in most phases (a retreat's, an adjustment's).
    kept: dict[tuple[object, ...], tuple[Part, list[Part]] | None] = _memo(
        board, "_picture_reader_windows", dict
    )
    key = (reader, frozenset(mine), tuple(locs.get(reader, ())), scene.label_size, scene.width)
    if key in kept:
        windows = kept[key]
    else:
        if len(kept) > 10_000:
            kept.clear()
        windows = kept[key] = _reader_windows(scene, board, shown, reader, shapes, mine, locs)
    if windows is None:
        return scene
    first, more = windows
    return with_changes(
        scene,
        view=first.view,
        inset=None,
        label_size=first.label_size,
        mark_scale=first.mark_scale,
        parts=tuple(more),
    )


def forget_phases(board: Map) -> object | None:
    """Let go of the powers' windows kept by where their units stood (`for_reader`); the
    object standing for the board's unchanging layers in its scenes (`Scene.static`), by which
    the drawing keeps the rest, if the board has been drawn."""
    board.__dict__.pop("_picture_reader_windows", None)
    return board.__dict__.get("_picture_static")


def _reader_windows(
    scene: Scene,
    board: Map,
    shown: Position,
    reader: str,
    shapes: Shapes | None,
    mine: set[tuple[str, str]],
    locs: dict[str, list[str]],
) -> tuple[Part, list[Part]] | None:
    """The first window of a power's part and the further ones (`for_reader`), or None where
    he has no part (no units and no home centres)."""
    canvas = (scene.width, scene.height)
    views = reader_parts(board, shown, reader, shapes, canvas, mine)
    if not views:
        return None
    first, *more = [
        _part(scene, view, VIEW_PICTURE if i == 0 else _shown_width(view))
        for i, view in enumerate(views)
    ]
    # The further windows while the picture stays about as high as a mail shows in two screens
    # (and its bytes within a mail's budget); those left are on the whole board drawn small.
    high = first.view[3] * VIEW_PICTURE / first.view[2]
    kept = []
    for part in more:
        high += part.view[3] * part.shown_width / part.view[2]
        if high > PARTS_HIGH:
            break
        kept.append(part)
    more = kept
    close = close_up(board, shapes, locs.get(reader, ()), first.view, canvas)
    if close is not None:  # his own units close, under the part round them (beyond PARTS_HIGH)
        more.insert(0, _part(scene, close, VIEW_PICTURE)._replace(first_ground=True))
    return first, more


# Where a power's units in the first window of his part stand nearer a neighbour's unit than
# a unit is wide there (`UnitMark.room` times the window's enlargement, or 1 where that is
# less, under 1: Britain on the world board), his picture shows them again in a window of their
# own, enlarged until the most crowded of them has CLOSE_ROOM (and at least CLOSE_GAIN times
# the first window's enlargement, at most CLOSE_ENLARGED times the canvas), holding as many of
# his units round it as it can.
CLOSE_ROOM = 1.6
CLOSE_GAIN = 1.5
CLOSE_ENLARGED = 4.0


def close_up(
    board: Map,
    shapes: Shapes | None,
    locs: Sequence[str],
    first: tuple[float, float, float, float],
    canvas: tuple[float, float],
) -> tuple[float, float, float, float] | None:
    """The window of a power's own units (at `locs`) where they crowd in `first` (x, y, width,
    height), inside it; None where they do not, or it would not show them much larger."""
    if shapes is None:
        return None
    enlarged = VIEW_PICTURE / first[2]
    if CLOSE_GAIN * enlarged > CLOSE_ENLARGED:
        return None
    rooms = unit_rooms(board, shapes)
    places = _locations(board, shapes)
    fx, fy, fw, fh = first
    shift = canvas[0] if board.wraps else 0.0
    mine = []  # his units' points inside the first window (moved round a board that wraps)
    crowded = []
    for loc in locs:
        at = places.get(loc)
        if at is None:
            continue
        x, y = at
        if x < fx:
            x += shift
        if fx <= x <= fx + fw and fy <= y <= fy + fh:
            mine.append((x, y))
            room = rooms.get(loc, 1.0)
            if room * max(enlarged, 1.0) < 1.0:
                crowded.append((x, y, room))
    if not crowded:
        return None
    least = min(room for _, _, room in crowded)
    close = min(CLOSE_ENLARGED, max(CLOSE_GAIN * enlarged, CLOSE_ROOM / least))
    wide = VIEW_PICTURE / close - 2 * WINDOW_MARGIN
    high = wide * TALLEST

    def near(seed: tuple[float, float, float]) -> list[tuple[float, float]]:
        return [
            p for p in mine if abs(p[0] - seed[0]) <= wide / 2 and abs(p[1] - seed[1]) <= high / 2
        ]

    group = max((near(seed) for seed in crowded), key=len)  # the crowded one with most round it
    xs, ys = [p[0] for p in group], [p[1] for p in group]
    x, y, w, h = _framed([min(xs), min(ys), max(xs), max(ys)], canvas, False, VIEW_PICTURE / close)
    if w > fw or h > fh:
        return None
    return (min(max(x, fx), fx + fw - w), min(max(y, fy), fy + fh - h), w, h)


# The whole of a board too wide to read (the GM's and observers' picture) shows its crowded
# part (the board's `inset`) again under it this many times larger, its labels as small as
# LEAST_SHOWN pixels when the whole picture is shown VIEWED_AT wide.
DETAIL_ENLARGED = 2.5
# The size of units and centres there, against their size on the canvas (the whole's): about
# one and a half times theirs on the picture, less where provinces crowd (`UnitMark.room`);
# the size of a reader's part enlarged about twice (`mark_scale`), so the phase draws it once.
DETAIL_MARKS = 0.6


def _detail(scene: Scene, part: tuple[float, float, float, float]) -> Part:
    """The board's crowded part, drawn again under the whole DETAIL_ENLARGED times larger."""
    least = LEAST_SHOWN * scene.width / VIEWED_AT / DETAIL_ENLARGED
    return Part(
        part,
        label_size=min(scene.label_size, math.ceil(least * 20) / 20),
        mark_scale=DETAIL_MARKS,
        shown_width=part[2] * DETAIL_ENLARGED,
        first_ground=True,  # the whole board's provinces, shown again larger
    )


def _shown_width(view: tuple[float, float, float, float]) -> float:
    """A further window's width on the picture: half the picture's where its labels still read
    at that size (two stand side by side), else the picture's."""
    half = VIEW_PICTURE / 2
    return half if view[2] <= VIEW_WIDTH / 2 else VIEW_PICTURE


def _part(scene: Scene, view: tuple[float, float, float, float], shown: float) -> Part:
    """A window shown `shown` pixels wide and the sizes it is drawn at: labels as small as
    LEAST_SHOWN at VIEWED_AT allows (at most their own size), units and centres their usual
    size on the picture, so a crowded part enlarged reads as the standard board does."""
    enlarged = zoom_step(shown / view[2])
    least = LEAST_SHOWN * VIEW_PICTURE / VIEWED_AT / enlarged
    return Part(
        view,
        label_size=min(scene.label_size, math.ceil(least * 20) / 20),
        mark_scale=mark_scale(shown / view[2]),
        shown_width=shown,
    )


# How large units and centres stand on a reader's part, against their usual size (the standard
# board's), and the ladder their size on the canvas follows the part's enlargement by.
MARK_ON_PICTURE = 1.2
MARK_STEP = 2**0.5


def mark_scale(enlarged: float) -> float:
    """The size units and centres are drawn at on the canvas of a part shown `enlarged` times
    larger: MARK_ON_PICTURE on the picture, the enlargement taken to the nearest step of
    MARK_STEP's ladder (1, 1.41, 2, 2.83), so that they show 1.0 to 1.43 times their usual size
    and the readers' parts of a phase share a few sizes, each drawn once for all of them."""
    found = _MARK_SCALES.get(enlarged)
    if found is None:
        step = round(MARK_STEP ** round(math.log(max(enlarged, 1.0), MARK_STEP)), 4)
        found = min(1.0, round(MARK_ON_PICTURE / step, 4))
        if len(_MARK_SCALES) > 10_000:
            _MARK_SCALES.clear()
        _MARK_SCALES[enlarged] = found
    return found


# What `mark_scale` and `zoom_step` gave for each enlargement asked (a reader's windows come
# back to the same few; their logarithms and rounding cost more than the look-up).
_MARK_SCALES: dict[float, float] = {}
_ZOOM_STEPS: dict[float, float] = {}


# The sizes of labels on a reader's part follow its enlargement taken down to a step of this
# ladder (a little larger than they need be, never smaller), so that readers' parts drawn about
# as large share their labels (kept per board at each size).
ZOOM_STEP = 2**0.25


def zoom_step(enlarged: float) -> float:
    """`enlarged` taken down to the nearest step of ZOOM_STEP's ladder (1, 1.19, 1.41, ...)."""
    if enlarged <= 1.0:
        return enlarged
    found = _ZOOM_STEPS.get(enlarged)
    if found is None:
        found = round(ZOOM_STEP ** math.floor(math.log(enlarged, ZOOM_STEP) + 1e-9), 4)
        if len(_ZOOM_STEPS) > 10_000:
            _ZOOM_STEPS.clear()
        _ZOOM_STEPS[enlarged] = found
    return found


def one_each(shown: Position) -> dict[str, int]:
    """Each power's units, one a unit (the standard game's count)."""
    count: dict[str, int] = {}
    for u in shown.units:
        count[u.power] = count.get(u.power, 0) + 1
    return count


# Province labels in canvas pixels (11 px DejaVu Sans Bold: the size the shapes' labels are
# placed for), and the size any label must keep when the picture is shown VIEWED_AT pixels
# wide, as a mail program shows it.
LABEL_SIZE = 11.0
VIEWED_AT = 800.0
LEAST_SHOWN = 9.0
# A board at most this much wider than its labels allow is drawn whole with labels a little
# larger (the standard board's 1000 pixels); a wider one gives each power his own part.
WHOLE_STRETCH = 1.25


def label_size(width: float) -> float:
    """The labels' size on a board `width` canvas pixels wide: LABEL_SIZE, or, on a board drawn
    whole for every reader, larger where that would show under LEAST_SHOWN pixels at VIEWED_AT
    (rounded up to a quarter pixel). A wider board's readers see their part enlarged instead."""
    if not readable_whole(width):
        return LABEL_SIZE
    need = LEAST_SHOWN * width / VIEWED_AT
    return max(LABEL_SIZE, math.ceil(need * 4) / 4)


def readable_whole(width: float) -> bool:
    """Whether a board `width` canvas pixels wide is drawn whole for every reader."""
    return width <= WHOLE_STRETCH * LABEL_SIZE * VIEWED_AT / LEAST_SHOWN


def own_picture(board: Map, shapes: Shapes | None, reader: str) -> bool:
    """Whether `reader` gets a picture of his own part of the board: a power, on a board too
    wide to read whole. Every other reader of a public board gets the same picture."""
    width = float(shapes.canvas[0]) if shapes is not None else positions_of(board)[1][0]
    return reader in board.powers and not readable_whole(width)


def view_width() -> float:
    """The widest part of a board the reader's picture may show with readable labels."""
    return VIEW_WIDTH


VIEW_WIDTH = math.floor(LABEL_SIZE * VIEWED_AT / LEAST_SHOWN)


def _nodes(
    board: Map,
    at: dict[str, tuple[float, float]],
    centre_owner: dict[str, str],
    owners: dict[str, str],
) -> list[Node]:
    made: dict[tuple[str, str | None, str | None], Node] = _memo(board, "_picture_nodes", dict)
    if len(made) > 20_000:
        made.clear()
    nodes = []
    for code, province in _memo(board, "_picture_codes", lambda: sorted(board.provinces.items())):
        owner = owners.get(code) or (centre_owner.get(code) if owners else None)
        key = (code, centre_owner.get(code), owner)
        node = made.get(key)
        if node is None:  # kept on the board: a province looks the same in most pictures
            x, y = at[code]
            node = made[key] = Node(
                code=code,
                label=code.upper(),
                x=x,
                y=y,
                kind=province.terrain.value,
                centre=province.supply_centre,
                centre_owner=key[1],
                owner=owner,
                title=province.name,
            )
        nodes.append(node)
    return nodes


def _path(rings: Any) -> str:
    """Rings of points as compact SVG path data: each ring's first point, then each next one
    relative to the last (to a tenth of a pixel; most steps of a traced outline are a pixel or
    two, so a few characters each)."""
    out = []
    for ring in rings:
        x0, y0 = round(ring[0][0] * 10), round(ring[0][1] * 10)
        steps = [f"M{_num(x0)} {_num(y0)}l"]
        last = (x0, y0)
        for x, y in ring[1:]:
            here = (round(x * 10), round(y * 10))
            dx, dy = here[0] - last[0], here[1] - last[1]
            if dx or dy:
                steps.append(_pair(dx, dy))
            last = here
        out.append("".join(steps) + "z")
    return "".join(out)


# How far (canvas pixels) the outline drawn small (the whole board beside a reader's part) may
# stray from the shape: about a pixel there.
OVERVIEW_DETAIL = 3.0


def _simplified(rings: Any, tolerance: float) -> list[list[tuple[float, float]]]:
    """Each ring simplified (`layout.simplify`); rings that shrink below a triangle left out."""
    out = []
    for ring in rings:
        kept = simplify(list(ring), tolerance)
        if len(kept) >= 3:
            out.append(kept)
    return out


def _num(tenths: int) -> str:
    """A number given in tenths, as short as SVG allows (".5", "-1.5", "12")."""
    text = f"{tenths / 10:g}"
    return text.replace("0.", ".", 1) if text.startswith(("0.", "-0.")) else text


def _pair(dx: int, dy: int) -> str:
    """A relative step: a minus sign separates numbers by itself, else a space."""
    x, y = _num(dx), _num(dy)
    return f"{'' if x.startswith('-') else ' '}{x}{'' if y.startswith('-') else ' '}{y}"


def _areas(
    board: Map, shapes: Shapes, centre_owner: dict[str, str], owners: dict[str, str]
) -> list[Area]:
    """Each province's area, filled by its owner: a centre's owner, or the province's own
    (Mercator's owned provinces); kept on the board by (province, centre owner, owner)."""
    made: dict[tuple[str, str | None, str | None], Area] = _memo(board, "_picture_areas", dict)
    if len(made) > 50_000:
        made.clear()
    paths: dict[str, tuple[str, str]] = _memo(
        board,
        "_picture_paths",
        lambda: {
            code: (_path(shape.rings), _path(_simplified(shape.rings, OVERVIEW_DETAIL)))
            for code, shape in shapes.provinces.items()
        },
    )
    boxes = _boxes(board, shapes)
    codes: list[str] = _memo(board, "_picture_shape_codes", lambda: sorted(shapes.provinces))

    # Every province unowned, then those owned (a centre's owner, or the province's own).
    kept = (board, shapes, made, paths, boxes)
    out = list(
        _memo(board, "_picture_unowned", lambda: [_area_of(kept, c, None, None) for c in codes])
    )
    places: dict[str, int] = _memo(
        board, "_picture_shape_index", lambda: {c: i for i, c in enumerate(codes)}
    )
    for code in centre_owner.keys() | owners.keys():
        at = places.get(code)
        if at is not None:
            out[at] = _area_of(kept, code, centre_owner.get(code), owners.get(code))
    return out


def _area_of(
    kept: tuple[
        Map,
        Shapes,
        dict[tuple[str, str | None, str | None], Area],
        dict[str, tuple[str, str]],
        dict[str, Box],
    ],
    code: str,
    centre: str | None,
    owner: str | None,
) -> Area:
    """A province's area with its centre's owner and its own (`_areas`), made once and kept
    (a module function: one nested in `_areas` and used by its lambda would leave a cycle)."""
    board, shapes, made, paths, boxes = kept
    key = (code, centre, owner or centre)
    area = made.get(key)
    if area is None:
        shape = shapes.provinces[code]
        province = board.provinces.get(code)
        kind = SEA if shape.kind == "sea" else LAND
        if province is not None and province.terrain is Terrain.IMPASSABLE:
            kind = IMPASSABLE
        at = shape.centre if province is not None and province.supply_centre else None
        if at is not None:
            at = _centre_point(board, shapes, code)
        area = made[key] = Area(
            code=code,
            label=code.upper(),
            kind=kind,
            path=paths[code][0],
            outline=paths[code][1],
            box=boxes.get(code, (0.0, 0.0, 0.0, 0.0)),
            label_at=(float(shape.label[0]), float(shape.label[1])),
            centre_at=None if at is None else (float(at[0]), float(at[1])),
            owner=key[2] if kind == LAND else None,
            centre_owner=key[1],
            title=province.name if province is not None else code,
        )
    return area


def _centre_point(board: Map, shapes: Shapes, code: str) -> tuple[float, float]:
    """A supply centre's mark, moved a little where it would stand under the province's label
    or a unit standing there."""
    shape = shapes.provinces[code]
    assert shape.centre is not None
    size = label_size(float(shapes.canvas[0]))
    places = _locations(board, shapes)
    units = [
        (x - UNIT_BOX[0] / 2, y - UNIT_BOX[1] / 2, x + UNIT_BOX[0] / 2, y + UNIT_BOX[1] / 2)
        for loc, (x, y) in places.items()
        if province_of(loc) == code
    ]
    label = _label_box(code, shape.label, size)
    return clear_of(shape.centre, CENTRE_BOX, [label, *units], shape.rings)


def _shape_lines(
    shapes: Shapes,
) -> tuple[
    tuple[str, ...],
    tuple[tuple[tuple[float, float], ...], ...],
    tuple[tuple[tuple[float, float], ...], ...],
]:
    """The impassable land's path data, the barriers' and the crossings' points."""
    impassable = tuple(_path(rings) for rings in shapes.impassable)
    return impassable, tuple(shapes.barriers), tuple(c.line for c in shapes.crossings)


def within_two_moves(board: Map, provinces: set[str]) -> set[str]:
    """The provinces given and every province one or two moves from them (either kind)."""
    near = neighbours_of(board)
    reached = set(provinces)
    edge = set(provinces)
    for _ in range(2):
        edge = {n for p in edge for n in near.get(p, ())} - reached
        reached |= edge
    return reached


def _boxes(board: Map, shapes: Shapes | None) -> dict[str, tuple[float, float, float, float]]:
    """Each province's extent on the picture (x1, y1, x2, y2): its shape's where it has one,
    else a little round its point."""

    def make() -> dict[str, tuple[float, float, float, float]]:
        out = {}
        for code in board.provinces:
            shape = shapes.provinces.get(code) if shapes is not None else None
            if shape is not None and shape.rings:
                xs = [float(x) for ring in shape.rings for x, _ in ring]
                ys = [float(y) for ring in shape.rings for _, y in ring]
                out[code] = (min(xs), min(ys), max(xs), max(ys))
            elif shapes is None:
                x, y = where(board, code, shapes)
                out[code] = (x - 30, y - 30, x + 30, y + 30)
        return out

    return _memo(board, f"_picture_boxes_{shapes is not None}", make)


TALLEST = 0.8
# A reader's part is drawn at most this many times larger than the canvas (a power whose units
# and their reach are few sees a little round them), and is cut into at most MOST_PARTS windows,
# one under the other: a power whose units spread wider sees the rest on the whole board drawn
# small beside the legend.
MOST_ENLARGED = 3.0
NARROWEST_VIEW = VIEW_PICTURE / MOST_ENLARGED
MOST_PARTS = 3
WINDOW_MARGIN = 10.0  # canvas pixels round what a window holds
# The windows together at most this high on the picture (pixels): a window past it is left out.
PARTS_HIGH = 1300.0


def _point_boxes(board: Map, shapes: Shapes | None) -> dict[str, tuple[float, float, float, float]]:
    """Each province's unit and label points with room round them for a unit and a label
    (on a board with shapes; else its box, `_boxes`)."""
    if shapes is None:
        return _boxes(board, shapes)

    def make() -> dict[str, tuple[float, float, float, float]]:
        out = {}
        for code, shape in shapes.provinces.items():
            xs = [shape.unit[0], shape.label[0]]
            ys = [shape.unit[1], shape.label[1]]
            out[code] = (min(xs) - 30, min(ys) - 20, max(xs) + 30, max(ys) + 20)
        return out

    return _memo(board, "_picture_point_boxes", make)


def _steps(board: Map) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """The provinces an army may move to from each province, and a fleet (from any of its
    coasts), as the board's adjacency gives them."""

    def make() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
        fleet: dict[str, set[str]] = {}
        for loc, dests in board.fleet_edges.items():
            fleet.setdefault(province_of(loc), set()).update(province_of(d) for d in dests)
        army = {p: frozenset(d) for p, d in board.army_edges.items()}
        return army, {p: frozenset(d) for p, d in fleet.items()}

    return _memo(board, "_picture_steps", make)


def two_moves_of(board: Map, province: str, kind: str) -> frozenset[str]:
    """The province a unit of `kind` stands in and every province it may reach in one or two
    moves without a convoy: an army by the army's adjacency, a fleet by the fleet's, an
    army/fleet (Mercator, 1885) by either (it sails as a fleet, its army lands as an army)."""
    kept: dict[tuple[str, str], frozenset[str]] = _memo(board, "_picture_reach", dict)
    found = kept.get((province, kind))
    if found is None:
        army, fleet = _steps(board)
        ways = (army,) if kind == "A" else (fleet,) if kind == "F" else (army, fleet)
        reached = {province}
        edge = {province}
        for _ in range(2):
            edge = {n for p in edge for way in ways for n in way.get(p, ())} - reached
            reached |= edge
        found = kept[(province, kind)] = frozenset(reached)
    return found


Box = tuple[float, float, float, float]


def _unit_locations(shown: Position) -> dict[str, list[str]]:
    """Each power's units' locations."""
    out: dict[str, list[str]] = {}
    for unit in shown.units:
        out.setdefault(unit.power, []).append(unit.loc)
    return out


def unit_places(shown: Position) -> dict[str, set[tuple[str, str]]]:
    """Each power's units as (province, kind)."""
    out: dict[str, set[tuple[str, str]]] = {}
    for power, kind, loc, *_ in shown.units:
        mine = out.get(power)
        if mine is None:
            mine = out[power] = set()
        mine.add((province_of(loc), kind))
    return out


def reader_targets(
    board: Map, shown: Position, reader: str, mine: set[tuple[str, str]] | None = None
) -> list[tuple[str, frozenset[str]]]:
    """Each of the reader's units' province with every province within two moves of it
    (`two_moves_of`); with no units, his home centres' (either kind of move). `mine`: his
    units' places (`unit_places`), where they are known already."""
    if mine is None:
        mine = unit_places(shown).get(reader, set())
    if not mine:
        mine = {(c, "AF") for c in board.powers[reader].home_centres}
    return [(p, two_moves_of(board, p, kind)) for p, kind in sorted(mine)]


def reader_part(
    board: Map,
    shown: Position,
    reader: str,
    shapes: Shapes | None,
    canvas: tuple[float, float],
) -> tuple[float, float, float, float] | None:
    """The first of `reader_parts`, or None: he has no units nor home centres."""
    parts = reader_parts(board, shown, reader, shapes, canvas)
    return parts[0] if parts else None


def reader_parts(
    board: Map,
    shown: Position,
    reader: str,
    shapes: Shapes | None,
    canvas: tuple[float, float],
    mine: set[tuple[str, str]] | None = None,
) -> list[tuple[float, float, float, float]]:
    """The windows of the canvas a power's picture shows enlarged (x, y, width, height), the
    one holding most of his units first: together they hold each of his units and every
    province within two moves of it (by their unit and label points: a great sea's shape would
    take in half the world), each at most `view_width()` wide so its labels stay readable.
    The provinces are gathered as they come (his units' with most within reach first, each's
    nearest first), each into the first window that holds it or still fits it; past
    MOST_PARTS windows, those holding fewest of his units are left to the whole board drawn
    small. On a board that wraps, x may run past either edge. `mine`: his units' places
    (`unit_places`), where they are known already."""
    width, height = canvas
    points = _point_boxes(board, shapes)
    wraps = board.wraps
    # What a window may hold: as wide and high as it may be, less its margins.
    limit = VIEW_WIDTH - 2 * WINDOW_MARGIN
    high = VIEW_WIDTH * TALLEST - 2 * WINDOW_MARGIN
    windows: list[list[float]] = []  # x1, y1, x2, y2
    units: list[int] = []  # how many of his units' provinces each window holds
    # His units' provinces with most within reach first (by name where as many), each with
    # its reach: sorted as tuples, no key function called for each.
    targets = sorted(
        [(-len(reach), p, reach) for p, reach in reader_targets(board, shown, reader, mine)]
    )
    kept: dict[tuple[str, frozenset[str]], tuple[list[Box], list[float]]] = _memo(
        board, "_picture_reach_boxes", dict
    )
    for _, province, reach in targets:
        if province not in points:
            continue
        found = kept.get((province, reach))
        if found is None:  # the reach's boxes, nearest first, and the box holding them all
            here = points[province]
            anchor = (here[0] + here[2]) / 2
            near = sorted(
                (_unwrapped(points[c], anchor, width, wraps) for c in reach if c in points),
                key=lambda b: (abs((b[0] + b[2]) / 2 - anchor) + abs(b[1] - here[1]), b),
            )
            whole = [
                min(b[0] for b in near),
                min(b[1] for b in near),
                max(b[2] for b in near),
                max(b[3] for b in near),
            ]
            found = kept[(province, reach)] = (near, whole)
        near, whole = found
        if whole[2] - whole[0] <= limit and whole[3] - whole[1] <= high:
            # All of it in one window: the first that still fits it, or the first window.
            if not windows:
                windows.append(list(whole))
                units.append(1)
                continue
            if _take(windows, units, whole, True, width, wraps, (limit, high), new=False):
                continue
        for k, box in enumerate(near):  # the first: his unit's own province
            _take(windows, units, list(box), k == 0, width, wraps, (limit, high))
    order = sorted([(-held, i) for i, held in enumerate(units)])  # most units first
    return [_framed(windows[i], canvas, wraps) for _, i in order[:MOST_PARTS]]


def _take(
    windows: list[list[float]],
    units: list[int],
    box: list[float],
    own: bool,
    width: float,
    wraps: bool,
    limit: tuple[float, float],
    new: bool = True,
) -> bool:
    """Put `box` (a province to show; `own`: his unit's) into the first window that holds it
    already or still fits it within `limit` (wide, high), else a new one where `new` allows;
    whether it was put."""
    bx1, by1, bx2, by2 = box
    wide, high = limit
    middle = (bx1 + bx2) / 2
    for index, (x1, y1, x2, y2) in enumerate(windows):
        if wraps:  # `box` moved round the board to the side nearer the window (`_unwrapped`)
            anchor = (x1 + x2) / 2
            shift = ((middle - anchor + width / 2) % width - width / 2) - (middle - anchor)
            ax1, ax2 = bx1 + shift, bx2 + shift
        else:
            ax1, ax2 = bx1, bx2
        if ax1 >= x1 and by1 >= y1 and ax2 <= x2 and by2 <= y2:  # holds it already
            units[index] += own
            return True
        nx1, ny1 = (x1 if x1 < ax1 else ax1), (y1 if y1 < by1 else by1)
        nx2, ny2 = (x2 if x2 > ax2 else ax2), (y2 if y2 > by2 else by2)
        if nx2 - nx1 <= wide and ny2 - ny1 <= high:
            windows[index] = [nx1, ny1, nx2, ny2]
            units[index] += own
            return True
    if new:
        windows.append(box)
        units.append(int(own))
    return new


def _unwrapped(box: Box, anchor: float, width: float, wraps: bool) -> Box:
    """`box` moved a whole canvas width east or west where that brings it nearer `anchor` (a
    board that wraps)."""
    if not wraps:
        return box
    middle = (box[0] + box[2]) / 2
    shift = ((middle - anchor + width / 2) % width - width / 2) - (middle - anchor)
    return box[0] + shift, box[1], box[2] + shift, box[3]


def _framed(
    box: list[float],
    canvas: tuple[float, float],
    wraps: bool,
    narrowest: float = NARROWEST_VIEW,
) -> tuple[float, float, float, float]:
    """A window round `box`: a margin, at least half as high as wide (a strip of coast reads
    badly) and at most TALLEST of its width high (a picture a mail shows without much
    scrolling), no narrower than `narrowest` (MOST_ENLARGED's), inside the canvas."""
    width, height = canvas
    margin = WINDOW_MARGIN
    x1, y1, x2, y2 = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    w = max(x2 - x1, (y2 - y1) / TALLEST, narrowest)
    if w > VIEW_WIDTH:
        w = float(VIEW_WIDTH)
    h = min(max(y2 - y1, w / 2), w * TALLEST, height)
    y = min(max((y1 + y2) / 2 - h / 2, 0.0), height - h)
    x = (x1 + x2) / 2 - w / 2
    if not wraps:
        x = min(max(x, 0.0), max(width - w, 0.0))
        w = min(w, width)
    elif x >= width:
        x -= width
    elif x + w <= 0:
        x += width
    return (_tenths(x), _tenths(y), _tenths(w), _tenths(h))


def _tenths(v: float) -> float:
    """`v` to the nearest tenth, a half up (round(v, 1) goes by way of the number's decimal
    digits and costs ten times more compiled)."""
    return math.floor(v * 10 + 0.5) / 10


def _land_under(
    board: Map, land: tuple[tuple[tuple[float, float], ...], ...]
) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The board's land, dragged where its markers were spread apart (layout.dragged)."""
    at, _ = positions_of(board)
    given = {c: p.at for c, p in board.provinces.items() if p.at is not None}
    return dragged(land, given, at)


def _known(board: Map, loc: str) -> bool:
    return isinstance(loc, str) and province_of(loc) in board.provinces
