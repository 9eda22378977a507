"""The movement resolver: the DATC's decisions solved by guess and check, with a paradox rule.

Every unit gets one effective order (hold when it has none or its order could not stand).
Moves, supports and convoys are decisions; `_Resolver.resolve` finds a consistent outcome,
guessing through circular dependencies and applying the backup rule (circular movement
succeeds; in a convoy paradox the convoys in the cycle fail, the Szykman rule) when a cycle has
no single solution.

A variant may break ties (Mercenary's bids, rule 6): `resolve_movement` then takes a weight per
order, and where an attack meets an equal strength the heavier side wins (equal weights stand
off as usual); the outcome names the orders that met an equal opposing force. Without weights
(every standard game) no comparison changes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from judge.engine.geography import Map
from judge.engine.orders import ARMY, FLEET, Convoy, Hold, Move, Order, Support
from judge.engine.position import Dislodged, Position, Unit, make_unit, province_of
from judge.engine.results import FAILURE, ILLEGAL, SUCCESS, VOID, OrderResult
from judge.engine.rules import Rules
from judge.engine.topology import Topology, topology

if TYPE_CHECKING:  # the weights are compared, never made here: fractions (and decimal, which it
    from fractions import Fraction  # imports) would cost every start of the judge 1.5 ms

HOLD, MOVE, SUPPORT, CONVOY = "hold", "move", "support", "convoy"
_MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)
_NO_WEIGHT = 0  # no weight: equal to Fraction(0)
_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2


class _Order:
    """One unit's effective order, with what validation found out about it."""

    __slots__ = (
        "unit",
        "power",
        "unit_kind",
        "prov",
        "kind",
        "dest",
        "dest_loc",
        "convoyed",
        "target",
        "target_dest",
        "target_coast",
        "supports",
        "convoys",
        "opponent",
        "no_convoy",
        "state",
        "result",
    )

    def __init__(self, unit: Unit, prov: str) -> None:
        self.unit = unit
        self.power = unit.power  # the unit's, kept here: read in every decision
        self.unit_kind = unit.kind
        self.prov = prov
        self.kind = HOLD
        self.dest = ""  # move: destination province
        self.dest_loc = ""  # move: destination location (coast for fleets)
        self.convoyed = False  # move: goes by convoy
        self.target = ""  # support/convoy: province of the unit supported or convoyed
        self.target_dest = ""  # support of a move / convoy: destination ("" = support hold)
        self.target_coast = ""  # support naming a coast: that location, which must match
        # Matching supports received and (for a convoyed move) matching convoys: the shared
        # empty tuple until the first arrives (most units get neither), then a list.
        self.supports: list[_Order] | tuple[()] = ()
        self.convoys: list[_Order] | tuple[()] = ()
        self.opponent: _Order | None = None  # head-to-head partner
        self.no_convoy = False  # a convoyed move with no chain of convoy orders at all
        self.state = _UNRESOLVED
        self.result = False


@dataclass(slots=True, init=False)
class MovementOutcome:
    """Its `__init__` written out, as the order values' (engine/orders.py says why)."""

    results: Mapping[str, tuple[OrderResult, ...]]
    units_after: tuple[Unit, ...]
    dislodged: tuple[Dislodged, ...]
    contested: frozenset[str]
    # With tie weights: the orders, by (power, index), that met an opposing strength equal to
    # their own and none greater (Mercenary's rule 6 a: where a bid is paid). Empty otherwise.
    evenly_opposed: frozenset[tuple[str, int]] = frozenset()

    def __init__(
        self,
        results: Mapping[str, tuple[OrderResult, ...]],
        units_after: tuple[Unit, ...],
        dislodged: tuple[Dislodged, ...],
        contested: frozenset[str],
        evenly_opposed: frozenset[tuple[str, int]] = frozenset(),
    ) -> None:
        self.results = results
        self.units_after = units_after
        self.dislodged = dislodged
        self.contested = contested
        self.evenly_opposed = evenly_opposed


def _unit_name(unit: Unit) -> str:
    return f"{unit.kind} {unit.loc.upper()}"


class _Resolver:
    def __init__(self, game_map: Map, position: Position, rules: Rules) -> None:
        self.map = game_map
        self.topo: Topology = topology(game_map)
        self.rules = rules
        self.by_prov: dict[str, _Order] = {}
        by_prov = self.by_prov
        for unit in position.units:
            loc = unit.loc
            slash = loc.find("/")
            prov = loc if slash < 0 else loc[:slash]
            by_prov[prov] = _Order(unit, prov)
        self.moves_into: dict[str, list[_Order]] = {}
        self.deps: list[_Order] = []
        self.civil_disorder = position.civil_disorder
        self.army_places = self.topo.army_places
        self.army_edges = self.topo.army_edges
        self.fleet_targets = self.topo.fleet_targets
        seas = self.topo.seas
        self.fleet_seas = {
            o.prov for o in self.by_prov.values() if o.unit_kind == FLEET and o.prov in seas
        }
        # A variant's tie-breaker: the weight of each unit's (valid) order by its province;
        # None in the standard game, where equal strengths always stand each other off.
        self.weights: dict[str, Fraction] | None = None

    def outweighs(self, o: _Order, other: _Order | None, holding: bool = False) -> bool:
        """Does the move `o`, meeting a strength equal to its own, win the tie? Only by a
        heavier order than `other`'s; `holding`: `other` holds the province `o` attacks, and a
        unit there that failed to move defends with no weight (its order was a move)."""
        weights = self.weights
        assert weights is not None
        mine = weights.get(o.prov, _NO_WEIGHT)
        if other is None or (holding and other.kind == MOVE):
            return mine > _NO_WEIGHT
        return mine > weights.get(other.prov, _NO_WEIGHT)

    # --- validation ---------------------------------------------------------------------------
    def can_reach(self, unit: Unit, prov: str) -> bool:
        """May `unit` move (or support into) `prov` without a convoy?"""
        if unit.kind == ARMY:
            return prov in self.army_edges.get(unit.province, ())
        return bool(self.fleet_targets.get((unit.loc, prov), ()))

    def could_move(self, unit: Unit, prov: str, supporter: str = "") -> bool:
        """Could `unit` ever move to `prov` (by convoy if need be, not through `supporter`)?"""
        if self.can_reach(unit, prov):
            return True
        if unit.kind != ARMY or not self.topo.convoy_possible(unit.province, prov):
            return False
        return self.chain_exists(unit.province, prov, self.fleet_seas - {supporter})

    def convoy_could_carry(self, src: str, dest: str, via: str | None = None) -> bool:
        """Could the fleets now at sea carry an army from `src` to `dest`?

        With `via`, the fleet there must be needed on some route: it lies on a route with no
        shortcut (DATC 4.E.1 and 6.G.19: a convoy by a fleet no route needs is illegal).
        """
        if not self.topo.convoy_possible(src, dest):
            return False
        if via is None:
            return self.chain_exists(src, dest, self.fleet_seas)
        return self.needed_on_route(src, dest, via)

    def needed_on_route(self, src: str, dest: str, via: str) -> bool:
        reach = self.topo.fleet_reach
        seas = self.fleet_seas
        if via not in seas:
            return False

        def extend(path: list[str]) -> bool:
            last = path[-1]
            if dest in reach[last]:
                return via in path
            for nxt in reach[last]:
                if nxt not in seas or nxt in path or src in reach[nxt]:
                    continue
                if any(nxt in reach[earlier] for earlier in path[:-1]):
                    continue  # a shortcut: some fleet on this route would be unneeded
                path.append(nxt)
                if extend(path):
                    return True
                path.pop()
            return False

        return any(extend([first]) for first in reach[src] if first in seas)

    def check_move(self, o: _Order, order: Move, convoy_intended: bool = False) -> str | None:
        """Fill in a move; return why it is illegal, or None."""
        unit = o.unit
        dest = order.dest
        slash = dest.find("/")
        dest_prov = dest if slash < 0 else dest[:slash]
        if dest_prov == o.prov:
            return "a unit cannot move to the province it is in"
        if unit.kind == FLEET:
            if order.via_convoy:
                return "a fleet cannot be convoyed"
            targets = self.fleet_targets.get((unit.loc, dest_prov), ())
            if not targets:
                return f"a fleet at {unit.loc.upper()} cannot reach {dest_prov.upper()}"
            if order.dest != dest_prov:
                if order.dest not in targets:
                    return f"a fleet at {unit.loc.upper()} cannot reach {order.dest.upper()}"
                dest_loc = order.dest
            elif len(targets) > 1:
                coasts = " or ".join(t.upper() for t in targets)
                return f"say which coast: {coasts}"
            else:
                dest_loc = targets[0]
            o.kind, o.dest, o.dest_loc = MOVE, dest_prov, dest_loc
            return None
        if dest_prov not in self.army_places:
            return f"an army cannot go to {dest_prov.upper()}"
        adjacent = dest_prov in self.army_edges.get(o.prov, ())
        if not adjacent or order.via_convoy or convoy_intended:
            if not self.convoy_could_carry(o.prov, dest_prov):
                if adjacent:
                    return f"no convoy route can lead from {o.prov.upper()} to {dest_prov.upper()}"
                return f"{o.prov.upper()} is not next to {dest_prov.upper()}"
            o.convoyed = True
        o.kind, o.dest, o.dest_loc = MOVE, dest_prov, dest_prov
        return None

    def check_support(self, o: _Order, order: Support) -> str | None:
        target_prov = province_of(order.target)
        if target_prov == o.prov:
            return "a unit cannot support itself"
        dest_prov = province_of(order.dest) if order.dest else ""
        reach = dest_prov or target_prov
        if dest_prov == o.prov:
            return "a unit cannot support a move into its own province"
        if dest_prov == target_prov:
            return "a unit cannot move to the province it is in"
        if not self.can_reach(o.unit, reach):
            return f"{_unit_name(o.unit)} cannot reach {reach.upper()}"
        target = self.by_prov.get(target_prov)
        if target is not None and dest_prov and not self.could_move(target.unit, dest_prov, o.prov):
            return f"{_unit_name(target.unit)} could never move to {dest_prov.upper()}"
        o.kind, o.target, o.target_dest = SUPPORT, target_prov, dest_prov
        if order.dest and order.dest != dest_prov:
            o.target_coast = order.dest
        return None

    def check_convoy(self, o: _Order, order: Convoy) -> str | None:
        if o.unit_kind != FLEET or o.prov not in self.topo.seas:
            return "only a fleet at sea can convoy"
        army_prov = province_of(order.army_loc)
        dest_prov = province_of(order.dest)
        army = self.by_prov.get(army_prov)
        if army is not None and army.unit_kind != ARMY:
            return "only armies can be convoyed"
        if not self.convoy_could_carry(army_prov, dest_prov, via=o.prov):
            return f"a fleet in {o.prov.upper()} cannot help convoy {army_prov.upper()} to {dest_prov.upper()}"
        o.kind, o.target, o.target_dest = CONVOY, army_prov, dest_prov
        return None

    # --- the decisions ------------------------------------------------------------------------
    def resolve(self, o: _Order) -> bool:
        if o.state == _RESOLVED:
            return o.result
        if o.state == _GUESSING:
            if o not in self.deps:
                self.deps.append(o)
            return o.result
        start = len(self.deps)
        o.result, o.state = False, _GUESSING
        first = self.adjudicate(o)
        if len(self.deps) == start:
            if o.state != _RESOLVED:
                o.result, o.state = first, _RESOLVED
            return first
        if self.deps[start] is not o:
            self.deps.append(o)
            o.result = first
            return first
        for d in self.deps[start:]:
            d.state = _UNRESOLVED
        del self.deps[start:]
        o.result, o.state = True, _GUESSING
        second = self.adjudicate(o)
        if first == second:
            for d in self.deps[start:]:
                d.state = _UNRESOLVED
            del self.deps[start:]
            o.result, o.state = first, _RESOLVED
            return first
        self.backup_rule(start)
        return self.resolve(o)

    def backup_rule(self, start: int) -> None:
        cycle = self.deps[start:]
        del self.deps[start:]
        convoys = [d for d in cycle if d.kind == CONVOY]
        for d in cycle:
            d.state = _UNRESOLVED
        if convoys:
            # Szykman: the convoys in a paradox fail, and everything else is decided anew.
            for d in convoys:
                d.result, d.state = False, _RESOLVED
        elif all(d.kind == MOVE for d in cycle):
            for d in cycle:
                d.result, d.state = True, _RESOLVED
        else:
            for d in cycle:
                d.result, d.state = False, _RESOLVED

    def adjudicate(self, o: _Order) -> bool:
        if o.kind == MOVE:
            return self.adjudicate_move(o)
        if o.kind == SUPPORT:
            return not self.support_cut(o)
        if o.kind == CONVOY:
            # Attackers are adjudicated, not resolved, so that paradox cycles stay simple.
            return not any(self.adjudicate_move(m) for m in self.moves_into.get(o.prov, ()))
        return True

    def adjudicate_move(self, o: _Order) -> bool:
        if self.rules.convoy_head_to_head:
            return self.adjudicate_with_convoy_duel(o)
        return self.ordinary_move(o)

    def duel_partner(self, army: _Order) -> _Order | None:
        """The fleet leaving a convoyed army's destination for its last convoying fleet."""
        if not army.convoyed:
            return None
        there = self.by_prov.get(army.dest)
        if there is None or there.kind != MOVE or there.unit_kind != FLEET:
            return None
        reach = self.topo.fleet_reach
        if any(f.prov == there.dest and army.dest in reach[f.prov] for f in army.convoys):
            return there
        return None

    def adjudicate_with_convoy_duel(self, o: _Order) -> bool:
        if o.convoyed:
            fleet = self.duel_partner(o)
            if (
                fleet is not None
                and self.ordinary_move(fleet)
                and self.attack_strength(fleet) == self.attack_strength(o, assume_path=True)
                and (self.weights is None or not self.outweighs(o, fleet))
            ):
                return False
            return self.ordinary_move(o)
        if not self.ordinary_move(o):
            return False
        there = self.by_prov.get(o.dest)
        if there is not None and o.unit_kind == FLEET:
            for army in self.moves_into.get(o.prov, ()):
                if self.duel_partner(army) is o and there in army.convoys:
                    mine = self.attack_strength(o)
                    theirs = self.attack_strength(army, assume_path=True)
                    if mine == theirs and self.weights is not None:
                        return self.outweighs(o, army)
                    return mine > theirs
        return True

    def ordinary_move(self, o: _Order) -> bool:
        if not self.path(o):
            return False
        attack = self.attack_strength(o)
        if o.opponent is not None:
            defend = self.defend_strength(o.opponent)
            if attack <= defend and (
                self.weights is None or attack < defend or not self.outweighs(o, o.opponent)
            ):
                return False
        else:
            hold = self.hold_strength(o.dest, o.prov)
            if attack <= hold and (
                self.weights is None
                or attack < hold
                or attack == 0
                or not self.outweighs(o, self.by_prov.get(o.dest), holding=True)
            ):
                return False
        for other in self.moves_into[o.dest]:
            if other is not o:
                prevent = self.prevent_strength(other)
                if attack <= prevent and (
                    self.weights is None or attack < prevent or not self.outweighs(o, other)
                ):
                    return False
        return True

    def support_cut(self, o: _Order) -> bool:
        for attacker in self.moves_into.get(o.prov, ()):
            if attacker.power == o.power:
                continue
            if (
                self.rules.paradox_rule_1971
                and attacker.convoyed
                and o.target_dest
                and any(f.prov == o.target_dest for f in attacker.convoys)
            ):
                continue
            if attacker.prov == (o.target_dest or o.target):
                if self.resolve(attacker):
                    return True
            elif self.path(attacker):
                return True
        return False

    def path(self, o: _Order) -> bool:
        if not o.convoyed:
            return True
        if o.no_convoy:
            return False
        fleets = o.convoys
        if self.rules.convoy_by_all_listed_fleets:
            if not all(self.resolve(f) for f in fleets):
                return False
            usable = {f.prov for f in fleets}
        else:
            usable = {f.prov for f in fleets if self.resolve(f)}
        return self.chain_exists(o.prov, o.dest, usable)

    def chain_exists(self, src: str, dest: str, seas: set[str], to_sea: bool = False) -> bool:
        """Is there a chain of the given seas from `src` to `dest` (or to the sea `dest`)?"""
        reach = self.topo.fleet_reach
        frontier = deque(s for s in reach[src] if s in seas)
        seen = set(frontier)
        while frontier:
            sea = frontier.popleft()
            if (sea == dest) if to_sea else (dest in reach[sea]):
                return True
            for nxt in reach[sea]:
                if nxt in seas and nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return False

    def supports_given(self, o: _Order, exclude_power: str | None = None) -> int:
        count = 0
        for s in o.supports:
            if (exclude_power is None or s.power != exclude_power) and self.resolve(s):
                count += 1
        return count

    def attack_strength(self, o: _Order, assume_path: bool = False) -> int:
        if not assume_path and not self.path(o):
            return 0
        there = self.by_prov.get(o.dest)
        if there is None or (
            there.kind == MOVE and there.opponent is not o and self.resolve(there)
        ):
            return 1 + self.supports_given(o)
        if there.power == o.power:
            return 0
        return 1 + self.supports_given(o, exclude_power=there.power)

    def hold_strength(self, prov: str, attacker_from: str = "") -> int:
        there = self.by_prov.get(prov)
        if there is None:
            return 0
        if there.kind == MOVE:
            if self.resolve(there):
                return 0
            # Key rule: a unit that failed to move falls to any attack but one from its target.
            return 0 if self.rules.key_rule and there.dest != attacker_from else 1
        return 1 + self.supports_given(there)

    def defend_strength(self, o: _Order) -> int:
        return 1 + self.supports_given(o)

    def prevent_strength(self, o: _Order) -> int:
        if not self.path(o):
            return 0
        if o.opponent is not None and self.resolve(o.opponent):
            return 0
        return 1 + self.supports_given(o)


def resolve_movement(
    game_map: Map,
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    rules: Rules,
    tie_weights: Mapping[tuple[str, int], Fraction] | None = None,
) -> MovementOutcome:
    """Adjudicate one movement phase. `tie_weights` (a variant's, by the order's power and
    index) break ties between equal strengths; None: the standard rules."""
    r = _Resolver(game_map, position, rules)
    static: dict[tuple[str, int], OrderResult] = {}
    assigned: dict[str, tuple[str, int]] = {}  # province -> (power, index) of its order
    duplicates: set[str] = set()
    pending: list[tuple[_Order, Order, tuple[str, int]]] = []

    by_prov = r.by_prov
    moves: list[tuple[_Order, Move, tuple[str, int]]] = []
    supports: list[tuple[_Order, Support, tuple[str, int]]] = []
    convoys: list[tuple[_Order, Convoy, tuple[str, int]]] = []
    for power, power_orders in orders.items():
        for index, order in enumerate(power_orders):
            key = (power, index)
            if not isinstance(order, _MOVEMENT_ORDERS):
                static[key] = OrderResult(ILLEGAL, "not an order for a movement phase")
                continue
            loc = order.loc
            slash = loc.find("/")
            prov = loc if slash < 0 else loc[:slash]
            o = by_prov.get(prov)
            if o is None:
                static[key] = OrderResult(VOID, f"no unit in {prov.upper()}")
                continue
            if o.power != power:
                static[key] = OrderResult(VOID, f"the unit in {prov.upper()} is not {power}'s")
                continue
            # A wrong unit type in an order is ignored (DATC 4.C.2): the unit is known by place.
            if prov in assigned:
                duplicates.add(prov)
            assigned[prov] = key
            pending.append((o, order, key))
            if isinstance(order, Move):
                moves.append((o, order, key))
            elif isinstance(order, Support):
                supports.append((o, order, key))
            elif isinstance(order, Convoy):
                convoys.append((o, order, key))

    if duplicates:
        for o, _order, key in pending:
            if o.prov in duplicates:
                static[key] = OrderResult(VOID, "several orders for one unit: it holds")
        pending = [p for p in pending if p[0].prov not in duplicates]
        moves = [p for p in moves if p[0].prov not in duplicates]
        supports = [p for p in supports if p[0].prov not in duplicates]
        convoys = [p for p in convoys if p[0].prov not in duplicates]

    # Convoys first (a convoy by the army's own power shows that the army goes by sea, DATC
    # 4.A.3), then moves, then supports, which are checked against the moves.
    own_convoys = set()
    for o, order, key in convoys:
        why = r.check_convoy(o, order)
        if why:
            static[key] = OrderResult(ILLEGAL, why)
        elif (army := by_prov.get(o.target)) and army.power == o.power:
            own_convoys.add((o.target, o.target_dest))
    for o, order, key in moves:
        why = r.check_move(
            o, order, bool(own_convoys) and (o.prov, province_of(order.dest)) in own_convoys
        )
        if why:
            static[key] = OrderResult(ILLEGAL, why)
    for o, order, key in supports:
        why = r.check_support(o, order)
        if why:
            static[key] = OrderResult(ILLEGAL, why)

    # Convoys match a convoyed move to the same destination.
    for o, _order, _key in convoys:
        if o.kind == CONVOY:
            army = by_prov.get(o.target)
            if army and army.kind == MOVE and army.convoyed and army.dest == o.target_dest:
                if army.convoys:
                    army.convoys.append(o)  # type: ignore[union-attr]
                else:
                    army.convoys = [o]
    moving = [o for o, _order, _key in moves if o.kind == MOVE]
    moves_into = r.moves_into
    for o in moving:
        if o.convoyed:
            if not r.chain_exists(o.prov, o.dest, {f.prov for f in o.convoys}):
                # No chain of convoy orders: the move fails, and has no effect anywhere.
                o.no_convoy = True
                continue
        else:
            other = by_prov.get(o.dest)
            if (
                other is not None
                and other.kind == MOVE
                and not other.convoyed
                and other.dest == o.prov
            ):
                o.opponent = other
        if o.dest in moves_into:
            moves_into[o.dest].append(o)
        else:
            moves_into[o.dest] = [o]
    for o, _order, _key in supports:
        if o.kind != SUPPORT:
            continue
        target = by_prov.get(o.target)
        if target is None:
            continue
        if o.target_dest:
            coast_fits = not o.target_coast or o.target_coast == target.dest_loc
            if target.kind == MOVE and target.dest == o.target_dest and coast_fits:
                _add_support(target, o)
        elif target.kind != MOVE:
            _add_support(target, o)

    if tie_weights is not None:
        r.weights = {
            o.prov: tie_weights[key]
            for o, _order, key in pending
            if key not in static and key in tie_weights
        }

    # Decisions that depend on nothing else are settled at once: an unopposed move into an
    # empty province, and a support nobody attacks.
    for o in moving:
        if not o.convoyed and o.dest not in by_prov and len(moves_into.get(o.dest, ())) == 1:
            o.result, o.state = True, _RESOLVED
    for o, _order, _key in supports:
        if o.kind == SUPPORT and o.prov not in moves_into:
            o.result, o.state = True, _RESOLVED
    resolve = r.resolve
    for o in moving:
        resolve(o)
    for group in (supports, convoys):
        for o, _order, _key in group:
            if o.kind != HOLD:
                resolve(o)

    outcome = _outcome(r, orders, static, pending)
    if tie_weights is not None:
        opposed = _evenly_opposed(r)
        outcome.evenly_opposed = frozenset(key for o, _order, key in pending if o.prov in opposed)
    return outcome


def _evenly_opposed(r: _Resolver) -> set[str]:
    """The provinces of units whose order met an opposing strength equal to its own and none
    greater, in the final outcome: a move against the defence, hold or prevent strengths it met
    (and a convoy duel's fleet), a unit standing against the attacks on its province."""
    out: set[str] = set()
    duel = r.rules.convoy_head_to_head
    for dest, movers in r.moves_into.items():
        for o in movers:
            if not r.path(o):
                continue
            attack = r.attack_strength(o)
            if attack == 0:
                continue
            opposing = [r.prevent_strength(other) for other in movers if other is not o]
            if o.opponent is not None:
                opposing.append(r.defend_strength(o.opponent))
            elif dest in r.by_prov:
                opposing.append(r.hold_strength(dest, o.prov))
            if duel:
                fleet = r.duel_partner(o)
                if fleet is not None:
                    opposing.append(r.attack_strength(fleet))
                for army in r.moves_into.get(o.prov, ()):
                    if r.duel_partner(army) is o:
                        opposing.append(r.attack_strength(army, assume_path=True))
            if opposing and max(opposing) == attack:
                out.add(o.prov)
        there = r.by_prov.get(dest)
        if there is not None and there.kind != MOVE:
            attacks = [r.attack_strength(m) for m in movers if r.path(m)]
            if attacks and max(attacks) == r.hold_strength(dest):
                out.add(dest)
    return out


def _add_support(target: _Order, support: _Order) -> None:
    if target.supports:
        target.supports.append(support)  # type: ignore[union-attr]
    else:
        target.supports = [support]


def _outcome(
    r: _Resolver,
    orders: Mapping[str, Sequence[Order]],
    static: dict[tuple[str, int], OrderResult],
    pending: list[tuple[_Order, Order, tuple[str, int]]],
) -> MovementOutcome:
    moved: dict[str, _Order] = {
        o.dest: o for movers in r.moves_into.values() for o in movers if o.result
    }
    dislodged_by: dict[str, _Order] = {}
    units_after: list[Unit] = []
    occupied: set[str] = set()
    for o in r.by_prov.values():
        if o.kind == MOVE and o.result:
            u = o.unit
            units_after.append(make_unit(u.power, u.kind, o.dest_loc, u.army_power))
            occupied.add(o.dest)
        elif o.prov in moved:
            dislodged_by[o.prov] = moved[o.prov]
        else:
            units_after.append(o.unit)
            occupied.add(o.prov)
    contested = set()
    for prov, movers in r.moves_into.items():
        if prov in occupied:
            continue
        if any(not m.result and r.prevent_strength(m) > 0 for m in movers):
            contested.add(prov)
    dislodged = []
    removed = r.civil_disorder if r.rules.civil_disorder_units_removed else frozenset()
    for prov, attacker in dislodged_by.items():
        unit = r.by_prov[prov].unit
        if unit.power in removed:
            # Postal house rule: no retreat for a power in civil disorder; its unit is removed.
            dislodged.append(Dislodged(unit, attacker.prov, attacker.convoyed, ()))
            continue
        dislodged.append(
            Dislodged(
                unit=unit,
                attacker_from=attacker.prov,
                attacker_convoyed=attacker.convoyed,
                retreats=retreat_options(
                    r.map,
                    unit,
                    occupied,
                    contested,
                    attacker.prov,
                    attacker.convoyed and not r.rules.retreat_never_to_attacker_origin,
                ),
            )
        )

    results: dict[str, tuple[OrderResult, ...]] = {}
    if not static:
        # Every order stands (none illegal, void or doubled): `pending` holds them all, in the
        # order given, so each power's results are the next of it in turn.
        remaining = iter(pending)
        for power, power_orders in orders.items():
            results[power] = tuple(
                [_result_of(r, next(remaining)[0], dislodged_by) for _ in power_orders]
            )
        return MovementOutcome(
            results=results,
            units_after=tuple(units_after),
            dislodged=tuple(dislodged),
            contested=frozenset(contested),
        )
    by_key = {key: o for o, _order, key in pending}
    for power, power_orders in orders.items():
        out = []
        for index in range(len(power_orders)):
            key = (power, index)
            if key in static:
                out.append(static[key])
            else:
                out.append(_result_of(r, by_key[key], dislodged_by))
        results[power] = tuple(out)
    return MovementOutcome(
        results=results,
        units_after=tuple(units_after),
        dislodged=tuple(dislodged),
        contested=frozenset(contested),
    )


_SUCCEEDED = OrderResult(SUCCESS)


def _result_of(r: _Resolver, o: _Order, dislodged_by: dict[str, _Order]) -> OrderResult:
    attacker = dislodged_by.get(o.prov)
    if attacker is None and o.kind == HOLD:
        return _SUCCEEDED
    if (
        attacker is None
        and o.result
        and not o.no_convoy
        and (o.kind == MOVE or (o.kind in (SUPPORT, CONVOY) and _matched(r, o)))
    ):
        return _SUCCEEDED
    by = f"dislodged by {_unit_name(attacker.unit)}" if attacker else ""
    if o.no_convoy:
        reason = "no convoy was ordered for this move"
        return OrderResult(FAILURE, f"{reason}; {by}" if by else reason)
    if o.kind in (SUPPORT, CONVOY) and not _matched(r, o):
        return OrderResult(VOID, _mismatch(r, o))
    if o.kind == MOVE:
        if o.result:
            return OrderResult(SUCCESS)
        if not r.path(o):
            reason = "the convoy was disrupted"
        else:
            there = r.by_prov.get(o.dest)
            if (
                there is not None
                and there.power == o.power
                and not (there.kind == MOVE and there.result)
            ):
                reason = "a unit cannot dislodge a unit of its own power"
            else:
                reason = "bounced"
        return OrderResult(FAILURE, f"{reason}; {by}" if by else reason)
    if o.kind == SUPPORT:
        if o.result:
            return OrderResult(SUCCESS, by)
        return OrderResult(FAILURE, f"support cut: {by}" if by else "support cut")
    if o.kind == CONVOY:
        if attacker:
            return OrderResult(FAILURE, by)
        if not o.result:
            return OrderResult(FAILURE, "the convoy failed (convoy paradox)")
        return OrderResult(SUCCESS)
    return OrderResult(FAILURE, by) if attacker else OrderResult(SUCCESS)


def _matched(r: _Resolver, o: _Order) -> bool:
    target = r.by_prov.get(o.target)
    if target is None:
        return False
    return o in (target.supports if o.kind == SUPPORT else target.convoys)


def _mismatch(r: _Resolver, o: _Order) -> str:
    target = r.by_prov.get(o.target)
    if target is None:
        return f"no unit in {o.target.upper()}"
    if target.kind == MOVE:
        return f"{_unit_name(target.unit)} was ordered to {target.dest.upper()}"
    return f"{_unit_name(target.unit)} was not ordered to move there"


def retreat_options(
    game_map: Map,
    unit: Unit,
    occupied: set[str],
    contested: set[str] | frozenset[str],
    attacker_from: str | None,
    attacker_convoyed: bool,
) -> tuple[str, ...]:
    """Where a dislodged unit may go: next to it, empty, not stood off, not whence it was hit."""
    if unit.kind == ARMY:
        candidates = list(game_map.army_edges.get(unit.province, ()))
    else:
        candidates = list(game_map.fleet_edges.get(unit.loc, ()))
    out = []
    for loc in sorted(candidates):
        prov = province_of(loc)
        if prov in occupied or prov in contested:
            continue
        if prov == attacker_from and not attacker_convoyed:
            continue
        out.append(loc)
    return tuple(out)


def never_succeeds(
    game_map: Map, position: Position, power: str, order: Order, rules: Rules
) -> str | None:
    """Why a movement order of `power` can never succeed in this position, by the very checks
    the adjudication makes (`_Resolver.check_move`, `check_support`, `check_convoy`), or None.

    Only what the board alone decides is judged: a move the unit cannot make, a support of a
    place it cannot reach, a convoy no route needs. Whether a support or convoy will be matched
    depends on other orders and is never judged here. An order for a unit that is not the
    power's is the caller's to refuse."""
    return never_succeeding(game_map, position, power, (order,), rules)[0]


def never_succeeding(
    game_map: Map, position: Position, power: str, orders: Sequence[object], rules: Rules
) -> list[str | None]:
    """`never_succeeds` for each of a power's orders, the position read once for them all (what
    checking a whole power's orders on arrival costs). A variant's own order values (Mercenary's
    bids and second orders) may stand among them: they are none of this check's, so typed as
    any object, which the compiled build then lets through."""
    r: _Resolver | None = None
    out: list[str | None] = []
    for order in orders:
        if not isinstance(order, (Move, Support, Convoy)):
            out.append(None)
            continue
        if r is None:
            r = _Resolver(game_map, position, rules)
        prov = province_of(order.loc)
        found = r.by_prov.get(prov)
        if found is None or found.power != power:
            out.append(None)
            continue
        probe = _Order(found.unit, prov)
        if isinstance(order, Move):
            out.append(r.check_move(probe, order))
        elif isinstance(order, Support):
            out.append(r.check_support(probe, order))
        else:
            out.append(r.check_convoy(probe, order))
    return out


def reachable(game_map: Map, unit: Unit) -> tuple[str, ...]:
    """The provinces `unit` can move to without a convoy, sorted: what the reply to an
    impossible move offers instead."""
    topo = topology(game_map)
    if unit.kind == ARMY:
        return tuple(sorted(topo.army_edges.get(unit.province, ())))
    return tuple(sorted({province_of(d) for d in game_map.fleet_edges.get(unit.loc, ())}))
