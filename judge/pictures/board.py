"""The scene of a public board: every province where the map places it (`at` on its canvas, or a
spring layout for a board that gives no positions), links between neighbours, supply centres in
their owner's colour, owned provinces tinted (Mercator), every unit and dislodged unit, and the
phase's orders as arrows. Pure: the board, the position and the orders in, a Scene out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from judge.engine.geography import Map
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from judge.engine.position import Position, province_of
from judge.engine.results import SUCCESS
from judge.pictures.layout import LABEL_ROOM, dragged, graph_layout, links_of, spread
from judge.pictures.scene import (
    BUILD,
    CONVOY,
    DISBAND,
    MOVE,
    RETREAT,
    SUPPORT,
    Arrow,
    Link,
    Node,
    Scene,
    UnitMark,
    power_colours,
)

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
        spread(placed, neighbours_of(board), board.canvas, board.wraps, crowded=LABEL_ROOM)
        return {c: (p[0], p[1]) for c, p in placed.items()}, board.canvas
    at, size = graph_layout(sorted(board.provinces), neighbours_of(board))
    return {c: (p[0], p[1]) for c, p in at.items()}, (float(size[0]), float(size[1]))


def _locations(board: Map) -> dict[str, tuple[float, float]]:
    """Every location's point: a province's own, and each named coast a little off it towards
    the seas that coast touches."""
    return _memo(board, "_picture_locations", lambda: _coast_points(board))


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


def where(board: Map, loc: str) -> tuple[float, float]:
    """The point of a location on the picture (a coast's, or its province's)."""
    places = _locations(board)
    return places.get(loc) or places[province_of(loc)]


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


def arrow(board: Map, power: str, shape: tuple[str, tuple[str, ...]], ok: bool, text: str) -> Arrow:
    """An order's arrow: a support ends on the middle of the move it supports, a convoy on the
    middle of the army's way."""
    kind, locs = shape
    points = [where(board, loc) for loc in locs]
    if kind in (SUPPORT, CONVOY) and len(points) == 3:
        (ax, ay), (bx, by) = points[1], points[2]
        points = [points[0], (ax + (bx - ax) * 0.55, ay + (by - ay) * 0.55)]
    return Arrow(kind, power, tuple(points), ok, text)


def board_scene(
    board: Map,
    shown: Position,
    orders: Sequence[tuple[str, Any, str, str]] = (),
    *,
    title: str,
    notes: Sequence[str] = (),
    own_orders: OrderShape | None = None,
    land: tuple[tuple[tuple[float, float], ...], ...] = (),
) -> Scene:
    """The whole board with the position `shown` and the orders (power, order value, result,
    text) drawn as arrows, over the board's `land` where it has outlines of it."""
    at, (width, height) = positions_of(board)
    colours = power_colours(list(board.powers))
    centre_owner = {c: power for power, centres in shown.centers.items() for c in centres}
    owners = dict(shown.owners)
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
    links = _memo(
        board, "_picture_links", lambda: [Link(a, b) for a, b in links_of(neighbours_of(board))]
    )
    units = [
        UnitMark(u.power, u.kind, u.loc, *where(board, u.loc), army_power=u.army_power)
        for u in shown.units
    ]
    units += [
        UnitMark(
            d.unit.power, d.unit.kind, d.unit.loc, *where(board, d.unit.loc),
            army_power=d.unit.army_power, dislodged=True,
        )
        for d in shown.dislodged
    ]  # fmt: skip
    arrows = []
    for power, order, result, text in orders:
        shape = order_shape(order, own_orders)
        if shape is not None and all(_known(board, loc) for loc in shape[1]):
            arrows.append(arrow(board, power, shape, result == SUCCESS, text))
    unit_count: dict[str, int] = {}
    for u in shown.units:
        unit_count[u.power] = unit_count.get(u.power, 0) + 1
    powers = {
        name: (
            colours[name],
            f"{name.title()}: {len(shown.centers.get(name, ()))} centres, "
            f"{unit_count.get(name, 0)} units",
        )
        for name in sorted(board.powers)
    }
    return Scene(
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
        land=_memo(board, "_picture_land", lambda: _land_under(board, land)) if land else (),
        inset=board.inset,
        static=links,  # the same list for every scene of this board: its layers are kept
    )


def _land_under(
    board: Map, land: tuple[tuple[tuple[float, float], ...], ...]
) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The board's land, dragged where its markers were spread apart (layout.dragged)."""
    at, _ = positions_of(board)
    given = {c: p.at for c, p in board.provinces.items() if p.at is not None}
    return dragged(land, given, at)


def _known(board: Map, loc: str) -> bool:
    return isinstance(loc, str) and province_of(loc) in board.provinces
