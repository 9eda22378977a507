"""Reading 1885's order lines (grammar/v1885.lark) and writing them back; the desk's line reader.

Davis's notation: ``A Mar boards F GoL; A/F GoL - WMed; A disembarks Tun`` (several orders to a
line, separated by ";" or ","; a bare ``A disembarks Tun`` is the army aboard the unit ordered
just before it on the line), ``F WMed Fast Ferry A Spa - NAf``, ``Rome: Fleet``, ``Build A Con
if Austrian A Ser retreats to Bul``, a retreat order sent with the move (``A Vie - Bud, retreat
to Boh``, ``A Ser R Alb if dislodged``). Builds, removals and waives without a condition are the
standard language's. Names are the board's: full names, the abbreviations of rule 12 (the
board's aliases: Cro., Dres., Mal., Mac., Nav.) and unique prefixes.

Orders are echoed in full (`format_full`) and stored as a line that reads back alone
(`format_short`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.calendar import ADJUSTMENTS, MONTHLY, MOVEMENT, RETREATS, parse_phase
from judge.engine.geography import Map, Terrain
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from judge.engine.position import Dislodged, Position, province_of
from judge.engine.results import ILLEGAL, OrderResult
from judge.language.board_parsers import BoardParsers
from judge.language.errors import OrderError
from judge.language.format import format_order, location_name
from judge.language.orders import OrderSyntaxError
from judge.variants import DeskLine, ReadOrders, RetreatTerms
from judge.variants.af_language import (
    BUILT_KIND,
    UNIT_WORDS,
    ArmyFleetCallbacks,
    adjustment_words,
    grammar_or_standard,
    kind_letter,
    parse_with_grammar,
    unit_words,
)
from judge.variants.order_checks import for_the_unit_there, kind_note
from judge.variants.v1885.orders import (
    Board,
    ChooseUnit,
    ContingentBuild,
    Disembark,
    RetreatIf,
    RetreatOnFile,
)

ARMY, FLEET, ARMY_FLEET = "A", "F", "AF"
_KINDS = {"a": ARMY, "army": ARMY, "f": FLEET, "fleet": FLEET}
_LEADING_ADJUSTMENT = re.compile(r"(?i)^\s*(?:builds?|removes?|disbands?|waives?)\b")


def unit_kind(token: str) -> str:
    word = re.sub(r"\s+", "", str(token)).lower()
    return ARMY_FLEET if "/" in word or word == "af" else _KINDS[word]


class _Here:
    """``A disembarks Tun`` with no place: the army aboard the unit ordered before it."""

    __slots__ = ("dest",)

    def __init__(self, dest: str) -> None:
        self.dest = dest


class _RetreatHere:
    """``retreat to Boh`` with no unit: the retreat, sent with the move, of the unit ordered
    before it on the line."""

    __slots__ = ("dest",)

    def __init__(self, dest: str) -> None:
        self.dest = dest


class _NoCarrier(Exception):
    pass


class _NoUnitBefore(Exception):
    pass


class _Callbacks(ArmyFleetCallbacks):
    """1885's own grammar callbacks (the army/fleet orders both variants read are
    ArmyFleetCallbacks'): each rule's children -> a value."""

    def unit(self, children: list[Any]) -> tuple[str | None, str, str]:
        return None, unit_kind(children[0]), children[1]

    def orders(self, children: list[Any]) -> list[Any]:
        values = [c for c in children if not isinstance(c, str)]
        out: list[Any] = []
        for value in values:
            if isinstance(value, _Here):
                carrier = _carrier_before(out)
                if carrier is None:
                    raise _NoCarrier()
                value = Disembark(carrier, value.dest)
            elif isinstance(value, _RetreatHere):
                last = out[-1] if out else None
                if not isinstance(last, Hold | Move | Support | Convoy):
                    raise _NoUnitBefore()
                value = RetreatOnFile(last.unit_type, last.loc, value.dest)
            out.append(value)
        return out

    def board(self, c: list[Any]) -> Board:
        return Board(c[0][2], c[2][2])

    def disembark(self, c: list[Any]) -> Disembark:
        return Disembark(c[0][2], c[2])

    def disembark_here(self, c: list[Any]) -> _Here:
        return _Here(c[2])

    def remove_first(self, c: list[Any]) -> Disband:
        return Disband(c[1][1], c[1][2])

    def retreat_on_file_after(self, c: list[Any]) -> RetreatOnFile:
        return RetreatOnFile(c[0][1], c[0][2], c[-2])

    def retreat_on_file_here(self, c: list[Any]) -> _RetreatHere:
        return _RetreatHere(c[-1])

    def choose_after(self, c: list[Any]) -> ChooseUnit:
        return ChooseUnit(unit_kind(c[1]), c[0])

    def choose_before(self, c: list[Any]) -> ChooseUnit:
        return ChooseUnit(unit_kind(c[1]), c[2])

    def condition(self, c: list[Any]) -> RetreatIf:
        power = None
        if isinstance(c[0], str):
            power = self.power_named(c[0])
            c = c[1:]
        _, kind, loc = c[0]
        return RetreatIf(province_of(loc), c[-1], power, kind)

    def build_if(self, c: list[Any]) -> ContingentBuild:
        return ContingentBuild(c[1][1], c[1][2], c[3])

    def build_unless(self, c: list[Any]) -> ContingentBuild:
        cond = c[3]
        negated = RetreatIf(cond.loc, cond.dest, cond.power, cond.unit_type, True)
        return ContingentBuild(c[1][1], c[1][2], negated)


def _carrier_before(values: Sequence[Any]) -> str | None:
    """The fleet carrying the army of a bare ``A disembarks X``: the unit ordered last."""
    if not values:
        return None
    last = values[-1]
    if isinstance(last, Board):
        return last.fleet_loc
    if isinstance(last, Hold | Move | Support) and last.unit_type in (FLEET, ARMY_FLEET):
        return province_of(last.loc)
    return None


GRAMMAR = "v1885"  # grammar/v1885.lark, the record's `order_grammar`
# The map's 1885 parser (values built during the parse) and the lean loop over its tables.
_PARSERS = BoardParsers(
    GRAMMAR, lambda transformer: type("_V1885Builder", (_Callbacks, transformer), {})
)


# What a line lacks where a bare order names no unit before it (column 1 of the line).
_FAULTS: dict[type[Exception], str] = {
    _NoCarrier: "say which army lands: 'A <its sea> disembarks <place>', or write it after its "
    "army/fleet's order on the same line",
    _NoUnitBefore: "say which unit retreats: 'A Ser R Alb if dislodged', or write the retreat "
    "after the unit's own order on the same line ('A Vie - Bud, retreat to Boh')",
}


def parse_line(game_map: Map, text: str, line_no: int = 1) -> list[Any]:
    """The orders of one line; raises OrderSyntaxError naming the line and what was expected.
    Builds, removals and waives without a condition are read by the standard language."""

    def adjustment_error(theirs: OrderSyntaxError) -> OrderSyntaxError | None:
        """The standard language's error, on this line, for a plain adjustment order."""
        if _LEADING_ADJUSTMENT.match(text) and not re.search(r"(?i)\b(?:if|unless)\b", text):
            return OrderSyntaxError(OrderError(line_no, theirs.error.column, theirs.error.message))
        return None

    return grammar_or_standard(
        lambda: parse_with_grammar(_PARSERS, text, game_map, line_no, _FAULTS),
        text,
        game_map,
        (Build, Waive, Disband, Retreat),
        adjustment_error,
    )


def read_1885_orders(game_map: Map, texts: Mapping[str, Sequence[str]]) -> ReadOrders:
    """Every power's lines of a phase (the Variant's `read_orders`): several orders to a line
    are several orders, each with a result of its own."""
    orders: dict[str, list[Any]] = {}
    unreadable: dict[tuple[str, int], OrderResult] = {}
    parts: dict[tuple[str, int], list[str]] = {}
    for power, lines in texts.items():
        out: list[Any] = []
        for index, line in enumerate(lines):
            try:
                values = parse_line(game_map, line, index + 1)
            except OrderSyntaxError as exc:
                unreadable[(power, index)] = OrderResult(ILLEGAL, f"cannot read the order: {exc}")
                continue
            out.extend(values)
            if len(values) > 1:
                pieces = [p.strip() for p in re.split(r"[;,]", line) if p.strip()]
                parts[(power, index)] = (
                    pieces if len(pieces) == len(values) else [line] * len(values)
                )
        orders[power] = out
    return ReadOrders(orders, unreadable, frozenset(), parts)


# --- writing orders back -------------------------------------------------------------------------
def format_full(order: Any, game_map: Map) -> str:
    """An order in full, as the echo and the results write it."""

    def place(loc: str) -> str:
        return location_name(loc, game_map)

    if isinstance(order, Board):
        return f"Army {place(order.army_loc)} boards Fleet {place(order.fleet_loc)}"
    if isinstance(order, Disembark):
        return f"Army {place(order.army_loc)} disembarks in {place(order.dest)}"
    if isinstance(order, Convoy):
        return (
            f"{unit_words(game_map, order.unit_type or FLEET, order.loc)} Fast Ferry "
            f"Army {place(order.army_loc)} -> {place(order.dest)}"
        )
    if isinstance(order, ChooseUnit):
        return f"The unit in {place(order.loc)} is {'a fleet' if order.unit_type == FLEET else 'an army'}"
    if isinstance(order, RetreatOnFile):
        return (
            f"{unit_words(game_map, order.unit_type, order.loc)} retreats to "
            f"{place(order.dest)} if dislodged"
        )
    if isinstance(order, ContingentBuild):
        kind = BUILT_KIND.get(order.unit_type or "", "a unit")
        cond = order.condition
        word = "unless" if cond.negated else "if"
        return (
            f"Builds {kind} in {place(order.loc)} {word} "
            f"{unit_words(game_map, cond.unit_type, cond.loc, cond.power)} retreats to "
            f"{place(cond.dest)}"
        )
    words = adjustment_words(game_map, order)
    if words is not None:
        return words
    if isinstance(order, Move) and order.via_convoy:
        unit = unit_words(game_map, order.unit_type, order.loc)
        return f"{unit} -> {place(order.dest)} via Fast Ferry"
    return format_order(order, game_map, "full")


def _short_unit(kind: str | None, loc: str) -> str:
    return f"{kind_letter(kind)} {loc.upper()}".strip()


def format_short(order: Any, game_map: Map) -> str:
    """An order as a line that reads back alone ("A MAR BOARDS F LYO")."""
    if isinstance(order, Board):
        return f"A {order.army_loc.upper()} BOARDS F {order.fleet_loc.upper()}"
    if isinstance(order, Disembark):
        return f"A {order.army_loc.upper()} DISEMBARKS {order.dest.upper()}"
    if isinstance(order, Convoy):
        return (
            f"{_short_unit(order.unit_type, order.loc)} FAST FERRY A "
            f"{order.army_loc.upper()} - {order.dest.upper()}"
        )
    if isinstance(order, ChooseUnit):
        return f"CHOOSE {order.unit_type} {order.loc.upper()}"
    if isinstance(order, ContingentBuild):
        cond = order.condition
        owner = cond.power + " " if cond.power else ""
        return (
            f"BUILD {_short_unit(order.unit_type, order.loc)} "
            f"{'UNLESS' if cond.negated else 'IF'} {owner}"
            f"{_short_unit(cond.unit_type, cond.loc)} R {cond.dest.upper()}"
        )
    if isinstance(order, RetreatOnFile):
        return f"{_short_unit(order.unit_type, order.loc)} R {order.dest.upper()} IF DISLODGED"
    if isinstance(order, Disband):
        return f"REMOVE {_short_unit(order.unit_type, order.loc)}"
    if isinstance(order, Hold):
        return f"{_short_unit(order.unit_type, order.loc)} H"
    if isinstance(order, Move):
        via = " VIA FAST FERRY" if order.via_convoy else ""
        return f"{_short_unit(order.unit_type, order.loc)} - {order.dest.upper()}{via}"
    if isinstance(order, Retreat):
        return f"{_short_unit(order.unit_type, order.loc)} R {order.dest.upper()}"
    if isinstance(order, Support):
        target = _short_unit(order.target_type, order.target)
        dest = f" - {order.dest.upper()}" if order.dest else ""
        return f"{_short_unit(order.unit_type, order.loc)} S {target}{dest}"
    return format_order(order, game_map, "short")


# --- the desk: one line of a mail at a time ------------------------------------------------------
def desk_key(order: Any, line_no: int) -> str:
    """What an order is for, so that a later order for the same thing replaces it; the unit's
    province comes last (the desk reads it there)."""
    if isinstance(order, Board):
        return order.army_loc
    if isinstance(order, Disembark):
        return f"landing {order.army_loc}"
    if isinstance(order, ChooseUnit):
        return f"choice {order.loc}"
    if isinstance(order, ContingentBuild):
        cond = order.condition
        return f"build {'unless' if cond.negated else 'if'} {cond.loc} {cond.dest} {order.loc}"
    if isinstance(order, Waive):
        return f"waive{line_no}"
    if isinstance(order, RetreatOnFile):
        # Apart from the unit's move, and not counted as its order (the key ends elsewhere).
        return f"{province_of(order.loc)} if dislodged"
    return province_of(order.loc)


def read_desk_line(game_map: Map, text: str, line_no: int, context: dict[str, Any]) -> DeskLine:
    """A mail's order line for the desk: each order keyed by its unit, stored as a line that
    reads back alone; an order whose letter names another kind than the unit there is taken for
    that unit and the echo says so (the record's `check_orders` then says whether it stands)."""
    try:
        values = parse_line(game_map, text, line_no)
    except OrderSyntaxError as exc:
        return DeskLine(error=str(exc))
    position: Position | None = context.get("position")
    phase = str(context.get("phase", ""))
    orders, taken, notes = [], [], []
    for order in for_phase(values, phase):
        if position is not None and phase:
            order, note = _for_unit_there(game_map, position, phase, order)
            if note:
                notes.append(note)
        taken.append(order)
        orders.append(
            (desk_key(order, line_no), format_short(order, game_map), format_full(order, game_map))
        )
    return DeskLine(orders=orders, values=taken if phase else [], note="; ".join(notes) or None)


def _for_unit_there(
    game_map: Map, position: Position, phase: str, order: Any
) -> tuple[Any, str | None]:
    """An order whose letter names an army where a fleet is, or the other way round, read for
    the unit that is there (docs/RULES.md, "The wrong unit kind")."""
    loc = getattr(order, "loc", None)
    if loc is None or isinstance(order, RetreatOnFile):
        return order, None
    prov = province_of(loc)
    from judge.variants.v1885.phases import CHOOSABLE

    if prov in CHOOSABLE and not position.state.get("months"):
        return order, None  # the unit there is chosen with the orders (rule 3)
    retreating = phase.endswith("R") or (phase.endswith("A") and bool(position.dislodged))
    pool = [d.unit for d in position.dislodged] if retreating else list(position.units)
    unit = next((u for u in pool if u.province == prov), None)
    taken = for_the_unit_there(order, unit)
    if taken is order or unit is None:
        return order, None
    return taken, kind_note(game_map, order.unit_type, unit)


def for_phase(values: Sequence[Any], phase_name: str) -> list[Any]:
    """A retreat order means by the phase it is sent in: in a move, one kept on file should the
    move dislodge the unit (rule 10 a); in a retreat or build phase, the retreat itself."""
    try:
        kind = parse_phase(phase_name, MONTHLY).kind if phase_name else None
    except ValueError:
        kind = None
    out: list[Any] = []
    for order in values:
        if kind == MOVEMENT and isinstance(order, Retreat):
            order = RetreatOnFile(order.unit_type, order.loc, order.dest)
        elif kind in (RETREATS, ADJUSTMENTS) and isinstance(order, RetreatOnFile):
            order = Retreat(order.unit_type, order.loc, order.dest)
        out.append(order)
    return out


def arrival_problem(
    game_map: Map,
    position: Position,
    power: str,
    phase_name: str,
    order: Any,
    line: Sequence[Any] = (),
) -> str | None:
    """Why an order can never stand, judged when it arrives from what the board alone says: a
    unit not the power's, an army/fleet of two powers, a Fast Ferry across a second sea, a
    disband or off-the-board retreat, a retreat where the unit may not go. What depends on
    other orders is left to the adjudication."""
    from judge.variants.v1885.moves import retreat_places
    from judge.variants.v1885.retreats import NO_DISBAND, cannot_retreat

    phase = parse_phase(phase_name, MONTHLY)
    units = {u.province: u for u in position.units}
    dislodged = {d.unit.province: d for d in position.dislodged}

    def name(prov: str) -> str:
        return location_name(prov, game_map)

    def own(prov: str) -> str | None:
        unit = units.get(prov)
        if unit is None or unit.power != power:
            return f"{power.title()} has no unit in {name(prov)}"
        return None

    retreating = phase.kind == RETREATS or (phase.kind == ADJUSTMENTS and bool(dislodged))
    if retreating and isinstance(order, Retreat | Move | Disband):
        prov = province_of(order.loc)
        d = dislodged.get(prov)
        if d is not None and d.unit.power == power:
            if isinstance(order, Disband):
                return NO_DISBAND
            options = retreat_places(game_map, d, set(units), position.contested)
            if province_of(order.dest) not in {province_of(o) for o in options}:
                return cannot_retreat(game_map, d, options, order.dest)
            return None
        if phase.kind == RETREATS:
            return f"{power.title()} has no dislodged unit in {name(prov)}"
    if phase.kind == RETREATS:
        return "only the retreats of dislodged units in this phase"
    if phase.kind == ADJUSTMENTS:
        if isinstance(order, Disband):
            return own(province_of(order.loc))
        if isinstance(order, Build) and not dislodged:
            # With no retreats to come the board says already where the power may build.
            from judge.variants.v1885.adjustments import build_problem

            return build_problem(
                game_map, power, order, set(units), position.centers, position.owners
            )
        if isinstance(order, Build | ContingentBuild | Waive):
            return None
        return "builds, removals and the retreats of dislodged units only in this phase"
    if phase.kind != MOVEMENT:
        return None
    if isinstance(order, ChooseUnit):
        return None  # the adjudication says whether the choice may be made (rule 3)
    if isinstance(order, Build | ContingentBuild | Waive):
        return "builds belong to their own phases, not a move"
    if isinstance(order, RetreatOnFile | Retreat):
        return own(province_of(order.loc)) or _never_a_retreat(game_map, units, order)
    if isinstance(order, Board):
        why = own(order.army_loc)
        if why:
            return why
        fleet = units.get(order.fleet_loc)
        if fleet is None or fleet.kind == ARMY:
            return f"there is no fleet in {name(order.fleet_loc)}"
        if fleet.power != power:
            return (
                f"an army/fleet is of one power only (A/F module II a): the fleet in "
                f"{name(order.fleet_loc)} is {game_map.powers[fleet.power].adjective}"
                if fleet.power in game_map.powers
                else "an army/fleet is of one power only (A/F module II a)"
            )
        if game_map.provinces[order.fleet_loc].terrain is not Terrain.SEA:
            return f"an army boards a fleet at sea, and {name(order.fleet_loc)} is not a sea (II a)"
        return None
    if isinstance(order, Disembark):
        return None  # which army/fleet it names may depend on the other orders
    prov = province_of(order.loc)
    why = own(prov)
    if why:
        # A unit ordered after its army boarded on the same line is the army/fleet's fleet.
        return why
    if isinstance(order, Convoy):
        unit = units[prov]
        if unit.kind == ARMY_FLEET:
            return "an army/fleet cannot convoy: its transports are full (III a)"
        from judge.engine.topology import topology

        reach = topology(game_map).fleet_reach.get(prov, ())
        army, dest = province_of(order.army_loc), province_of(order.dest)
        if army not in reach or dest not in reach:
            return (
                f"the Fast Ferry crosses one sea only (rule 7): the fleet in {name(prov)} cannot "
                f"carry an army from {name(army)} to {name(dest)} by itself; across more seas an "
                "army goes aboard an army/fleet (rule 8)"
            )
    from judge.variants.v1885.phases import CHOOSABLE

    chosen_later = prov in CHOOSABLE and not position.state.get("months")
    if isinstance(order, Move) and units[prov].kind == ARMY and not chosen_later:
        from judge.engine.topology import topology

        topo = topology(game_map)
        dest = province_of(order.dest)
        if not game_map.army_may_be_at(dest):
            return None  # the adjudication says an army cannot go there
        if dest not in game_map.army_edges.get(prov, ()) or order.via_convoy:
            near = {s for s in topo.fleet_reach.get(prov, ()) if s in topo.seas}
            there = {s for s in topo.fleet_reach.get(dest, ()) if s in topo.seas}
            if near and there and not near & there:
                return (
                    f"no single sea lies between {name(prov)} and {name(dest)}: an army crosses "
                    "more than one sea only aboard an army/fleet (rule 8)"
                )
    return None


def _never_a_retreat(game_map: Map, units: Mapping[str, Any], order: Any) -> str | None:
    """Why a retreat sent with the move could never be made, whatever the move does: its place
    is not next to the unit (rule 10 b: a retreat goes to an existing province)."""
    prov = province_of(order.loc)
    unit = units[prov]
    dest = province_of(order.dest)
    if unit.kind == ARMY:
        near = set(game_map.army_edges.get(prov, ()))
    else:
        near = {province_of(loc) for loc in game_map.fleet_edges.get(unit.loc, ())}
    if dest in near:
        return None
    return (
        f"{UNIT_WORDS[unit.kind]} {location_name(prov, game_map)} could never retreat to "
        f"{location_name(dest, game_map)}: a unit retreats to a province next to it (rule 10 a, b)"
    )


def retreat_terms(game_map: Map, position: Position, d: Dislodged) -> RetreatTerms:
    """What the desk tells a player of his dislodged unit (the Variant record's
    `retreat_terms`): the places 1885's rules leave it (an army/fleet to a sea while one is
    open), and that without an order it retreats by the order sent with the move, if one was
    (then it owes none), else by the right-hand rule (rule 10 a)."""
    from judge.variants.v1885.moves import retreat_places
    from judge.variants.v1885.retreats import retreat_destination

    occupied = {u.province for u in position.units}
    places = retreat_places(game_map, d, occupied, position.contested)
    if not places:
        return RetreatTerms(places, "is removed: it has nowhere to go (rule 10 b)")
    filed = dict(position.state.get("on_file", {})).get(d.unit.province)
    dest = retreat_destination(places, filed) if filed else None
    if dest is not None:
        return RetreatTerms(
            places,
            f"retreats to {location_name(dest, game_map)}, as ordered with the move (rule 10 a)",
            standing=True,
        )
    return RetreatTerms(places, "retreats by the right-hand rule (rule 10 a)")
