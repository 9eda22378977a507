"""The pictures of a maze (judge/pictures): a player's is drawn from his knowledge alone (the
spaces he has learned, the links he has passed with their portal numbers, a dashed stub for each
portal whose far side he has not found, his own rats); the GM's shows the whole maze with every
rat; observers get none (rule 3: the maze is secret). The layout is made from the drawn graph
only, so not even where a space stands says anything of the spaces the player has not seen.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from judge.engine.geography import Map
from judge.pictures.board import positions_of
from judge.pictures.layout import graph_layout
from judge.pictures.scene import RAT, SPACE, Link, Node, Scene, Stub, UnitMark, power_colours
from judge.variants import MASTER
from judge.variants.algernon.knowledge import Knowledge, knowledge_of
from judge.variants.algernon.maze import centre_kind


def picture_scene(board: Map, case: Mapping[str, Any], reader: str) -> Scene | None:
    """What `reader` may see of the maze after the case's last phase, or None (observers)."""
    if reader == MASTER:
        return _master_scene(board, case)
    if reader not in board.powers:
        return None
    return _player_scene(knowledge_of(board, case.get("state") or {}, reader), case, reader)


def _player_scene(known: Knowledge, case: Mapping[str, Any], power: str) -> Scene:
    spaces = sorted(known.spaces)
    neighbours: dict[str, set[str]] = {s: set() for s in spaces}
    ends: dict[tuple[str, str], tuple[int, int]] = {}
    for s, p, t, q in sorted(known.links):
        if s in neighbours and t in neighbours:
            neighbours[s].add(t)
            neighbours[t].add(s)
            ends[(s, t)] = (p, q)
    frozen = {s: frozenset(v) for s, v in neighbours.items()}
    at, (width, height) = _known_layout(frozen)
    colour = power_colours([power])[power]  # the same colour whoever he has met
    nodes = []
    stubs = []
    for space in spaces:
        facts = known.spaces[space]
        count = int(facts.get("portals", 0))
        value = str(facts.get("centre") or "")
        nodes.append(
            Node(
                code=space,
                label=space.upper(),
                x=at[space][0],
                y=at[space][1],
                kind=SPACE,
                centre=bool(value),
                note=(f"{value}, " if value else "") + f"{count} portals",
            )
        )
        unknown = [n for n in range(1, count + 1) if known.behind(space, n) is None]
        for i, number in enumerate(unknown):
            stubs.append(
                Stub(space, f"{number} ?", _free_angle(space, at, frozen, i, len(unknown)))
            )
    links = [Link(s, t, str(p), str(q)) for (s, t), (p, q) in sorted(ends.items())]
    mine = [u for u in case.get("units", ()) if u.get("power") == power and u.get("loc") in at]
    units = [UnitMark(power, RAT, u["loc"], *at[u["loc"]]) for u in mine]
    return Scene(
        title=f"Your maze ({power}), {case.get('phase', '')}",
        width=width,
        height=height,
        nodes=nodes,
        links=links,
        stubs=stubs,
        units=units,
        powers={power: (colour, f"{power}: your rats ({len(units)})")},
        notes=[
            "The spaces you know, joined by the portals you have passed (their numbers at each "
            "end); dashed: portals you have not passed."
        ],
    )


_LAYOUTS: dict[frozenset[tuple[str, frozenset[str]]], tuple[dict[str, list[float]], Any]] = {}


def _known_layout(
    neighbours: dict[str, frozenset[str]],
) -> tuple[dict[str, list[float]], tuple[int, int]]:
    """The layout of a known graph, kept for the next picture of the same graph (a player's
    knowledge changes only when his rats find something)."""
    key = frozenset(neighbours.items())
    found = _LAYOUTS.get(key)
    if found is None:
        if len(_LAYOUTS) > 512:
            _LAYOUTS.clear()
        found = _LAYOUTS[key] = graph_layout(sorted(neighbours), neighbours)
    return found


# Directions from a space that its label and note (under its marker) stand in: no stub there.
LABEL_SIDE = (math.pi / 2, math.pi / 2 - 0.6, math.pi / 2 + 0.6)


def _free_angle(
    space: str,
    at: Mapping[str, list[float]],
    neighbours: Mapping[str, frozenset[str]],
    index: int,
    count: int,
) -> float:
    """A direction for the index-th unknown portal of `space`, away from its drawn links."""
    x, y = at[space]
    taken = [math.atan2(at[n][1] - y, at[n][0] - x) for n in neighbours[space]]
    taken += LABEL_SIDE  # the space's label and note stand under it
    best = 0.0
    steps = 36
    chosen: list[float] = []
    for _ in range(index + 1):
        best, best_gap = 0.0, -1.0
        for k in range(steps):
            angle = 2 * math.pi * k / steps
            gap = min(
                (abs((angle - t + math.pi) % (2 * math.pi) - math.pi) for t in taken + chosen),
                default=math.pi,
            )
            if gap > best_gap:
                best, best_gap = angle, gap
        chosen.append(best)
    return best


def _master_scene(board: Map, case: Mapping[str, Any]) -> Scene:
    spaces = sorted(board.provinces)
    at, (width, height) = positions_of(board)  # laid out once per maze, kept on its board
    colours = power_colours(list(board.powers))
    owner = {c: p for p, cs in (case.get("centers") or {}).items() for c in cs}
    nodes = [
        Node(
            code=s,
            label=s.upper(),
            x=at[s][0],
            y=at[s][1],
            kind=SPACE,
            centre=bool(centre_kind(board, s)),
            centre_owner=owner.get(s),
            note=(f"{centre_kind(board, s)}, " if centre_kind(board, s) else "")
            + f"{len(board.provinces[s].portals)} portals",
        )
        for s in spaces
    ]
    links = []
    for s in spaces:
        for p, t in sorted(board.provinces[s].portals.items()):
            if s < t:
                q = next(n for n, back in board.provinces[t].portals.items() if back == s)
                links.append(Link(s, t, str(p), str(q)))
    units = [
        UnitMark(u["power"], RAT, u["loc"], *at[u["loc"]])
        for u in case.get("units", ())
        if u.get("loc") in at
    ]
    counts = {p: len(cs) for p, cs in (case.get("centers") or {}).items()}
    return Scene(
        title=f"The whole maze, {case.get('phase', '')} (for the GM)",
        width=width,
        height=height,
        nodes=nodes,
        links=links,
        units=units,
        powers={p: (colours[p], f"{p}: {counts.get(p, 0)} centres") for p in sorted(board.powers)},
    )
