"""What a picture shows, as plain values: the drawing's input, made from a board and a position
(judge/pictures/board.py) or from what one reader knows of a secret board (a variant's own
`picture_scene`, judge/variants/algernon/picture.py), and drawn by judge/pictures/svg.py.

A scene holds only what its reader may see: whatever is not in it cannot reach the picture.
Its values are never changed once made (but a scene, which its maker finishes): slotted
dataclasses that hash by value rather than frozen ones, as the engine's (compiled, a frozen
one costs several times as much to make, and the drawing makes thousands a phase).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

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
# A maze rat (Algernon's one kind of unit), drawn as one rather than as an army.
RAT = "R"
# Kinds of arrow.
MOVE, SUPPORT, CONVOY, RETREAT, BUILD, DISBAND = (
    "move",
    "support",
    "convoy",
    "retreat",
    "build",
    "disband",
)


@dataclass(slots=True, unsafe_hash=True)
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


@dataclass(slots=True, unsafe_hash=True)
class Area:
    """A province drawn as its shape (a board with shapes, maps/NAME.shapes.json): its outline
    as SVG path data on the canvas, filled by its kind and its owner; its label and supply
    centre at the shape's own points."""

    code: str  # the board's code: the shape's id is "p-CODE"
    label: str
    kind: str  # LAND, SEA or IMPASSABLE (the fill)
    path: str  # SVG path data of the shape's rings (even-odd: a ring inside another is a hole)
    label_at: tuple[float, float]
    centre_at: tuple[float, float] | None = None  # a supply centre's mark, if the province is one
    owner: str | None = None  # the power whose colour fills it (its centre's or Mercator's owner)
    centre_owner: str | None = None
    title: str = ""
    outline: str = ""  # the shape's path data simplified, for the whole board drawn small
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # its extent: x1, y1, x2, y2


@dataclass(slots=True, unsafe_hash=True)
class Link:
    """Two nodes a unit may move between. `ends` label each end (a maze's portal numbers)."""

    a: str
    b: str
    label_a: str = ""
    label_b: str = ""


@dataclass(slots=True, unsafe_hash=True)
class Stub:
    """A way out of a node whose far end the reader does not know (a maze portal not yet
    passed): drawn as a short line with its label."""

    node: str
    label: str
    angle: float  # radians, the stub's direction from the node


@dataclass(slots=True, unsafe_hash=True)
class UnitMark:
    power: str
    kind: str  # "A", "F", "AF" or RAT
    loc: str  # location as the board names it (a coast for a fleet on a two-coast province)
    x: float
    y: float
    army_power: str | None = None  # an army/fleet's army, where another power's
    dislodged: bool = False
    letter: str = ""  # the power's letter, marked on the unit where colours are many
    # The largest size (against its usual one) its place leaves room for among its neighbours'
    # units: below 1 where provinces crowd (the world board's Europe drawn small).
    room: float = 1.0


@dataclass(slots=True, unsafe_hash=True, init=False)
class Arrow:
    """One order drawn: a move, retreat, support or convoy as a line between points; a build or
    a disband at one point. `ok` False draws it as failed."""

    kind: str
    power: str
    points: tuple[tuple[float, float], ...]
    ok: bool = True
    text: str = ""  # the order as written, shown by SVG viewers on hover

    # Written out, as Scene's (a phase's pictures make one for each order).
    def __init__(
        self,
        kind: str,
        power: str,
        points: tuple[tuple[float, float], ...],
        ok: bool = True,
        text: str = "",
    ) -> None:
        self.kind = kind
        self.power = power
        self.points = points
        self.ok = ok
        self.text = text


class Part(NamedTuple):
    """A window of the canvas drawn enlarged for a reader (x, y, width, height on the canvas),
    with the sizes its labels and marks are drawn at on the canvas (a named tuple: a phase's
    pictures make one for each reader's window)."""

    view: tuple[float, float, float, float]
    label_size: float
    mark_scale: float
    shown_width: float = 960.0  # its width on the picture: the picture's, or half of it
    # A window inside the first one (a power's own units close) shows the first one's ground
    # (its provinces' shapes, impassable land, barriers and crossings), with its own centres,
    # units and labels at its own size: the shapes, most of a window's text, are drawn once.
    first_ground: bool = False


@dataclass(slots=True, init=False)
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
    # A board with shapes: its provinces as areas (then `nodes` and `links` are empty), its
    # impassable land as path data, the borders no move crosses (barriers) and the moves that
    # cross water or the edge of the canvas (crossings), each as points on the canvas.
    areas: list[Area] = field(default_factory=list)
    impassable: tuple[str, ...] = ()
    barriers: tuple[tuple[tuple[float, float], ...], ...] = ()
    crossings: tuple[tuple[tuple[float, float], ...], ...] = ()
    label_size: float = 11.0  # the provinces' labels, in canvas pixels
    # The reader's part of a board too wide to read whole (x, y, width, height on the canvas):
    # drawn enlarged, the whole board small beside the legend. None: the whole board.
    view: tuple[float, float, float, float] | None = None
    # How large units and centre marks are drawn (a reader's part enlarged draws them smaller
    # on the canvas, so they keep their size on the picture).
    mark_scale: float = 1.0
    # The reader's further windows, drawn one under another below the first (`view`).
    parts: tuple[Part, ...] = ()
    # The width on the picture of the window `view` shows (a further window may be half).
    shown_width: float = 960.0
    # Added to the ids of what a further window (or the whole's crowded part) draws again, so
    # that no two elements of a picture share an id.
    id_suffix: str = ""
    # The window shows the ground of the first window (`Part.first_ground`), not its own.
    first_ground: bool = False
    # How wide the ground's lines (borders, barriers, crossings) are drawn against their own
    # width: a window showing the first's ground enlarged draws them narrower by as much, so
    # that they stand as wide on the picture as in the first window.
    ground_lines: float = 1.0
    # What the pictures of one phase share, drawn once for all its readers (each province's
    # shape in its fill, the whole board drawn small): the scenes a phase's readers are shown
    # are made from one scene and share this dict; a new phase starts a new one.
    shared: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    # Written out (`init=False`), as the engine's values (judge/engine/orders.py says why: the
    # one `dataclass` writes runs as Python where mypyc compiles the class, and a phase's
    # pictures make a scene for each reader and window); the fields in order, each with the
    # dataclass's default, a new list or dict for each scene (tests/pictures/test_scene.py).
    def __init__(
        self,
        title: str,
        width: float,
        height: float,
        nodes: list[Node] | None = None,
        links: list[Link] | None = None,
        stubs: list[Stub] | None = None,
        units: list[UnitMark] | None = None,
        arrows: list[Arrow] | None = None,
        powers: dict[str, tuple[str, str]] | None = None,
        notes: list[str] | None = None,
        wraps: bool = False,
        land: tuple[tuple[tuple[float, float], ...], ...] = (),
        inset: tuple[float, float, float, float] | None = None,
        static: object | None = None,
        areas: list[Area] | None = None,
        impassable: tuple[str, ...] = (),
        barriers: tuple[tuple[tuple[float, float], ...], ...] = (),
        crossings: tuple[tuple[tuple[float, float], ...], ...] = (),
        label_size: float = 11.0,
        view: tuple[float, float, float, float] | None = None,
        mark_scale: float = 1.0,
        parts: tuple[Part, ...] = (),
        shown_width: float = 960.0,
        id_suffix: str = "",
        first_ground: bool = False,
        ground_lines: float = 1.0,
        shared: dict[object, object] | None = None,
    ) -> None:
        self.title = title
        self.width = width
        self.height = height
        self.nodes = [] if nodes is None else nodes
        self.links = [] if links is None else links
        self.stubs = [] if stubs is None else stubs
        self.units = [] if units is None else units
        self.arrows = [] if arrows is None else arrows
        self.powers = {} if powers is None else powers
        self.notes = [] if notes is None else notes
        self.wraps = wraps
        self.land = land
        self.inset = inset
        self.static = static
        self.areas = [] if areas is None else areas
        self.impassable = impassable
        self.barriers = barriers
        self.crossings = crossings
        self.label_size = label_size
        self.view = view
        self.mark_scale = mark_scale
        self.parts = parts
        self.shown_width = shown_width
        self.id_suffix = id_suffix
        self.first_ground = first_ground
        self.ground_lines = ground_lines
        self.shared = {} if shared is None else shared


def with_changes(scene: Scene, **changes: object) -> Scene:
    """A copy of `scene` with `changes` (as `dataclasses.replace`, without its checks: a
    phase's pictures make one for each reader and window), sharing what it shares."""
    # Every field given in order (tests/pictures/test_scene.py checks that none is left out).
    copied = Scene(
        scene.title,
        scene.width,
        scene.height,
        scene.nodes,
        scene.links,
        scene.stubs,
        scene.units,
        scene.arrows,
        scene.powers,
        scene.notes,
        scene.wraps,
        scene.land,
        scene.inset,
        scene.static,
        scene.areas,
        scene.impassable,
        scene.barriers,
        scene.crossings,
        scene.label_size,
        scene.view,
        scene.mark_scale,
        scene.parts,
        scene.shown_width,
        scene.id_suffix,
        scene.first_ground,
        scene.ground_lines,
        scene.shared,
    )
    for name, value in changes.items():
        setattr(copied, name, value)
    return copied


# A picture of a reader's part is this many pixels wide (the whole board small beside it).
VIEW_PICTURE = 960.0


# Colours of the powers in the order of their names, chosen so that every two stay apart as
# people see them (tests/pictures/test_colours.py): the first nine at least CIEDE2000 15 apart
# and 10 apart as seen with protanopia or deuteranopia (Machado 2009), all sixteen at least 15
# apart. The standard board's seven keep the classic hues (Austria red, England dark blue,
# France light blue, Germany grey, Italy green, Russia purple, Turkey gold), moved until they
# pass; the others were picked one by one as far as possible from those before.
PALETTE = (
    "#940c00",
    "#00459f",
    "#4dbbec",
    "#674f5a",
    "#42a06e",
    "#a050f3",
    "#c8b000",
    "#b16700",
    "#96949f",
    "#445500",
    "#ff3366",
    "#006666",
    "#ee9977",
    "#ff77dd",
    "#880088",
    "#2277ff",
)
# Boards of more powers than this add each power's letter to its units (colour alone may not
# tell them apart with a colour vision deficiency).
COLOUR_ONLY = 9


def power_colours(powers: list[str]) -> dict[str, str]:
    """A colour for each power, by the sorted order of their names."""
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(sorted(powers))}
