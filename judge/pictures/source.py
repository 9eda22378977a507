"""A picture from what the judge keeps: a case (docs/ADJUDICATE.md), the order texts of its phase
and the results the engine gave (a stored phase, or `judge adjudicate`'s output), for one reader.

`picture_svg(source, reader)` is the one drawing function every path calls (the results mails,
MAP, `judge map --picture`, `judge adjudicate --picture`): pure, with no store and no mail. A
board nobody sees (the variant's `secret_board`) is drawn from the variant's own
`picture_scene` for that reader, which gives only what the reader knows, or no picture at all.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from judge.adjudicate_json import read_variant_case
from judge.engine.geography import Map
from judge.engine.position import Dislodged, Position, Unit, make_unit
from judge.map_files import land_outlines, load_map
from judge.pictures import board as board_module
from judge.pictures import svg as svg_module
from judge.pictures.board import board_scene, for_reader, own_picture
from judge.pictures.shapes import load_shapes
from judge.pictures.svg import draw
from judge.variants import MASTER, variant


@dataclass(frozen=True)
class PictureSource:
    """What a picture is drawn from. `case` is the position before the phase (or the position
    to draw, without `results`); `orders` the phase's order texts by power; `results` the
    phase's results document, or None for a position alone (a board's start, MAP)."""

    case: Mapping[str, Any]
    orders: Mapping[str, Sequence[str]] = field(default_factory=dict)
    results: Mapping[str, Any] | None = None
    game: str = ""

    def as_json(self) -> dict[str, Any]:
        """The source as JSON, as an outbox row keeps it until its picture is drawn."""
        out: dict[str, Any] = {"case": dict(self.case), "game": self.game}
        if self.results is not None:
            out["orders"] = {p: list(lines) for p, lines in self.orders.items()}
            out["results"] = dict(self.results)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> PictureSource:
        return cls(
            case=raw["case"],
            orders=raw.get("orders") or {},
            results=raw.get("results"),
            game=str(raw.get("game") or ""),
        )


def case_after(source: PictureSource) -> dict[str, Any]:
    """The case of the position the picture shows: after the phase, where there are results."""
    case = dict(source.case)
    results = source.results
    if results is None:
        return case
    case.update(
        phase=results["next_phase"],
        units=list(results.get("units_after", ())),
        centers=dict(results.get("centers_after", {})),
        dislodged=list(results.get("dislodged", ())),
        orders={},
    )
    if "owners_after" in results:
        case["owners"] = results["owners_after"]
        case["state"] = results.get("state_after") or {}
    return case


def _unit(raw: Mapping[str, Any]) -> Unit:
    # A unit made before is that unit (`make_unit`): no named tuple's Python-level __new__.
    return make_unit(raw["power"], raw["type"], raw["loc"], raw.get("army_power"))


def _shown(case: Position, source: PictureSource) -> Position:
    """The position after the phase, from its results document."""
    results = source.results
    if results is None:
        return case
    return Position(
        phase=results["next_phase"],
        units=tuple([_unit(u) for u in results.get("units_after", ())]),
        centers={p: frozenset(c) for p, c in results.get("centers_after", {}).items()},
        dislodged=tuple(
            Dislodged(_unit(d), d.get("attacker_from"), bool(d.get("attacker_convoyed")))
            for d in results.get("dislodged", ())
        ),
        owners=results.get("owners_after") or case.owners,
        state=results.get("state_after") or case.state,
    )


def shown_as(source: PictureSource, reader: str) -> str:
    """Whose picture `reader` is shown: his own on a secret board or as a power on a board too
    wide to read whole (`own_picture`), else the GM's, the same for every reader. Readers shown
    the same picture share one drawing."""
    the_variant = variant(str(source.case.get("variant") or "standard"))
    if the_variant.secret_board is not None:
        return reader
    board = load_map(str(source.case.get("map") or the_variant.default_map))
    return reader if own_picture(board, load_shapes(board.name), reader) else MASTER


def picture_svg(source: PictureSource, reader: str = MASTER) -> str | None:
    """The picture `reader` (a power, OBSERVERS or MASTER) may see, as SVG text; None when the
    reader may see none (an observer of a secret maze)."""
    return picture_svgs(source, [reader])[reader]


def picture_svgs(source: PictureSource, readers: Sequence[str]) -> dict[str, str | None]:
    """The picture each reader may see (`picture_svg`), the case read once and each picture
    drawn once for all the readers shown it (`shown_as`)."""
    with collector_paused():
        return _picture_svgs(source, readers)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while a phase's pictures are drawn: they make tens of
    thousands of short-lived lists and texts, which set the collector off again and again to
    walk the process's long-lived tables (the boards, their shapes) for nothing; what cycles
    they leave are collected at its next run after."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _picture_svgs(source: PictureSource, readers: Sequence[str]) -> dict[str, str | None]:
    checked = read_variant_case(source.case)
    the_variant = checked.variant
    secret = the_variant.secret_board
    if secret is not None:
        out: dict[str, str | None] = {}
        for reader in readers:
            if secret.picture_scene is None:
                out[reader] = None
                continue
            scene = secret.picture_scene(case_after(source), reader)
            out[reader] = None if scene is None else draw(scene)
        return out
    board = checked.game_map
    results = source.results
    shown = _shown(checked.position, source)
    named = f"{source.game}: " if source.game else ""
    if results is None:
        title = f"{named}{board.title}, {checked.position.phase}"
        drawn: list[tuple[str, Any, str, str]] = []
        notes: list[str] = []
    else:
        title = f"{named}{board.title} after {results['phase']} (next {results['next_phase']})"
        drawn = _orders(checked, source)
        notes = [
            "Orders as arrows: dashed and crossed where they failed; supports end on the move "
            "they support. Dislodged units stand beside their province, outlined in red."
        ]
    shapes = load_shapes(board.name)
    whole = board_scene(
        board,
        shown,
        drawn,
        title=title,
        notes=notes,
        own_orders=the_variant.picture.order,
        land=land_outlines(board),
        unit_counts=the_variant.picture.unit_counts,
        shapes=shapes,
    )
    # Each distinct picture's scene first, then each drawn: the readers' windows are found
    # together, and the drawings (which share what the phase's pictures share) together.
    scenes = {}
    for reader in readers:
        whose = reader if own_picture(board, shapes, reader) else MASTER
        if whose not in scenes:
            scenes[whose] = for_reader(whole, board, shown, whose, shapes)
    pictures = {whose: draw(scene) for whose, scene in scenes.items()}
    # What the phase's pictures shared refers back to their scenes: let go of it now, so it is
    # freed at once and not left in cycles for the collector (`collector_paused`).
    whole.shared.clear()
    return {reader: pictures[reader if reader in pictures else MASTER] for reader in readers}


def forget_phases(board: Map) -> None:
    """Let go of what the pictures of `board` keep from one phase to draw the next (a power's
    windows by where his units stand, each layer as the last phase drew it), keeping what
    belongs to the board: the next phase is drawn as a game's first is. For measuring the
    drawing (bench/pictures.py), and for a process that will draw no more of the board."""
    static = board_module.forget_phases(board)
    if static is not None:
        svg_module.forget_phases(static)


def board_picture_svg(board: Map) -> str:
    """A board with its starting position, for a GM looking at a board without a game (`judge
    map NAME --picture`): no variant asked, so a board whose rules are not built yet shows too."""
    start = Position(
        phase=board.start_phase,
        units=tuple(u for power in board.powers.values() for u in power.starting_units),
        centers={name: frozenset(p.home_centres) for name, p in board.powers.items()},
    )
    title = f"{board.title}, {board.start_phase}"
    scene = board_scene(
        board, start, title=title, land=land_outlines(board), shapes=load_shapes(board.name)
    )
    return draw(scene)


def _orders(checked: Any, source: PictureSource) -> list[tuple[str, Any, str, str]]:
    """(power, order value, result, text) of every order the engine was given, read again from
    the stored texts as HISTORY reads them; lines that could not be read draw nothing."""
    texts = {power: list(lines) for power, lines in source.orders.items()}
    read = checked.variant.language.read_orders(checked.game_map, texts)
    results = (source.results or {}).get("results", {})
    out = []
    for power, lines in texts.items():
        entries = results.get(power, [])
        values = iter(read.orders.get(power, ()))
        entry = 0
        for index in range(len(lines)):
            if (power, index) in read.headings:
                continue
            if (power, index) in read.unreadable:
                entry += 1
                continue
            for _ in read.parts.get((power, index), [None]):
                order = next(values, None)
                if order is not None and entry < len(entries):
                    found = entries[entry]
                    out.append((power, order, str(found["result"]), str(found["order"])))
                entry += 1
    return out


def picture_request(source: PictureSource, reader: str) -> dict[str, Any]:
    """What an outbox row keeps for the step: the picture's source and its reader."""
    return {"source": source.as_json(), "reader": reader}
