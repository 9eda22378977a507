"""One 1885 move: the standard orders, the Fast Ferry, and Davis's army/fleets (the Army/Fleet
Rules Module, 1984 revision, sections I to III), adjudicated by the standard resolver.

How a move is read (docs/RULES.md, "1885"):
- An army boards at the start of the move (II a, III f): it leaves its coastal province for its
  own power's fleet in a sea next to it, and the fleet carries it as an army/fleet. The boarding
  fails when the fleet supports or ferries (III c, III a), and when the fleet is attacked by
  another power's unit and stays in its sea ("defends" it, III c and its clarification): then
  the army never left its province.
- An army/fleet is a fleet to the resolver (III a): its strength, supports and moves are a
  fleet's; it moves only to seas and never convoys.
- An army aboard lands (disembarks) by an ordinary army move from a landing space beside the sea
  it lands from (judge.variants.aboard): after its army/fleet's move (``A/F GoL - WMed`` and
  ``A disembarks Tun``, II a) or before the fleet's own move (``F GoL - WMed`` or ``F GoL S A
  GoL - Mar`` beside it, III g). A landing after the move happens only where the army/fleet got
  there (III b). A landing first fails when a unit of another power takes the sea it left from
  with a supported move (IV d, IV e; unsupported, IV f, it does not); then the army stays aboard
  and goes with the fleet's move to a sea (IV e), or, the fleet staying, is dislodged with it.
  A landing first that bounces keeps the fleet in its sea (III d).
- The Fast Ferry (rule 7, I) is the standard convoy by one fleet across one sea. An army of the
  fleet's power is aboard from the start (a ferry space): if it does not land it stays aboard
  as an army/fleet (I b), dislodged with its fleet if the fleet is; an army of another power
  goes by the standard convoy and stays where it began (I b).

Those decisions (a boarding, the arrival of an army/fleet whose army lands after its move, a
landing first disrupted, its fleet kept in place) depend on the move's outcome, which depends on
them: each is guessed, the move resolved for every guess, and the guesses that come out as
guessed are the move's outcome. Where none does, or several do, it is a paradox (III h): every
unit whose fate depends on the guess holds, and the move is resolved again.

Pure: the engine and the standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from judge.engine.geography import Map, Terrain
from judge.engine.orders import Convoy, Hold, Move, Support
from judge.engine.position import Dislodged, Position, Unit, province_of
from judge.engine.resolve import MovementOutcome, resolve_movement
from judge.engine.results import FAILURE, ILLEGAL, SUCCESS, VOID, OrderResult
from judge.engine.rules import Rules
from judge.engine.topology import topology
from judge.variants.aboard import ferry_space, is_aboard_space, landing_space, with_spaces
from judge.variants.v1885.orders import Board, ChooseUnit, Disembark

ARMY, FLEET, ARMY_FLEET = "A", "F", "AF"
Key = tuple[str, int]
_TAG = "\x00"  # units go through the resolver tagged with the province they began in
# Decisions guessed together at most (2**12 resolutions); any beyond (a dozen army/fleets at work
# in one move) are taken as made: a boarding stands, an army/fleet arrives, nothing disrupted.
_MOST_GUESSES = 12
PARADOX = "a paradox: every unit involved holds (A/F module III h)"
_KIND_WORDS = {ARMY: "an army", FLEET: "a fleet", ARMY_FLEET: "an army/fleet"}


@dataclass(slots=True)
class MoveOutcome:
    """A move adjudicated: each order's result, the board after, the dislodged units (with the
    province each faces for the right-hand rule, in `facing`), stand-offs, armies lost."""

    results: dict[Key, OrderResult]
    units_after: list[Unit]
    dislodged: list[Dislodged]
    contested: frozenset[str]
    facing: dict[str, str] = field(default_factory=dict)  # dislodged province -> attack's side
    carried: dict[str, str] = field(default_factory=dict)  # A/F's new province -> where it began
    chosen: dict[str, str] = field(default_factory=dict)  # Rome's unit chosen: province -> kind


@dataclass(slots=True)
class _Boarding:
    key: Key
    power: str
    land: str
    sea: str
    guessed: bool = False  # the fleet's sea may be attacked: the outcome is guessed


@dataclass(slots=True)
class _Landing:
    key: Key
    power: str
    carrier: str  # the province the carrying fleet began the move in
    dest: str
    first: bool  # before the fleet's own move (III g), else after the army/fleet's move
    from_sea: str = ""  # where the army lands from
    boarding: _Boarding | None = None
    fleet_move: Move | None = None  # the fleet's move, where it has one


@dataclass(slots=True)
class _Ferry:
    """A Fast Ferry of an army of the fleet's power: aboard from the start (I b)."""

    key: Key  # the army's move
    power: str
    home: str
    sea: str
    dest: str


@dataclass(slots=True)
class _Plan:
    """The move as the resolver is given it for one set of guesses, and what it gave back."""

    guess: dict[str, bool]
    outcome: MovementOutcome
    keys: dict[str, list[Key]]  # per power, the original key of each order given
    orders: dict[str, list[Any]]
    derived: dict[str, bool] = field(default_factory=dict)
    fates: dict[str, tuple[Any, ...]] = field(default_factory=dict)

    @property
    def consistent(self) -> bool:
        return all(self.derived[name] == value for name, value in self.guess.items())


class _Move:
    def __init__(
        self,
        game_map: Map,
        position: Position,
        orders: Mapping[str, Sequence[Any]],
        rules: Rules,
        choosable: Mapping[str, str],
    ) -> None:
        self.map = game_map
        self.topo = topology(game_map)
        self.position = position
        self.rules = rules
        self.first_move = not position.state.get("months")
        self.choosable = choosable
        self.results: dict[Key, OrderResult] = {}
        self.chosen: dict[str, str] = {}
        self.board: dict[str, Unit] = {u.province: u for u in position.units}
        # Each unit's order (the fleet part for an army/fleet), a boarding, a landing.
        self.unit_order: dict[str, tuple[Key, Any]] = {}
        self.boardings: dict[str, _Boarding] = {}  # by the army's province
        self.landings: dict[str, _Landing] = {}  # by the carrier's province
        self.ferries: dict[str, _Ferry] = {}  # by the army's province
        self.forced: set[str] = set()  # provinces whose units hold (a paradox, III h)
        self.orders = orders

    # --- reading the orders ------------------------------------------------------------------
    def mark(self, key: Key, result: str, reason: str = "") -> None:
        self.results[key] = OrderResult(result, reason)

    def chosen_before(self) -> None:
        """Rule 3's choice given as the position's own (a case's `state.chosen`, province ->
        "A" or "F") rather than as an order: made before the first move's orders are read."""
        if not self.first_move:
            return
        for prov, kind in dict(self.position.state.get("chosen", {})).items():
            unit = self.board.get(prov)
            if (
                unit is not None
                and self.choosable.get(prov) == unit.power
                and kind in (ARMY, FLEET)
                and (kind == ARMY or self.map.fleet_may_be_at(prov))
            ):
                self.board[prov] = Unit(unit.power, kind, prov)
                self.chosen[prov] = kind

    def read(self) -> None:
        self.chosen_before()
        landing_orders: list[tuple[Key, Disembark]] = []
        seen: dict[str, list[Key]] = {}
        for power, power_orders in self.orders.items():
            for index, order in enumerate(power_orders):
                key = (power, index)
                if isinstance(order, ChooseUnit):
                    self.choose(key, order)
                elif isinstance(order, Disembark):
                    landing_orders.append((key, order))
                elif isinstance(order, Board | Hold | Move | Support | Convoy):
                    loc = order.army_loc if isinstance(order, Board) else order.loc
                    prov = province_of(loc)
                    unit = self.board.get(prov)
                    if unit is None:
                        self.mark(key, VOID, f"no unit in {prov.upper()}")
                    elif unit.power != power:
                        self.mark(key, VOID, f"the unit in {prov.upper()} is not {power}'s")
                    else:
                        seen.setdefault(prov, []).append(key)
                        self.unit_order[prov] = (key, order)
                else:
                    self.mark(key, ILLEGAL, "not an order for a move")
        for prov, keys in seen.items():
            if len(keys) > 1:
                for key in keys:
                    self.mark(key, VOID, "several orders for one unit: it holds")
                del self.unit_order[prov]
        for _prov, (key, order) in list(self.unit_order.items()):
            if isinstance(order, Board):
                self.read_boarding(key, order)
        for prov, (key, order) in list(self.unit_order.items()):
            if key in self.results or prov in self.boardings:
                continue
            why = self.check_unit_order(prov, order)
            if why:
                self.mark(key, ILLEGAL, why)
                del self.unit_order[prov]
        taken: dict[str, list[tuple[Key, Disembark]]] = {}
        for key, order in landing_orders:
            carrier = self.carrier_of(key[0], province_of(order.army_loc))
            if carrier is None:
                self.mark(
                    key, VOID, f"no army of {key[0]}'s aboard a fleet at {order.army_loc.upper()}"
                )
            else:
                taken.setdefault(carrier, []).append((key, order))
        for carrier, wanted in taken.items():
            if len(wanted) > 1:
                for key, _order in wanted:
                    self.mark(key, VOID, "several landings for one army: it stays aboard")
                continue
            self.read_landing(carrier, *wanted[0])
        self.read_ferries()

    def choose(self, key: Key, order: ChooseUnit) -> None:
        """Rule 3: Italy's unit in Rome is an army or a fleet, chosen before the first move."""
        prov = province_of(order.loc)
        unit = self.board.get(prov)
        if self.choosable.get(prov) != key[0]:
            self.mark(key, ILLEGAL, f"{key[0]} has no unit to choose in {prov.upper()}")
        elif not self.first_move:
            self.mark(key, ILLEGAL, "the unit is chosen before the first move only (rule 3)")
        elif unit is None or unit.power != key[0]:
            self.mark(key, VOID, f"no unit of {key[0]}'s in {prov.upper()}")
        elif order.unit_type == FLEET and not self.map.fleet_may_be_at(prov):
            self.mark(key, ILLEGAL, f"a fleet cannot stand in {prov.upper()}")
        else:
            self.board[prov] = Unit(unit.power, order.unit_type, prov)
            self.chosen[prov] = order.unit_type
            self.mark(key, SUCCESS, f"revealed: {_KIND_WORDS[order.unit_type]}")

    def read_boarding(self, key: Key, order: Board) -> None:
        land, sea = province_of(order.army_loc), province_of(order.fleet_loc)
        army, fleet = self.board[land], self.board.get(sea)
        fleet_order = self.unit_order.get(sea)
        why, result = "", ILLEGAL
        if army.kind != ARMY:
            why = f"the unit in {land.upper()} is {_KIND_WORDS[army.kind]}, not an army"
        elif fleet is None or fleet.kind == ARMY:
            why, result = f"no fleet in {sea.upper()}", VOID
        elif fleet.power != army.power:
            why = (
                f"an army/fleet is of one power only (A/F module II a): the fleet in "
                f"{sea.upper()} is {fleet.power.title()}'s"
            )
        elif fleet.kind == ARMY_FLEET:
            why = (
                f"the fleet in {sea.upper()} has an army aboard: a fleet cannot land one army "
                "and take another in one move (III f)"
            )
        elif self.map.provinces[sea].terrain is not Terrain.SEA:
            why = f"an army boards a fleet at sea, and {sea.upper()} is not a sea (II a)"
        elif land not in self.topo.fleet_reach.get(sea, ()):
            why = f"{land.upper()} is not on the coast of {sea.upper()}"
        elif fleet_order is not None and isinstance(fleet_order[1], Support):
            why, result = "the fleet supports another unit: the army cannot board (III c)", FAILURE
        elif fleet_order is not None and isinstance(fleet_order[1], Convoy):
            why, result = "the fleet ferries another army: it has no room (III a)", FAILURE
        if why:
            self.mark(key, result, why)
            del self.unit_order[land]
            return
        rivals = [b for b in self.boardings.values() if b.sea == sea]
        if rivals:
            reason = f"two armies tried to board the fleet in {sea.upper()}"
            self.mark(key, FAILURE, reason)
            del self.unit_order[land]
            for rival in rivals:
                self.mark(rival.key, FAILURE, reason)
                del self.boardings[rival.land]
            return
        self.boardings[land] = _Boarding(key, army.power, land, sea)
        del self.unit_order[land]

    def check_unit_order(self, prov: str, order: Any) -> str | None:
        unit = self.board[prov]
        boarded = any(b.sea == prov for b in self.boardings.values())
        carrying = unit.kind == ARMY_FLEET or boarded
        if isinstance(order, Convoy):
            if carrying:
                return "an army/fleet cannot convoy: its transports are full (III a)"
            if unit.kind != FLEET or self.map.provinces[prov].terrain is not Terrain.SEA:
                return "only a fleet at sea can convoy"
            army, dest = province_of(order.army_loc), province_of(order.dest)
            reach = self.topo.fleet_reach.get(prov, ())
            if army not in reach or dest not in reach:
                return (
                    f"the Fast Ferry crosses one sea only (rule 7): the fleet in {prov.upper()} "
                    f"cannot carry an army from {army.upper()} to {dest.upper()} by itself"
                )
            return None
        if not isinstance(order, Move):
            return None
        dest = province_of(order.dest)
        if dest not in self.map.provinces:
            return None  # the resolver says what is wrong
        at_sea = self.map.provinces[dest].terrain is Terrain.SEA
        if carrying and not at_sea:
            lands_first = unit.kind == ARMY_FLEET and any(
                isinstance(o, Disembark) and province_of(o.army_loc) == prov
                for o in self.orders.get(unit.power, ())
            )
            if not lands_first:
                return (
                    f"an army/fleet stays at sea (III a): it cannot enter {dest.upper()}; "
                    f"land its army with 'A {prov.upper()} disembarks {dest.upper()}'"
                )
        if (
            unit.kind == ARMY
            and self.map.army_may_be_at(dest)
            and (dest not in self.map.army_edges.get(prov, ()) or order.via_convoy)
        ):
            near, there = self._seas_touching(prov), self._seas_touching(dest)
            if near and there and not near & there:
                return (
                    f"no single sea lies between {prov.upper()} and {dest.upper()}: an army "
                    "crosses more than one sea only aboard an army/fleet (rule 8)"
                )
        return None

    def _seas_touching(self, prov: str) -> frozenset[str]:
        return frozenset(s for s in self.topo.fleet_reach.get(prov, ()) if s in self.topo.seas)

    def carrier_of(self, power: str, named: str) -> str | None:
        """The province the fleet carrying `power`'s army named `named` began the move in: an
        army/fleet there, a fleet an army boards there, the land of a boarding army, or the sea
        an army/fleet (or a boarded fleet) moves to."""
        unit = self.board.get(named)
        if unit is not None and unit.kind == ARMY_FLEET and unit.power == power:
            return named
        for boarding in self.boardings.values():
            if boarding.power == power and named in (boarding.sea, boarding.land):
                return boarding.sea
        for prov, (_key, order) in self.unit_order.items():
            unit = self.board[prov]
            carrying = unit.kind == ARMY_FLEET or any(
                b.sea == prov for b in self.boardings.values()
            )
            if (
                carrying
                and unit.power == power
                and isinstance(order, Move)
                and province_of(order.dest) == named
            ):
                return prov
        return None

    def read_landing(self, carrier: str, key: Key, order: Disembark) -> None:
        dest = province_of(order.dest)
        boarding = next((b for b in self.boardings.values() if b.sea == carrier), None)
        fleet_order = self.unit_order.get(carrier)
        move = fleet_order[1] if fleet_order and isinstance(fleet_order[1], Move) else None
        to_sea = (
            move is not None and self.map.provinces[province_of(move.dest)].terrain is Terrain.SEA
        )
        if boarding is not None:
            first = False
        elif move is None or not to_sea:
            first = True
        elif move.unit_type == ARMY_FLEET:
            first = False
        elif move.unit_type == FLEET:
            first = True
        else:
            first = not (to_sea and dest in self.topo.fleet_reach.get(province_of(move.dest), ()))
        from_sea = carrier if first or not to_sea else province_of(move.dest)  # type: ignore[union-attr]
        if not self.map.army_may_be_at(dest) or self.map.provinces[dest].terrain is Terrain.SEA:
            self.mark(key, ILLEGAL, f"an army cannot land in {dest.upper()}")
            return
        if dest not in self.topo.fleet_reach.get(from_sea, ()):
            self.mark(
                key, ILLEGAL, f"an army aboard in {from_sea.upper()} cannot land in {dest.upper()}"
            )
            return
        landing = _Landing(key, key[0], carrier, dest, first, from_sea, boarding, move)
        if first and fleet_order is not None:
            fkey, forder = fleet_order
            if isinstance(forder, Support) and not (
                province_of(forder.target) in (carrier, dest)
                and forder.dest is not None
                and province_of(forder.dest) == dest
            ):
                self.mark(
                    fkey,
                    ILLEGAL,
                    "a fleet that lands its army may support that army only (III g)",
                )
                del self.unit_order[carrier]
        if not first and move is not None and not to_sea:
            landing.fleet_move = None
        self.landings[carrier] = landing

    def read_ferries(self) -> None:
        """Armies ferried by a fleet of their own power: aboard from the start (I b)."""
        convoys: dict[tuple[str, str], list[tuple[str, Key]]] = {}
        for prov, (key, order) in self.unit_order.items():
            if isinstance(order, Convoy):
                pair = (province_of(order.army_loc), province_of(order.dest))
                convoys.setdefault(pair, []).append((prov, key))
        for prov, (key, order) in list(self.unit_order.items()):
            unit = self.board[prov]
            if unit.kind != ARMY or not isinstance(order, Move):
                continue
            dest = province_of(order.dest)
            fleets = convoys.get((prov, dest), [])
            own = [(sea, k) for sea, k in fleets if self.board[sea].power == unit.power]
            if not own:
                continue
            sea = own[0][0]
            self.ferries[prov] = _Ferry(key, unit.power, prov, sea, dest)
            for other, okey in fleets:
                if other != sea:
                    self.mark(
                        okey,
                        VOID,
                        f"the army sails aboard its own power's fleet in {sea.upper()}",
                    )
                    del self.unit_order[other]

    # --- the guesses -------------------------------------------------------------------------
    def attack_ordered(self, prov: str, power: str) -> bool:
        """Whether a unit of another power than `power` is ordered to move into `prov`."""
        for origin, (_key, order) in self.unit_order.items():
            if (
                origin not in self.forced
                and isinstance(order, Move)
                and province_of(order.dest) == prov
                and self.board[origin].power != power
            ):
                return True
        return False

    def guesses(self) -> list[str]:
        names = []
        for boarding in self.boardings.values():
            if boarding.land in self.forced or boarding.sea in self.forced:
                continue
            boarding.guessed = self.attack_ordered(boarding.sea, boarding.power)
            if boarding.guessed:
                names.append(f"board {boarding.land}")
        for landing in self.landings.values():
            if landing.key in self.results or landing.carrier in self.forced:
                continue
            if landing.first:
                if self.attack_ordered(landing.carrier, landing.power):
                    names.append(f"disrupt {landing.carrier}")
                if landing.fleet_move is not None and landing.carrier in self.unit_order:
                    names.append(f"keep {landing.carrier}")
            elif landing.fleet_move is not None and landing.carrier in self.unit_order:
                names.append(f"arrive {landing.carrier}")
        return names

    # --- one resolution ----------------------------------------------------------------------
    def plan(self, guess: dict[str, bool]) -> _Plan:
        """The move for one set of guesses, resolved, with what each guess comes to."""
        units: list[Unit] = []
        orders: dict[str, list[Any]] = {}
        keys: dict[str, list[Key]] = {}
        aliases: dict[str, str] = {}  # a ferried or landing army's names -> its space

        def give(power: str, key: Key, order: Any) -> None:
            orders.setdefault(power, []).append(order)
            keys.setdefault(power, []).append(key)

        boarded = {
            b.land: b
            for b in self.boardings.values()
            if b.land not in self.forced
            and b.sea not in self.forced
            and (not b.guessed or guess.get(f"board {b.land}", True))
        }
        landings: dict[str, _Landing] = {}
        for carrier, landing in self.landings.items():
            if landing.key in self.results or carrier in self.forced:
                continue
            if landing.boarding is not None and landing.boarding.land not in boarded:
                continue
            if landing.first and guess.get(f"disrupt {carrier}", False):
                continue
            if not landing.first and not guess.get(f"arrive {carrier}", True):
                continue
            landings[carrier] = landing
        for prov, unit in self.board.items():
            if prov in boarded:
                continue  # aboard its fleet from the start of the move
            ferry = self.ferries.get(prov)
            if ferry is not None and prov not in self.forced:
                space = ferry_space(ferry.sea)
                units.append(Unit(unit.power, ARMY, space, _TAG + prov))
                aliases[prov] = space
                continue
            kind = FLEET if unit.kind == ARMY_FLEET else unit.kind
            units.append(Unit(unit.power, kind, unit.loc, _TAG + prov))
        for carrier, landing in landings.items():
            space = landing_space(carrier)
            units.append(Unit(landing.power, ARMY, space, _TAG + space))
            for name in (carrier, landing.from_sea):
                aliases.setdefault(name, space)
            if landing.boarding is not None:
                aliases[landing.boarding.land] = space
            give(landing.power, landing.key, Move(None, space, landing.dest, False))
        for prov, (key, order) in self.unit_order.items():
            unit = self.board[prov]
            if prov in self.forced:
                give(unit.power, key, Hold(None, prov))
                continue
            carrying = self.landings.get(prov)
            if (
                carrying is not None
                and carrying.first
                and isinstance(order, Move)
                and not guess.get(f"keep {prov}", True)
            ):
                give(unit.power, key, Hold(None, prov))
                continue
            if isinstance(order, Support) and carrying is not None and prov not in landings:
                give(unit.power, key, Hold(None, prov))  # its army did not land: nothing to support
                continue
            ferry = self.ferries.get(prov)
            if ferry is not None:
                give(unit.power, key, Move(None, aliases[prov], ferry.dest, True))
                continue
            give(unit.power, key, _untyped(order, aliases))
        game_map = with_spaces(
            self.map,
            {f.sea for p, f in self.ferries.items() if p not in self.forced},
            {(c, lnd.from_sea) for c, lnd in landings.items()},
        )
        position = Position(
            phase="", units=tuple(units), civil_disorder=self.position.civil_disorder
        )
        outcome = resolve_movement(game_map, position, orders, self.rules)
        plan = _Plan(guess, outcome, keys, orders)
        self.derive(plan, boarded, landings)
        return plan

    def result_of(self, plan: _Plan, key: Key) -> OrderResult | None:
        power_keys = plan.keys.get(key[0], [])
        for i, k in enumerate(power_keys):
            if k == key:
                return plan.outcome.results[key[0]][i]
        return None

    def derive(
        self, plan: _Plan, boarded: Mapping[str, _Boarding], landings: Mapping[str, _Landing]
    ) -> None:
        """What each guess comes to in the plan's outcome, and each unit's fate."""
        where: dict[str, str] = {}  # origin -> province after
        fallen: dict[str, Dislodged] = {}
        for unit in plan.outcome.units_after:
            where[(unit.army_power or "")[1:]] = unit.province
        for d in plan.outcome.dislodged:
            fallen[(d.unit.army_power or "")[1:]] = d
        entered: dict[str, str] = {}  # province -> origin of the unit that moved in
        for origin, prov in where.items():
            if prov != origin:
                entered[prov] = origin
        for name in plan.guess:
            verb, prov = name.split(" ", 1)
            if verb == "board":
                boarding = self.boardings[prov]
                stayed = where.get(boarding.sea) == boarding.sea or boarding.sea in fallen
                plan.derived[name] = not (
                    stayed and self.attacked(plan, boarding.sea, boarding.power)
                )
            elif verb == "arrive":
                move = self.landings[prov].fleet_move
                assert move is not None
                plan.derived[name] = where.get(prov) == province_of(move.dest)
            elif verb == "disrupt":
                plan.derived[name] = self.supported_entry(plan, prov, entered)
            elif verb == "keep":
                landing = self.landings[prov]
                landed = (
                    prov in landings
                    and (res := self.result_of(plan, landing.key)) is not None
                    and res.result == SUCCESS
                )
                disrupted = self.supported_entry(plan, prov, entered)
                move = landing.fleet_move
                to_sea = (
                    move is not None
                    and self.map.provinces[province_of(move.dest)].terrain is Terrain.SEA
                )
                plan.derived[name] = landed or (disrupted and to_sea)
        for origin in self.board:
            result = None
            if origin in self.unit_order:
                result = self.result_of(plan, self.unit_order[origin][0])
            fell = fallen.get(origin)
            plan.fates[origin] = (
                where.get(origin),
                fell.attacker_from if fell else None,
                result.result if result else None,
                origin in boarded,
            )
        for carrier, landing in self.landings.items():
            res = self.result_of(plan, landing.key) if carrier in landings else None
            plan.fates["~>" + carrier] = (res.result if res else None,)

    def attacked(self, plan: _Plan, sea: str, power: str) -> bool:
        for origin, (key, order) in self.unit_order.items():
            if (
                isinstance(order, Move)
                and province_of(order.dest) == sea
                and self.board[origin].power != power
                and origin not in self.forced
            ):
                res = self.result_of(plan, key)
                if res is not None and res.result not in (ILLEGAL, VOID):
                    return True
        return False

    def supported_entry(self, plan: _Plan, prov: str, entered: Mapping[str, str]) -> bool:
        """Whether a unit of another power took `prov` by a move with support (IV d, e, f)."""
        origin = entered.get(prov)
        if origin is None or origin not in self.board:
            return False
        mover = self.board[origin]
        owner = self.board[prov].power
        if mover.power == owner:
            return False
        for power, given in plan.orders.items():
            if power == owner:
                continue
            for i, order in enumerate(given):
                if (
                    isinstance(order, Support)
                    and order.dest is not None
                    and province_of(order.dest) == prov
                    and province_of(order.target) in (origin, ferry_space(origin))
                    and plan.outcome.results[power][i].result == SUCCESS
                ):
                    return True
        return False

    # --- the move ----------------------------------------------------------------------------
    def solve(self) -> _Plan:
        while True:
            names = self.guesses()
            if len(names) > _MOST_GUESSES:
                names = names[:_MOST_GUESSES]
            plans = [
                self.plan(dict(zip(names, values, strict=True)))
                for values in product((False, True), repeat=len(names))
            ]
            candidates = plans
            pinned = True
            while pinned and len(candidates) > 1:
                pinned = False
                for name in names:
                    values = {p.derived[name] for p in candidates}
                    if len(values) == 1:
                        value = values.pop()
                        narrowed = [p for p in candidates if p.guess[name] == value]
                        if narrowed and len(narrowed) < len(candidates):
                            candidates, pinned = narrowed, True
            consistent = [p for p in candidates if p.consistent]
            if len(consistent) == 1:
                return consistent[0]
            pool = consistent if len(consistent) > 1 else candidates
            involved = {
                origin for origin in self.board if len({p.fates.get(origin) for p in pool}) > 1
            }
            unsettled = [n for n in names if len({p.guess[n] for p in pool}) > 1]
            involved |= {n.split(" ", 1)[1] for n in unsettled}
            involved |= {b.land for b in self.boardings.values() if b.sea in involved}
            involved -= self.forced
            if not involved:
                return pool[0]
            self.forced |= involved

    def run(self) -> MoveOutcome:
        self.read()
        plan = self.solve()
        return self.assemble(plan)

    def assemble(self, plan: _Plan) -> MoveOutcome:
        outcome = plan.outcome
        results = self.results
        for power, power_keys in plan.keys.items():
            for key, res in zip(power_keys, outcome.results[power], strict=True):
                if key not in results:
                    results[key] = self.named(res)
        for origin in self.forced:
            if origin in self.unit_order:
                results[self.unit_order[origin][0]] = OrderResult(FAILURE, PARADOX)
        boarded = {
            b.land: b
            for b in self.boardings.values()
            if b.land not in self.forced
            and b.sea not in self.forced
            and (not b.guessed or plan.guess.get(f"board {b.land}", True))
        }
        for boarding in self.boardings.values():
            if boarding.land in boarded:
                results[boarding.key] = OrderResult(SUCCESS)
            elif boarding.land in self.forced or boarding.sea in self.forced:
                results[boarding.key] = OrderResult(FAILURE, PARADOX)
            else:
                results[boarding.key] = OrderResult(
                    FAILURE,
                    f"the fleet in {boarding.sea.upper()} was attacked and stayed to defend "
                    "its sea: the army did not board (III c)",
                )
        # Where each unit is after the move, by the province it began in.
        after: dict[str, Unit] = {}
        fallen: dict[str, Dislodged] = {}
        for unit in outcome.units_after:
            tag = (unit.army_power or "")[1:]
            after[tag] = unit
        for d in outcome.dislodged:
            fallen[(d.unit.army_power or "")[1:]] = d
        landed: dict[str, str] = {}  # carrier -> where its army landed
        for carrier, landing in self.landings.items():
            key = landing.key
            if key in results and carrier not in self.forced and not _from_plan(plan, key):
                continue  # refused when read
            if carrier in self.forced:
                results[key] = OrderResult(FAILURE, PARADOX)
                continue
            if landing.boarding is not None and landing.boarding.land not in boarded:
                results[key] = OrderResult(FAILURE, "the army never got aboard")
                continue
            if landing.first and plan.guess.get(f"disrupt {carrier}", False):
                results[key] = OrderResult(
                    FAILURE,
                    f"{carrier.upper()} was taken by a supported attack: the landing was "
                    "disrupted and the army stays aboard (IV d, e)",
                )
                fleet = self.unit_order.get(carrier)
                if fleet is not None and isinstance(fleet[1], Support):
                    results[fleet[0]] = OrderResult(FAILURE, "its army did not land (IV d)")
                elif (
                    fleet is not None
                    and landing.fleet_move is not None
                    and not plan.guess.get(f"keep {carrier}", True)
                ):
                    dest = province_of(landing.fleet_move.dest).upper()
                    results[fleet[0]] = OrderResult(
                        FAILURE,
                        f"with its army still aboard the army/fleet cannot enter {dest}: it "
                        "stayed in its sea (IV e)",
                    )
                continue
            if not landing.first and not plan.guess.get(f"arrive {carrier}", True):
                move = landing.fleet_move
                assert move is not None
                results[key] = OrderResult(
                    FAILURE,
                    f"the army/fleet did not reach {province_of(move.dest).upper()}: the army "
                    "stays aboard (III b)",
                )
                continue
            got = results.get(key)
            if got is not None and got.result == SUCCESS:
                landed[carrier] = landing.dest
            if (
                landing.first
                and landing.fleet_move is not None
                and not plan.guess.get(f"keep {carrier}", True)
            ):
                fkey = self.unit_order[carrier][0]
                results[fkey] = OrderResult(
                    FAILURE,
                    "the landing failed: the fleet stays to take its army back aboard (III d)",
                )
        units: list[Unit] = []
        carried: dict[str, str] = {}
        for origin, start in self.board.items():
            moved = after.get(origin)
            if moved is None:
                continue  # dislodged, or aboard (a boarding army, a ferried army)
            unit = moved
            if origin in boarded:
                continue
            prov = unit.province
            if start.kind == ARMY and origin in self.ferries and prov.startswith("~"):
                continue  # the ferried army did not land: aboard its fleet (below)
            if start.kind == ARMY:
                units.append(Unit(start.power, ARMY, unit.loc))
                continue
            aboard = start.kind == ARMY_FLEET or any(b.sea == origin for b in boarded.values())
            if origin in landed:
                aboard = False
            ferried = [
                f
                for p, f in self.ferries.items()
                if f.sea == origin and p not in self.forced and _stranded(after, p)
            ]
            if ferried and not aboard:
                aboard = True
            if aboard:
                units.append(Unit(start.power, ARMY_FLEET, unit.loc))
                if start.kind == ARMY_FLEET:
                    carried[prov] = origin
            else:
                units.append(Unit(start.power, FLEET, unit.loc))
        for carrier, dest in landed.items():
            units.append(Unit(self.landings[carrier].power, ARMY, dest))
        dislodged: list[Dislodged] = []
        facing: dict[str, str] = {}
        occupied = {u.province for u in units}
        contested = frozenset(p for p in outcome.contested if not p.startswith("~"))
        for origin, d in fallen.items():
            began = self.board.get(origin)
            if began is None:
                continue
            start = began
            kind = FLEET if start.kind == ARMY_FLEET else start.kind
            if start.kind != ARMY:
                aboard = start.kind == ARMY_FLEET and origin not in landed
                if any(f.sea == origin and _stranded(after, p) for p, f in self.ferries.items()):
                    aboard = True
                if aboard:
                    kind = ARMY_FLEET
            unit = Unit(start.power, kind, start.loc)
            attacker, convoyed, side = self.attacker(plan, d)
            dislodged.append(Dislodged(unit, attacker, convoyed, (), 0))
            facing[start.province] = side
            if kind == ARMY_FLEET and start.kind == ARMY_FLEET:
                carried[start.province] = origin
        return MoveOutcome(
            results=results,
            units_after=units,
            dislodged=[self.with_retreats(d, occupied, contested) for d in dislodged],
            contested=contested,
            facing=facing,
            carried=carried,
            chosen=dict(self.chosen),
        )

    def named(self, result: OrderResult) -> OrderResult:
        """The result with an army aboard named as players name it, not by its space."""
        reason = result.reason
        if "~" not in reason:
            return result

        def landing(match: re.Match[str]) -> str:
            found = self.landings.get(match.group(1).lower())
            return (found.from_sea if found else match.group(1)).upper()

        def ferry(match: re.Match[str]) -> str:
            sea = match.group(1).lower()
            home = next((p for p, f in self.ferries.items() if f.sea == sea), sea)
            return home.upper()

        reason = re.sub(r"~>([A-Za-z0-9]+)", landing, reason)
        reason = re.sub(r"~([A-Za-z0-9]+)", ferry, reason)
        return OrderResult(result.result, reason, result.time_scale)

    def attacker(self, plan: _Plan, d: Dislodged) -> tuple[str | None, bool, str]:
        """Where the dislodging unit came from (as the retreat rules read it), whether it was
        convoyed, and the side of the province the attack came from (the right-hand rule)."""
        origin = d.attacker_from
        if origin is None:
            return None, False, ""
        if origin.startswith("~>"):
            landing = self.landings[origin[2:]]
            return landing.from_sea, False, landing.from_sea
        if origin.startswith("~"):
            sea = origin[1:]
            home = next(p for p, f in self.ferries.items() if f.sea == sea)
            return home, True, sea
        if d.attacker_convoyed:
            mover = self.unit_order.get(origin)
            dest = province_of(mover[1].dest) if mover else d.unit.province
            for prov, (key, order) in self.unit_order.items():
                if (
                    isinstance(order, Convoy)
                    and province_of(order.army_loc) == origin
                    and province_of(order.dest) == dest
                ):
                    res = self.result_of(plan, key)
                    if res is not None and res.result == SUCCESS:
                        return origin, True, prov
        return origin, d.attacker_convoyed, origin

    def with_retreats(
        self, d: Dislodged, occupied: set[str], contested: frozenset[str]
    ) -> Dislodged:
        return Dislodged(
            d.unit,
            d.attacker_from,
            d.attacker_convoyed,
            retreat_places(self.map, d, occupied, contested),
            0,
        )


def retreat_places(
    game_map: Map, d: Dislodged, occupied: Iterable[str], contested: Iterable[str]
) -> tuple[str, ...]:
    """Where a dislodged unit may retreat: the standard places (empty, not stood off, not whence
    the attack came unless it came by convoy); an army/fleet to a sea if any is open, else only
    to a coast, where its fleet alone survives (A/F module IV a, d)."""
    from judge.engine.resolve import retreat_options

    unit = d.unit
    as_unit = Unit(unit.power, FLEET if unit.kind == ARMY_FLEET else unit.kind, unit.loc)
    options = retreat_options(
        game_map,
        as_unit,
        set(occupied),
        frozenset(contested),
        d.attacker_from,
        d.attacker_convoyed,
    )
    if unit.kind != ARMY_FLEET:
        return options
    seas = tuple(o for o in options if game_map.provinces[province_of(o)].terrain is Terrain.SEA)
    return seas or options


def _from_plan(plan: _Plan, key: Key) -> bool:
    return key in plan.keys.get(key[0], [])


def _stranded(after: Mapping[str, Unit], army_origin: str) -> bool:
    """A ferried army that did not land: still in its ferry space after the move."""
    unit = after.get(army_origin)
    return unit is not None and is_aboard_space(unit.province)


def _untyped(order: Any, aliases: Mapping[str, str]) -> Any:
    """The order as the resolver takes it (types were checked already; a support of an army
    aboard, named where it began or where it lands from, goes to its space)."""
    if isinstance(order, Hold):
        return Hold(None, order.loc)
    if isinstance(order, Move):
        return Move(None, order.loc, order.dest, order.via_convoy)
    if isinstance(order, Support):
        target = aliases.get(province_of(order.target), order.target)
        return Support(None, order.loc, None, target, order.dest)
    assert isinstance(order, Convoy)
    army = aliases.get(province_of(order.army_loc), order.army_loc)
    return Convoy(None, order.loc, army, order.dest)


def resolve_move(
    game_map: Map,
    position: Position,
    orders: Mapping[str, Sequence[Any]],
    rules: Rules,
    choosable: Mapping[str, str] | None = None,
) -> MoveOutcome:
    """Adjudicate one 1885 move; `choosable` names the starting units whose kind a power
    chooses before the first move (Italy's Rome, rule 3): province -> power."""
    return _Move(game_map, position, orders, rules, choosable or {}).run()
