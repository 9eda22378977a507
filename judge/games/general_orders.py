"""General orders (seed 004, I.C): a power's standing orders for a period, with conditions on
the position, played for a phase in which the power sent nothing. Pure: no store, no clock.

The command reader (judge.language.commands) keeps a block's words as written; `bind` reads
them against the game's map for one power, the way they are filed, and `orders_for` says which
order texts a phase plays. The readings chosen where seed 004 and njudge are silent:

- **Validity.** A general order holds from its FROM phase to its TO phase, both included; an
  open end runs from now on or to the end of the game. A year as a bound means its spring
  movement (FROM) or its winter adjustments (TO).
- **Which one applies.** Of the general orders whose period covers the phase, the one with the
  shortest period applies (an exception for Fall 1902 beats a standing rule for the whole game),
  and of equally long ones the newest. Only that one is played: they are not merged unit by
  unit, so what a player reads back is exactly what will be played.
- **Filing again** for the same period (same FROM and TO) replaces the general orders filed for
  it before; other periods are kept until withdrawn with GENERAL CLEAR (the desk does this).
- **Conditions** are read on the position before the phase is adjudicated: the units on the
  board (in a retreat phase, not the dislodged ones), the centres as owned at that moment, and
  the phase's season and kind. The first branch of an IF group whose condition holds is played,
  else its ELSE; groups nest.
- **Orders that cannot be the power's are dropped**, not handed to the engine: an order for a
  unit the power no longer has there (or of another type), an order of the wrong kind for the
  phase (a move in a build phase, a build in a movement phase). The engine would call them
  illegal and the unit would hold anyway; dropping them keeps the results to what the power
  actually ordered, and an order for a province another power's unit now stands in never
  reaches the engine under the wrong flag. Of two orders for one unit, the later one wins, as
  in an orders mail.
- **The game's own order language.** Where the game's variant reads order lines its own way
  (its `read_desk_line`: 1885's Davis notation, Mercator's time-scale sections), a general
  order's lines are read by it, as a mail's would be: when filed, with no phase and so without
  the checks against the board (`VariantLine`, kept in the form the variant stores); when
  played, again in the phase's context, and a line the variant would refuse on arrival then
  (a unit lost, an order of the wrong kind for the phase) is dropped. Lines the variant hands
  back are the standard language's, as above.
- **The monthly calendar** (Mercator, 1885): a year as a bound runs from its January to its
  December's adjustments; PHASE SPRING holds in the moves and retreats of a month without
  builds, PHASE FALL in those of a build month (March, June, September, December: centres
  change hands after them, as after the standard fall), PHASE WINTER in an adjustment phase.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from judge.engine.calendar import ADJUSTMENTS, ANY, MONTHS, Phase, parse_phase
from judge.engine.geography import Map
from judge.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    Waive,
)
from judge.engine.position import Position, province_of
from judge.language import command_values as cv
from judge.language.format import format_order
from judge.language.names import NameLookupError, compact, name_table
from judge.language.orders import parse_line
from judge.variants import DeskLineReader

# Each season's place in its year, on either calendar: a standard season where the months
# would put it, so that a year written as a bound (S1902M to W1902A) spans a monthly year too.
_SEASON_PLACE = {"S": 0, "F": 6, "W": 11, **{month: i for i, month in enumerate(MONTHS)}}
_KINDS = "MRA"
_OPEN = 10**6  # the length of a period with an open end: longer than any game


def phase_rank(phase: str) -> int:
    """A number that orders phases as they are played: S1902M < S1902R < F1902M < W1902A, and
    JAN1902M < JAN1902R < FEB1902M < ... < DEC1902A, with S1902M the rank of JAN1902M and
    W1902A that of DEC1902A."""
    parsed = parse_phase(phase, ANY)
    return parsed.year * 36 + _SEASON_PLACE[parsed.season] * 3 + _KINDS.index(parsed.kind)


def _standard_season(parsed: Phase) -> str:
    """The standard season a phase stands for: a monthly one's by its kind of month (a build
    month's moves are a fall's, its adjustments a winter's)."""
    if not parsed.is_monthly:
        return parsed.season
    if parsed.kind == ADJUSTMENTS:
        return "W"
    return "F" if parsed.is_fall else "S"


@dataclass(frozen=True, slots=True)
class Validity:
    """The phases a general order holds for, both ends included; None is an open end."""

    start: str | None = None
    end: str | None = None

    def covers(self, phase: str) -> bool:
        rank = phase_rank(phase)
        if self.start is not None and rank < phase_rank(self.start):
            return False
        return self.end is None or rank <= phase_rank(self.end)

    def length(self) -> int:
        if self.start is None or self.end is None:
            return _OPEN + (self.start is None) + (self.end is None)
        return phase_rank(self.end) - phase_rank(self.start)

    def words(self) -> str:
        """As the judge writes it back: "from S1902M to W1903A", "for every phase"."""
        if self.start is not None and self.start == self.end:
            return f"for {self.start} only"
        parts = []
        if self.start is not None:
            parts.append(f"from {self.start}")
        if self.end is not None:
            parts.append(f"to {self.end}")
        return " ".join(parts) if parts else "for every phase"


# --- conditions, read against the map -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class UnitIn:
    """A unit (of `power`, of `kind`; None: any) stands in `province`."""

    power: str | None
    kind: str | None
    province: str

    def holds(self, position: Position, phase: str) -> bool:
        return any(
            unit.province == self.province
            and (self.power is None or unit.power == self.power)
            and (self.kind is None or unit.kind == self.kind)
            for unit in position.units
        )

    def text(self, game_map: Map) -> str:
        owner = game_map.powers[self.power].adjective if self.power else "any"
        kind = {"A": "Army", "F": "Fleet"}.get(self.kind or "", "unit")
        return f"{owner} {kind} in {game_map.provinces[self.province].name}"


@dataclass(frozen=True, slots=True)
class OwnedBy:
    """The centre in `province` is owned by `power` (None: by nobody)."""

    province: str
    power: str | None

    def holds(self, position: Position, phase: str) -> bool:
        return position.owner_of(self.province) == self.power

    def text(self, game_map: Map) -> str:
        owner = self.power.title() if self.power else "nobody"
        return f"{game_map.provinces[self.province].name} owned by {owner}"


@dataclass(frozen=True, slots=True)
class PhaseOf:
    """The phase is of this season (SPRING, FALL, WINTER) or kind (MOVE, RETREAT, ADJUST)."""

    part: str

    def holds(self, position: Position, phase: str) -> bool:
        parsed = parse_phase(phase, ANY)
        letter = {"SPRING": "S", "FALL": "F", "WINTER": "W"}.get(self.part)
        if letter is not None:
            return _standard_season(parsed) == letter
        return parsed.kind == {"MOVE": "M", "RETREAT": "R", "ADJUST": "A"}[self.part]

    def text(self, game_map: Map) -> str:
        return f"PHASE {self.part}"


@dataclass(frozen=True, slots=True)
class Negation:
    condition: Condition

    def holds(self, position: Position, phase: str) -> bool:
        return not self.condition.holds(position, phase)

    def text(self, game_map: Map) -> str:
        inner = self.condition.text(game_map)
        return f"NOT ({inner})" if isinstance(self.condition, Every | Either) else f"NOT {inner}"


@dataclass(frozen=True, slots=True)
class Every:
    conditions: tuple[Condition, ...]

    def holds(self, position: Position, phase: str) -> bool:
        return all(c.holds(position, phase) for c in self.conditions)

    def text(self, game_map: Map) -> str:
        return " AND ".join(
            f"({c.text(game_map)})" if isinstance(c, Either) else c.text(game_map)
            for c in self.conditions
        )


@dataclass(frozen=True, slots=True)
class Either:
    conditions: tuple[Condition, ...]

    def holds(self, position: Position, phase: str) -> bool:
        return any(c.holds(position, phase) for c in self.conditions)

    def text(self, game_map: Map) -> str:
        return " OR ".join(c.text(game_map) for c in self.conditions)


Condition = UnitIn | OwnedBy | PhaseOf | Negation | Every | Either


# --- the body of a general order ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StandingOrder:
    """One order line of a general order, read on the map."""

    order: Order

    def short(self, game_map: Map) -> str:
        return format_order(self.order, game_map, "short")

    def full(self, game_map: Map) -> str:
        return format_order(self.order, game_map, "full")


@dataclass(frozen=True, slots=True)
class Choice:
    """IF / ELSE IF / ELSE: the first branch whose condition holds, else `otherwise`."""

    branches: tuple[tuple[Condition, tuple[Item, ...]], ...]
    otherwise: tuple[Item, ...] | None = None


@dataclass(frozen=True, slots=True)
class VariantLine:
    """One order of a general order as the game's variant reads it (its `read_desk_line`): the
    key it is kept under (None: a heading line, such as Mercator's "TS2"), the line stored
    (which reads back alone) and the order in full."""

    key: str | None
    stored: str
    written: str

    def short(self, game_map: Map) -> str:
        return self.stored

    def full(self, game_map: Map) -> str:
        return self.written


Item = StandingOrder | VariantLine | Choice


@dataclass(frozen=True, slots=True)
class GeneralOrder:
    """A power's general order as filed: its period and its lines."""

    power: str
    validity: Validity
    items: tuple[Item, ...]


def lines(items: Sequence[Item], game_map: Map, *, full: bool = False, depth: int = 0) -> list[str]:
    """The general order written out, nested groups indented: short form is what the store keeps
    (and reads back), full form ("Army Paris -> Burgundy") what the judge echoes."""
    pad = "  " * depth
    out: list[str] = []
    for item in items:
        if isinstance(item, StandingOrder | VariantLine):
            out.append(pad + (item.full(game_map) if full else item.short(game_map)))
            continue
        for i, (condition, body) in enumerate(item.branches):
            out.append(f"{pad}{'IF' if i == 0 else 'ELSE IF'} {condition.text(game_map)}")
            out.extend(lines(body, game_map, full=full, depth=depth + 1))
        if item.otherwise is not None:
            out.append(pad + "ELSE")
            out.extend(lines(item.otherwise, game_map, full=full, depth=depth + 1))
        out.append(pad + "ENDIF")
    return out


# --- reading a block against the map -------------------------------------------------------------
class _Unbound(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_ANY_WORDS = frozenset({"any", "anyone's", "anybody's"})
_MY_WORDS = frozenset({"my", "own", "our"})
_NOBODY_WORDS = frozenset({"nobody", "none", "neutral", "unowned", "noone", "no-one", "no one"})
_KIND_WORDS = {"a": "A", "army": "A", "f": "F", "fleet": "F", "unit": None}
_LINKS = frozenset({"in", "at"})


@dataclass(slots=True)
class _Reading:
    """How a block's order lines are read: the variant's line reader, if it has one, and the
    context it carries from line to line (the board when filed, the power, no phase)."""

    read_line: DeskLineReader | None
    context: dict[str, Any]


def bind(
    block: cv.GeneralOrders,
    game_map: Map,
    power: str,
    read_line: DeskLineReader | None = None,
    position: Position | None = None,
) -> tuple[GeneralOrder | None, list[str]]:
    """Read a block of general orders on the map, for `power`: the general order, or None and
    every fault, each as "line N, column C: ...". Order lines go through the variant's line
    reader (`read_line`, with the board `position` where known and no phase: nothing is
    checked against the board yet), else the standard order reader; an order line prefixed with
    another power is refused, as in an orders mail."""
    problems: list[str] = []
    validity = Validity(block.valid_from, block.valid_to)
    start, end = block.valid_from, block.valid_to
    if start and end and phase_rank(start) > phase_rank(end):
        problems.append(f"line {block.line_no}: the period ends ({end}) before it starts ({start})")
    reading = _Reading(
        read_line, {"position": position, "power": power, "phase": "", "general": True}
    )
    items = _bind_items(block.body, game_map, power, problems, reading)
    if problems:
        return None, problems
    return GeneralOrder(power, validity, items), []


def _variant_lines(
    item: cv.OrderLine, game_map: Map, reading: _Reading, problems: list[str]
) -> list[Item] | None:
    """An order line as the game's variant reads it, or None where it hands the line back to
    the standard reader."""
    if reading.read_line is None:
        return None
    read = reading.read_line(game_map, item.text, item.line_no, reading.context)
    if read is None:
        return None
    if read.error is not None:
        problems.append(read.error)
        return []
    if read.at_once is not None:
        problems.append(
            f"line {item.line_no}: this line changes the game at once when it is sent; it "
            "cannot wait in general orders"
        )
        return []
    if read.heading is not None:
        return [VariantLine(None, item.text.strip(), f"({read.heading})")]
    return [VariantLine(key, stored, full) for key, stored, full in read.orders]


def _bind_items(
    written: Iterable[cv.GeneralItem],
    game_map: Map,
    power: str,
    problems: list[str],
    reading: _Reading,
) -> tuple[Item, ...]:
    out: list[Item] = []
    for item in written:
        if isinstance(item, cv.OrderLine):
            read = _variant_lines(item, game_map, reading, problems)
            if read is not None:
                out.extend(read)
                continue
            parsed = parse_line(item.text, game_map, item.line_no)
            if parsed.error is not None or parsed.order is None:
                problems.append(
                    str(parsed.error) if parsed.error else f"line {item.line_no}: not an order"
                )
            elif parsed.power is not None and parsed.power != power:
                problems.append(
                    f"line {item.line_no}, column 1: you play {power.title()}, "
                    f"not {parsed.power.title()}"
                )
            else:
                out.append(StandingOrder(parsed.order))
            continue
        branches: list[tuple[Condition, tuple[Item, ...]]] = []
        for branch in item.branches:
            try:
                condition = _bind_condition(branch.condition, game_map, power)
            except _Unbound as fault:
                problems.append(f"line {branch.line_no}, {fault.message}")
                condition = PhaseOf("MOVE")  # a stand-in: the block is refused anyway
            branches.append(
                (condition, _bind_items(branch.body, game_map, power, problems, reading))
            )
        otherwise = (
            _bind_items(item.otherwise, game_map, power, problems, reading)
            if item.otherwise is not None
            else None
        )
        out.append(Choice(tuple(branches), otherwise))
    return tuple(out)


def _bind_condition(written: cv.Condition, game_map: Map, power: str) -> Condition:
    if isinstance(written, cv.PhaseIs):
        return PhaseOf(written.part)
    if isinstance(written, cv.Not):
        return Negation(_bind_condition(written.condition, game_map, power))
    if isinstance(written, cv.AllOf):
        return Every(tuple(_bind_condition(c, game_map, power) for c in written.conditions))
    if isinstance(written, cv.AnyOf):
        return Either(tuple(_bind_condition(c, game_map, power) for c in written.conditions))
    if isinstance(written, cv.OwnedBy):
        province = _province(written.province, 0, game_map)
        if not game_map.provinces[province].supply_centre:
            raise _Unbound(
                f"column {_column(written.province, 0)}: "
                f"{game_map.provinces[province].name} is no supply centre"
            )
        return OwnedBy(province, _owner(written.owner, game_map, power))
    return _unit_in(written.phrase, game_map, power)


def _column(words: cv.Words, index: int) -> int:
    return words.columns[index] if index < len(words.columns) else 1


def _province(words: cv.Words, start: int, game_map: Map) -> str:
    if start >= len(words.words):
        raise _Unbound(f"column {_column(words, len(words.words) - 1)}: a province is missing")
    written = " ".join(words.words[start:])
    try:
        return province_of(name_table(game_map).province(written))
    except NameLookupError as exc:
        raise _Unbound(f"column {_column(words, start)}: no province: {exc.message}") from None


def _power_word(word: str, game_map: Map, *, letters: bool) -> str | None:
    key = compact(word)
    for name, known in game_map.powers.items():
        spellings = {compact(name), compact(known.adjective), compact(name[:3])}
        if letters:
            spellings.add(compact(known.letter))
        if key in spellings:
            return name
    return None


def _owner(words: cv.Words, game_map: Map, power: str) -> str | None:
    written = " ".join(words.words).lower()
    if written in _NOBODY_WORDS:
        return None
    if written in _MY_WORDS or written in ("me", "us"):
        return power
    found = _power_word(written, game_map, letters=True)
    if found is None:
        names = ", ".join(p.title() for p in sorted(game_map.powers))
        raise _Unbound(
            f"column {_column(words, 0)}: {' '.join(words.words)!r} is no power ({names}, "
            "or nobody)"
        )
    return found


def _unit_in(words: cv.Words, game_map: Map, power: str) -> UnitIn:
    """``[power] [Army|Fleet|A|F|unit] [in|at] province``, or a province alone (any unit).

    The whole phrase is tried as a province first, so "English Channel" is a province and not
    an English unit in "Channel"; a power is named by its name, adjective or first three letters
    (not its letter, which A and F would make ambiguous), or "any" / "my".
    """
    table = name_table(game_map)
    try:
        return UnitIn(None, None, province_of(table.province(" ".join(words.words))))
    except NameLookupError:
        pass
    written = [w.lower() for w in words.words]
    index = 0
    owner: str | None = None
    if len(written) > 1 and written[0] in _MY_WORDS:
        owner, index = power, 1
    elif len(written) > 1 and written[0] in _ANY_WORDS:
        index = 1
    elif len(written) > 1:
        owner = _power_word(written[0], game_map, letters=False)
        index = 1 if owner is not None else 0
    kind: str | None = None
    if index < len(written) - 1 and written[index] in _KIND_WORDS:
        kind = _KIND_WORDS[written[index]]
        index += 1
    if index < len(written) - 1 and written[index] in _LINKS:
        index += 1
    try:
        return UnitIn(owner, kind, _province(words, index, game_map))
    except _Unbound as fault:
        if kind is None and len(written) - index > 1:
            raise _Unbound(
                f"{fault.message}; a unit is written Army, Fleet, A, F or unit"
            ) from None
        raise


# --- which orders a phase plays ------------------------------------------------------------------
def applicable(filed: Sequence[GeneralOrder], phase: str) -> GeneralOrder | None:
    """The general order that applies to `phase`: the shortest period covering it, and of equally
    long ones the last filed (`filed` is oldest first)."""
    best: GeneralOrder | None = None
    for general in filed:
        if not general.validity.covers(phase):
            continue
        if best is None or general.validity.length() <= best.validity.length():
            best = general
    return best


def chosen(
    items: Sequence[Item], position: Position, phase: str
) -> list[StandingOrder | VariantLine]:
    """The order lines the conditions select, in the order written."""
    out: list[StandingOrder | VariantLine] = []
    for item in items:
        if isinstance(item, StandingOrder | VariantLine):
            out.append(item)
            continue
        for condition, body in item.branches:
            if condition.holds(position, phase):
                out.extend(chosen(body, position, phase))
                break
        else:
            if item.otherwise is not None:
                out.extend(chosen(item.otherwise, position, phase))
    return out


_MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)
_RETREAT_ORDERS = (Retreat, Move, Disband)
_ADJUSTMENT_ORDERS = (Build, Disband, Waive)


def playable(order: Order, position: Position, phase: str, power: str) -> bool:
    """Whether the order fits the phase and names a unit the power has to order in it."""
    kind = parse_phase(phase, ANY).kind
    allowed = {"M": _MOVEMENT_ORDERS, "R": _RETREAT_ORDERS, "A": _ADJUSTMENT_ORDERS}[kind]
    if not isinstance(order, allowed):
        return False
    if isinstance(order, Build | Waive):
        return True  # where a power may build is the engine's to judge
    units = [d.unit for d in position.dislodged] if kind == "R" else list(position.units)
    province = province_of(order.loc)
    return any(
        unit.power == power
        and unit.province == province
        and (order.unit_type is None or order.unit_type == unit.kind)
        for unit in units
    )


def play(
    filed: Sequence[GeneralOrder],
    position: Position,
    phase: str,
    read_line: DeskLineReader | None = None,
    game_map: Map | None = None,
    check: Callable[[Sequence[Any]], list[str | None]] | None = None,
) -> list[StandingOrder | VariantLine] | None:
    """The orders the power's general orders play in `phase`, or None when no general order
    covers it. Orders the power cannot give are dropped (a line of the variant's own language:
    one `read_line` refuses in the phase's context, or one of its orders `check`, the
    variant's arrival check, finds can never be carried out); of two for one unit the later
    wins."""
    general = applicable(filed, phase)
    if general is None:
        return None
    context: dict[str, Any] = {
        "position": position,
        "power": general.power,
        "phase": phase,
        "general": True,
    }
    by_unit: dict[str, StandingOrder | VariantLine] = {}
    for number, standing in enumerate(chosen(general.items, position, phase), start=1):
        if isinstance(standing, VariantLine):
            for line in _replayed(standing, number, read_line, game_map, context, check):
                key = line.key if line.key is not None else f"heading{number}"
                by_unit.pop(key, None)
                by_unit[key] = line
            continue
        order = standing.order
        if not playable(order, position, phase, general.power):
            continue
        key = f"waive{len(by_unit)}" if isinstance(order, Waive) else province_of(order.loc)
        by_unit.pop(key, None)
        by_unit[key] = standing
    return list(by_unit.values())


def _replayed(
    line: VariantLine,
    number: int,
    read_line: DeskLineReader | None,
    game_map: Map | None,
    context: dict[str, Any],
    check: Callable[[Sequence[Any]], list[str | None]] | None = None,
) -> list[VariantLine]:
    """A line of the variant's own language read again in the phase's context, as an orders
    mail's would be: nothing where the variant refuses it now, and none of its orders that
    the arrival check refuses."""
    if read_line is None or game_map is None:
        return [line]
    read = read_line(game_map, line.stored, number, context)
    if read is None or read.error is not None or read.at_once is not None:
        return []
    if read.heading is not None:
        return [line]
    orders = read.orders
    if check is not None and read.values:
        reasons = check(read.values)
        orders = [o for o, why in zip(orders, reasons, strict=True) if why is None]
    return [VariantLine(key, stored, full) for key, stored, full in orders]


def orders_for(
    filed: Sequence[GeneralOrder],
    position: Position,
    phase: str,
    game_map: Map,
    read_line: DeskLineReader | None = None,
    check: Callable[[Sequence[Any]], list[str | None]] | None = None,
) -> list[str] | None:
    """`play` as order texts in short form, as the desk hands them to the adjudicator."""
    played = play(filed, position, phase, read_line, game_map, check)
    return None if played is None else [standing.short(game_map) for standing in played]
