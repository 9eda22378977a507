"""What a window of a board's canvas draws, found by cells of the canvas.

The canvas is cut into cells GRID pixels square. Each layer of a picture (the provinces'
shapes, their labels, the barriers, the centres, the units) keeps each thing smaller than a
cell in the cell of its middle, and its text as rows: each row's cells joined once into one
text, with where each column's text starts; a window (`Cut`) takes its span of each row out by
two offsets. Things larger than a cell are kept apart (`Large`), by the cells they reach into.

Pure: text and numbers in, text out; what a layer keeps is kept by its caller (for a board, or
for the pictures of one phase).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate
from typing import Generic, NamedTuple, TypeVar

T = TypeVar("T")

GRID = 128.0
Cell = tuple[int, int]


def cell(x: float, y: float) -> Cell:
    return (int(x // GRID), int(y // GRID))


class Grid(NamedTuple):
    """A canvas's cells: its width and height, and whether it wraps east to west."""

    width: float
    height: float
    wraps: bool

    @property
    def columns(self) -> int:
        return int(self.width // GRID) + 1

    @property
    def rows(self) -> int:
        return int(self.height // GRID) + 1

    def at(self, x: float, y: float) -> Cell:
        """The cell of a point, a point past the canvas in the cell at its edge."""
        cx, cy = cell(x, y)
        return (min(max(cx, 0), self.columns - 1), min(max(cy, 0), self.rows - 1))


class Cut(NamedTuple):
    """The cells a window draws from: its rows, and in each the spans of columns (first, last)
    (two where a board that wraps is drawn twice to fill the window)."""

    rows: range
    columns: tuple[tuple[int, int], ...]


def whole(grid: Grid) -> Cut:
    return Cut(range(grid.rows), ((0, grid.columns - 1),))


def copies(grid: Grid, x: float, w: float) -> list[float]:
    """The shifts at which a board that wraps is drawn so the span x..x+w is covered."""
    if not grid.wraps:
        return [0.0]
    shifts = [0.0]
    if x < 0:
        shifts.append(-grid.width)
    if x + w > grid.width:
        shifts.append(grid.width)
    return shifts


def cut(grid: Grid, view: tuple[float, float, float, float] | None, reach: float) -> Cut:
    """The cells whose things may stand in `view` (x, y, width, height on the canvas), their
    cell within `reach` of it, at each shift the board is drawn at; every cell for None."""
    if view is None:
        return whole(grid)
    x, y, w, h = view
    last_x, last_y = grid.columns - 1, grid.rows - 1
    spans: list[tuple[int, int]] = []
    for s in copies(grid, x, w):
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
    y1 = max(int((y - reach) // GRID), 0)
    y2 = min(int((y + h + reach) // GRID), last_y)
    return Cut(range(y1, y2 + 1), tuple(merged))


class Placed(Generic[T]):
    """Things by the cells of their points: each row's things in the order of their columns
    (those of one cell in the order given), and for each column how many of the row's things
    stand before it."""

    __slots__ = ("before", "things")

    def __init__(self, grid: Grid, placed: Iterable[tuple[tuple[float, float], T]]) -> None:
        rows: list[list[tuple[int, T]]] = [[] for _ in range(grid.rows)]
        for (x, y), thing in placed:
            cx, cy = grid.at(x, y)
            rows[cy].append((cx, thing))
        self.things: list[list[T]] = []
        self.before: list[list[int]] = []
        for row in rows:
            row.sort(key=lambda item: item[0])  # stable: a cell's things stay in order
            columns = [cx for cx, _ in row]
            self.things.append([thing for _, thing in row])
            self.before.append([bisect_left(columns, c) for c in range(grid.columns + 1)])


class Rows(Generic[T]):
    """One layer's text by rows of cells, each row made on its first use: its things each
    drawn by `piece` and joined, with where each thing's text starts."""

    __slots__ = ("_made", "_piece", "_placed")

    def __init__(self, grid: Grid, placed: Placed[T], piece: Callable[[T], str]) -> None:
        self._placed = placed
        self._piece = piece
        self._made: list[tuple[str, list[int]] | None] = [None] * grid.rows

    def _row(self, cy: int) -> tuple[str, list[int]]:
        texts = list(map(self._piece, self._placed.things[cy]))
        return "".join(texts), list(accumulate(map(len, texts), initial=0))

    def cut(self, at: Cut, out: list[str]) -> None:
        """Add the text of the cells of `at` to `out`, a row (or span of a row) a line."""
        made = self._made
        before = self._placed.before
        for cy in at.rows:
            row = made[cy]
            if row is None:
                row = made[cy] = self._row(cy)
            text, starts = row
            if not text:
                continue
            first = before[cy]
            for x1, x2 in at.columns:
                piece = text[starts[first[x1]] : starts[first[x2 + 1]]]
                if piece:
                    out.append(piece)


class Large(Generic[T]):
    """Things larger than a cell, each with its extent (x1, y1, x2, y2): those reaching into a
    window's cells, in the order given."""

    def __init__(self, grid: Grid, things: Sequence[tuple[tuple[float, ...], T]]) -> None:
        self._things = [thing for _, thing in things]
        masks = [[0] * grid.columns for _ in range(grid.rows)]
        for i, ((x1, y1, x2, y2), _) in enumerate(things):
            (cx1, cy1), (cx2, cy2) = grid.at(x1, y1), grid.at(x2, y2)
            for cy in range(cy1, cy2 + 1):
                row = masks[cy]
                for cx in range(cx1, cx2 + 1):
                    row[cx] |= 1 << i
        self._masks = masks
        self._spans: dict[tuple[int, int, int], int] = {}

    def reached(self, at: Cut) -> list[T]:
        """The things reaching into the cells of `at` (each thing's bit set in the cells it
        reaches; a span of a row's bits found once)."""
        spans = self._spans
        mask = 0
        for cy in at.rows:
            for x1, x2 in at.columns:
                found = spans.get((cy, x1, x2))
                if found is None:
                    found = 0
                    for bits in self._masks[cy][x1 : x2 + 1]:
                        found |= bits
                    spans[(cy, x1, x2)] = found
                mask |= found
        things = self._things
        out = []
        while mask:
            low = mask & -mask
            out.append(things[low.bit_length() - 1])
            mask ^= low
        return out
