"""A scene drawn as SVG text: links, markers with labels, centres in their owner's colour, units,
dislodged units beside their province, orders as arrows (failed ones dashed and crossed), and a
legend. Pure and deterministic: the same scene always gives the same text.

Ids name what each element shows, so tests and SVG viewers can find it: `p-CODE` a province's
marker, `l-CODE` its label, `c-CODE` a supply centre, `u-POWER-LOC` a unit, `d-POWER-LOC` a
dislodged unit, `o-N` the Nth order.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast
from xml.sax.saxutils import escape

from judge.pictures.cells import (
    GRID,
    Cut,
    Grid,
    KeptLayer,
    Large,
    Placed,
    Rows,
    copies,
    cut,
    same_objects,
)
from judge.pictures.layout import MARKER_RADIUS, link_segments, simplify
from judge.pictures.scene import (
    BUILD,
    CANAL,
    COLOUR_ONLY,
    CONVOY,
    DISBAND,
    IMPASSABLE,
    POLAR,
    RAT,
    RETREAT,
    SEA,
    SPACE,
    SUPPORT,
    VIEW_PICTURE,
    Area,
    Arrow,
    Node,
    Scene,
    UnitMark,
    with_changes,
)

FONT = "DejaVu Sans, Verdana, sans-serif"
FILL = {
    SEA: "#cfe3f5",
    CANAL: "#b9e0d8",
    POLAR: "#f4f8fb",
    IMPASSABLE: "#9a9a9a",
    SPACE: "#f6f1e4",
}
LAND_FILL = "#efe6cc"
LAND_UNDER = "#e4ebd6"  # the land under the markers, where a board draws its geography
COAST = "#aab89a"
LEGEND_ROW = 18
# The inset (Scene.inset): at most this many times larger, in a band under the map with a
# caption above it and margins round it, in pixels.
INSET_SCALE = 1.8
INSET_CAPTION = 30.0
INSET_MARGIN = 10.0
FAILED = "#c00000"
# A board with shapes: the seas, unowned land, impassable land, borders.
SEA_FILL = "#d5e5f2"
PALE_LAND = "#f1ead6"
ROCK = "#a3a3a3"
BORDER = "#5b6470"
# The whole board beside the legend under a reader's part (Scene.view): this many pixels wide.
OVERVIEW_WIDTH = 400.0


def _special(text: str) -> bool:
    """Whether `text` holds a character XML escapes (a search of the text for each: a set's
    `isdisjoint` makes a string of every character)."""
    return "&" in text or "<" in text or ">" in text or '"' in text


def _attr(text: str) -> str:
    return escape(text, {'"': "&quot;"}) if _special(text) else text


def _text(text: str) -> str:
    return escape(text) if _special(text) else text


# The unchanging layers of a board's pictures (links, labels) as text, by the scene's `static`
# object (kept beside its text so the key is never reused for another object).
_LAYERS: dict[int, tuple[object, list[str], list[str]]] = {}


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on `colour` (#rrggbb)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


@functools.lru_cache(maxsize=256)
def _tint(colour: str, white: float = 0.6) -> str:
    """A pale version of `colour` (`white` of the way to white), for an owned province."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(c + (255 - c) * white) for c in (r, g, b)))


# How far an owned province's shape is paled from its owner's colour: enough to tell its units
# (the full colour) from it, little enough that every tint stays apart from the sea's fill.
AREA_WHITE = 0.5


def _columns(width: float) -> int:
    return max(1, min(4, int(width // 230)))


def _note_lines(scene: Scene, width: float) -> list[str]:
    """The notes broken into lines that fit the legend's width (about 6.6 pixels a letter),
    found once for the pictures of the phase."""
    key = ("note lines", width)
    kept = scene.shared.get(key)
    if kept is None:
        kept = scene.shared[key] = _broken(scene.notes, width)
    return cast(list[str], kept)


def _broken(notes: list[str], width: float) -> list[str]:
    fit = max(30, int((width - 20) / 6.6))
    lines: list[str] = []
    for note in notes:
        line = ""
        for word in note.split():
            if line and len(line) + 1 + len(word) > fit:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines


# The width a mail program shows a picture at, and the smallest legend text read there.
MAIL_WIDTH = 800
LEGEND_TEXT_AT_MAIL_WIDTH = 9
LEGEND_FONT = 12
CAPTION_FONT = 13  # a caption over a part drawn again (bold), before a wide picture's scale


def legend_scale(scene: Scene) -> float:
    """How much larger than its own size the legend is drawn: a whole picture wider than a mail
    shows it (the world board's, for its GM and observers) gets a legend whose smallest text
    still reads LEGEND_TEXT_AT_MAIL_WIDTH pixels shown MAIL_WIDTH wide; a reader's part, whose
    width is the mail's, none."""
    if scene.view is not None:
        return 1.0
    shrink = MAIL_WIDTH / picture_width(scene)
    return max(1.0, LEGEND_TEXT_AT_MAIL_WIDTH / (LEGEND_FONT * shrink))


def legend_height(scene: Scene) -> float:
    scale = legend_scale(scene)
    width = _legend_place(scene)[1] / scale
    key = ("legend height", width)
    kept = scene.shared.get(key)
    if kept is None:
        rows = 1 + len(_note_lines(scene, width)) + math.ceil(len(scene.powers) / _columns(width))
        kept = scene.shared[key] = (12 + rows * LEGEND_ROW) * scale
    assert isinstance(kept, float)
    return kept


def picture_width(scene: Scene) -> float:
    """The picture's width: the canvas's, or VIEW_PICTURE for a reader's part."""
    return scene.width if scene.view is None else VIEW_PICTURE


def _layout(scene: Scene) -> tuple[list[tuple[Scene, float, float]], float]:
    """The reader's windows placed (`_placing`) and the height they take, found once for
    the readers of the phase whose windows are the same."""
    key = ("layout", *_windows_key(scene))
    kept = scene.shared.get(key)
    if kept is None:
        placed = _placing(scene)
        high = max(
            top + window.view[3] * _view_scale(window)  # type: ignore[index]
            for window, _, top in placed
        )
        kept = scene.shared[key] = (placed, high)
    return cast(tuple[list[tuple[Scene, float, float]], float], kept)


def _windows_key(scene: Scene) -> tuple[object, ...]:
    """What places a reader's windows on the picture: each one's view and width there."""
    return (scene.view, tuple((part.view, part.shown_width) for part in scene.parts))


def _placing(scene: Scene) -> list[tuple[Scene, float, float]]:
    """Each window's scene with its place on the picture (left, top): the first across the
    picture, the others under it, two of half its width side by side."""
    out: list[tuple[Scene, float, float]] = []
    row_top = row_bottom = 0.0
    beside = False  # a half-width window stands alone on the last row
    for window in _window_scenes(scene):
        assert window.view is not None
        shown = window.shown_width
        height = window.view[3] * shown / window.view[2]
        if beside and shown < VIEW_PICTURE:
            out.append((window, VIEW_PICTURE / 2, row_top))
            row_bottom = max(row_bottom, row_top + height)
            beside = False
            continue
        row_top = row_bottom
        out.append((window, 0.0, row_top))
        row_bottom = row_top + height
        beside = shown < VIEW_PICTURE
    return out


def _windows(scene: Scene) -> list[tuple[float, float, float, float]]:
    """The reader's windows, the first (`view`) and the others (`parts`)."""
    assert scene.view is not None
    return [scene.view, *(part.view for part in scene.parts)]


def _window_scenes(scene: Scene) -> list[Scene]:
    """The scene of each of the reader's windows: the first is the scene itself, the others
    its `_part_scenes`."""
    return [scene, *_part_scenes(scene)]


def _part_scenes(scene: Scene) -> list[Scene]:
    """The scene of each of the scene's `parts` (a reader's further windows, the whole's
    crowded part): the same with the part's window and sizes and ids of its own, sharing what
    the phase's pictures share. A reader's part showing his first window's ground draws its
    lines as much narrower as it is enlarged against the first, so they stand as wide as
    there. The whole board's crowded part keeps them enlarged: the whole is drawn at its
    canvas's size, several times a mail's width, and its PNG shown about half as large, where
    the enlarged lines read as wide as a reader's part's."""
    narrower = scene.view is not None  # a reader's part, not the whole board
    first = _view_scale(scene) if narrower else 1.0
    return [
        with_changes(
            scene,
            view=part.view,
            label_size=part.label_size,
            mark_scale=part.mark_scale,
            shown_width=part.shown_width,
            parts=(),
            id_suffix=f"-{index + 2}",
            first_ground=part.first_ground,
            ground_lines=first / (part.shown_width / part.view[2])
            if part.first_ground and narrower
            else 1.0,
        )
        for index, part in enumerate(scene.parts)
    ]


def _view_scale(scene: Scene) -> float:
    assert scene.view is not None
    return scene.shown_width / scene.view[2]


def _overview_scale(scene: Scene) -> float:
    return OVERVIEW_WIDTH / scene.width


def _legend_place(scene: Scene) -> tuple[float, float]:
    """Where the legend stands under the map: (its left edge, its width); beside the inset or
    the overview where there is one, else across the picture."""
    width = picture_width(scene)
    if scene.view is not None:
        left = 2 * INSET_MARGIN + OVERVIEW_WIDTH
    elif scene.parts:
        left = 2 * INSET_MARGIN + max(part.shown_width for part in scene.parts)
    elif scene.inset is not None:
        left = 2 * INSET_MARGIN + scene.inset[2] * _inset_scale(scene)
    else:
        return 0.0, width
    return left, width - left


# The picture's first lines, its window's and its frames' (printf-style: the compiled build
# formats them several times faster than f-strings with format specifications).
_SVG_HEAD = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
    'width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="' + FONT + '">\n'
    '<rect width="%.0f" height="%.0f" fill="#ffffff"/>'
)
_FIRST_VIEW_HEAD = (
    '<g id="view" transform="scale(%.4f) translate(%.1f,%.1f)">\n'
    '<rect x="%g" y="%g" width="%g" height="%g" fill="' + SEA_FILL + '"/>'
)
_FIRST_VIEW_FOOT = '</g>\n<rect y="%.1f" width="%.0f" height="%.0f" fill="#ffffff"/>'
_VIEW_PLACE = 'x="%g" y="%.1f" width="%.0f" height="%.1f"'
_VIEW_HEAD = (
    '<defs><pattern id="view%s" patternUnits="userSpaceOnUse" %s viewBox="%g %g %g %g" '
    'preserveAspectRatio="none">\n<rect x="%g" y="%g" width="%g" height="%g" fill="'
    + SEA_FILL
    + '"/>'
)
_VIEW_FOOT = (
    '<rect %s fill="url(#view%s)"/>\n<rect %s fill="none" stroke="#4d5560" stroke-width="2"/>'
)
# A window's frame on the whole board drawn small (its width: 2.5 pixels on the picture).
_WINDOW_FRAME = (
    '<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#000000" '
    'stroke-width="%.1f"/>'
)
# A band under a reader's windows (the whole board drawn small, the legend) drawn at the top
# and moved down to its place: what it holds is the same for every reader of a phase.
_BAND = '<g transform="translate(0,%.1f)">'


def draw(scene: Scene) -> str:
    """The scene as one SVG document."""
    width = picture_width(scene)
    placed, top = ([], scene.height) if scene.view is None else _layout(scene)
    height = top + max(
        inset_height(scene), overview_height(scene), detail_height(scene), legend_height(scene)
    )
    out: list[str] = [_SVG_HEAD % (width, height, width, height, width, height)]
    if scene.view is None:
        out += _details(scene, width, height)
        out += _board(scene)
        out += _detail_marks(scene)
    else:  # each window's board once, shown enlarged; under them the whole board small
        for index, (window, left, upper) in enumerate(placed):
            suffix = "" if index == 0 else f"-{index + 1}"
            out.append("<defs>")
            out += _board(window, suffix)
            out.append("</defs>")
            if index == 0:
                out += _first_view(window)
            else:
                out += _view(window, suffix, left, upper)
        out += _overview(scene, top)
    out += _inset(scene)
    out += _legend(scene, height, top)
    out.append("</svg>\n")
    return "\n".join(out)


def _board(scene: Scene, suffix: str = "") -> list[str]:
    """The board group (id "board" and `suffix`): the ground (shapes or markers and links), the
    orders, the units and the labels, on the canvas."""
    colours = _colours(scene)
    background = SEA_FILL if scene.areas else "#f7fbff"
    out = [
        # On a board with shapes, the size the ground's line widths are given in (`GROUND_EM`).
        f'<g id="board{suffix}" font-size="{GROUND_EM:g}">'
        if scene.areas
        else f'<g id="board{suffix}">',
        f'<g id="{GROUND}{scene.id_suffix}">',
    ]
    if scene.view is None:  # a window's ground is its own (`_view`): nothing reaches past it
        out.append(
            f'<rect width="{scene.width:.0f}" height="{scene.height:.0f}" fill="{background}"/>'
        )
    if scene.areas:
        _shapes_board(scene, colours, out)
        return out
    nodes = {node.code: node for node in scene.nodes}
    sides = label_sides(scene)
    links, labels = _static_layers(scene, nodes, sides)
    out += links
    out += _portal_labels(scene, nodes, sides)
    out.append('<g id="provinces">')
    shown = _visible_codes(scene)
    for node in scene.nodes:
        if shown is None or node.code in shown:
            out += _node(node, colours)
    out.append("</g>")
    out.append("</g>")
    out.append(f'<g id="orders{scene.id_suffix}">')
    out.append(_orders_text(scene, colours))
    out.append("</g>")
    out.append(f'<g id="units{scene.id_suffix}">')
    lettered = len(scene.powers) > COLOUR_ONLY
    for unit in _visible_units(scene):
        out += _unit(unit, colours, lettered, _unit_scale(unit, scene.mark_scale))
    out.append("</g>")
    out += labels
    out.append("</g>")
    return out


def _colours(scene: Scene) -> dict[str, str]:
    """Each power's colour (kept for the phase's pictures)."""
    found = scene.shared.get("colours")
    if found is None:
        found = scene.shared["colours"] = {n: colour for n, (colour, _) in scene.powers.items()}
    assert isinstance(found, dict)
    return found


def _shapes_board(scene: Scene, colours: dict[str, str], out: list[str]) -> None:
    """A board with shapes, as much of it as the scene's window shows (all, without one): the
    provinces in their fills, the impassable land, barriers and crossings, the centres, the
    orders, the units and the labels, each layer taken by rows of cells (judge.pictures.cells)
    from what the board keeps (its lines, its labels at each size) and what the pictures of the
    phase keep (its provinces' fills, centres and units at each size of marks)."""
    board = _shapes_kept(scene)
    phase = _phase(scene, board)
    window = phase.window(scene)
    suffix = scene.id_suffix
    if scene.first_ground:  # a window inside the first: its ground is the first's
        out.append(_FIRST_GROUND % (GROUND_EM * scene.ground_lines))
    else:
        heads = _opened(suffix)
        out.append(heads[_PROVINCES])
        phase.area_rows(scene, suffix).cut(window.areas, out)
        out += window.large_areas
        out.append("</g>")
        for kind, head in _LINE_HEADS.items():
            at = len(out)
            out.append(heads[head])
            board.lines[kind].cut(window.areas, out)
            if window.large_lines:
                out += [text for k, text in window.large_lines if k == kind]
            if len(out) > at + 1:
                out.append("</g>")
            else:  # none of this kind here: no group
                out.pop()
    out.append(f'</g><g id="centres{suffix}">')
    phase.centre_rows(scene).cut(window.areas, out)
    out.append("</g>")
    out.append(f'<g id="orders{suffix}">{phase.orders_in(scene, window)}</g>')
    out.append(f'<g id="units{suffix}">')
    phase.unit_rows(scene).cut(window.areas, out)
    out.append("</g>")
    # The labels go over the units, so a unit never hides its province's name.
    out.append(_opened(suffix)[SHAPE_LABELS])
    labels = board.labels_at(scene)
    labels.cut(window.areas, out)
    large = labels.large
    out += [large[i] for i in window.large]
    out.append("</g></g>")


def _opened(suffix: str) -> dict[str, str]:
    """The groups' opening tags of a board with shapes (their heads, their ids' place "{}"),
    with the ids of `suffix`, by head: found once a window, kept for each suffix."""
    found = _OPENED.get(suffix)
    if found is None:
        heads = (_PROVINCES, *_LINE_HEADS.values(), SHAPE_LABELS)
        found = _OPENED[suffix] = {head: head.format(suffix) for head in heads}
    return found


_OPENED: dict[str, dict[str, str]] = {}


# The id of a board group's ground (its provinces' shapes and lines), and a use of the first
# window's, which a window inside it shows (`Scene.first_ground`). The ground's lines are
# given in ems of the board group's font size (GROUND_EM, a tenth of an em a pixel of the
# canvas), which the use sets smaller in a window enlarged (`Scene.ground_lines`): a shape's
# border stands as wide there as in the first window, not as many times wider.
GROUND = "ground"
GROUND_EM = 10.0
_FIRST_GROUND = f'<use href="#{GROUND}" xlink:href="#{GROUND}" font-size="%g"/>'
_PROVINCES = (
    f'<g id="provinces{{}}" stroke="{BORDER}" stroke-width="0.1em" stroke-linejoin="round" '
    'fill-rule="evenodd">'
)


class _ShapesKept:
    """What every picture of a board with shapes finds its layers by, kept per board: its
    cells, its areas smaller than a cell by the cell of their middle and the larger ones by
    the cells they reach, its centres by the cell of their mark, its impassable land, barriers
    and crossings (as rows of text, and those larger than a cell), its labels at each size,
    and the pieces drawn so far (a province's shape in a fill, a centre's mark in a colour, a
    unit at its place, at each size of marks and ids), by the area or unit they draw (which
    the board keeps: judge.pictures.board)."""

    def __init__(self, scene: Scene) -> None:
        self.grid = Grid(scene.width, scene.height, scene.wraps)
        self.grid_areas = len(scene.areas)
        small = []
        large = []
        for i, area in enumerate(scene.areas):
            x1, y1, x2, y2 = area.box
            if x2 - x1 > GRID or y2 - y1 > GRID:
                large.append((area.box, i))
            else:
                small.append((((x1 + x2) / 2, (y1 + y2) / 2), i))
        self.areas = Placed(self.grid, small)
        self.large = [i for _, i in large]
        self.land = [i for i, area in enumerate(scene.areas) if area.kind != SEA]
        self.large_areas = Large(self.grid, large)
        self.centres = Placed(
            self.grid, [(a.centre_at, i) for i, a in enumerate(scene.areas) if a.centre_at]
        )
        self.lines: dict[str, Rows[str]] = {}
        items = _shape_items(scene)
        large_lines = []
        for kind in _LINE_HEADS:
            placed = []
            for k, box, text in items:
                if k != kind:
                    continue
                if box[2] - box[0] > GRID or box[3] - box[1] > GRID:
                    large_lines.append((box, (kind, text)))
                else:
                    placed.append((((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text))
            self.lines[kind] = Rows(self.grid, Placed(self.grid, placed), _same)
        self.large_lines = Large(self.grid, large_lines)
        self.labels: dict[tuple[float, str], _Labels] = {}
        # The provinces' and the units' layers at each size and ids as the last picture drew
        # them (a phase that moves no unit and changes no owner draws them again the same).
        self.layers: dict[tuple[object, ...], KeptLayer] = {}
        self.windows: dict[
            tuple[float, float, float, float] | None,
            tuple[Cut, list[int], list[tuple[str, str]]],
        ] = {}
        # The centres' layer at each size and ids, by whose each centre is (most phases leave
        # every centre with its owner).
        self.centre_layers: dict[tuple[object, ...], list[str]] = {}
        self.by_owner: dict[tuple[object, ...], list[dict[str | None, str]]] = {}
        self.units: dict[tuple[object, ...], dict[int, tuple[UnitMark, str]]] = {}

    def labels_at(self, scene: Scene) -> _Labels:
        """The board's labels at the scene's size and ids."""
        key = (scene.label_size, scene.id_suffix)
        found = self.labels.get(key)
        if found is None:
            found = self.labels[key] = _Labels(scene, self)
        return found

    def window_cells(
        self, view: tuple[float, float, float, float] | None
    ) -> tuple[Cut, list[int], list[tuple[str, str]]]:
        """What a window draws from (`_Window`, but the larger areas' shapes, which change with
        their owners): the cells within half a cell of it, and the larger areas and lines
        reaching into its own cells; kept, as a reader's windows come back phase after phase."""
        found = self.windows.get(view)
        if found is None:
            own = cut(self.grid, view, 0.0)
            if len(self.windows) > 10_000:
                self.windows.clear()
            found = self.windows[view] = (
                cut(self.grid, view, GRID / 2),
                self.large_areas.reached(own),
                self.large_lines.reached(own),
            )
        return found

    def layer(self, *key: object) -> KeptLayer:
        """One layer at one size and ids, as the last picture drew it."""
        found = self.layers.get(key)
        if found is None:
            if len(self.layers) > 200:
                self.layers.clear()
            found = self.layers[key] = KeptLayer()
        return found

    def owned(self, *key: object) -> list[dict[str | None, str]]:
        """The areas' pieces of one kind, size and ids drawn so far (a shape in its fill, a
        centre's mark in its colour): for each area, by the power owning it."""
        found = self.by_owner.get(key)
        if found is None:
            found = self.by_owner[key] = [{} for _ in range(self.grid_areas)]
        return found

    def drawn_units(self, *key: object) -> dict[int, tuple[UnitMark, str]]:
        """The units drawn so far at one size and ids, by the unit's id (the unit kept beside
        its text, so an id is never another unit's)."""
        found = self.units.get(key)
        if found is None or len(found) > 20_000:
            found = self.units[key] = {}
        return found


def forget_phases(static: object) -> None:
    """Let go of what the pictures of the board whose scenes name `static` kept from its
    phases to draw the next (each layer and the whole board drawn small as the last phase drew
    them, each window's cells, the orders' arrows), and keep what belongs to the
    board (its cells, lines and labels, where its legend stands, and its pieces: a province's
    shape in a fill, a unit at its place)."""
    kept = _BOARD_KEPT.get(id(static))
    if kept is None or kept[0] is not static:
        return
    tables = kept[1]
    shapes = tables.get("shapes")
    if isinstance(shapes, _ShapesKept):
        shapes.layers.clear()
        shapes.windows.clear()
        shapes.centre_layers.clear()
    for key in [k for k in tables if isinstance(k, tuple) and k[0] == "overview"]:
        del tables[key]
    _arrow_lines.cache_clear()


def _same(texts: list[str]) -> list[str]:
    return texts


def _shapes_kept(scene: Scene) -> _ShapesKept:
    kept = _board_kept(scene)
    found = kept.get("shapes")
    if found is None:
        found = kept["shapes"] = _ShapesKept(scene)
    return cast(_ShapesKept, found)


class _Window(NamedTuple):
    """The cells a window of a board with shapes draws from: those within half a cell of it
    (its areas', lines', centres', units' and labels'), and the areas and lines larger than a
    cell that reach into its own cells."""

    areas: Cut
    large: list[int]
    large_areas: list[str]  # their shapes in their fills
    large_lines: list[tuple[str, str]]


class _Phase:
    """What the pictures of one phase of a board with shapes share, made on first use: each
    area's shape in its fill, rows of areas, centres and units at each size of marks and ids,
    and each window's cells."""

    def __init__(self, scene: Scene, board: _ShapesKept) -> None:
        self.board = board
        self.colours = _colours(scene)
        self.lettered = len(scene.powers) > COLOUR_ONLY
        self.texts: dict[str, Callable[[list[int]], list[str]]] = {}
        self.rows: dict[tuple[object, ...], Rows[Any]] = {}
        self.windows: dict[tuple[object, str, bool], _Window] = {}
        self.large: dict[str, dict[int, str]] = {}
        self.units: Placed[UnitMark] | None = None
        self.arrows: Large[int] | None = None  # the orders by the cells they reach
        self.drawn_arrows: dict[tuple[int, float], str] = {}
        self.owners: tuple[str | None, ...] | None = None

    def window(self, scene: Scene) -> _Window:
        key = (scene.view, scene.id_suffix, scene.first_ground)
        found = self.windows.get(key)
        if found is None:
            reach, large, lines = self.board.window_cells(scene.view)
            if scene.first_ground:  # the first window's shapes
                shapes = []
            elif scene.id_suffix:  # a further window: the larger areas' shapes it shows
                shapes = self.areas(scene, scene.id_suffix)(large)
            else:  # a first window: those of all the first windows of the phase, found once
                texts = self.large.get("")
                if texts is None:
                    every = self.board.large
                    made = self.areas(scene, "")(every)
                    texts = self.large[""] = dict(zip(every, made, strict=True))
                shapes = [texts[i] for i in large]
            found = self.windows[key] = _Window(reach, large, shapes, lines)
        return found

    def orders_in(self, scene: Scene, window: _Window) -> str:
        """The arrows of the orders that reach the window's cells, at the scene's size of marks
        and ids, each drawn once for the pictures of the phase (a window of Europe draws no
        arrow of the Pacific)."""
        arrows = scene.arrows
        if not arrows:
            return ""
        if self.arrows is None:
            self.arrows = Large(
                self.board.grid, [(_line_box(a.points), i) for i, a in enumerate(arrows)]
            )
        at = window.areas
        places = list(range(len(arrows))) if at.whole else self.arrows.reached(at)
        drawn, suffix, scale = self.drawn_arrows, scene.id_suffix, scene.mark_scale
        texts = []
        for index in places:  # each drawn once at each size, its id (of the window's) added
            key = (index, scale)
            body = drawn.get(key)
            if body is None:
                arrow = arrows[index]
                colour = self.colours.get(arrow.power, "#000000")
                body = drawn[key] = _arrow_body(arrow, colour, scene.width, scene.wraps, scale)
            texts.append(f'<g id="o-{index}{suffix}"{body}')
        return "".join(texts)

    def areas(self, scene: Scene, suffix: str) -> Callable[[list[int]], list[str]]:
        """The areas' shapes in their fills (`_area_fill`), with ids of `suffix`."""
        found = self.texts.get(suffix)
        if found is None:
            found = self.texts[suffix] = _ByOwner(
                self.board.owned("area", suffix),
                scene.areas,
                False,
                functools.partial(_area_shape, colours=self.colours, suffix=suffix),
            )
        return found

    def area_rows(self, scene: Scene, suffix: str) -> Rows[int]:
        found = self.rows.get(("areas", suffix))
        if found is None:
            found = self.rows[("areas", suffix)] = Rows(
                self.board.grid,
                self.board.areas,
                self.areas(scene, suffix),
                kept=self.board.layer("areas", suffix),
                seen=scene.areas,
            )
        return found

    def centre_rows(self, scene: Scene) -> Rows[int]:
        """The centres' marks in their owners' colours at the scene's size and ids."""
        scale, suffix = scene.mark_scale, scene.id_suffix
        found = self.rows.get(("centres", scale, suffix))
        if found is None:
            texts = _ByOwner(
                self.board.owned("centre", scale, suffix),
                scene.areas,
                True,
                functools.partial(_centre, colours=self.colours, scale=scale, suffix=suffix),
            )
            if self.owners is None:  # whose each centre is: what the layer shows
                areas = scene.areas
                self.owners = tuple([areas[i].centre_owner for i in self.board.centres.things])
            key = (scale, suffix, self.owners)
            kept = self.board.centre_layers
            found = self.rows[("centres", scale, suffix)] = Rows(
                self.board.grid, self.board.centres, texts, kept.get(key)
            )
            if key not in kept:
                if len(kept) > 200:
                    kept.clear()
                kept[key] = found.made()
        return found

    def unit_rows(self, scene: Scene) -> Rows[UnitMark]:
        """The units at the scene's size of marks and ids."""
        scale, suffix = scene.mark_scale, scene.id_suffix
        found = self.rows.get(("units", scale, suffix))
        if found is None:
            if self.units is None:
                self.units = Placed(self.board.grid, [((u.x, u.y), u) for u in scene.units])
            texts = _UnitTexts(
                self.board.drawn_units(scale, suffix, self.lettered),
                self.colours,
                self.lettered,
                scale,
                suffix,
            )
            found = self.rows[("units", scale, suffix)] = Rows(
                self.board.grid,
                self.units,
                texts,
                kept=self.board.layer("units", scale, suffix, self.lettered),
                seen=scene.units,
            )
        return found


def _area_shape(area: Area, colours: dict[str, str], suffix: str) -> str:
    """A province's shape in its fill (`_area_fill`), with ids of `suffix`."""
    return _area_path(area, _area_fill(area, colours), suffix)


# The makers of a phase's texts below are objects rather than nested functions: a nested
# function and the frame it closes over refer to each other, which leaves cycles for the
# collector to find after every phase (judge.pictures.source.collector_paused).


class _UnitTexts:
    """The units' texts at one size of marks and ids, each found among those drawn so far
    (by the unit's id, the unit kept beside its text so an id is never another unit's), else
    drawn and kept."""

    __slots__ = ("colours", "drawn", "lettered", "scale", "suffix")

    def __init__(
        self,
        drawn: dict[int, tuple[UnitMark, str]],
        colours: dict[str, str],
        lettered: bool,
        scale: float,
        suffix: str,
    ) -> None:
        self.drawn = drawn
        self.colours = colours
        self.lettered = lettered
        self.scale = scale
        self.suffix = suffix

    def __call__(self, units: list[UnitMark]) -> list[str]:
        drawn = self.drawn
        try:  # all drawn before (a unit kept is alive, so its id is never another's)
            return [drawn[id(unit)][1] for unit in units]
        except KeyError:
            pass
        out = []
        for unit in units:
            kept = drawn.get(id(unit))
            if kept is None:  # not drawn yet at this size
                size = _unit_scale(unit, self.scale)
                kept = drawn[id(unit)] = (
                    unit,
                    "".join(_unit(unit, self.colours, self.lettered, size, self.suffix)),
                )
            out.append(kept[1])
        return out


class _ByOwner:
    """The texts of the areas given (by their places in `areas`), each found in `drawn` by its
    owner (its centre's, where `by_centre`: what its look depends on, besides the area), else
    made by `make`."""

    __slots__ = ("areas", "by_centre", "drawn", "make")

    def __init__(
        self,
        drawn: list[dict[str | None, str]],
        areas: list[Area],
        by_centre: bool,
        make: Callable[[Area], str],
    ) -> None:
        self.drawn = drawn
        self.areas = areas
        self.by_centre = by_centre
        self.make = make

    def __call__(self, things: list[int]) -> list[str]:
        drawn, areas, by_centre = self.drawn, self.areas, self.by_centre
        try:  # all drawn before in these looks (a comprehension of look-ups, quickest)
            if by_centre:
                return [drawn[i][areas[i].centre_owner] for i in things]
            return [drawn[i][areas[i].owner] for i in things]
        except KeyError:
            pass
        out = []
        for i in things:
            area = areas[i]
            owner = area.centre_owner if by_centre else area.owner
            text = drawn[i].get(owner)
            if text is None:  # not drawn yet in this look: drawn now, and kept
                text = drawn[i][owner] = self.make(area)
            out.append(text)
        return out


def _phase(scene: Scene, board: _ShapesKept) -> _Phase:
    found = scene.shared.get("shapes")
    if found is None:
        found = scene.shared["shapes"] = _Phase(scene, board)
    return cast(_Phase, found)


class _Labels(Rows[int]):
    """A board's labels at one size, by rows of cells, and the larger areas' each by itself
    (`large`)."""

    def __init__(self, scene: Scene, board: _ShapesKept) -> None:
        areas, size, suffix = scene.areas, scene.label_size, scene.id_suffix

        def texts(things: list[int]) -> list[str]:
            return [_area_label(areas[i], size, suffix) for i in things]

        super().__init__(board.grid, board.areas, texts)
        self.large = dict(zip(board.large, texts(board.large), strict=True))


# Tables derived once per board (where its areas lie, its labels at each size), by the scene's
# `static` (kept beside it, so the key is never another object's).
_BOARD_KEPT: dict[int, tuple[object, dict[object, object]]] = {}


def _board_kept(scene: Scene) -> dict[object, object]:
    """What the pictures of the scene's board share across phases (the phase's own, where the
    scene names no board's `static`)."""
    if scene.static is None:
        return scene.shared
    kept = _BOARD_KEPT.get(id(scene.static))
    if kept is None or kept[0] is not scene.static:
        if len(_BOARD_KEPT) > 64:
            _BOARD_KEPT.clear()
        kept = _BOARD_KEPT[id(scene.static)] = (scene.static, {})
    return kept[1]


# A unit where provinces crowd is drawn smaller, to the room its place leaves, but no smaller
# than this share of its usual size on the picture (its letter still reads).
LEAST_MARK = 0.8


def _unit_scale(unit: UnitMark, scale: float) -> float:
    """The size a unit is drawn at: the picture's size of marks, less where its place is
    crowded (`UnitMark.room`), never under LEAST_MARK of it."""
    return min(scale, max(unit.room, LEAST_MARK * scale))


def _orders_text(scene: Scene, colours: dict[str, str]) -> str:
    """Every order's arrow, drawn once for the pictures of the phase."""
    key = ("orders", scene.id_suffix, scene.mark_scale)
    found = scene.shared.get(key)
    if found is None:
        found = scene.shared[key] = "".join(
            line
            for index, arrow in enumerate(scene.arrows)
            for line in _arrow(
                index,
                arrow,
                colours.get(arrow.power, "#000000"),
                scene.width,
                scene.wraps,
                scene.id_suffix,
                scene.mark_scale,
            )
        )
    assert isinstance(found, str)
    return found


def _visible_units(scene: Scene) -> list[UnitMark]:
    """The units a picture draws in full: all, or those in a reader's part (the whole board
    beside it shows every unit as a dot)."""
    if scene.view is None:
        return scene.units
    x, y, w, h = scene.view
    shifts = _copies(scene, x, w)
    return [
        u
        for u in scene.units
        if y - 20 < u.y < y + h + 20 and any(x - 30 - s < u.x < x + w + 30 - s for s in shifts)
    ]


def _copies(scene: Scene, x: float, w: float) -> list[float]:
    """The shifts at which a board that wraps is drawn so the span x..x+w is covered."""
    return copies(scene.width, scene.wraps, x, w)


def _uses(scene: Scene, suffix: str) -> list[str]:
    """The board group "board" and `suffix` used where a window shows it: once, and again a
    canvas width over where the window runs past an edge of a board that wraps."""
    assert scene.view is not None
    use = f'<use href="#board{suffix}" xlink:href="#board{suffix}"'
    return [
        f'{use} transform="translate({shift:g},0)"/>' if shift else f"{use}/>"
        for shift in _copies(scene, scene.view[0], scene.view[2])
    ]


def _first_view(scene: Scene) -> list[str]:
    """The reader's first window, across the top of the picture: drawn uncut (what it draws
    past its sides and top falls outside the picture), then the band under it painted white
    for what comes there. A renderer draws this several times faster than a window cut to
    its frame, which it draws apart the size of the picture and masks."""
    assert scene.view is not None
    x, y, w, h = scene.view
    k = _view_scale(scene)
    out = [_FIRST_VIEW_HEAD % (k, -x, -y, x, y, w, h)]
    out += _uses(scene, "")
    out.append(_FIRST_VIEW_FOOT % (h * k, VIEW_PICTURE, scene.height * k))
    return out


def _view(scene: Scene, suffix: str = "", left: float = 0.0, top: float = 0.0) -> list[str]:
    """A further window of the reader's part (the board group "board" and `suffix`), enlarged
    to its width on the picture, its corner at (`left`, `top`), framed: a pattern of one tile,
    the window, filling its place (a renderer draws a tile no larger than itself, where a part
    cut by a clip path is drawn as large as all it holds, then masked)."""
    assert scene.view is not None
    x, y, w, h = scene.view
    k = _view_scale(scene)
    place = _VIEW_PLACE % (left, top, scene.shown_width, h * k)
    return [
        _VIEW_HEAD % (suffix, place, x, y, w, h, x, y, w, h),
        *_uses(scene, suffix),
        "</pattern></defs>",
        _VIEW_FOOT % (place, suffix, place),
    ]


def detail_height(scene: Scene) -> float:
    """The band under the whole board that holds its crowded part enlarged, or 0."""
    if scene.view is not None or not scene.parts:
        return 0.0
    part = scene.parts[0]
    return INSET_CAPTION + part.view[3] * part.shown_width / part.view[2] + INSET_MARGIN


_DETAIL_HEAD = (
    '<g id="view%s" transform="translate(%g,%.1f) scale(%.4f) translate(%g,%g)">'
    '<rect x="%g" y="%g" width="%g" height="%g" fill="' + SEA_FILL + '"/>'
)
_DETAIL_COVER = '<rect x="%g" y="%.1f" width="%.1f" height="%.1f" fill="#ffffff"/>'


def _details(scene: Scene, width: float, height: float) -> list[str]:
    """The whole board's crowded part drawn again larger under it, a board group of its own
    (its labels readable, its units their size on the picture). Drawn first and uncut, what it
    draws past its frame painted over: white round it, and above it the whole board drawn
    next (a renderer draws this several times faster than a part cut to its frame)."""
    out = []
    for index, window in enumerate(_part_scenes(scene)):
        assert window.view is not None
        x, y, w, h = window.view
        k = _view_scale(window)
        suffix = f"-{index + 2}"
        left, top = INSET_MARGIN, scene.height + INSET_CAPTION
        right, bottom = left + w * k, top + h * k
        out += ["<defs>", *_board(window, suffix), "</defs>"]
        out.append(_DETAIL_HEAD % (suffix, left, top, k, -x, -y, x, y, w, h))
        out += _uses(window, suffix)
        out.append("</g>")
        covers = [
            (0.0, scene.height, width, top - scene.height),
            (0.0, top, left, bottom - top),
            (right, top, width - right, bottom - top),
            (0.0, bottom, width, height - bottom),
        ]
        out += [_DETAIL_COVER % (cx, cy, cw, ch) for cx, cy, cw, ch in covers if cw > 0 and ch > 0]
    return out


def _detail_marks(scene: Scene) -> list[str]:
    """The crowded part's frame on the map (dashed), the line under the map, its caption (as
    large as the legend's title, read as the legend is at a mail's width) and its frame."""
    heading = max(20.0, CAPTION_FONT * legend_scale(scene))
    out = []
    for window in _part_scenes(scene):
        assert window.view is not None
        x, y, w, h = window.view
        k = _view_scale(window)
        top = scene.height + INSET_CAPTION
        out += [
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="none" '
            'stroke="#4d5560" stroke-width="2" stroke-dasharray="8 5"/>',
            f'<line x1="0" y1="{scene.height:.1f}" x2="{scene.width:.0f}" '
            f'y2="{scene.height:.1f}" stroke="#4d5560"/>',
            f'<text x="{INSET_MARGIN:g}" y="{top - 8:.1f}" font-size="{heading:.1f}" '
            f'font-weight="bold">The part in the dashed frame, {k:g} times larger</text>',
            f'<rect x="{INSET_MARGIN:g}" y="{top:.1f}" width="{w * k:.1f}" height="{h * k:.1f}" '
            'fill="none" stroke="#4d5560" stroke-width="2"/>',
        ]
    return out


def overview_height(scene: Scene) -> float:
    """The band under a reader's part that holds the whole board drawn small, or 0."""
    if scene.view is None:
        return 0.0
    return INSET_CAPTION + scene.height * _overview_scale(scene) + INSET_MARGIN


def _overview(scene: Scene, top: float) -> list[str]:
    """The whole board small (its ground and units), the reader's part framed on it."""
    assert scene.view is not None
    k = _overview_scale(scene)
    lines = _overview_frame(k, scene.width, scene.height)
    # Each window framed (where it runs past an edge of a board that wraps, its frame runs on
    # from the other edge), inside the board drawn small.
    wide = 2.5 / k
    frames = [
        _WINDOW_FRAME % (x - shift, y, w, h, wide)
        for x, y, w, h in _windows(scene)
        for shift in _copies(scene, x, w)
    ]
    return [
        _BAND % top,
        lines[0],
        _overview_body(scene, _colours(scene), k),
        lines[1],
        *frames,
        *lines[2:],
    ]


def _overview_frame(k: float, width: float, height: float) -> list[str]:
    """The lines of the whole board drawn small at scale `k`, at the top of its band (moved
    down to it: the same for every reader), but its body (after the first) and its windows'
    frames (after the second); the band's group closed by the last."""
    key = (k, width, height)
    found = _OVERVIEW_FRAMES.get(key)
    if found is None:
        left, upper = INSET_MARGIN, INSET_CAPTION
        found = [
            _OVERVIEW_HEAD % (VIEW_PICTURE, left, upper - 8, left, upper, k, width, height),
            _OVERVIEW_EDGE % (width, height),
            "</g></g>",
            _OVERVIEW_FRAME % (left, upper, width * k, height * k),
            "</g>",
        ]
        if len(_OVERVIEW_FRAMES) > 1000:
            _OVERVIEW_FRAMES.clear()
        _OVERVIEW_FRAMES[key] = found
    return found


_OVERVIEW_FRAMES: dict[tuple[float, float, float], list[str]] = {}
_OVERVIEW_HEAD = (
    '<line x1="0" y1="0" x2="%.0f" y2="0" stroke="#4d5560"/>\n'
    '<text x="%g" y="%.1f" font-size="13" font-weight="bold">'
    "The whole board; your part framed</text>\n"
    '<g id="overview" transform="translate(%g,%.1f) scale(%.4f)">\n'
    '<rect width="%.0f" height="%.0f" fill="' + SEA_FILL + '"/>'
)
_OVERVIEW_EDGE = (
    '<clipPath id="overview-edge"><rect width="%.0f" height="%.0f"/></clipPath>'
    '<g clip-path="url(#overview-edge)">'
)
_OVERVIEW_FRAME = (
    '<rect x="%g" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#000000" '
    'stroke-width="1.5"/>'
)


def _overview_body(scene: Scene, colours: dict[str, str], k: float) -> str:
    """The shapes' outlines simplified (or the land's), every unit a dot: the same for every
    reader of a phase (kept in the phase's `shared`)."""
    key = ("overview", k)
    kept = scene.shared.get(key)
    if kept is not None:
        assert isinstance(kept, str)
        return kept
    # As the last phase drew it, where its areas and units are those it drew it from.
    tables = _board_kept(scene)
    layer = tables.get(key)
    if not isinstance(layer, KeptLayer):
        layer = tables[key] = KeptLayer()
    seen: list[object] = [*scene.areas, *scene.units]
    last = layer.last
    if last is not None and same_objects(last[0], seen):
        text = scene.shared[key] = last[1][0]
        return text
    out = []
    if scene.areas:
        out.append(f'<g stroke="{BORDER}" stroke-width="{0.6 / k:.1f}">')
        out += _outlines(scene, colours)
        out.append("</g>")
    elif scene.land:
        out.append(
            f'<path d="{_land_parts(scene)[1]}" fill="{LAND_UNDER}" stroke="{COAST}" '
            f'stroke-width="{0.6 / k:.1f}" fill-rule="evenodd"/>'
        )
    out += _unit_dots(scene, colours, k)
    text = scene.shared[key] = "".join(out)
    layer.last = (seen, [text])
    return text


def _unit_dots(scene: Scene, colours: dict[str, str], k: float) -> list[str]:
    """Every unit as a dot in its power's colour, for the whole board drawn small (scale k),
    kept per board (by the unit, which the board keeps: judge.pictures.board)."""
    pieces = _pieces(scene, "dot")
    out = []
    for unit in scene.units:
        kept = pieces.get((id(unit), k))
        if kept is None or kept[0] is not unit:
            kept = pieces[(id(unit), k)] = (
                unit,
                f'<circle cx="{unit.x:.0f}" cy="{unit.y:.0f}" r="{2.2 / k:.1f}" '
                f'fill="{colours.get(unit.power, "#000000")}" stroke="#000000" '
                f'stroke-width="{0.5 / k:.1f}"/>',
            )
        out.append(kept[1])
    return out


def _area_fill(area: Area, colours: dict[str, str]) -> str:
    """Seas blue, impassable land grey, land in its owner's colour (pale), or unowned pale."""
    if area.kind == SEA:
        return SEA_FILL
    if area.kind == IMPASSABLE:
        return ROCK
    if area.owner is not None and area.owner in colours:
        return _tint(colours[area.owner], AREA_WHITE)
    return PALE_LAND


def _pieces(scene: Scene, kind: str) -> dict[object, Any]:
    """The board's pieces of one kind drawn so far (a province's shape in a fill, a centre's
    mark in a colour, a unit at its place), kept per board: a phase picks among them."""
    kept = _board_kept(scene)
    found = kept.get(("pieces", kind))
    if found is None or len(found) > 50_000:  # type: ignore[arg-type]
        found = kept[("pieces", kind)] = {}
    assert isinstance(found, dict)
    return found


def _outlines(scene: Scene, colours: dict[str, str]) -> list[str]:
    """The land areas' outlines simplified, those of one fill as one path, for the whole board
    drawn small (the seas: the ground shows them). One path a fill, not one an area: every
    reader's picture carries the whole board small, and its bytes are copied into each."""
    areas = scene.areas
    by_fill: dict[str, list[str]] = {}
    owned: dict[str | None, str] = {}  # a land area's fill by its owner (`_area_fill`)
    for i in _shapes_kept(scene).land:
        area = areas[i]
        if area.kind != SEA and area.kind != IMPASSABLE:
            fill = owned.get(area.owner)
            if fill is None:
                fill = owned[area.owner] = _area_fill(area, colours)
        else:
            fill = _area_fill(area, colours)
        found = by_fill.get(fill)
        if found is None:
            found = by_fill[fill] = []
        found.append(area.outline)
    return [f'<path d="{"".join(outlines)}" fill="{fill}"/>' for fill, outlines in by_fill.items()]


def _area_path(area: Area, fill: str, suffix: str = "") -> str:
    """A province's shape filled `fill`."""
    title = f"<title>{_text(area.title)}</title>" if area.title else ""
    return f'<path id="p-{_attr(area.code)}{suffix}" d="{area.path}" fill="{fill}">{title}</path>'


def _centre(area: Area, colours: dict[str, str], scale: float = 1.0, suffix: str = "") -> str:
    assert area.centre_at is not None
    x, y = area.centre_at
    dot = colours.get(area.centre_owner, "#ffffff") if area.centre_owner else "#ffffff"
    return (
        f'<circle id="c-{_attr(area.code)}{suffix}" cx="{x:.1f}" cy="{y:.1f}" r="{5 * scale:g}" '
        f'fill="{dot}" stroke="#000000" stroke-width="{1.5 * scale:g}"/>'
    )


# The group of a board with shapes' labels: what every label shares.
SHAPE_LABELS = (
    '<g id="labels{}" font-weight="bold" text-anchor="middle" fill="#1b1f24" stroke="#ffffff" '
    'stroke-width="2.5" stroke-opacity="0.8" paint-order="stroke">'
)


def _static_layers(
    scene: Scene, nodes: dict[str, Node], sides: dict[str, Side]
) -> tuple[list[str], list[str]]:
    """The links and the markers' labels, kept per board (those of the markers a reader's
    part shows, where it shows a part)."""
    if scene.static is not None and scene.view is None:
        kept = _LAYERS.get(id(scene.static))
        if kept is not None and kept[0] is scene.static:
            return kept[1], kept[2]
    shown = _visible_codes(scene)
    links = _land(_land_shown(scene))
    links.append('<g id="links" stroke="#8a8f98" stroke-width="1.4" fill="none">')
    for link in scene.links:
        if shown is not None and link.a not in shown and link.b not in shown:
            continue
        a, b = nodes[link.a], nodes[link.b]
        links += _link_lines(a.x, a.y, b.x, b.y, scene.width, scene.wraps)
    links.append("</g>")
    # The labels go over the units, so a unit never hides its province's name.
    labels = ['<g id="labels">']
    each = _node_labels(scene, sides)
    for node in scene.nodes:
        if shown is None or node.code in shown:
            labels += each[node.code]
    labels.append("</g>")
    if scene.view is not None:
        return links, labels
    return _kept(scene, links, labels)


# Each marker's label by its code, kept by the scene's `static` (a board's unchanging layer).
_NODE_LABELS: dict[int, tuple[object, dict[str, list[str]]]] = {}


def _node_labels(scene: Scene, sides: dict[str, Side]) -> dict[str, list[str]]:
    """Each marker's label (and note) as text: kept per board where its labels never change
    (no maze notes placed by `label_sides`)."""
    keep = scene.static is not None and not sides
    if keep:
        found = _NODE_LABELS.get(id(scene.static))
        if found is not None and found[0] is scene.static:
            return found[1]
    made = {n.code: _label(n, sides.get(n.code, BELOW), scene.label_size) for n in scene.nodes}
    if keep:
        if len(_NODE_LABELS) > 64:
            _NODE_LABELS.clear()
        _NODE_LABELS[id(scene.static)] = (scene.static, made)
    return made


@functools.lru_cache(maxsize=16384)
def _link_lines(
    ax: float, ay: float, bx: float, by: float, width: float, wraps: bool
) -> tuple[str, ...]:
    """A link's line (two through the edges where a board wraps). Kept: links never move."""
    return tuple(
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
        for (x1, y1), (x2, y2) in link_segments((ax, ay), (bx, by), width, wraps)
    )


def _visible_codes(scene: Scene) -> set[str] | None:
    """The markers a reader's part shows (None: all, the whole board drawn)."""
    if scene.view is None:
        return None
    x, y, w, h = scene.view
    shifts = _copies(scene, x, w)
    return {
        n.code
        for n in scene.nodes
        if y - 40 < n.y < y + h + 40 and any(x - 60 - s < n.x < x + w + 60 - s for s in shifts)
    }


# The land's outlines with their extents, and simplified for the whole board drawn small, by the
# scene's land (kept beside it, so the key is never another object's).
_LAND_PARTS: dict[int, tuple[object, list[tuple[Box, str]], str]] = {}


def _land_parts(scene: Scene) -> tuple[list[tuple[Box, str]], str]:
    """Each outline of the land with its extent and its path data, and the whole land
    simplified for the board drawn small; kept by the scene's land."""
    kept = _LAND_PARTS.get(id(scene.land))
    if kept is None or kept[0] is not scene.land:
        parts = []
        small = []
        for outline in scene.land:
            xs = [p[0] for p in outline]
            ys = [p[1] for p in outline]
            text = "M" + " ".join(f"{x:g},{y:g}" for x, y in outline) + "Z"
            parts.append(((min(xs), min(ys), max(xs), max(ys)), text))
            simple = simplify(list(outline), 3.0)
            if len(simple) >= 3:
                small.append("M" + " ".join(f"{x:.0f},{y:.0f}" for x, y in simple) + "Z")
        if len(_LAND_PARTS) > 16:
            _LAND_PARTS.clear()
        kept = _LAND_PARTS[id(scene.land)] = (scene.land, parts, " ".join(small))
    return kept[1], kept[2]


def _land_shown(scene: Scene) -> list[str]:
    """The path data of the land's outlines the picture draws: all, or those a reader's part
    shows."""
    if not scene.land:
        return []
    if scene.view is None:
        return [text for _, text in _land_parts(scene)[0]]
    x, y, w, h = scene.view
    shifts = _copies(scene, x, w)
    return [
        text
        for box, text in _land_parts(scene)[0]
        if box[1] < y + h
        and box[3] > y
        and any(box[0] < x + w - s and box[2] > x - s for s in shifts)
    ]


def _kept(scene: Scene, links: list[str], labels: list[str]) -> tuple[list[str], list[str]]:
    if scene.static is not None:
        if len(_LAYERS) > 64:
            _LAYERS.clear()
        _LAYERS[id(scene.static)] = (scene.static, links, labels)
    return links, labels


def _points(line: tuple[tuple[float, float], ...]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in line)


# The groups of the lines over the provinces, in the order they are drawn ("{}": the ids'
# suffix).
_LINE_HEADS = {
    "impassable": f'<g id="impassable{{}}" fill="{ROCK}" stroke="{BORDER}" stroke-width="0.08em" '
    'fill-rule="evenodd">',
    "barriers": '<g id="barriers{}" stroke="#262626" stroke-width="0.35em" fill="none" '
    'stroke-linecap="round" stroke-linejoin="round">',
    "crossings": '<g id="crossings{}" stroke="#262626" stroke-width="0.2em" '
    'stroke-dasharray="0.5em 0.3em" fill="none">',
}


def _shape_items(scene: Scene) -> list[tuple[str, Box, str]]:
    """Over the provinces: the impassable land (each piece apart: a ring with the rings inside
    it), the borders no move crosses (barriers), the crossings (one the short way round a
    board that wraps drawn as two pieces through its edges): each piece's kind, extent and
    text."""
    pieces: list[tuple[str, Box, str]] = []
    for d in scene.impassable:
        pieces += [("impassable", box, f'<path d="{part}"/>') for box, part in _rock(d)]
    pieces += [
        ("barriers", _line_box(line), f'<polyline points="{_points(line)}"/>')
        for line in scene.barriers
    ]
    pieces += [
        ("crossings", _line_box(piece), f'<polyline points="{_points(piece)}"/>')
        for line in scene.crossings
        for piece in link_segments(line[0], line[-1], scene.width, scene.wraps)
    ]
    return pieces


def _rock(d: str) -> list[tuple[Box, str]]:
    """Impassable land's path data in pieces, each with its extent: each ring with the rings
    whose extent lies inside its own (its holes, or land in them), drawn as one path."""
    rings = ["M" + ring for ring in d.split("M")[1:]]
    boxes = [_path_box(ring) for ring in rings]

    def inside(a: Box, b: Box) -> bool:
        return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]

    outer = [
        i
        for i, box in enumerate(boxes)
        if not any(j != i and inside(box, other) for j, other in enumerate(boxes))
    ]
    return [
        (
            boxes[i],
            "".join(ring for j, ring in enumerate(rings) if j == i or inside(boxes[j], boxes[i])),
        )
        for i in outer
    ]


def _line_box(line: Sequence[tuple[float, float]]) -> Box:
    xs = [p[0] for p in line]
    ys = [p[1] for p in line]
    return (min(xs), min(ys), max(xs), max(ys))


def _path_box(d: str) -> Box:
    """The extent of path data written as `board._path` writes it: each ring's first point,
    then relative steps."""
    xs: list[float] = []
    ys: list[float] = []
    for ring in d.split("M")[1:]:
        numbers = [float(n) for n in re.findall(r"-?[0-9]*\.?[0-9]+", ring)]
        x, y = numbers[0], numbers[1]
        xs.append(x)
        ys.append(y)
        for i in range(2, len(numbers) - 1, 2):
            x += numbers[i]
            y += numbers[i + 1]
            xs.append(x)
            ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else (0.0, 0.0, 0.0, 0.0)


def _area_label(area: Area, size: float, suffix: str = "") -> str:
    """A province's code at its shape's label point (the text's middle), bold, haloed."""
    return _label_text(area.code, area.label, area.kind, area.label_at, size, suffix)


@functools.lru_cache(maxsize=16384)
def _label_text(
    code: str, label: str, kind: str, at: tuple[float, float], size: float, suffix: str = ""
) -> str:
    """A province's label, bold and haloed by its group (`SHAPE_LABELS`), at its size."""
    x, y = at
    style = ' font-style="italic"' if kind == SEA else ""
    return (
        f'<text id="l-{_attr(code)}{suffix}" x="{x:.1f}" y="{y + size * 0.36:.1f}" '
        f'font-size="{size:g}"{style}>{_text(label)}</text>'
    )


def _land(outlines: list[str]) -> list[str]:
    """The land under everything, one path of every outline's path data (a lake inside land
    stays sea)."""
    if not outlines:
        return []
    path = " ".join(outlines)
    return [
        f'<path id="land" d="{path}" fill="{LAND_UNDER}" stroke="{COAST}" stroke-width="0.8" '
        'fill-rule="evenodd"/>'
    ]


Box = tuple[float, float, float, float]  # x1, y1, x2, y2


def text_box(x: float, baseline: float, size: float, text: str, anchor: str = "middle") -> Box:
    """Where a line of DejaVu Sans text stands (about 0.64 of its size a letter, bold ones
    wider): the box the overlap checks use."""
    width = len(text) * size * 0.64
    left = x - width / 2 if anchor == "middle" else (x - width if anchor == "end" else x)
    return (left, baseline - size * 0.78, left + width, baseline + size * 0.24)


def _overlaps(box: Box, taken: list[Box], pad: float = 1.0) -> bool:
    return any(
        box[0] < t[2] + pad and t[0] < box[2] + pad and box[1] < t[3] + pad and t[1] < box[3] + pad
        for t in taken
    )


def _node_boxes(node: Node, side: Side) -> list[Box]:
    """What stands at a marker: the marker with a unit on it, its centre's dot, its label and
    note."""
    x, y = node.x, node.y
    boxes = [(x - 16, y - 11, x + 16, y + 11)]
    if node.centre:
        boxes.append((x + 4, y - 14, x + 14, y - 4))
    return boxes + _label_boxes(node, side)


def _taken(scene: Scene, sides: dict[str, Side]) -> list[Box]:
    return [box for n in scene.nodes for box in _node_boxes(n, sides.get(n.code, BELOW))]


def _free_along(
    start: tuple[float, float],
    direction: tuple[float, float],
    distances: range,
    label: str,
    taken: list[Box],
) -> tuple[float, float, Box]:
    """The first point along a ray from `start` (on it, or a little to either side, then
    further to either side where a crowded maze leaves no room near the line) where `label`
    (10 px) overlaps nothing taken; else the first point."""
    first: tuple[float, float, Box] | None = None
    for sides in ((0.0, 7.0, -7.0, 12.0, -12.0), (18.0, -18.0, 24.0, -24.0, 30.0, -30.0)):
        for d in distances:
            for side in sides:
                x = start[0] + direction[0] * d - direction[1] * side
                y = start[1] + direction[1] * d + direction[0] * side
                box = text_box(x, y + 3.5, 10, label)
                if first is None:
                    first = (x, y, box)
                if not _overlaps(box, taken):
                    return x, y, box
    assert first is not None
    return first


def _portal_labels(scene: Scene, nodes: dict[str, Node], sides: dict[str, Side]) -> list[str]:
    """The labels at links' ends and the stubs (a maze's portals), placed so that none
    overlaps another, a label, a note or a unit."""
    if not scene.stubs and not any(node.note for node in scene.nodes):
        return []  # only a maze's spaces carry notes, and its links portal numbers
    taken = _taken(scene, sides)
    return _link_ends(scene, nodes, taken) + _stubs(scene, nodes, taken)


def _link_ends(scene: Scene, nodes: dict[str, Node], taken: list[Box]) -> list[str]:
    """The labels at a link's ends (a maze's portal numbers), just outside each marker, moved
    along the link until they overlap nothing taken."""
    out: list[str] = []
    for link in scene.links:
        for here, there, label in ((link.a, link.b, link.label_a), (link.b, link.a, link.label_b)):
            if not label:
                continue
            a, b = nodes[here], nodes[there]
            d = math.hypot(b.x - a.x, b.y - a.y) or 1.0
            reach = range(int(MARKER_RADIUS + 9), max(int(MARKER_RADIUS + 10), int(d * 0.5)), 2)
            x, y, box = _free_along(
                (a.x, a.y), ((b.x - a.x) / d, (b.y - a.y) / d), reach, label, taken
            )
            taken.append(box)
            out.append(
                f'<text x="{x:.1f}" y="{y + 3.5:.1f}" font-size="10" text-anchor="middle" '
                f'fill="#5a3d00" stroke="#ffffff" stroke-width="2.5" paint-order="stroke">'
                f"{_text(label)}</text>"
            )
    return out


def _stubs(scene: Scene, nodes: dict[str, Node], taken: list[Box]) -> list[str]:
    """Each stub a dashed line out of its marker, its label at its end, both long enough that
    the label overlaps nothing taken."""
    out: list[str] = []
    for stub in scene.stubs:
        node = nodes[stub.node]
        dx, dy = math.cos(stub.angle), math.sin(stub.angle)
        reach = range(int(MARKER_RADIUS + 31), int(MARKER_RADIUS + 90), 3)
        tx, ty, box = _free_along((node.x, node.y), (dx, dy), reach, stub.label, taken)
        taken.append(box)
        along = math.hypot(tx - node.x, ty - node.y) - 9
        x1, y1 = node.x + dx * MARKER_RADIUS, node.y + dy * MARKER_RADIUS
        x2, y2 = node.x + dx * along, node.y + dy * along
        out.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#8a8f98" '
            f'stroke-width="1.4" stroke-dasharray="3 3"/>'
        )
        out.append(
            f'<text x="{tx:.1f}" y="{ty + 3.5:.1f}" font-size="10" text-anchor="middle" '
            f'fill="#5a3d00" stroke="#ffffff" stroke-width="2.5" paint-order="stroke">'
            f"{_text(stub.label)}</text>"
        )
    return out


def _node(node: Node, colours: dict[str, str]) -> list[str]:
    owner = colours.get(node.owner) if node.owner is not None else None
    dot = colours.get(node.centre_owner, "#ffffff") if node.centre_owner else "#ffffff"
    return _marker(node, owner, dot)


@functools.lru_cache(maxsize=4096)
def _marker(node: Node, owner: str | None, dot: str) -> list[str]:
    """A province's marker (tinted and ringed in its owner's colour `owner`, if owned) and its
    centre's dot in `dot`. Kept: most provinces look the same from one picture to the next."""
    fill = FILL.get(node.kind, LAND_FILL)
    ring = 'stroke="#4d5560" stroke-width="1.2"'
    if owner is not None:
        # Tinted, and ringed in the owner's colour, which shows above and below a unit on it.
        fill = _tint(owner)
        ring = f'stroke="{owner}" stroke-width="3"'
    x, y = node.x, node.y
    title = f"<title>{_text(node.title)}</title>" if node.title else ""
    out = [
        f'<circle id="p-{_attr(node.code)}" cx="{x:.1f}" cy="{y:.1f}" r="{MARKER_RADIUS:.0f}" '
        f'fill="{fill}" {ring}>{title}</circle>'
    ]
    if node.centre:
        out.append(
            f'<circle id="c-{_attr(node.code)}" cx="{x + 9:.1f}" cy="{y - 9:.1f}" r="4.5" '
            f'fill="{dot}" stroke="#000000" stroke-width="1.2"/>'
        )
    return out


# Where a marker's label and note stand: (x offset, the label's and the note's baselines as
# y offsets, text anchor). Under the marker unless its links or neighbours are there (a maze).
Side = tuple[float, float, float, str]
BELOW: Side = (0.0, MARKER_RADIUS + 13, MARKER_RADIUS + 24, "middle")
SIDES: tuple[Side, ...] = (
    BELOW,
    (0.0, -MARKER_RADIUS - 7, -MARKER_RADIUS - 19, "middle"),
    (MARKER_RADIUS + 8, -1.0, 10.0, "start"),
    (-MARKER_RADIUS - 8, -1.0, 10.0, "end"),
)


def _label(node: Node, side: Side = BELOW, size: float = 11.0) -> list[str]:
    """A province's name by its marker (under it, below a unit standing on it, unless `side`
    says otherwise), and its note under the name."""
    x, y = node.x + side[0], node.y
    style = ' font-style="italic"' if node.kind == SEA else ""
    out = [
        f'<text id="l-{_attr(node.code)}" x="{x:.1f}" y="{y + side[1]:.1f}" '
        f'font-size="{size:g}" text-anchor="{side[3]}" fill="#1b1f24" stroke="#ffffff" '
        f'stroke-width="2.5" paint-order="stroke"{style}>{_text(node.label)}</text>'
    ]
    if node.note:
        out.append(
            f'<text x="{x:.1f}" y="{y + side[2]:.1f}" font-size="9" '
            f'text-anchor="{side[3]}" fill="#4d5560" stroke="#ffffff" stroke-width="2" '
            f'paint-order="stroke">{_text(node.note)}</text>'
        )
    return out


def _label_boxes(node: Node, side: Side) -> list[Box]:
    x, y = node.x + side[0], node.y
    boxes = [text_box(x, y + side[1], 11, node.label, side[3])]
    if node.note:
        boxes.append(text_box(x, y + side[2], 9, node.note, side[3]))
    return boxes


def _crosses(box: Box, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether the segment a-b passes through the box (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in (
        (-dx, a[0] - box[0]),
        (dx, box[2] - a[0]),
        (-dy, a[1] - box[1]),
        (dy, box[3] - a[1]),
    ):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def label_sides(scene: Scene) -> dict[str, Side]:
    """Each marker's label side: under it, or, where a marker carries a note (a maze), the side
    its label and note cross fewest links, markers and labels already placed."""
    if not any(node.note for node in scene.nodes):
        return {}
    nodes = {node.code: node for node in scene.nodes}
    segments = [((nodes[k.a].x, nodes[k.a].y), (nodes[k.b].x, nodes[k.b].y)) for k in scene.links]
    for stub in scene.stubs:  # a stub with its label reaches about 45 pixels out
        node = nodes[stub.node]
        reach = (node.x + math.cos(stub.angle) * 45, node.y + math.sin(stub.angle) * 45)
        segments.append(((node.x, node.y), reach))
    markers = [(n.x - 16, n.y - 14, n.x + 16, n.y + 11) for n in scene.nodes]
    placed: list[Box] = []
    sides: dict[str, Side] = {}
    for node in scene.nodes:
        best: tuple[int, int] | None = None
        for index, side in enumerate(SIDES):
            boxes = _label_boxes(node, side)
            cost = sum(_crosses(box, a, b) for box in boxes for a, b in segments)
            cost += sum(_overlaps(box, markers + placed, 0.0) for box in boxes) * 3
            cost += (
                sum(
                    box[0] < 0 or box[1] < 0 or box[2] > scene.width or box[3] > scene.height
                    for box in boxes
                )
                * 10
            )
            if best is None or (cost, index) < best:
                best = (cost, index)
        assert best is not None
        sides[node.code] = SIDES[best[1]]
        placed += _label_boxes(node, sides[node.code])
    return sides


def _unit(
    unit: UnitMark,
    colours: dict[str, str],
    lettered: bool = False,
    scale: float = 1.0,
    suffix: str = "",
) -> list[str]:
    army = colours.get(unit.army_power) if unit.kind == "AF" and unit.army_power else None
    drawn = _unit_mark(unit, colours.get(unit.power, "#000000"), army, lettered, suffix)
    if scale == 1.0:
        return drawn
    # Smaller about its own point: the group's first line opens it, so the scale goes there.
    x, y = unit.x, unit.y
    head = drawn[0].replace(
        "<g ",
        f'<g transform="translate({x:.1f},{y:.1f}) scale({scale:.3f}) '
        f'translate({-x:.1f},{-y:.1f})" ',
        1,
    )
    return [head, *drawn[1:]]


@functools.lru_cache(maxsize=4096)
def _unit_mark(
    unit: UnitMark, colour: str, army: str | None, lettered: bool = False, suffix: str = ""
) -> list[str]:
    """A unit in its power's `colour`, an army/fleet's army stripe in `army`. Kept: most units
    stand where they stood last phase."""
    ink = _ink(colour)
    x, y = unit.x, unit.y
    prefix = "d" if unit.dislodged else "u"
    uid = f"{prefix}-{unit.power}-{unit.loc}{suffix}"
    kind = "A/F" if unit.kind == "AF" else unit.kind
    what = {"A": "army", "F": "fleet", "AF": "army/fleet", RAT: "rat"}.get(unit.kind, unit.kind)
    title = f"{unit.power} {what} in {unit.loc}"
    if unit.army_power and unit.army_power != unit.power:
        title += f" carrying {unit.army_power}'s army"
    if unit.dislodged:
        title += ", dislodged"
    stroke = (
        f'stroke="{FAILED}" stroke-width="2" stroke-dasharray="3 2"'
        if unit.dislodged
        else ('stroke="#000000" stroke-width="1.2"')
    )
    w = 30 if unit.kind == "AF" else 22
    h = 16
    out = [f'<g id="{_attr(uid)}"><title>{_text(title)}</title>']
    if unit.kind == RAT:
        return [*out, *_rat(x, y, colour, stroke), "</g>"]
    if unit.kind == "F":
        outline = f'<path d="M{x - w / 2:.1f},{y - h / 2:.1f} h{w} l-4,{h} h-{w - 8} z"'
    else:
        outline = f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w}" height="{h}" rx="4"'
    # A white halo first, so the unit stands out on land of its own colour.
    out.append(f'{outline} fill="none" stroke="#ffffff" stroke-width="4.5"/>')
    out.append(f'{outline} fill="{colour}" {stroke}/>')
    if army is not None:
        out.append(
            f'<rect x="{x - w / 2 + 2:.1f}" y="{y + h / 2 - 5:.1f}" width="{w - 4}" height="3" '
            f'fill="{army}" stroke="{_ink(army)}" stroke-width="0.5"/>'
        )
    if lettered and unit.letter:  # the power's letter in a badge on the corner
        out.append(
            f'<circle cx="{x + w / 2 + 2:.1f}" cy="{y - h / 2 - 1:.1f}" r="5.5" fill="#ffffff" '
            f'stroke="{colour}" stroke-width="1.5"/><text x="{x + w / 2 + 2:.1f}" '
            f'y="{y - h / 2 + 2:.1f}" font-size="8" font-weight="bold" text-anchor="middle" '
            f'fill="#000000">{_text(unit.letter)}</text>'
        )
    out.append(
        f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" font-weight="bold" '
        f'text-anchor="middle" fill="{ink}">{kind}</text></g>'
    )
    return out


def _rat(x: float, y: float, colour: str, stroke: str) -> list[str]:
    """A maze rat (Algernon's one kind of unit) facing right: tail, body, ears, an eye."""
    body = (
        f'<path d="M{x - 12:.1f},{y + 3:.1f} C{x - 12:.1f},{y - 7:.1f} {x + 2:.1f},{y - 9:.1f} '
        f"{x + 8:.1f},{y - 3:.1f} L{x + 14:.1f},{y + 1:.1f} L{x + 8:.1f},{y + 5:.1f} "
        f'C{x + 2:.1f},{y + 8:.1f} {x - 10:.1f},{y + 8:.1f} {x - 12:.1f},{y + 3:.1f} z"'
    )
    return [
        f'<path d="M{x - 11:.1f},{y + 3:.1f} C{x - 18:.1f},{y + 4:.1f} {x - 20:.1f},{y - 4:.1f} '
        f'{x - 15:.1f},{y - 7:.1f}" fill="none" stroke="#000000" stroke-width="1.6"/>',
        f'{body} fill="none" stroke="#ffffff" stroke-width="4.5"/>',
        f'{body} fill="{colour}" {stroke}/>',
        f'<circle cx="{x + 3:.1f}" cy="{y - 6:.1f}" r="3" fill="{colour}" {stroke}/>',
        f'<circle cx="{x + 8:.1f}" cy="{y - 1:.1f}" r="1.2" fill="{_ink(colour)}"/>',
    ]


def _head(x1: float, y1: float, x2: float, y2: float, colour: str, scale: float = 1.0) -> str:
    """An arrowhead at (x2, y2) pointing away from (x1, y1), `scale` times its usual size."""
    d = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    long, half = 11 * scale, 5 * scale
    bx, by = x2 - ux * long, y2 - uy * long
    return _HEAD % (x2, y2, bx - uy * half, by + ux * half, bx + uy * half, by - ux * half, colour)


# The texts of an order's drawing, filled in by `%`: compiled, one `%` of a tuple formats its
# numbers several times faster than an f-string does them one by one.
_HEAD = '<path d="M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f z" fill="%s"/>'
_LINE = '<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%s"%s/>'
_CROSS = '<path d="M%.1f,%.1f L%.1f,%.1f M%.1f,%.1f L%.1f,%.1f" stroke="%s" stroke-width="%s"/>'
_DOT = '<circle cx="%.1f" cy="%.1f" r="%s" fill="%s"/>'


def _trimmed(
    a: tuple[float, float], b: tuple[float, float], start: float, end: float
) -> tuple[float, float, float, float]:
    d = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    return a[0] + ux * start, a[1] + uy * start, b[0] - ux * end, b[1] - uy * end


def _arrow(
    index: int,
    arrow: Arrow,
    colour: str,
    width: float,
    wraps: bool,
    suffix: str = "",
    scale: float = 1.0,
) -> list[str]:
    return [f'<g id="o-{index}{suffix}"{_arrow_body(arrow, colour, width, wraps, scale)}']


def _arrow_body(arrow: Arrow, colour: str, width: float, wraps: bool, scale: float) -> str:
    """An order's group but its id: its class, its title and its lines."""
    title = f"<title>{_text(arrow.text)}</title>" if arrow.text else ""
    lines = "".join(_arrow_lines(arrow, colour, width, wraps, scale))
    return f' class="{arrow.kind}{"" if arrow.ok else " failed"}">{title}{lines}'


@functools.lru_cache(maxsize=1024)
def _sized(value: float, scale: float) -> str:
    """A length of an order's drawing at `scale` (as written at 1)."""
    return f"{round(value * scale, 2):g}"


@functools.lru_cache(maxsize=256)
def _line_look(kind: str, ok: bool, scale: float) -> tuple[str, str]:
    """An order's line's thickness and its dashes' attribute (or none), `scale` times their
    usual size: supports dashed, convoys dotted, a failed move dashed."""
    dashes = _DASHES.get(kind, ())
    if not ok:
        dashes = dashes or (7.0, 4.0)
    dash = " ".join([_sized(d, scale) for d in dashes])
    thickness = _sized(1.8 if kind in (SUPPORT, CONVOY) else 2.6, scale)
    return thickness, f' stroke-dasharray="{dash}"' if dash else ""


_DASHES: dict[str, tuple[float, ...]] = {SUPPORT: (5.0, 3.0), CONVOY: (1.5, 3.0)}


@functools.lru_cache(maxsize=4096)
def _arrow_lines(
    arrow: Arrow, colour: str, width: float, wraps: bool, scale: float = 1.0
) -> list[str]:
    """An order's lines, head, dot or cross, and the group's end, `scale` times their usual
    size (the size of the units beside them: a reader's part enlarged draws both smaller on the
    canvas). Kept: the same orders come back (a unit holding its line with the same support, a
    picture drawn for several readers)."""
    out: list[str] = []
    if arrow.kind in (BUILD, DISBAND):
        x, y = arrow.points[0]
        if arrow.kind == BUILD:
            ring = "" if arrow.ok else f"{_sized(4, scale)} {_sized(3, scale)}"
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_sized(MARKER_RADIUS + 6, scale)}" '
                f'fill="none" stroke="{colour}" stroke-width="{_sized(2.5, scale)}" '
                f'stroke-dasharray="{ring}"/>'
            )
        else:
            k = 12 * scale
            corners = (x - k, y - k, x + k, y + k, x - k, y + k, x + k, y - k)
            out.append(_CROSS % (*corners, FAILED, _sized(3, scale)))
        out.append("</g>")
        return out
    points = arrow.points
    thickness, dash_attr = _line_look(arrow.kind, arrow.ok, scale)
    line_colour = "#e36d00" if arrow.kind == RETREAT else colour
    for i in range(len(points) - 1):
        last = i == len(points) - 2
        pieces = link_segments(points[i], points[i + 1], width, wraps)
        for p_index, (a, b) in enumerate(pieces):
            reaches = p_index == 0 and len(pieces) == 1 or (len(pieces) == 2 and p_index == 1)
            start = 12.0 * scale if i == 0 and p_index == 0 else 0.0
            end = (14.0 if arrow.kind != SUPPORT else 4.0) * scale if last and reaches else 0.0
            if len(pieces) == 2 and p_index == 1:
                a, b = b, a  # the second piece runs from the edge to the destination
            x1, y1, x2, y2 = _trimmed(a, b, start, end)
            out.append(_LINE % (x1, y1, x2, y2, line_colour, thickness, dash_attr))
            if last and reaches:
                if arrow.kind == SUPPORT:
                    out.append(_DOT % (x2, y2, _sized(3, scale), line_colour))
                elif arrow.kind != CONVOY:
                    out.append(_head(x1, y1, x2, y2, line_colour, scale))
    if not arrow.ok:
        (ax, ay), (bx, by) = points[-2], points[-1]
        if not (wraps and abs(ax - bx) > width / 2):
            mx, my, k = (ax + bx) / 2, (ay + by) / 2, 6 * scale
            corners = (mx - k, my - k, mx + k, my + k, mx - k, my + k, mx + k, my - k)
            out.append(_CROSS % (*corners, FAILED, _sized(3, scale)))
    out.append("</g>")
    return out


def _inset_scale(scene: Scene) -> float:
    assert scene.inset is not None
    return min(INSET_SCALE, (scene.width - 2 * INSET_MARGIN) / scene.inset[2])


def inset_height(scene: Scene) -> float:
    """The band under the map that holds its inset (a caption, the part enlarged), or 0."""
    if scene.inset is None:
        return 0.0
    return INSET_CAPTION + scene.inset[3] * _inset_scale(scene) + INSET_MARGIN


def _inset(scene: Scene) -> list[str]:
    """The board's crowded part drawn again larger under the map: the same drawing (`use` of
    the board group) clipped to the part and scaled, framed; a dashed frame on the map marks
    the part."""
    if scene.inset is None:
        return []
    x, y, w, h = scene.inset
    k = _inset_scale(scene)
    left, top = INSET_MARGIN, scene.height + INSET_CAPTION
    frame = 'fill="none" stroke="#4d5560"'
    return [
        f'<defs><clipPath id="inset-part"><rect x="{x:g}" y="{y:g}" width="{w:g}" '
        f'height="{h:g}"/></clipPath></defs>',
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" {frame} stroke-width="1.5" '
        f'stroke-dasharray="8 5"/>',
        f'<line x1="0" y1="{scene.height:.1f}" x2="{scene.width:.0f}" y2="{scene.height:.1f}" '
        f'stroke="#4d5560"/>',
        f'<text x="{left:g}" y="{scene.height + INSET_CAPTION - 8:.1f}" font-size="13" '
        f'font-weight="bold">The part in the dashed frame, {k:g} times larger</text>',
        f'<g id="inset" transform="translate({left:g},{top:.1f}) scale({k:g}) '
        f'translate({-x:g},{-y:g})"><use href="#board" xlink:href="#board" '
        f'clip-path="url(#inset-part)"/></g>',
        f'<rect x="{left:g}" y="{top:.1f}" width="{w * k:.1f}" height="{h * k:.1f}" {frame} '
        f'stroke-width="1.5"/>',
    ]


_WIDE_LEGEND = '<g transform="translate(%.1f,%.1f) scale(%.3f)">'


def _legend(scene: Scene, height: float, top: float) -> list[str]:
    """The title, the notes and each power's colour and counts, under the map (`top`: the
    map's height), kept for the phase's other pictures with their legend in the same place."""
    left, width = _legend_place(scene)
    scale = legend_scale(scene)
    if scale > 1.0:  # a wide whole picture: the legend drawn at its own size, then enlarged
        lines, bottom = _legend_lines(scene, 0.0, 0.0, width / scale)
        assert top + bottom * scale <= height
        return [_WIDE_LEGEND % (left, top, scale), *lines, "</g>"]
    # A reader's part: drawn at the top of the band and moved down to it, so every reader of
    # the phase shares it; the whole board: where it stands.
    at = 0.0 if scene.view is not None else top
    key = ("legend", at, left, width)
    kept = scene.shared.get(key)
    if kept is None:
        lines, bottom = _legend_lines(scene, at, left, width)
        kept = scene.shared[key] = ("\n".join(lines), bottom)
    assert isinstance(kept, tuple)
    assert kept[1] + top - at <= height
    if at == top:
        return [kept[0]]
    return [_BAND % top, kept[0], "</g>"]


def _legend_lines(scene: Scene, top: float, left: float, width: float) -> tuple[list[str], float]:
    """The legend's lines and the baseline of its last."""
    notes = _note_lines(scene, width)
    places = _legend_places(top, left, width, len(notes), len(scene.powers))
    out = [places.line, f"{places.title}{_text(scene.title)}</text>"]
    out += [f"{at}{_text(note)}</text>" for at, note in zip(places.notes, notes, strict=True)]
    for (at, then), (colour, words) in zip(places.powers, scene.powers.values(), strict=True):
        out.append(f"{at}{colour}{then}{_text(words)}</text>")
    out.append("</g>")
    return out, places.bottom


class _LegendPlaces(NamedTuple):
    """Where a legend's lines stand, as the text of each line up to what it shows: its rule,
    its title's, each note's and each power's (up to his colour, and from it to his words)."""

    line: str
    title: str
    notes: list[str]
    powers: list[tuple[str, str]]
    bottom: float  # the baseline of the last line


# A legend stands in a few places (a reader's part's, the whole board's), kept by where.
_LEGEND_PLACES: dict[tuple[float, float, float, int, int], _LegendPlaces] = {}


def _legend_places(top: float, left: float, width: float, notes: int, powers: int) -> _LegendPlaces:
    key = (top, left, width, notes, powers)
    found = _LEGEND_PLACES.get(key)
    if found is not None:
        return found
    line = (
        f'<g id="legend"><line x1="{left:.1f}" y1="{top:.1f}" x2="{left + width:.0f}" '
        f'y2="{top:.1f}" stroke="#4d5560"/>'
    )
    title = f'<text x="{left + 10:.1f}" y="{top + 18:.1f}" font-size="14" font-weight="bold">'
    y = top + 18
    note_places = []
    for _ in range(notes):
        y += LEGEND_ROW
        note_places.append(f'<text x="{left + 10:.1f}" y="{y:.1f}" font-size="12">')
    columns = _columns(width)
    column = width / columns
    power_places = []
    for i in range(powers):
        if i % columns == 0:
            y += LEGEND_ROW
        x = left + 10 + (i % columns) * column
        power_places.append(
            (
                f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="14" height="12" fill="',
                f'" stroke="#000000" stroke-width="0.8"/>'
                f'<text x="{x + 20:.1f}" y="{y:.1f}" font-size="{LEGEND_FONT}">',
            )
        )
    if len(_LEGEND_PLACES) > 1000:
        _LEGEND_PLACES.clear()
    found = _LEGEND_PLACES[key] = _LegendPlaces(line, title, note_places, power_places, y)
    return found
