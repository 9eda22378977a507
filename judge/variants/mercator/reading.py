"""Reading Mercator's order lines, line by line and section by section (compiled with the
engine: judge/compiled.py). The grammar itself (grammar/mercator.lark, run by Lark) and the echo
text live in language.py, which hands this module the parse of the lines its quick reader of
the common shapes does not take.

A month's orders come in sections (rule 2.8): "TS1", "Time scale 2:", "T.S. 3" and the like, on a
line of their own or in front of an order ("TS1 A(Lon) B F(NTH)"), even several on one line as
the rules' own example writes them ("TS1 A (ENC) L Lon TS2 F(IRI) S F(ENC) – MAO"). Each order is
read into a `Scaled` value: the order and its time scale. An order before any heading takes the
time scale its kind allows (a landing is TS1, an embarkation TS3, a plain move TS2); an order in
a section where it cannot be is refused with the section it belongs in. Several orders on one
line, separated by commas (an army/fleet's split retreat, rule 4 (c)), are several orders.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from judge.engine.results import ILLEGAL, OrderResult
from judge.language.errors import OrderSyntaxError
from judge.variants.mercator.orders import (
    Board,
    ChainConvoy,
    Disembark,
    Embark,
    FastFerry,
    Land,
    PlaceSpare,
    Scaled,
    SupportLanding,
)

# (a piece of a line, its line number) -> its order values; raises OrderSyntaxError
Parse = Callable[[str, int], list[Any]]

HEADING = re.compile(
    r"(?i)(?<![\w/])(?:t\s*\.?\s*s\s*\.?|time\s*-?\s*scale)\s*([1-4])(?![\w/])\s*[:.)]?\s*"
)
_DIGIT = re.compile(r"\d")
RETREAT_HEADING = re.compile(r"(?i)^\s*retreats?\s*:?\s*$")
# The time scales each kind of order may be written in, the first being its own.
_SCALES: dict[type, tuple[int, ...]] = {
    Land: (1,),
    Board: (1,),
    SupportLanding: (1,),
    Support: (2,),
    Convoy: (2,),
    FastFerry: (2,),
    ChainConvoy: (2,),
    Move: (2, 3, 4),
    Hold: (2, 3),
    Embark: (3,),
    Disembark: (3,),
    Retreat: (4,),
    Disband: (4,),
}
_WHAT = {
    Land: "a landing (L)",
    Board: "a boarding (B)",
    SupportLanding: "a supported landing",
    Support: "a support",
    Convoy: "a convoy",
    FastFerry: "a fast ferry (F/F)",
    ChainConvoy: "an extended convoy",
    Embark: "an embarkation (E)",
    Disembark: "a disembarkation (D)",
    Hold: "a hold",
    Retreat: "a retreat",
    Disband: "a disband",
}
_KINDS = {"a": "A", "army": "A", "f": "F", "fleet": "F"}


def unit_kind(token: str) -> str:
    word = re.sub(r"\s+", "", str(token)).lower()
    if "/" in word:
        return "AF"
    return _KINDS[word]


# The common shapes of a Mercator line, read without the parser when every name in them has
# been read before (the map's name table remembers): "A(Lon) B F(NTH)", "A/F(MAO) - NAO",
# "A(ENC) L Lon", "A(NTH) D Hol", "F(IRI) S F(ENC) - MAO", "A(Ven) H", "F(ENC) S A(ENC) L Lon",
# "F(NTH) F/F A(Yor) - Hol". Anything else, and any name not yet known, goes to the grammar;
# tests/variants/mercator check both read alike.
_UNIT = r"(a\s*/\s*f|a|f)\s*\(\s*([^\W\d_][\w.']*)\s*\)"
_DASH = "[-\u2013\u2014\u2212]+>?"
_SCAN = re.compile(
    rf"^{_UNIT}\s*(?:({_DASH}|l\b|d\b)\s*([^\W\d_][\w.']*)|(h|d)\b"
    rf"|(b|e|s|f\s*/\s*f)\s+{_UNIT}(?:\s*({_DASH}|l\b)\s*([^\W\d_][\w.']*))?)\s*$",
    re.IGNORECASE,
)


def scan(text: str, known: Mapping[str, str]) -> Any:
    match = _SCAN.match(text)
    if match is None:
        return None
    kind_word, at, verb, dest, alone, pair, kind2, at2, dash2, dest2 = match.groups()
    loc = known.get(at)
    if loc is None:
        return None
    kind = "AF" if "/" in kind_word else kind_word.upper()
    if verb is not None:
        there = known.get(dest)
        if there is None:
            return None
        letter = verb.lower()
        if letter == "l":
            return Land(loc, there, None)
        if letter == "d":
            return Disembark(loc, there, None)
        return Move(kind, loc, there, False)
    if alone is not None:
        return Hold(kind, loc) if alone.lower() == "h" else Disband(kind, loc)
    loc2 = known.get(at2)
    if loc2 is None:
        return None
    kind2 = "AF" if "/" in kind2 else kind2.upper()
    letter = pair.lower()
    if dash2 is None:
        if letter == "s":
            return Support(kind, loc, kind2, loc2, None)
        if letter == "b":
            return Board(loc, loc2)
        return Embark(loc, loc2) if letter == "e" else None  # a fast ferry goes somewhere
    there = known.get(dest2)
    if there is None or letter in ("b", "e"):
        return None  # "A(Lon) B F(NTH) - Hol": the grammar's error
    landing = dash2.lower() == "l"
    if letter == "s":
        if landing:  # the carrying fleet supports its army's landing (TS1)
            return SupportLanding(loc, loc2, there, None)
        return Support(kind, loc, kind2, loc2, there)
    return None if landing else FastFerry(loc, loc2, there, None)


@dataclass(slots=True, init=False)
class LineReading:
    """One line of a month's orders: the time scale it leaves open for the next line, its
    orders (with their texts, one per order) or the error that stopped it."""

    section: int | None
    orders: list[Scaled]
    texts: list[str]
    error: str | None = None
    heading_only: bool = False

    def __init__(
        self,
        section: int | None,
        orders: list[Scaled],
        texts: list[str],
        error: str | None = None,
        heading_only: bool = False,
    ) -> None:
        self.section = section
        self.orders = orders
        self.texts = texts
        self.error = error
        self.heading_only = heading_only


def _pieces(text: str) -> list[tuple[int | None, str]]:
    """The line cut at its headings: (the time scale of the heading before it or None, the
    text), the last piece perhaps empty (a heading alone, or at the end of the line)."""
    out: list[tuple[int | None, str]] = []
    position, scale = 0, None
    for match in HEADING.finditer(text):
        before = text[position : match.start()].strip()
        if before:
            out.append((scale, before))
        scale = int(match.group(1))
        position = match.end()
    out.append((scale, text[position:].strip()))
    return out


def read_line(
    text: str, section: int | None, line_no: int, known: Mapping[str, str], parse: Parse
) -> LineReading:
    """Read one line of a month in the section the lines before it left open: the common
    shapes here, the rest by `parse` (the grammar, then the standard language for builds and
    removals), which raises OrderSyntaxError for a line it cannot read."""
    if _DIGIT.search(text) is None:  # no heading without its number: the common line
        if text[:1] in "rR" and RETREAT_HEADING.match(text):
            return LineReading(4, [], [], heading_only=True)
        piece = text.strip()
        scanned = scan(piece, known)
        if scanned is not None:  # the commonest line of all: one order in a common shape
            placed = _place(scanned, section, line_no)
            if isinstance(placed, str):
                return LineReading(section, [], [], placed)
            return LineReading(section, [placed], [piece])
        pieces: list[tuple[int | None, str]] = [(None, piece)]
    else:
        pieces = _pieces(text)
    if all(piece == "" for _s, piece in pieces):
        return LineReading(pieces[-1][0] or section, [], [], heading_only=True)
    orders: list[Scaled] = []
    texts: list[str] = []
    for scale, piece in pieces:
        if scale is not None:
            section = scale
        if not piece:
            continue
        scanned = scan(piece, known)
        if scanned is not None:
            values: list[Any] = [scanned]
        else:
            try:
                values = parse(piece, line_no)
            except OrderSyntaxError as exc:
                return LineReading(section, [], [], str(exc))
        parts = _split_texts(piece, len(values))
        for i, value in enumerate(values):  # not zip(strict=True): mypyc calls the zip type
            part = parts[i]
            placed = _place(value, section, line_no)
            if isinstance(placed, str):
                return LineReading(section, [], [], placed)
            orders.append(placed)
            texts.append(part)
    return LineReading(section, orders, texts)


def _split_texts(piece: str, count: int) -> list[str]:
    if count == 1:
        return [piece]
    parts = [p.strip() for p in piece.split(",")]
    if len(parts) == count:
        return parts
    return [piece] * count


def _place(value: Any, section: int | None, line_no: int) -> Scaled | str:
    """The value with its time scale, or why it cannot stand in this section."""
    if isinstance(value, (Build, Waive, PlaceSpare)):
        return Scaled(0, value, getattr(value, "unit_type", None))
    allowed = _SCALES.get(type(value), (2,))
    if section is None:
        scale = allowed[0]
    elif section in allowed:
        scale = section
    elif section == 4 and isinstance(value, Move):
        scale = 4
    else:
        what = _WHAT.get(type(value), "this order")
        own = allowed[0]
        return f"line {line_no}: {what} belongs in time scale {own}, not time scale {section}"
    if scale == 4 and isinstance(value, Move):
        value = Retreat(value.unit_type, value.loc, value.dest)
    return Scaled(scale, value, getattr(value, "unit_type", None))


# A board's words (the mapping `scan` is given) -> the lines scanned before with it and the
# order each says: a game's lines recur month after month, and an order value is never changed
# once made. The mapping is held, so its id is never another's.
_SCANNED: dict[int, tuple[Mapping[str, str], dict[str, Any]]] = {}
_SCANNED_LIMIT = 20_000  # lines remembered per board


def _lines_scanned(known: Mapping[str, str]) -> dict[str, Any]:
    entry = _SCANNED.get(id(known))
    if entry is None or entry[0] is not known:
        entry = (known, {})
        _SCANNED[id(known)] = entry
    return entry[1]


def read_all(
    texts: Mapping[str, Sequence[str]], known: Mapping[str, str], parse: Parse
) -> tuple[
    dict[str, list[Any]],
    dict[tuple[str, int], OrderResult],
    set[tuple[str, int]],
    dict[tuple[str, int], list[str]],
]:
    """Every power's lines of a phase, section by section: the orders, the unreadable lines,
    the headings and the lines of several orders (judge.variants.ReadOrders's parts)."""
    orders: dict[str, list[Any]] = {}
    unreadable: dict[tuple[str, int], OrderResult] = {}
    headings: set[tuple[str, int]] = set()
    parts: dict[tuple[str, int], list[str]] = {}
    seen = _lines_scanned(known)
    for power, lines in texts.items():
        section: int | None = None
        out: list[Any] = []
        for index, line in enumerate(lines):
            scanned = seen.get(line)
            if scanned is None and _DIGIT.search(line) is None and line[:1] not in "rR":
                # read_line's commonest line (one order in a common shape), without the
                # LineReading value it would be handed back in
                scanned = scan(line.strip(), known)
                if scanned is not None and len(seen) < _SCANNED_LIMIT:
                    seen[line] = scanned
            if scanned is not None:
                placed = _place(scanned, section, index + 1)
                if not isinstance(placed, str):
                    out.append(placed)
                    continue
            reading = read_line(line, section, index + 1, known, parse)
            section = reading.section
            if reading.heading_only:
                headings.add((power, index))
            elif reading.error is not None:
                unreadable[(power, index)] = OrderResult(
                    ILLEGAL, f"cannot read the order: {reading.error}"
                )
            else:
                out.extend(reading.orders)
                if len(reading.orders) > 1:
                    parts[(power, index)] = reading.texts
        orders[power] = out
    return orders, unreadable, headings, parts
