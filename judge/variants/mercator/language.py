"""Reading Mercator's order lines: grammar/mercator.lark, time-scale sections, echo text.

A month's orders come in sections (rule 2.8): "TS1", "Time scale 2:", "T.S. 3" and the like, on a
line of their own or in front of an order ("TS1 A(Lon) B F(NTH)"), even several on one line as
the rules' own example writes them ("TS1 A (ENC) L Lon TS2 F(IRI) S F(ENC) – MAO"). Each order is
read into a `Scaled` value: the order and its time scale. An order before any heading takes the
time scale its kind allows (a landing is TS1, an embarkation TS3, a plain move TS2); an order in
a section where it cannot be is refused with the section it belongs in. Several orders on one
line, separated by commas (an army/fleet's split retreat, rule 4 (c)), are several orders.

Adjustment orders (builds, removals, waives) are the standard game's and are read by the
standard reader.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.geography import Map
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from judge.language.board_parsers import BoardParsers
from judge.language.format import location_name
from judge.language.names import name_table
from judge.variants import DeskLine, ReadOrders
from judge.variants.af_language import (
    ArmyFleetCallbacks,
    adjustment_words,
    grammar_or_standard,
    kind_letter,
    parse_with_grammar,
    unit_words,
)
from judge.variants.mercator.adjustments import builds_used
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
from judge.variants.mercator.reading import LineReading, read_all, scan, unit_kind
from judge.variants.mercator.reading import read_line as read_one_line


class _MercatorCallbacks(ArmyFleetCallbacks):
    """Mercator's own grammar callbacks (the army/fleet orders both variants read are
    ArmyFleetCallbacks'): each rule's children -> a value."""

    def unit(self, children: list[Any]) -> tuple[str | None, str, str]:
        return None, unit_kind(children[0]), children[1]

    def partner_unit(self, children: list[Any]) -> tuple[str | None, str, str]:
        return self.power_named(children[0]), unit_kind(children[1]), children[2]

    def orders(self, children: list[Any]) -> list[Any]:
        return children

    def chain_convoy(self, children: list[Any]) -> ChainConvoy:
        # [fleet, fleet ..., AND, fleet, CONVOY, army, MOVE_OP, loc] (commas are dropped)
        fleets = [c for c in children[:-4] if type(c) is tuple]
        army = children[-3]
        return ChainConvoy(tuple(f[2] for f in fleets), army[2], children[-1], army[0])

    def support_landing(self, c: list[Any]) -> SupportLanding:
        return SupportLanding(c[0][2], c[2][2], c[4], c[2][0])

    def land(self, c: list[Any]) -> Land:
        return Land(c[0][2], c[2], c[0][0])

    def board(self, c: list[Any]) -> Board:
        return Board(c[0][2], c[2][2], c[0][0], c[2][0])

    def embark(self, c: list[Any]) -> Embark:
        return Embark(c[0][2], c[2][2], c[0][0], c[2][0])

    def disembark(self, c: list[Any]) -> Disembark:
        return Disembark(c[0][2], c[2], c[0][0])

    def place_spare(self, c: list[Any]) -> PlaceSpare:
        return PlaceSpare(unit_kind(c[1]), c[2])

    def fast_ferry(self, c: list[Any]) -> FastFerry:
        return FastFerry(c[0][2], c[2][2], c[4], c[2][0])


GRAMMAR = "mercator"  # grammar/mercator.lark, the record's `order_grammar`
# The map's Mercator parser (values built during the parse) and the lean loop over its tables.
_PARSERS = BoardParsers(
    GRAMMAR, lambda transformer: type("_MercatorBuilder", (_MercatorCallbacks, transformer), {})
)


def parse_mercator(text: str, game_map: Map, line_no: int = 1) -> list[Any]:
    """The orders of one piece of a line (no heading in it); raises OrderSyntaxError."""
    scanned = scan(text, name_table(game_map).known_locations)
    if scanned is not None:
        return [scanned]
    return _parse_with_grammar(text, game_map, line_no)


def _parse_with_grammar(text: str, game_map: Map, line_no: int) -> list[Any]:
    """The grammar's reading of a piece, without the quick reader."""
    return parse_with_grammar(_PARSERS, text, game_map, line_no)


def _parse_or_standard(game_map: Map, text: str, line_no: int) -> list[Any]:
    """The grammar's reading of a piece, or the standard language's for an adjustment order
    (build, remove, waive); the grammar's error where neither reads it."""
    return grammar_or_standard(
        lambda: _parse_with_grammar(text, game_map, line_no),
        text,
        game_map,
        (Build, Waive, Disband),
    )


def read_line(game_map: Map, text: str, section: int | None, line_no: int = 1) -> LineReading:
    """Read one line of a month in the section the lines before it left open."""
    return read_one_line(
        text,
        section,
        line_no,
        name_table(game_map).known_locations,
        functools.partial(_parse_or_standard, game_map),
    )


def read_mercator_orders(game_map: Map, texts: Mapping[str, Sequence[str]]) -> ReadOrders:
    """Every power's lines of a phase, section by section (the Variant's `read_orders`)."""
    orders, unreadable, headings, parts = read_all(
        texts, name_table(game_map).known_locations, functools.partial(_parse_or_standard, game_map)
    )
    return ReadOrders(orders, unreadable, frozenset(headings), parts)


# --- writing orders back -------------------------------------------------------------------------
def format_scaled(order: Any, game_map: Map) -> str:
    """An order in full, as the echo and the results write it."""
    value = order.order if isinstance(order, Scaled) else order

    def place(loc: str) -> str:
        return location_name(loc, game_map)

    if isinstance(value, Land):
        return f"{unit_words(game_map, 'A', value.army_loc)} lands in {place(value.dest)}"
    if isinstance(value, Disembark):
        return f"{unit_words(game_map, 'A', value.army_loc)} disembarks in {place(value.dest)}"
    if isinstance(value, Board | Embark):
        verb = "boards" if isinstance(value, Board) else "embarks on"
        army = unit_words(game_map, "A", value.army_loc, value.army_power)
        return f"{army} {verb} {unit_words(game_map, 'F', value.fleet_loc, value.fleet_power)}"
    if isinstance(value, SupportLanding):
        return (
            f"{unit_words(game_map, 'F', value.fleet_loc)} supports the landing of "
            f"{unit_words(game_map, 'A', value.army_loc)} in {place(value.dest)}"
        )
    if isinstance(value, FastFerry):
        return (
            f"{unit_words(game_map, 'F', value.fleet_loc)} ferries "
            f"{unit_words(game_map, 'A', value.army_loc)} -> {place(value.dest)}"
        )
    if isinstance(value, PlaceSpare):
        return f"Spare unit: {unit_words(game_map, value.unit_type, value.loc)}"
    # In a time scale a disband is the unit's own order ("F(BAL) D"), not a removal.
    removal = not (isinstance(order, Scaled) and order.time_scale)
    words = adjustment_words(game_map, value, removal)
    if words is not None:
        return words
    if isinstance(value, ChainConvoy):
        fleets = ", ".join(unit_words(game_map, "F", f) for f in value.fleet_locs)
        army = unit_words(game_map, "A", value.army_loc)
        return f"{fleets} convoy {army} -> {place(value.dest)}"
    from judge.language.format import format_order

    return format_order(value, game_map, "full")


def format_scaled_short(order: Any, game_map: Map) -> str:
    """An order as a line that reads back alone, its time scale in front ("TS1 A(LON) B F(NTH)")."""
    value = order.order if isinstance(order, Scaled) else order
    scale = order.time_scale if isinstance(order, Scaled) else 0

    def unit(kind: str | None, loc: str, power: str | None = None) -> str:
        owner = f"{game_map.powers[power].adjective} " if power and power in game_map.powers else ""
        return f"{owner}{kind_letter(kind)}({loc.upper()})"

    if isinstance(value, Land):
        text = f"{unit('A', value.army_loc)} L {value.dest.upper()}"
    elif isinstance(value, Disembark):
        text = f"{unit('A', value.army_loc)} D {value.dest.upper()}"
    elif isinstance(value, Board | Embark):
        verb = "B" if isinstance(value, Board) else "E"
        text = (
            f"{unit('A', value.army_loc, value.army_power)} {verb} "
            f"{unit('F', value.fleet_loc, value.fleet_power)}"
        )
    elif isinstance(value, SupportLanding):
        text = f"{unit('F', value.fleet_loc)} S {unit('A', value.army_loc)} L {value.dest.upper()}"
    elif isinstance(value, FastFerry):
        text = (
            f"{unit('F', value.fleet_loc)} F/F {unit('A', value.army_loc)} - {value.dest.upper()}"
        )
    elif isinstance(value, ChainConvoy):
        fleets = [unit("F", f) for f in value.fleet_locs]
        chain = ", ".join(fleets[:-1]) + f" & {fleets[-1]}"
        text = f"{chain} C {unit('A', value.army_loc)} - {value.dest.upper()}"
    elif isinstance(value, Hold):
        text = f"{unit(value.unit_type, value.loc)} H"
    elif isinstance(value, Move | Retreat):
        text = f"{unit(value.unit_type, value.loc)} - {value.dest.upper()}"
    elif isinstance(value, Support):
        target = unit(value.target_type, value.target)
        text = f"{unit(value.unit_type, value.loc)} S {target}" + (
            f" - {value.dest.upper()}" if value.dest else ""
        )
    elif isinstance(value, Convoy):
        text = (
            f"{unit(value.unit_type, value.loc)} C A({value.army_loc.upper()}) - "
            f"{value.dest.upper()}"
        )
    elif isinstance(value, PlaceSpare):
        text = f"Spare {unit(value.unit_type, value.loc)}"
    elif isinstance(value, Disband):
        text = (
            f"{unit(value.unit_type, value.loc)} D"
            if scale
            else f"Remove {unit(value.unit_type, value.loc)}"
        )
    else:
        from judge.language.format import format_order

        text = format_order(value, game_map, "short")
    return f"TS{scale} {text}" if scale in (1, 2, 3, 4) else text


# --- the desk: one line of a mail at a time ------------------------------------------------------
def time_scale_1_problem(game_map: Map, position: Any, power: str, value: Any) -> str | None:
    """What a time scale 1 order asks of the board at the start of the month that is not there
    (time scale 1 comes first, so this is known when the order arrives)."""
    units = {u.province: u for u in position.units}

    def name(loc: str) -> str:
        return location_name(loc, game_map)

    if isinstance(value, Land | SupportLanding):
        sea = value.army_loc if isinstance(value, Land) else value.fleet_loc
        carrier = units.get(sea)
        if carrier is None or carrier.kind != "AF":
            there = "nothing" if carrier is None else {"A": "an army", "F": "a fleet"}[carrier.kind]
            return f"there is no army aboard a fleet in {name(sea)} ({there} is there)"
        if power not in (carrier.power, carrier.army_power or carrier.power):
            return f"the army/fleet in {name(sea)} is not {power.title()}'s"
    if isinstance(value, Board):
        army, fleet = units.get(value.army_loc), units.get(value.fleet_loc)
        if army is None or army.kind != "A":
            return f"there is no army in {name(value.army_loc)}"
        if fleet is None or fleet.kind == "A":
            return f"there is no fleet in {name(value.fleet_loc)}"
        terrain = game_map.provinces[fleet.province].terrain.value
        if terrain not in ("sea", "canal"):
            return (
                f"an army boards a fleet at sea or in a canal province, and {name(value.fleet_loc)} "
                "is neither (rule 2.2)"
            )
    return None


SECTION = "mercator_section"  # where the desk's per-seat context keeps the open time scale


def _kind_note(game_map: Map, position: Any, value: Any) -> str | None:
    """A warning (not a refusal) where an order of time scale 2 or 3 names a unit of another
    kind than the board holds at the start of the month: it stands only if the month's earlier
    time scales change the unit so (rule 2.4: a wrong guess makes the order invalid)."""
    written = getattr(value, "unit_type", None)
    loc = getattr(value, "loc", None)
    if written is None or loc is None:
        return None
    unit = next((u for u in position.units if u.province == loc.split("/")[0]), None)
    if unit is None or unit.kind == written:
        return None
    words = {"A": "an army", "F": "a fleet", "AF": "an army/fleet"}
    return (
        f"at the start of the month the unit in {location_name(loc, game_map)} is "
        f"{words.get(unit.kind, unit.kind)}, not {words.get(written, written)}: this order stands "
        "only if the earlier time scales make it one (rule 2.4)"
    )


def desk_key(value: Any) -> str:
    """What one order is for, so that a later order for the same thing replaces it: the unit's
    province last (the desk reads it there), the army's or the fleet's part of an army/fleet
    before it where both may have orders in one time scale (``F(ENC) S A(ENC) L Lon`` beside
    ``A(ENC) L Lon``; ``A(MAO) - Por`` beside ``F(MAO) - WMS`` in a split retreat)."""
    if isinstance(value, Land | Disembark | Board | Embark):
        return f"army {value.army_loc}"
    if isinstance(value, SupportLanding | FastFerry):
        return f"fleet {value.fleet_loc}"
    if isinstance(value, ChainConvoy):
        return f"fleet {value.fleet_locs[0]}"
    if isinstance(value, Retreat | Disband) and value.unit_type in ("A", "F"):
        return f"{'army' if value.unit_type == 'A' else 'fleet'} {value.loc}"
    loc = getattr(value, "loc", None)
    return str(loc) if loc else "waive"


def read_desk_line(game_map: Map, text: str, line_no: int, context: dict[str, Any]) -> DeskLine:
    """A mail's order line for the desk: its orders keyed by time scale and unit (the last
    order for a unit in a time scale stands), stored as lines that read back alone."""
    section = context.get(SECTION)
    if section is None and str(context.get("phase", "")).endswith("R"):
        section = 4  # a retreat phase: time scale 4 without a heading
    reading = read_line(game_map, text, section, line_no)
    context[SECTION] = reading.section
    if reading.heading_only:
        scale = reading.section
        return DeskLine(heading=f"time scale {scale}" if scale in (1, 2, 3) else "retreats")
    if reading.error is not None:
        message = reading.error
        if not message.startswith("line "):
            message = f"line {line_no}: {message}"
        return DeskLine(error=message)
    position = context.get("position")
    power = context.get("power")
    orders = []
    notes: list[str] = []
    values: list[Scaled] = []
    for scaled in reading.orders:
        value = scaled.order
        if position is not None and power is not None and scaled.time_scale == 1:
            why = time_scale_1_problem(game_map, position, power, value)
            if why:
                return DeskLine(error=f"line {line_no}: {why}")
        if position is not None and scaled.time_scale in (2, 3):
            note = _kind_note(game_map, position, value)
            if note:
                notes.append(note)
        what = desk_key(value)
        key = f"ts{scaled.time_scale} {what if what != 'waive' else f'waive{line_no}'}"
        scale = f"TS{scaled.time_scale}: " if scaled.time_scale in (1, 2, 3) else ""
        orders.append(
            (key, format_scaled_short(scaled, game_map), scale + format_scaled(scaled, game_map))
        )
        values.append(scaled)
    checked = values if position is not None and context.get("phase") else []
    return DeskLine(orders=orders, note="; ".join(notes) or None, values=checked)


def adjustments_used(game_map: Map, position: Any, power: str, stored: str) -> int:
    """How many of the builds or removals due one of the power's stored order lines uses (the
    record's `adjustments_used`): a build at a premium two, any other order one (rule 5.3)."""
    reading = read_line(game_map, stored, None)
    if reading.error is not None or not reading.orders:
        return 1
    return sum(builds_used(game_map, position, power, scaled) for scaled in reading.orders)
