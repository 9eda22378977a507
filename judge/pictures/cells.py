"""What a window of a board's canvas draws, found by cells of the canvas.

The canvas is cut into cells GRID pixels square. Each layer of a picture (the provinces'
shapes, their labels, the barriers, the centres, the units) keeps each thing smaller than a
cell in the cell of its middle, and their texts in the order of their cells; a window (`Cut`)
takes the texts of its span of each row, by where each row's columns start. Things larger than
a cell are kept apart (`Large`), by the cells they reach into.

Pure: text and numbers in, text out; what a layer keeps is kept by its caller (for a board, or
for the pictures of one phase).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate
from operator import itemgetter
from typing import Any, Generic, TypeVar

T = TypeVar("T")

GRID = 128.0
Cell = tuple[int, int]


class Grid:
    """A canvas's cells: its width and height, whether it wraps east to west, and how many
    columns and rows of cells it has."""

    __slots__ = ("columns", "height", "rows", "wraps", "width")

    def __init__(self, width: float, height: float, wraps: bool) -> None:
        self.width = width
        self.height = height
        self.wraps = wraps
        self.columns = int(width // GRID) + 1
        self.rows = int(height // GRID) + 1

    def at(self, x: float, y: float) -> Cell:
        """The cell of a point, a point past the canvas in the cell at its edge."""
        cx, cy = int(x // GRID), int(y // GRID)
        last_x, last_y = self.columns - 1, self.rows - 1
        return (
            0 if cx < 0 else last_x if cx > last_x else cx,
            0 if cy < 0 else last_y if cy > last_y else cy,
        )


class Cut:
    """The cells a window draws from: its rows (`top` to `bottom`), and in each the spans of
    columns (first, last) (two where a board that wraps is drawn twice to fill the window);
    `whole`: every cell of the canvas. Equal cuts are one key (`Large`)."""

    __slots__ = ("bottom", "columns", "ends", "top", "whole")

    def __init__(
        self, top: int, bottom: int, columns: tuple[tuple[int, int], ...], whole: bool = False
    ) -> None:
        self.top = top
        self.bottom = bottom
        self.columns = columns
        self.whole = whole
        # Each span's first column and the one past its last, one after another (`Rows.cut`).
        self.ends = [end for x1, x2 in columns for end in (x1, x2 + 1)]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Cut)
            and self.top == other.top
            and self.bottom == other.bottom
            and self.columns == other.columns
            and self.whole == other.whole
        )

    def __hash__(self) -> int:
        return hash((self.top, self.bottom, self.columns, self.whole))


def whole(grid: Grid) -> Cut:
    return Cut(0, grid.rows - 1, ((0, grid.columns - 1),), True)


def copies(width: float, wraps: bool, x: float, w: float) -> list[float]:
    """The shifts at which a board `width` wide (that wraps, or not) is drawn so the span
    x..x+w is covered."""
    if not wraps:
        return [0.0]
    shifts = [0.0]
    if x < 0:
        shifts.append(-width)
    if x + w > width:
        shifts.append(width)
    return shifts


def cut(grid: Grid, view: tuple[float, float, float, float] | None, reach: float) -> Cut:
    """The cells whose things may stand in `view` (x, y, width, height on the canvas), their
    cell within `reach` of it, at each shift the board is drawn at; every cell for None."""
    if view is None:
        return whole(grid)
    x, y, w, h = view
    last_x, last_y = grid.columns - 1, grid.rows - 1
    y1 = max(int((y - reach) // GRID), 0)
    y2 = min(int((y + h + reach) // GRID), last_y)
    if not grid.wraps:
        x1, x2 = max(int((x - reach) // GRID), 0), min(int((x + w + reach) // GRID), last_x)
        return Cut(y1, y2, ((x1, x2),) if x1 <= x2 else ())
    spans: list[tuple[int, int]] = []
    for s in copies(grid.width, True, x, w):
        x1 = max(int((x - s - reach) // GRID), 0)
        x2 = min(int((x + w - s + reach) // GRID), last_x)
        if x1 <= x2:
            spans.append((x1, x2))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for x1, x2 in spans:  # spans of two shifts that meet are one
        if merged and x1 <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], x2))
        else:
            merged.append((x1, x2))
    return Cut(y1, y2, tuple(merged))


class Placed(Generic[T]):
    """Things by the cells of their points, in the order of their rows and then their columns
    (those of one cell in the order given), and for each row and column where its first thing
    stands in that order."""

    __slots__ = ("before", "things")

    def __init__(self, grid: Grid, placed: Iterable[tuple[tuple[float, float], T]]) -> None:
        columns, last_x, last_y = grid.columns, grid.columns - 1, grid.rows - 1
        cells = []
        for (x, y), thing in placed:  # each by its cell (`Grid.at`), row by row
            cx, cy = int(x // GRID), int(y // GRID)
            cx = 0 if cx < 0 else last_x if cx > last_x else cx
            cy = 0 if cy < 0 else last_y if cy > last_y else cy
            cells.append((cy * columns + cx, thing))
        cells.sort(key=itemgetter(0))  # stable: a cell's things stay in order
        self.things: list[T] = [thing for _, thing in cells]
        counts = [0] * (grid.rows * grid.columns + 1)
        for index, _ in cells:
            counts[index + 1] += 1
        first = list(accumulate(counts))
        # A row's columns, and one past its last: where the next row's first thing stands.
        self.before = [
            first[cy * grid.columns : (cy + 1) * grid.columns + 1] for cy in range(grid.rows)
        ]


# A layer's texts, one for each of its things, in the order of their cells (`Placed`).
Made = list[str]


class KeptLayer:
    """A layer as the last picture of it drew it (for a board, by the caller), with the objects
    it was drawn from: a later picture drawing it from the same objects takes it as it is. The
    two are kept as one value, set at once: pictures may be drawn on two threads (the picture
    step's, a web page's), and one must never find one layer's objects with another's texts."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: tuple[list[Any], Made] | None = None


class Rows(Generic[T]):
    """One layer's texts, made on first use: all its things drawn by `texts` (a text for each),
    in the order of their rows and columns; a window takes the texts of its span of each row
    (the whole board, all of them), and the picture joins them once (a layer joined first and
    cut after was copied twice more). Given `kept` and what the layer is drawn from (`seen`:
    objects the board keeps, one for each look of a thing), the layer is taken from `kept`
    where the last picture of it drew it from the same objects."""

    __slots__ = ("_kept", "_made", "_placed", "_seen", "_texts")

    def __init__(
        self,
        grid: Grid,
        placed: Placed[T],
        texts: Callable[[list[T]], list[str]],
        made: Made | None = None,
        kept: KeptLayer | None = None,
        seen: list[Any] | None = None,
    ) -> None:
        self._placed = placed
        self._texts = texts
        self._made = made
        self._kept = kept
        self._seen = seen

    def made(self) -> Made:
        """The layer's texts (made now, if not yet)."""
        if self._made is None:
            kept, seen = self._kept, self._seen
            last = kept.last if kept is not None else None
            if last is not None and seen is not None and same_objects(last[0], seen):
                self._made = last[1]
                return last[1]
            made = self._made = self._texts(self._placed.things)
            if kept is not None and seen is not None:
                kept.last = (list(seen), made)
            return made
        return self._made

    def cut(self, at: Cut, out: list[str]) -> None:
        """Add the texts of the things in the cells of `at` to `out`."""
        texts = self._made or self.made()
        if at.whole:
            out += texts
            return
        before = self._placed.before
        ends = at.ends
        spans = len(ends)
        for cy in range(at.top, at.bottom + 1):
            first = before[cy]
            k = 0
            while k < spans:
                start, end = first[ends[k]], first[ends[k + 1]]
                if start != end:
                    out += texts[start:end]
                k += 2


def same_objects(kept: list[Any], seen: list[Any]) -> bool:
    """Whether `seen` holds the objects of `kept`, one for one."""
    if len(kept) != len(seen):
        return False
    for k, thing in enumerate(kept):  # noqa: SIM110 (compiled, a loop without a generator)
        if thing is not seen[k]:
            return False
    return True


class Large(Generic[T]):
    """Things larger than a cell, each with its extent (x1, y1, x2, y2): those reaching into a
    window's cells, in the order given, found once for each span of cells (a board's windows
    come back to the same cells)."""

    def __init__(self, grid: Grid, things: Sequence[tuple[tuple[float, ...], T]]) -> None:
        self._things = [thing for _, thing in things]
        self._cells: list[tuple[int, int, int, int]] = []  # first and last column and row
        for (x1, y1, x2, y2), _ in things:
            (cx1, cy1), (cx2, cy2) = grid.at(x1, y1), grid.at(x2, y2)
            self._cells.append((cx1, cx2, cy1, cy2))
        self._reached: dict[Cut, list[T]] = {}

    def reached(self, at: Cut) -> list[T]:
        """The things reaching into the cells of `at`."""
        found = self._reached.get(at)
        if found is None:
            if len(self._reached) > 10_000:
                self._reached.clear()
            top, bottom = (at.top, at.bottom) if at.top <= at.bottom else (0, -1)
            found = self._reached[at] = [
                thing
                for (cx1, cx2, cy1, cy2), thing in zip(self._cells, self._things, strict=True)
                if cy1 <= bottom
                and cy2 >= top
                and any(cx1 <= x2 and cx2 >= x1 for x1, x2 in at.columns)
            ]
        return found
