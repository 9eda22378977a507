"""One Algernon turn: portal orders translated to moves on the maze board, the standard resolver,
the retreats by priority list and, in the fall, the builds by priority list; then what each
player's rats met (`Encounter`s), his knowledge grown from them, and the reports.

A turn is one phase: retreat and build priorities are written with the moves (rules 9 and B.1),
so a spring turn is followed by the fall turn and a fall turn by the next spring, the retreats
and builds done within it. Randomness (builds without a list) comes from the seed in the
variant state and the phase's name, so the GM can reproduce every draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.engine.adjudicate import update_centres, winners
from judge.engine.adjustments import adjustment_counts, free_build_sites, resolve_adjustments
from judge.engine.calendar import ANY, parse_phase
from judge.engine.geography import Map
from judge.engine.orders import Build, Disband, Hold, Move, Order, Retreat, Support
from judge.engine.position import Dislodged, Position, Unit
from judge.engine.resolve import resolve_movement
from judge.engine.results import FAILURE, ILLEGAL, SUCCESS, VOID, OrderResult, PhaseResult
from judge.engine.retreats import resolve_retreats
from judge.engine.rules import Rules
from judge.variants.algernon.knowledge import Knowledge, knowledge_of
from judge.variants.algernon.orders import (
    Attack,
    BuildList,
    MazeOrder,
    Remove,
    RetreatList,
    Stand,
    SupportAttack,
    SupportInto,
    SupportOut,
    UnitOrder,
)

RAT = "A"  # the maze rat stands on the board as the engine's army


@dataclass(frozen=True)
class Note:
    """One piece opposing a player's rat, in section II's notation: `(TAG to VT3)`,
    `(TAG s VT4)`, `(TAG h VT)`, `(TAG a in RH2)`, `(TAG s in RH5)` (cut: the slashed s)."""

    initials: str
    kind: str  # "to", "s", "h", "a in", "s in"
    space: str
    portal: int = 0
    cut: bool = False

    def text(self) -> str:
        where = self.space.upper()
        if self.kind == "h":
            return f"({self.initials} h {where})"
        if self.kind in ("to", "s"):
            return f"({self.initials} {self.kind} {where}{self.portal})"
        word = "s/ in" if self.kind == "s in" and self.cut else self.kind
        return f"({self.initials} {word} {where}{self.portal})"


@dataclass
class Encounter:
    """What one rat of a player did and met this turn, as far as the rules let him know."""

    space: str
    order: str  # the order as written back (`VT to 3`), or `VT h` for a rat without one
    entered: tuple[str, int] | None = None  # the space attacked (or entered) and its portal in
    outcome: str = ""  # "", "Bounce", "B.S."
    swap_with: str | None = None  # a swap attempt: only the other player's initials (rule 10)
    cut: bool = False
    at_target: list[Note] = field(default_factory=list)
    at_home: list[Note] = field(default_factory=list)
    dislodged: bool = False
    retreat: tuple[int, str, int] | None = None  # out portal r, into space U through portal u
    retreat_failed: bool = False  # both retreats met in one space: destroyed there
    destroyed: bool = False


@dataclass
class Turn:
    """Everything the reports need, per player and for the GM."""

    board: Map
    phase: str
    encounters: dict[str, list[Encounter]]
    built: dict[str, list[str]]
    unbuilt: dict[str, int]
    removed: dict[str, list[str]]
    centres: dict[str, int] | None  # the counts published after a fall turn's builds
    units_after: tuple[Unit, ...]
    master_lines: list[str]


def _initials(unit: Unit) -> str:
    return unit.power


def _unit_orders(
    board: Map, position: Position, orders: Mapping[str, Sequence[MazeOrder]]
) -> tuple[
    dict[str, tuple[str, int, UnitOrder]],
    dict[str, tuple[int, ...]],
    dict[str, tuple[str, ...]],
    dict[str, list[str]],
    dict[tuple[str, int], OrderResult],
]:
    """Each unit's order (the last for its space), retreat lists, build lists and removals;
    and the results of the orders that name no rat of their power."""
    by_space: dict[str, tuple[str, int, UnitOrder]] = {}
    retreat: dict[str, tuple[int, ...]] = {}
    builds: dict[str, tuple[str, ...]] = {}
    removes: dict[str, list[str]] = {}
    static: dict[tuple[str, int], OrderResult] = {}
    owner = {u.province: u.power for u in position.units}
    for power, given in orders.items():
        for index, order in enumerate(given):
            if isinstance(order, BuildList):
                builds[power] = order.spaces
                continue
            if owner.get(order.space) != power:
                static[(power, index)] = OrderResult(VOID, f"no rat of {power} in {order.space}")
                continue
            if isinstance(order, RetreatList):
                retreat[order.space] = order.portals
            elif isinstance(order, Remove):
                removes.setdefault(power, []).append(order.space)
            else:
                earlier = by_space.get(order.space)
                if earlier is not None:
                    static[(power, earlier[1])] = OrderResult(VOID, "replaced by a later order")
                by_space[order.space] = (power, index, order)
    return by_space, retreat, builds, removes, static


def _engine_order(board: Map, order: UnitOrder) -> tuple[Order, str | None]:
    """The move or support on the maze board an order means, or a hold and why not."""
    here = order.space
    hold = Hold(RAT, here)
    if isinstance(order, Stand):
        return hold, None
    end = board.through_portal(here, order.portal)
    if end is None:
        return hold, f"{here.upper()} has no portal {order.portal}"
    if isinstance(order, Attack):
        return Move(RAT, here, end), None
    if isinstance(order, SupportOut):
        return Support(RAT, here, None, end), None
    if isinstance(order, SupportAttack):
        if order.mover not in board.provinces:
            return hold, "no such attack"
        if board.through_portal(order.mover, order.mover_portal) != end:
            return hold, "no such attack"
        return Support(RAT, here, None, order.mover, end), None
    assert isinstance(order, SupportInto)
    attacker = board.through_portal(end, order.entry)
    if attacker is None or attacker == here:
        return hold, "no such attack"
    return Support(RAT, here, None, attacker, end), None


def adjudicate_algernon(
    board: Map,
    position: Position,
    orders: Mapping[str, Sequence[MazeOrder]],
    rules: Rules,
) -> PhaseResult:
    """One turn on the maze, whatever the season; pure and reproducible from the state's seed."""
    phase = parse_phase(position.phase, ANY)
    by_space, retreat_lists, build_lists, removes, static = _unit_orders(board, position, orders)
    engine: dict[str, list[Order]] = {}
    slot: dict[tuple[str, int], tuple[str, int]] = {}  # (power, maze index) -> engine index
    mismatch: dict[str, str] = {}
    meant: dict[str, Order] = {}
    for space, (power, index, order) in by_space.items():
        move, why = _engine_order(board, order)
        if why is not None:
            mismatch[space] = why
        meant[space] = move
        if why is not None and isinstance(move, Hold) and not isinstance(order, Stand):
            static[(power, index)] = OrderResult(ILLEGAL, why)
        listed = engine.setdefault(power, [])
        slot[(power, index)] = (power, len(listed))
        listed.append(move)
    moved = resolve_movement(board, position, engine, rules)
    engine_results = {key: moved.results[power][i] for key, (power, i) in slot.items()}
    # Retreats by priority list, else the first open portal from 1 (rule B.1).
    retreat_orders: dict[str, list[Order]] = {}
    retreat_choice: dict[str, tuple[int, str]] = {}
    for d in moved.dislodged:
        choice = _retreat_choice(board, d, retreat_lists.get(d.unit.province, ()))
        if choice is not None:
            retreat_choice[d.unit.province] = choice
            retreat_orders.setdefault(d.unit.power, []).append(
                Retreat(RAT, d.unit.province, choice[1])
            )
    units = list(moved.units_after)
    centres = dict(position.centers)
    disbanded: list[Unit] = []
    retreat_results: dict[str, OrderResult] = {}
    if moved.dislodged:
        waiting = Position(
            phase=f"{phase.season}{phase.year}R",
            units=tuple(units),
            centers=centres,
            dislodged=moved.dislodged,
            contested=moved.contested,
        )
        outcome = resolve_retreats(board, waiting, retreat_orders, rules)
        units, disbanded = list(outcome.units_after), list(outcome.disbanded)
        for power, given in retreat_orders.items():
            for order, result in zip(given, outcome.results.get(power, ()), strict=True):
                retreat_results[order.loc] = result
    built: dict[str, list[str]] = {}
    unbuilt: dict[str, int] = {}
    removed: dict[str, list[str]] = {}
    published: dict[str, int] | None = None
    build_results: dict[str, OrderResult] = {}
    if phase.is_fall:
        centres = update_centres(board, units, centres)
        units, built, unbuilt, removed, build_results = _adjust(
            board, position, units, centres, build_lists, removes
        )
        published = {
            p: len(c) for p, c in sorted(centres.items()) if c or any(u.power == p for u in units)
        }
    turn = _turn(
        board,
        position,
        by_space,
        meant,
        mismatch,
        engine_results,
        moved.dislodged,
        retreat_choice,
        retreat_results,
        disbanded,
        units,
        built,
        unbuilt,
        removed,
        published,
    )
    state = _next_state(board, position, turn)
    results = _results(orders, static, engine_results, build_results, retreat_results)
    nxt = f"F{phase.year}M" if not phase.is_fall else f"S{phase.year + 1}M"
    return PhaseResult(
        phase=phase.name,
        results=results,
        units_after=tuple(units),
        centers_after=centres,
        next_phase=nxt,
        dislodged=(),
        contested=frozenset(),
        disbanded=tuple(disbanded)
        + tuple(Unit(p, RAT, s) for p, spaces in sorted(removed.items()) for s in spaces),
        victory=winners(board, units, centres, rules) if phase.is_fall else (),
        owners_after={},
        state_after=state,
    )


def _retreat_choice(board: Map, d: Dislodged, listed: Sequence[int]) -> tuple[int, str] | None:
    """The portal a dislodged rat leaves by: the first open one of its list, then the first
    open one from 1 (a rat flees rather than dies; docs/RULES.md)."""
    space = d.unit.province
    count = len(board.provinces[space].portals)
    order = [p for p in listed if 1 <= p <= count]
    order += [p for p in range(1, count + 1) if p not in order]
    for portal in order:
        end = board.through_portal(space, portal)
        if end is not None and end in d.retreats:
            return portal, end
    return None


def _adjust(
    board: Map,
    position: Position,
    units: list[Unit],
    centres: Mapping[str, frozenset[str]],
    build_lists: Mapping[str, Sequence[str]],
    removes: Mapping[str, Sequence[str]],
) -> tuple[
    list[Unit], dict[str, list[str]], dict[str, int], dict[str, list[str]], dict[str, OrderResult]
]:
    """Rule 9: builds in the order of the power's list among its free homes, the rest drawn at
    random from the free homes (the seeded generator); removals as ordered, the rest by the
    civil-disorder rule."""
    seed = str(position.state.get("seed", ""))
    rng = random.Random(f"algernon-builds:{seed}:{position.phase}")
    counts = adjustment_counts(units, centres)
    orders: dict[str, list[Order]] = {}
    results: dict[str, OrderResult] = {}
    for power in sorted(counts):
        due = counts[power]
        if due > 0:
            free = free_build_sites(board, power, units, centres)
            picks = [s for s in build_lists.get(power, ()) if s in free]
            picks = list(dict.fromkeys(picks))
            rest = sorted(s for s in free if s not in picks)
            rng.shuffle(rest)
            chosen = (picks + rest)[:due]
            orders[power] = [Build(RAT, s) for s in chosen]
        elif due < 0:
            mine = {u.province for u in units if u.power == power}
            listed = [s for s in removes.get(power, ()) if s in mine]
            orders[power] = [Disband(RAT, s) for s in list(dict.fromkeys(listed))[:-due]]
    if not orders:
        return units, {}, {}, {}, results
    before = Position(phase=position.phase, units=tuple(units), centers=centres)
    outcome = resolve_adjustments(board, before, orders)
    after = list(outcome.units_after)
    built = {
        p: [
            o.loc
            for o, r in zip(given, outcome.results.get(p, ()), strict=True)
            if isinstance(o, Build) and r.result == SUCCESS
        ]
        for p, given in orders.items()
    }
    built = {p: s for p, s in built.items() if s}
    unbuilt = {
        p: counts[p] - len(built.get(p, ())) for p in counts if counts[p] > len(built.get(p, ()))
    }
    removed: dict[str, list[str]] = {}
    for unit in outcome.disbanded:
        removed.setdefault(unit.power, []).append(unit.province)
    for power in orders:
        if power in build_lists:
            results[power] = OrderResult(
                SUCCESS, "built at " + ", ".join(s.upper() for s in built.get(power, ()))
            )
    return after, built, unbuilt, removed, results


def _turn(
    board: Map,
    position: Position,
    by_space: Mapping[str, tuple[str, int, UnitOrder]],
    meant: Mapping[str, Order],
    mismatch: Mapping[str, str],
    engine_results: Mapping[tuple[str, int], OrderResult],
    dislodged: Sequence[Dislodged],
    retreat_choice: Mapping[str, tuple[int, str]],
    retreat_results: Mapping[str, OrderResult],
    disbanded: Sequence[Unit],
    units_after: Sequence[Unit],
    built: dict[str, list[str]],
    unbuilt: dict[str, int],
    removed: dict[str, list[str]],
    published: dict[str, int] | None,
) -> Turn:
    """What each player's rats met, worked out from the whole turn (the GM's view) but kept
    per player to what the rules tell him."""
    from judge.variants.algernon.orders import order_text

    occupant = {u.province: u for u in position.units}
    result_of = {
        space: engine_results.get((power, index)) for space, (power, index, _) in by_space.items()
    }
    moved_ok = {
        space
        for space, order in meant.items()
        if isinstance(order, Move)
        and (r := result_of.get(space)) is not None
        and r.result == SUCCESS
    }
    attacks_into: dict[str, list[str]] = {}  # target -> spaces attacking it
    supports_into: dict[str, list[str]] = {}  # target -> spaces supporting into it
    for space, order in meant.items():
        if isinstance(order, Move):
            attacks_into.setdefault(order.dest, []).append(space)
        elif isinstance(order, Support):
            end = order.dest if order.dest is not None else order.target
            supports_into.setdefault(end, []).append(space)
    lost = {d.unit.province: d for d in dislodged}
    gone = {u.province for u in disbanded}
    encounters: dict[str, list[Encounter]] = {}
    master: list[str] = []

    def cut(space: str) -> bool:
        r = result_of.get(space)
        return r is not None and r.result == FAILURE

    for unit in sorted(position.units, key=lambda u: (u.power, u.province)):
        space, power = unit.province, unit.power
        entry = by_space.get(space)
        order = entry[2] if entry is not None else Stand(space)
        written = order_text(order)
        story = Encounter(space=space, order=written)
        move = meant.get(space, Hold(RAT, space))
        swap_partner: str | None = None
        if isinstance(move, Move) and space not in mismatch:
            target = move.dest
            there = occupant.get(target)
            other = meant.get(target)
            if there is not None and isinstance(other, Move) and other.dest == space:
                swap_partner = target
            if space in moved_ok:
                story.entered = (target, _portal_of(board, target, space))
            elif swap_partner is not None and there is not None:
                story.outcome = "B.S." if there.power == power else "Bounce"
                story.swap_with = there.power
            else:
                story.entered = (target, _portal_of(board, target, space))
                own_in_way = (there is not None and there.power == power) or any(
                    occupant[s].power == power for s in attacks_into.get(target, ()) if s != space
                )
                story.outcome = "B.S." if own_in_way else "Bounce"
            if story.swap_with is None:
                story.at_target = _notes_at(
                    board,
                    target,
                    power,
                    space,
                    occupant,
                    meant,
                    moved_ok,
                    attacks_into,
                    supports_into,
                    cut,
                )
        elif isinstance(move, Support) and space not in mismatch:
            story.cut = cut(space)
        elif space in mismatch and not isinstance(order, Stand):
            # The player reads what the GM's report says of his own order (docs/RULES.md,
            # Algernon): void, and why, in the words of his order; the rat held.
            story.outcome = f"void ({mismatch[space]}); held"
        if space not in moved_ok:
            skip = {swap_partner} if swap_partner is not None else set()
            story.at_home = _notes_into(
                board, space, power, occupant, meant, attacks_into, supports_into, cut, skip
            )
        if space in lost:
            story.dislodged = True
            choice = retreat_choice.get(space)
            if choice is None:
                story.destroyed = True
            else:
                portal, end = choice
                story.retreat = (portal, end, _portal_of(board, end, space))
                r = retreat_results.get(space)
                if r is None or r.result != SUCCESS or space in gone:
                    story.retreat_failed = True
                    story.destroyed = True
        encounters.setdefault(power, []).append(story)
        master.append(_master_line(board, power, story, move, result_of.get(space), mismatch))
    return Turn(
        board=board,
        phase=position.phase,
        encounters=encounters,
        built=built,
        unbuilt=unbuilt,
        removed=removed,
        centres=published,
        units_after=tuple(units_after),
        master_lines=master,
    )


def _portal_of(board: Map, space: str, neighbour: str) -> int:
    for number, target in board.provinces[space].portals.items():
        if target == neighbour:
            return number
    raise KeyError(f"{space} has no portal to {neighbour}")


def _notes_at(
    board: Map,
    target: str,
    power: str,
    attacker: str,
    occupant: Mapping[str, Unit],
    meant: Mapping[str, Order],
    moved_ok: set[str],
    attacks_into: Mapping[str, list[str]],
    supports_into: Mapping[str, list[str]],
    cut: Any,
) -> list[Note]:
    """Section II.D and E for an attack on `target`: what its rat did by its portals, and the
    other pieces attacking or supporting into it, each by the portal of `target` they use."""
    notes: list[Note] = []
    there = occupant.get(target)
    if there is not None and there.power != power and target not in moved_ok:
        order = meant.get(target, Hold(RAT, target))
        if isinstance(order, Move):
            notes.append(Note(there.power, "to", target, _portal_of(board, target, order.dest)))
        elif isinstance(order, Support):
            end = order.dest if order.dest is not None else order.target
            notes.append(Note(there.power, "s", target, _portal_of(board, target, end)))
        else:
            notes.append(Note(there.power, "h", target))
    for space in attacks_into.get(target, ()):
        if space == attacker or occupant[space].power == power:
            continue
        notes.append(Note(occupant[space].power, "a in", target, _portal_of(board, target, space)))
    for space in supports_into.get(target, ()):
        order = meant[space]
        assert isinstance(order, Support)
        if occupant[space].power == power or order.target == attacker:
            continue  # his own, or a support of his attack: none opposes him
        notes.append(
            Note(
                occupant[space].power, "s in", target, _portal_of(board, target, space), cut(space)
            )
        )
    return notes


def _notes_into(
    board: Map,
    space: str,
    power: str,
    occupant: Mapping[str, Unit],
    meant: Mapping[str, Order],
    attacks_into: Mapping[str, list[str]],
    supports_into: Mapping[str, list[str]],
    cut: Any,
    skip: set[str],
) -> list[Note]:
    """Section II.E for a rat that stayed in `space`: the attacks into it and the supports of
    those attacks, by the portal of `space` each comes through."""
    notes: list[Note] = []
    attackers = [s for s in attacks_into.get(space, ()) if occupant[s].power != power]
    for source in attackers:
        if source in skip:
            continue
        notes.append(Note(occupant[source].power, "a in", space, _portal_of(board, space, source)))
    for source in supports_into.get(space, ()):
        order = meant[source]
        assert isinstance(order, Support)
        if occupant[source].power == power or order.dest != space or order.target in skip:
            continue
        notes.append(
            Note(
                occupant[source].power, "s in", space, _portal_of(board, space, source), cut(source)
            )
        )
    return notes


def _master_line(
    board: Map,
    power: str,
    story: Encounter,
    move: Order,
    result: OrderResult | None,
    mismatch: Mapping[str, str],
) -> str:
    what = "holds"
    if isinstance(move, Move):
        what = f"-> {move.dest.upper()}"
    elif isinstance(move, Support):
        what = f"supports {move.target.upper()}" + (
            f" -> {move.dest.upper()}" if move.dest else " holding"
        )
    outcome = result.result if result is not None else "success"
    if story.space in mismatch:
        outcome = f"void ({mismatch[story.space]})"
    extra = ""
    if story.dislodged:
        extra = "; dislodged, " + (
            "destroyed"
            if story.destroyed
            else f"retreats -> {story.retreat[1].upper()}"
            if story.retreat
            else ""
        )
    return f"{power}: {story.order} ({what}) {outcome}{extra}"


def _learn(known: Knowledge, board: Map, space: str, story: Encounter) -> None:
    if story.entered is not None and story.swap_with is None:
        target, entry = story.entered
        known.learn_space(board, target)
        known.learn_link(space, _portal_of(board, space, target), target, entry)
    if story.swap_with is not None:
        known.learn_player(story.swap_with)
    for note in story.at_target + story.at_home:
        known.learn_player(note.initials)
    if story.retreat is not None:
        portal, end, entry = story.retreat
        known.learn_space(board, end)
        known.learn_link(space, portal, end, entry)


def _next_state(board: Map, position: Position, turn: Turn) -> dict[str, Any]:
    """The state after the turn: the seed, each player's knowledge grown by what his rats met
    (and, after a fall, the published counts), and the turn's reports."""
    from judge.variants.algernon.report import master_report, player_report, public_report

    state = dict(position.state)
    knowledge: dict[str, Any] = {}
    reports: dict[str, str] = {}
    for power in sorted(board.powers):
        known = knowledge_of(board, position.state, power)
        for story in turn.encounters.get(power, ()):
            _learn(known, board, story.space, story)
        for space in turn.built.get(power, ()):
            known.learn_space(board, space)
        if turn.centres is not None:
            # The counts name every player (rule 7), but a player has met only those his rats
            # met: `players` stays the met ones, and the press may reach the published ones too
            # (known_powers).
            known.centres = dict(turn.centres)
        knowledge[power] = known.as_json()
        reports[power] = player_report(turn, power, known)
    state["knowledge"] = knowledge
    state["reports"] = reports
    state["master_report"] = master_report(turn)
    state["public_report"] = public_report(turn)
    return state


def _results(
    orders: Mapping[str, Sequence[MazeOrder]],
    static: Mapping[tuple[str, int], OrderResult],
    engine_results: Mapping[tuple[str, int], OrderResult],
    build_results: Mapping[str, OrderResult],
    retreat_results: Mapping[str, OrderResult],
) -> dict[str, tuple[OrderResult, ...]]:
    """A result for every order given, in the order given (the GM's record and HISTORY)."""
    out: dict[str, tuple[OrderResult, ...]] = {}
    for power, given in orders.items():
        lines = []
        for index, order in enumerate(given):
            key = (power, index)
            if key in static:
                lines.append(static[key])
            elif key in engine_results:
                lines.append(engine_results[key])
            elif isinstance(order, BuildList):
                lines.append(build_results.get(power, OrderResult(VOID, "no builds due")))
            elif isinstance(order, RetreatList):
                lines.append(retreat_results.get(order.space, OrderResult(VOID, "not dislodged")))
            else:
                lines.append(OrderResult(SUCCESS))
        out[power] = tuple(lines)
    return out
