"""What a picture shows, as plain values: the drawing's input, made from a board and a position
(judge/pictures/board.py) or from what one reader knows of a secret board (a variant's own
`picture_scene`, judge/variants/algernon/picture.py), and drawn by judge/pictures/svg.py.

A scene holds only what its reader may see: whatever is not in it cannot reach the picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Kinds of node, for their look: the board's terrains, and a space of a maze.
LAND, COAST, SEA, CANAL, POLAR, IMPASSABLE, SPACE = (
    "land",
    "coast",
    "sea",
    "canal",
    "polar",
    "impassable",
    "space",
)
# Kinds of arrow.
MOVE, SUPPORT, CONVOY, RETREAT, BUILD, DISBAND = (
    "move",
    "support",
    "convoy",
    "retreat",
    "build",
    "disband",
)


@dataclass(frozen=True)
class Node:
    """A province (or a maze's space) drawn as a marker with its label."""

    code: str  # the board's code: the marker's id is "p-CODE"
    label: str  # the text under the marker, unique in the picture
    x: float
    y: float
    kind: str = LAND
    centre: bool = False
    centre_owner: str | None = None  # the power owning the supply centre, if any
    owner: str | None = None  # the power owning the province (Mercator), if the variant has it
    title: str = ""  # the full name, shown by SVG viewers on hover
    note: str = ""  # a second line under the label (a maze space's value and portal count)


@dataclass(frozen=True)
class Link:
    """Two nodes a unit may move between. `ends` label each end (a maze's portal numbers)."""

    a: str
    b: str
    label_a: str = ""
    label_b: str = ""


@dataclass(frozen=True)
class Stub:
    """A way out of a node whose far end the reader does not know (a maze portal not yet
    passed): drawn as a short line with its label."""

    node: str
    label: str
    angle: float  # radians, the stub's direction from the node


@dataclass(frozen=True)
class UnitMark:
    power: str
    kind: str  # "A", "F" or "AF"
    loc: str  # location as the board names it (a coast for a fleet on a two-coast province)
    x: float
    y: float
    army_power: str | None = None  # an army/fleet's army, where another power's
    dislodged: bool = False


@dataclass(frozen=True)
class Arrow:
    """One order drawn: a move, retreat, support or convoy as a line between points; a build or
    a disband at one point. `ok` False draws it as failed."""

    kind: str
    power: str
    points: tuple[tuple[float, float], ...]
    ok: bool = True
    text: str = ""  # the order as written, shown by SVG viewers on hover


@dataclass
class Scene:
    title: str
    width: float
    height: float
    nodes: list[Node] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    stubs: list[Stub] = field(default_factory=list)
    units: list[UnitMark] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    # power -> (its colour, the legend's words for it), in the legend's order
    powers: dict[str, tuple[str, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # lines under the title
    wraps: bool = False
    # Outlines of the land under the markers, on the scene's canvas (a board with real
    # geography: judge.map_files.land_outlines); () draws none.
    land: tuple[tuple[tuple[float, float], ...], ...] = ()
    # A part of the canvas (x, y, width, height) drawn again larger under the map, where
    # markers crowd (the board's `inset`); None: no such part.
    inset: tuple[float, float, float, float] | None = None
    # An object standing for the board's unchanging layer (links, labels), the same object for
    # every scene of one board: the drawing keeps that layer's text by it. None: no such layer.
    static: object | None = None


# Colours of the powers in the order of their names, so the standard board gets the classic
# ones (Austria red, England dark blue, France light blue, Germany dark grey, Italy green,
# Russia purple, Turkey gold) and any other board distinct ones, up to 16.
PALETTE = (
    "#d62728",
    "#1f3f9f",
    "#35a9e0",
    "#55555a",
    "#2ca02c",
    "#8e44ad",
    "#e0b000",
    "#ff7f0e",
    "#17becf",
    "#e377c2",
    "#8c564b",
    "#9acd32",
    "#b8005c",
    "#006d6d",
    "#bcbd22",
    "#4b0082",
)


def power_colours(powers: list[str]) -> dict[str, str]:
    """A colour for each power, by the sorted order of their names."""
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(sorted(powers))}
