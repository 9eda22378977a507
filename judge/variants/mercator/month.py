"""A Mercator month: time scales 1 to 3 of the rules' section 2, one after the other.

TS1: armies aboard land (``A(ENC) L Lon``), supported by their carrying fleet only, and armies
board fleets (``A(Lon) B F(NTH)``), all at once. TS2: the standard moves, supports, holds and
convoys for armies, fleets and army/fleets, adjudicated by the standard resolver with each
army/fleet standing as its fleet (rule 2.2: its strength and support reach are the fleet's, and
its nationality is the fleet's for self-dislodgement, rule 2.6). TS3: disembarkations and
embarkations at once, then the supplementary moves to sea spaces of the fleets and army/fleets
that took part. The Key rule (2.7) holds in every time scale: the variant's rule set switches
it on for the standard resolver, and the landings of TS1 and TS3 apply it here.

Units dislodged in a time scale leave the board until the retreats (TS4, the phase that
follows), with the retreats rule 4 allows them worked out here, where the whole month is known.

The module is pure: it imports only the engine and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from judge.engine.geography import Map, Terrain
from judge.engine.orders import Convoy, Hold, Move, Support
from judge.engine.position import Dislodged, Position, Unit, make_unit, province_of
from judge.engine.resolve import resolve_movement
from judge.engine.results import FAILURE, ILLEGAL, SUCCESS, VOID, OrderResult
from judge.engine.rules import Rules
from judge.engine.topology import topology
from judge.variants.aboard import in_players_words, with_spaces
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

ARMY, FLEET, ARMY_FLEET = "A", "F", "AF"
_KIND_WORDS = {ARMY: "an army", FLEET: "a fleet", ARMY_FLEET: "an army/fleet"}
# The standard resolver knows armies and fleets: an army/fleet goes through it as its fleet,
# marked in the unit's army_power field (which the resolver carries along unread).
_AF_MARK = "\x00AF:"

Key = tuple[str, int]  # (power, index of the order in the power's list)
_FERRY_FLEET = "a fleet of a ferry's chain"


@dataclass(slots=True)
class _Ferry:
    """A fast ferry or chain convoy in time scale 2 (rule 3)."""

    key: Key
    space: str  # the army's own space beside its first fleet ("~eng")
    named: str  # where the order says the army began the month
    seas: tuple[str, ...]  # the chain's fleets, the carrier first
    fleet_keys: list[Key] = field(default_factory=list)

    def fall_back(self, dislodged: set[str], board: Mapping[str, Unit]) -> str | None:
        """Where the army is aboard when its landing fails (rule 3 (c)): the last fleet of the
        chain, or the fleet before the first one dislodged; None if its carrier was."""
        home: str | None = None
        for sea in self.seas:
            if sea in dislodged:
                break
            fleet = board.get(sea)
            if fleet is None or fleet.kind != FLEET:
                break
            home = sea
        return home


@dataclass(slots=True)
class _HandOver:
    """A chain convoy that puts its army aboard the chain's last fleet (rule 3 (d))."""

    key: Key
    army_power: str
    seas: tuple[str, ...]


def _with_ferry_spaces(game_map: Map, ferries: Mapping[str, _Ferry]) -> Map:
    """The board with a coastal space beside each ferry's first sea, where its army stands for
    the standard resolver (judge.variants.aboard, which 1885's Fast Ferry uses too)."""
    return with_spaces(game_map, {f.seas[0] for f in ferries.values()})


@dataclass(slots=True)
class MonthOutcome:
    results: dict[Key, OrderResult]
    units_after: tuple[Unit, ...]
    dislodged: tuple[Dislodged, ...]
    contested: frozenset[str]  # provinces left empty by a stand-off in any time scale
    dumped: dict[str, int]  # armies dumped in a polar cap this month, per power (rule 6.2)
    moments: tuple[tuple[Unit, ...], ...]  # the board at the start and after each time scale
    spares: dict[str, int] = field(default_factory=dict)  # spare units placed (rule 9)


def army_owner(unit: Unit) -> str:
    """The power of the army in an army/fleet (the fleet's own when none is named)."""
    return unit.army_power or unit.power


@dataclass(slots=True, init=False)
class _Landing:
    """An army leaving a fleet for the land next to it (TS1 landing, TS3 disembarkation)."""

    key: Key
    army_power: str
    sea: str  # province of the carrying fleet
    dest: str
    strength: int = 1
    state: int = 0
    result: bool = False

    def __init__(
        self,
        key: Key,
        army_power: str,
        sea: str,
        dest: str,
        strength: int = 1,
        state: int = 0,
        result: bool = False,
    ) -> None:
        self.key = key
        self.army_power = army_power
        self.sea = sea
        self.dest = dest
        self.strength = strength
        self.state = state
        self.result = result


@dataclass(slots=True, init=False)
class _Boarding:
    """An army leaving the land for the fleet next to it (TS1 boarding, TS3 embarkation)."""

    keys: list[Key]
    army_power: str
    land: str
    sea: str
    state: int = 0
    result: bool = False

    def __init__(
        self,
        keys: list[Key],
        army_power: str,
        land: str,
        sea: str,
        state: int = 0,
        result: bool = False,
    ) -> None:
        self.keys = keys
        self.army_power = army_power
        self.land = land
        self.sea = sea
        self.state = state
        self.result = result


@dataclass(slots=True)
class _Exchange:
    """One time scale's landings and boardings (TS1, or the first part of TS3)."""

    landings: dict[str, _Landing] = field(default_factory=dict)  # by carrying sea
    boardings: dict[str, _Boarding] = field(default_factory=dict)  # by the army's land
    busy: set[str] = field(default_factory=set)  # fleets that supported a landing (TS1)


class _Month:
    def __init__(
        self,
        game_map: Map,
        position: Position,
        orders: Mapping[str, Sequence[Scaled]],
        rules: Rules,
    ) -> None:
        self.map = game_map
        self.topo = topology(game_map)
        self.rules = rules
        self.board: dict[str, Unit] = {u.province: u for u in position.units}
        self.results: dict[Key, OrderResult] = {}
        self.dislodged: list[Dislodged] = []
        self.dumped: dict[str, int] = {}
        self.moments: list[tuple[Unit, ...]] = [tuple(position.units)]
        self.contested: dict[int, set[str]] = {1: set(), 2: set(), 3: set()}
        self.scales: dict[int, list[tuple[Key, Scaled]]] = {1: [], 2: [], 3: []}
        # What rule 4 needs to know of each dislodgement: supports of the attack, later moves.
        self.moved_into: dict[str, list[tuple[int, str, str]]] = {}  # prov -> (ts, power, from)
        self.entered_by: dict[str, list[tuple[int, str]]] = {}  # from -> (ts, to)
        self.attack_support: dict[tuple[int, str], set[str]] = {}
        self.busy: set[str] = set()  # fleets that supported a landing: idle until TS3
        self.ts3_movers: set[str] = set()  # provinces whose fleet may move in TS3's second part
        self._stack: list[_Landing | _Boarding] = []  # decisions guessed, for settle_exchange
        self.spares: list[tuple[Key, PlaceSpare]] = []
        self.placed: dict[str, int] = {}
        self.first_month = not position.state.get("months")
        self.state = position.state
        for power, power_orders in orders.items():
            for index, scaled in enumerate(power_orders):
                scale = scaled.time_scale
                if scale in self.scales:
                    self.scales[scale].append(((power, index), scaled))
                elif isinstance(scaled.order, PlaceSpare):
                    self.spares.append(((power, index), scaled.order))
                else:
                    why = (
                        "retreat orders belong to the retreat phase (time scale 4)"
                        if scale == 4
                        else "builds and removals belong to the adjustment phase"
                    )
                    self.results[(power, index)] = OrderResult(ILLEGAL, why)

    # --- helpers ------------------------------------------------------------------------------
    def set_result(self, key: Key, result: str, reason: str, scale: int) -> None:
        self.results[key] = OrderResult(result, reason, scale)

    def snapshot(self) -> None:
        self.moments.append(tuple(self.board.values()))

    def is_sea_or_canal(self, prov: str) -> bool:
        return self.map.provinces[prov].terrain in (Terrain.SEA, Terrain.CANAL)

    def fleet_touches(self, sea: str, land: str) -> bool:
        """Can an army pass between `land` and a fleet in `sea`: the coast of `land` lies on
        the sea, or `sea` is a canal province next to `land` by land (rule 6.1), or `land` is a
        polar cap the sea touches (6.2)."""
        if land in self.topo.fleet_reach.get(sea, ()):
            return True
        terrain = self.map.provinces[sea].terrain
        if terrain is Terrain.CANAL and land in self.map.army_edges.get(sea, ()):
            return True
        return self.map.provinces[
            land
        ].terrain is Terrain.POLAR and land in self.topo.neighbours.get(sea, ())

    def wrong_type(self, written: str | None, unit: Unit) -> str | None:
        """Rule 2.4: an order that guesses the unit's kind wrong is invalid."""
        if written is None or written == unit.kind:
            return None
        return (
            f"the unit in {unit.province.upper()} is {_KIND_WORDS[unit.kind]}, "
            f"not {_KIND_WORDS.get(written, written)}"
        )

    def dislodge(self, unit: Unit, scale: int, attacker_from: str, power: str) -> None:
        self.board.pop(unit.province, None)
        self.dislodged.append(Dislodged(unit, attacker_from, False, (), scale))
        self.moved_into.setdefault(unit.province, []).append((scale, power, attacker_from))

    # --- the exchanges of TS1 and TS3 ---------------------------------------------------------
    def read_exchange(self, scale: int) -> _Exchange:
        """Pick each army/fleet's landing (the army's order first, rule 2.6) and each agreed
        boarding; everything else in the exchange is illegal or void with its reason."""
        ex = _Exchange()
        land_kind, board_kind = (Land, Board) if scale == 1 else (Disembark, Embark)
        landing_orders: dict[str, list[tuple[Key, Land | Disembark]]] = {}
        boarding_orders: dict[tuple[str, str], list[tuple[Key, Board | Embark]]] = {}
        supports: list[tuple[Key, SupportLanding]] = []
        for key, scaled in self.scales[scale]:
            order = scaled.order
            if key in self.results:
                continue  # judged already (a double option, rule 2.5)
            if isinstance(order, land_kind):
                landing_orders.setdefault(province_of(order.army_loc), []).append((key, order))
            elif isinstance(order, board_kind):
                pair = (province_of(order.army_loc), province_of(order.fleet_loc))
                boarding_orders.setdefault(pair, []).append((key, order))
            elif isinstance(order, SupportLanding) and scale == 1:
                supports.append((key, order))
            elif scale == 3 and isinstance(order, (Move, Hold)):
                continue  # the supplementary moves, read after the exchange
            else:
                self.set_result(key, ILLEGAL, _misplaced(order, scale), scale)
        for sea, landings in landing_orders.items():
            self.pick_landing(ex, scale, sea, landings)
        for (land, sea), boardings in boarding_orders.items():
            self.agree_boarding(ex, scale, land, sea, boardings)
        for key, support in supports:
            sea = province_of(support.fleet_loc)
            landing = ex.landings.get(sea)
            fleet = self.board.get(sea)
            if fleet is None or fleet.kind != ARMY_FLEET or fleet.power != key[0]:
                self.set_result(key, VOID, f"no army/fleet of {key[0]}'s in {sea.upper()}", 1)
            elif landing is None or landing.dest != province_of(support.dest):
                self.set_result(key, VOID, "the army was not ordered to land there", 1)
            else:
                landing.strength = 2
                ex.busy.add(sea)
                self.set_result(key, SUCCESS, "", 1)
        return ex

    def pick_landing(
        self,
        ex: _Exchange,
        scale: int,
        sea: str,
        candidates: list[tuple[Key, Land | Disembark]],
    ) -> None:
        carrier = self.board.get(sea)
        verb = "land" if scale == 1 else "disembark"
        chosen: tuple[Key, Land | Disembark] | None = None
        for key, order in candidates:
            if carrier is None or carrier.kind != ARMY_FLEET:
                self.set_result(key, VOID, f"no army aboard a fleet in {sea.upper()}", scale)
            elif key[0] not in (army_owner(carrier), carrier.power):
                self.set_result(key, VOID, f"the army in {sea.upper()} is not {key[0]}'s", scale)
            elif not self.fleet_touches(sea, province_of(order.dest)) or self.is_sea_or_canal(
                province_of(order.dest)
            ):
                dest = province_of(order.dest).upper()
                self.set_result(
                    key, ILLEGAL, f"an army aboard in {sea.upper()} cannot {verb} in {dest}", scale
                )
            elif chosen is None or (
                key[0] == army_owner(carrier) and chosen[0][0] != army_owner(carrier)
            ):
                if chosen is not None:
                    self.set_result(
                        chosen[0], VOID, "the army's own order was used (rule 2.6)", scale
                    )
                chosen = (key, order)
            else:
                self.set_result(key, VOID, "the army's own order was used (rule 2.6)", scale)
        if chosen is None or carrier is None:
            return
        key, order = chosen
        if scale == 3:
            chosen = self.mixed_fallback(carrier, candidates, chosen)
            key, order = chosen
        ex.landings[sea] = _Landing(key, army_owner(carrier), sea, province_of(order.dest))

    def mixed_fallback(
        self,
        carrier: Unit,
        candidates: list[tuple[Key, Land | Disembark]],
        chosen: tuple[Key, Land | Disembark],
    ) -> tuple[Key, Land | Disembark]:
        """Rule 2.6 (a): the army's disembarkation where its province is untenanted, else the
        fleet owner's, when the owners differ and both gave one."""
        if carrier.army_power is None or chosen[0][0] != carrier.army_power:
            return chosen
        dest = province_of(chosen[1].dest)
        if dest not in self.board:
            return chosen
        for key, order in candidates:
            if key[0] == carrier.power and key not in self.results:
                return (key, order)
            if key[0] == carrier.power and self.results[key].reason.startswith("the army's own"):
                del self.results[key]
                self.set_result(
                    chosen[0],
                    FAILURE,
                    f"{dest.upper()} was occupied: the fleet's order was used",
                    3,
                )
                return (key, order)
        return chosen

    def agree_boarding(
        self,
        ex: _Exchange,
        scale: int,
        land: str,
        sea: str,
        candidates: list[tuple[Key, Board | Embark]],
    ) -> None:
        army, fleet = self.board.get(land), self.board.get(sea)
        verb = "board" if scale == 1 else "embark on"
        keys = [key for key, _ in candidates]
        why = ""
        if army is None or army.kind != ARMY:
            why = f"no army in {land.upper()}"
        elif fleet is None or fleet.kind == ARMY:
            why = f"no fleet in {sea.upper()}"
        elif not self.is_sea_or_canal(sea) or not self.fleet_touches(sea, land):
            why = f"an army in {land.upper()} cannot {verb} a fleet in {sea.upper()}"
        if why:
            for key in keys:
                self.set_result(key, VOID if why.startswith("no ") else ILLEGAL, why, scale)
            return
        assert army is not None and fleet is not None
        powers = {key[0] for key in keys}
        for key in keys:
            if key[0] not in (army.power, fleet.power):
                self.set_result(key, VOID, f"neither unit is {key[0]}'s", scale)
        if not {army.power, fleet.power} <= powers:
            missing = fleet.power if army.power in powers else army.power
            for key in keys:
                if key not in self.results:
                    self.set_result(
                        key, FAILURE, f"{missing} did not order the boarding (rule 2.6)", scale
                    )
            return
        ex.boardings[land] = _Boarding(
            [k for k in keys if k not in self.results], army.power, land, sea
        )

    def settle_exchange(self, ex: _Exchange, scale: int) -> None:
        """Decide every landing and boarding together (guess and check, as the standard
        resolver; a cycle of landings and boardings succeeds like circular movement)."""
        self._stack = []
        for landing in ex.landings.values():
            self.decide(ex, landing)
        for boarding in ex.boardings.values():
            self.decide(ex, boarding)
        self.apply_exchange(ex, scale)

    def decide(self, ex: _Exchange, d: _Landing | _Boarding) -> bool:
        if d.state == 2:
            return d.result
        if d.state == 1:
            if d not in self._stack:
                self._stack.append(d)
            return d.result
        start = len(self._stack)
        d.state, d.result = 1, False
        first = self.judge(ex, d)
        if len(self._stack) == start:
            d.state, d.result = 2, first
            return first
        if self._stack[start] is not d:
            self._stack.append(d)
            d.result = first
            return first
        for other in self._stack[start:]:
            other.state = 0
        del self._stack[start:]
        d.state, d.result = 1, True
        second = self.judge(ex, d)
        cycle = self._stack[start:]
        del self._stack[start:]
        if first == second:
            for other in cycle:
                other.state = 0
            d.state, d.result = 2, first
            return first
        # Both guesses hold: the cycle of landings and boardings all succeed.
        for other in [d, *cycle]:
            other.state, other.result = 2, True
        return True

    def judge(self, ex: _Exchange, d: _Landing | _Boarding) -> bool:
        if isinstance(d, _Boarding):
            fleet = self.board[d.sea]
            rivals = [b for b in ex.boardings.values() if b.sea == d.sea and b is not d]
            if rivals:
                return False  # two armies for one fleet: neither gets aboard
            if fleet.kind == ARMY_FLEET:
                landing = ex.landings.get(d.sea)
                if d.sea in ex.busy or landing is None:
                    return False
                return self.decide(ex, landing)
            return True
        other_landings = [o for o in ex.landings.values() if o.dest == d.dest and o is not d]
        if any(o.strength >= d.strength for o in other_landings):
            return False
        there = self.board.get(d.dest)
        if there is None:
            return True
        leaving = ex.boardings.get(d.dest)
        if leaving is not None and self.decide(ex, leaving):
            return True
        if there.power == d.army_power:
            return False  # no unit dislodges one of its own power
        hold = 1
        if leaving is not None and self.rules.key_rule and leaving.sea != d.sea:
            hold = 0  # Key rule: it tried to leave and failed
        return d.strength > hold

    def apply_exchange(self, ex: _Exchange, scale: int) -> None:
        board = self.board
        verb = "landed" if scale == 1 else "disembarked"
        landed: list[tuple[_Landing, Unit]] = []
        for landing in ex.landings.values():
            carrier = board[landing.sea]
            if not landing.result:
                rivals = [o for o in ex.landings.values() if o.dest == landing.dest]
                reason = "bounced" if len(rivals) > 1 else f"{landing.dest.upper()} is held"
                self.set_result(landing.key, FAILURE, reason, scale)
                if len(rivals) > 1 and landing.dest not in board:
                    self.contested[scale].add(landing.dest)
                continue
            self.set_result(landing.key, SUCCESS, verb, scale)
            landed.append((landing, carrier))
        boarded: list[tuple[_Boarding, Unit]] = []
        for boarding in ex.boardings.values():
            for key in boarding.keys:
                if boarding.result:
                    self.set_result(key, SUCCESS, "", scale)
                else:
                    self.set_result(key, FAILURE, self.boarding_failure(ex, boarding), scale)
            if boarding.result:
                boarded.append((boarding, board[boarding.land]))
        for boarding, _army in boarded:
            del board[boarding.land]
        for landing, carrier in landed:
            there = board.get(landing.dest)
            if there is not None:
                self.dislodge(there, scale, landing.sea, landing.army_power)
            board[landing.sea] = make_unit(carrier.power, FLEET, carrier.loc)
            if self.map.provinces[landing.dest].terrain is Terrain.POLAR:
                self.dumped[landing.army_power] = self.dumped.get(landing.army_power, 0) + 1
                self.set_result(landing.key, SUCCESS, "dumped in the polar cap (rule 6.2)", scale)
            else:
                board[landing.dest] = make_unit(landing.army_power, ARMY, landing.dest)
            self.moved_into.setdefault(landing.dest, []).append(
                (scale, landing.army_power, landing.sea)
            )
            self.entered_by.setdefault(landing.sea, []).append((scale, landing.dest))
            if scale == 3:
                self.ts3_movers.add(landing.sea)
        for boarding, army in boarded:
            fleet = board[boarding.sea]
            partner = army.power if army.power != fleet.power else None
            board[boarding.sea] = make_unit(fleet.power, ARMY_FLEET, fleet.loc, partner)
            self.moved_into.setdefault(boarding.sea, []).append((scale, army.power, boarding.land))
            self.entered_by.setdefault(boarding.land, []).append((scale, boarding.sea))
            if scale == 3:
                self.ts3_movers.add(boarding.sea)
        if scale == 1:
            self.busy = set(ex.busy)

    def boarding_failure(self, ex: _Exchange, boarding: _Boarding) -> str:
        if any(b.sea == boarding.sea and b is not boarding for b in ex.boardings.values()):
            return f"two armies tried to board the fleet in {boarding.sea.upper()}"
        if boarding.sea in ex.busy:
            return "the fleet supported a landing and can take no army (rule 2.3)"
        return f"the fleet in {boarding.sea.upper()} still has an army aboard"

    # --- TS2, and the supplementary moves of TS3: the standard resolver -----------------------
    def standard_moves(self, scale: int, wanted: list[tuple[Key, Scaled]]) -> None:
        """Adjudicate moves, supports, holds and convoys with the standard resolver, each
        army/fleet standing as its fleet, and put the board back together after.

        A ferried army (rule 3 (b) to (d)) is carried by convoy from a space of its own beside
        its first fleet's sea (``~eng``), added to the board for this time scale only: the
        standard resolver then gives it the strength, supports and disruption of a convoyed
        army, and the fall-backs of rule 3 (c) put it back aboard where the move fails."""
        handed = self.hand_over(wanted) if scale == 2 else []
        # The board is kept by province; TS3 takes the units its moves concern, below.
        units = {p: _as_fleet(u) for p, u in self.board.items()} if scale == 2 else {}
        given: dict[str, list[object]] = {}
        keys: dict[str, list[Key]] = {}
        ferries: dict[str, _Ferry] = {}  # by the army's own space
        plain_chains: dict[Key, list[Key]] = {}
        if scale == 2:
            for key, scaled in wanted:
                order = scaled.order
                if not isinstance(order, (FastFerry, ChainConvoy)) or key in self.results:
                    continue
                army = self.board.get(province_of(order.army_loc))
                if isinstance(order, ChainConvoy) and army is not None and army.kind == ARMY:
                    plain_chains[key] = self.add_plain_convoy(key, order, given, keys)
                else:
                    self.add_ferry(key, order, units, given, keys, ferries)
        aliases = {f.named: f.space for f in ferries.values()}
        for key, scaled in wanted:
            if key in self.results or isinstance(scaled.order, (FastFerry, ChainConvoy)):
                continue
            why = self.check_standard(scale, scaled)
            if why:
                result, reason = why
                self.set_result(key, result, reason, scale)
                continue
            given.setdefault(key[0], []).append(_untyped(scaled.order, aliases))
            keys.setdefault(key[0], []).append(key)
        game_map = _with_ferry_spaces(self.map, ferries) if ferries else self.map
        kept: dict[str, Unit] = {}
        if scale == 3:
            # The supplementary moves go to sea spaces unsupported: only the units they move
            # and the ones where they go can matter, so the resolver is given those alone.
            relevant = {province_of(o.loc) for orders in given.values() for o in orders}  # type: ignore[attr-defined]
            relevant |= {
                province_of(o.dest)
                for orders in given.values()
                for o in orders
                if isinstance(o, Move)
            }
            for p, u in self.board.items():
                if p in relevant:
                    units[p] = _as_fleet(u)
                else:
                    kept[p] = u
        position = Position(phase="", units=tuple(units.values()))
        outcome = resolve_movement(game_map, position, given, self.rules)  # type: ignore[arg-type]
        # Index loops rather than zip(..., strict=True), which mypyc compiles as a call of the
        # zip type (the lists are the same length by construction).
        for power, power_keys in keys.items():
            power_results = outcome.results[power]
            for i, key in enumerate(power_keys):
                outcome_result = power_results[i]
                old = self.results.get(key)
                if old is not None and old.reason == _FERRY_FLEET:
                    continue  # a ferry's fleet: the ferry's own result is the army's
                self.results[key] = OrderResult(
                    outcome_result.result, in_players_words(outcome_result.reason), scale
                )
        for key, fleet_keys in plain_chains.items():
            worst = next(
                (self.results[k] for k in fleet_keys if self.results[k].result != SUCCESS),
                OrderResult(SUCCESS, "", scale),
            )
            self.results[key] = OrderResult(worst.result, worst.reason, scale)
            for fleet_key in fleet_keys:
                del self.results[fleet_key]
        self.note_supports(scale, given, keys)
        for power, power_orders in given.items():
            power_keys = keys[power]
            for i, order in enumerate(power_orders):
                key = power_keys[i]
                if isinstance(order, Move) and self.results[key].result == SUCCESS:
                    origin, dest = province_of(order.loc), province_of(order.dest)
                    origin = origin[1:] if origin.startswith("~") else origin
                    self.moved_into.setdefault(dest, []).append((scale, power, origin))
                    self.entered_by.setdefault(origin, []).append((scale, dest))
        board: dict[str, Unit] = dict(kept)
        stranded: dict[str, Unit] = {}
        for unit in outcome.units_after:
            prov = unit.province
            if prov.startswith("~"):
                stranded[prov] = unit
                continue
            board[prov] = _from_fleet(unit)
        dislodged_seas = {d.unit.province for d in outcome.dislodged}
        for space, ferry in ferries.items():
            army = stranded.get(space)
            for key in ferry.fleet_keys:
                self.results.pop(key, None)
            if army is None:
                continue  # landed, or dislodged with its carrier below
            home = ferry.fall_back(dislodged_seas, board)
            if home is None:
                continue
            fleet = board[home]
            partner = army.power if army.power != fleet.power else None
            board[home] = make_unit(fleet.power, ARMY_FLEET, fleet.loc, partner)
        self.board = board
        dislodged_units = [_from_fleet(d.unit) for d in outcome.dislodged]
        for hand in handed:
            self.fall_back_from_hand_over(hand, given, keys, dislodged_units)
        for i, d in enumerate(outcome.dislodged):
            unit = dislodged_units[i]
            carried = next((f for f in ferries.values() if f.seas[0] == unit.province), None)
            if (
                carried is not None
                and carried.space in stranded
                and carried.fall_back(dislodged_seas, board) is None
            ):
                army = stranded[carried.space]
                partner = army.power if army.power != unit.power else None
                unit = make_unit(unit.power, ARMY_FLEET, unit.loc, partner)
            attacker = d.attacker_from
            if attacker is not None and attacker.startswith("~"):
                attacker = attacker[1:]
            if unit.province.startswith("~"):
                continue
            self.dislodged.append(Dislodged(unit, attacker, d.attacker_convoyed, (), scale))
        self.contested[scale] |= set(outcome.contested)

    def hand_over(self, wanted: list[tuple[Key, Scaled]]) -> list[_HandOver]:
        """Rule 3 (d): a chain convoy to the sea of its last fleet puts the army aboard that
        fleet, which may move on with it in the same time scale (``F(NTH) & F(ENC) C A(Den) -
        ENC, A/F(ENC) - MAO``); the chain's fleets do nothing else."""
        out: list[_HandOver] = []
        for key, scaled in wanted:
            order = scaled.order
            if not isinstance(order, ChainConvoy) or key in self.results:
                continue
            seas = tuple(province_of(f) for f in order.fleet_locs)
            if province_of(order.dest) != seas[-1] or len(seas) < 2:
                continue
            carrier, last = self.board.get(seas[0]), self.board.get(seas[-1])
            if carrier is None or carrier.kind != ARMY_FLEET or carrier.power != key[0]:
                self.set_result(
                    key, VOID, f"no army aboard a fleet of {key[0]}'s in {seas[0].upper()}", 2
                )
                continue
            if (
                last is None
                or last.kind != FLEET
                or any((f := self.board.get(sea)) is None or f.kind != FLEET for sea in seas[1:-1])
            ):
                self.set_result(key, VOID, "the chain's fleets are not all there", 2)
                continue
            army = army_owner(carrier)
            self.board[seas[0]] = make_unit(carrier.power, FLEET, carrier.loc)
            self.board[seas[-1]] = make_unit(
                last.power, ARMY_FLEET, last.loc, army if army != last.power else None
            )
            self.set_result(key, SUCCESS, f"aboard the fleet in {seas[-1].upper()}", 2)
            out.append(_HandOver(key, army, seas))
        return out

    def fall_back_from_hand_over(
        self,
        hand: _HandOver,
        given: Mapping[str, list[object]],
        keys: Mapping[str, list[Key]],
        dislodged: list[Unit],
    ) -> None:
        """Rule 3 (c): a fleet of the chain dislodged leaves the army aboard the fleet before it
        (with the first fleet itself dislodged, the army goes with it)."""
        hit = [i for i, sea in enumerate(hand.seas) if any(u.province == sea for u in dislodged)]
        if not hit:
            return
        first_hit = hit[0]
        last = hand.seas[-1]
        where = last
        for power_orders, power_keys in ((given[p], keys[p]) for p in given):
            for i, order in enumerate(power_orders):
                key = power_keys[i]
                if (
                    isinstance(order, Move)
                    and province_of(order.loc) == last
                    and self.results[key].result == SUCCESS
                ):
                    where = province_of(order.dest)
        for i, unit in enumerate(dislodged):
            if unit.province == where and unit.kind == ARMY_FLEET:
                dislodged[i] = make_unit(unit.power, FLEET, unit.loc)
        carrying = self.board.get(where)
        if carrying is not None and carrying.kind == ARMY_FLEET and where != hand.seas[first_hit]:
            self.board[where] = make_unit(carrying.power, FLEET, carrying.loc)
        if first_hit == 0:
            for i, unit in enumerate(dislodged):
                if unit.province == hand.seas[0]:
                    partner = hand.army_power if hand.army_power != unit.power else None
                    dislodged[i] = make_unit(unit.power, ARMY_FLEET, unit.loc, partner)
            return
        home = self.board.get(hand.seas[first_hit - 1])
        if home is not None and home.kind == FLEET:
            partner = hand.army_power if hand.army_power != home.power else None
            self.board[home.province] = make_unit(home.power, ARMY_FLEET, home.loc, partner)

    def add_plain_convoy(
        self,
        key: Key,
        order: ChainConvoy,
        given: dict[str, list[object]],
        keys: dict[str, list[Key]],
    ) -> list[Key]:
        """Rule 3 (a): ``F(ENC) & F(MAO) C A(Lon) - Por`` for an army still on land is the
        regular convoy, one convoy order per fleet; the line's result is the worst of theirs."""
        fleet_keys: list[Key] = []
        for sea in order.fleet_locs:
            fleet = self.board.get(province_of(sea))
            owner = fleet.power if fleet is not None else key[0]
            fleet_key = (owner, -1000 - len(fleet_keys) - 10 * key[1])
            given.setdefault(owner, []).append(Convoy(None, sea, order.army_loc, order.dest))
            keys.setdefault(owner, []).append(fleet_key)
            fleet_keys.append(fleet_key)
        return fleet_keys

    def add_ferry(
        self,
        key: Key,
        order: FastFerry | ChainConvoy,
        units: dict[str, Unit],
        given: dict[str, list[object]],
        keys: dict[str, list[Key]],
        ferries: dict[str, _Ferry],
    ) -> None:
        """Check a fast ferry or chain convoy and give the resolver its army's convoyed move
        and the convoy orders of its fleets."""
        seas = (
            (province_of(order.fleet_loc),)
            if isinstance(order, FastFerry)
            else tuple(province_of(f) for f in order.fleet_locs)
        )
        first = seas[0]
        carrier = self.board.get(first)
        dest = province_of(order.dest)
        if carrier is None or carrier.kind != ARMY_FLEET:
            self.set_result(key, VOID, f"no army aboard a fleet in {first.upper()}", 2)
            return
        if carrier.power != key[0]:
            self.set_result(key, VOID, f"the fleet in {first.upper()} is not {key[0]}'s", 2)
            return
        if first in self.busy:
            self.set_result(
                key, VOID, "the fleet supported a landing in time scale 1: it waits until TS3", 2
            )
            return
        for sea in seas[1:]:
            fleet = self.board.get(sea)
            if fleet is None or fleet.kind != FLEET:
                self.set_result(key, VOID, f"no fleet in {sea.upper()} for the chain", 2)
                return
        if self.map.provinces[dest].terrain in (Terrain.SEA, Terrain.CANAL) or not any(
            self.fleet_touches(sea, dest) for sea in seas[-1:]
        ):
            self.set_result(
                key,
                ILLEGAL,
                f"the last fleet of the convoy cannot land an army in {dest.upper()}",
                2,
            )
            return
        space = "~" + first
        army_power = army_owner(carrier)
        ferry = _Ferry(key, space, province_of(order.army_loc), seas)
        ferries[space] = ferry
        units[first] = make_unit(carrier.power, FLEET, carrier.loc)
        units[space] = make_unit(army_power, ARMY, space)
        given.setdefault(army_power, []).append(Move(None, space, dest, True))
        keys.setdefault(army_power, []).append(key)
        for sea in seas:
            owner = units[sea].power
            given.setdefault(owner, []).append(Convoy(None, sea, space, dest))
            fleet_key = (owner, -1 - len(ferry.fleet_keys) - 100 * len(ferries))
            ferry.fleet_keys.append(fleet_key)
            keys.setdefault(owner, []).append(fleet_key)
            self.results[fleet_key] = OrderResult(VOID, _FERRY_FLEET, 2)

    def check_standard(self, scale: int, scaled: Scaled) -> tuple[str, str] | None:
        order = scaled.order
        if not isinstance(order, (Hold, Move, Support, Convoy)):
            return ILLEGAL, _misplaced(order, scale)
        prov = province_of(order.loc)
        unit = self.board.get(prov)
        if unit is None:
            return VOID, f"no unit in {prov.upper()}"
        why = self.wrong_type(order.unit_type, unit)
        if why:
            return ILLEGAL, why
        if isinstance(order, Support):
            target = self.board.get(province_of(order.target))
            if target is not None:
                why = self.wrong_type(order.target_type, target)
                if why:
                    return ILLEGAL, why
        if (
            isinstance(order, Move)
            and unit.kind != ARMY
            and self.map.provinces[province_of(order.dest)].terrain is Terrain.POLAR
        ):
            return ILLEGAL, "the polar caps are impassable for fleets and army/fleets (rule 6.2)"
        if (
            isinstance(order, Move)
            and unit.kind == ARMY_FLEET
            and not self.is_sea_or_canal(province_of(order.dest))
        ):
            return ILLEGAL, "an army/fleet moves only to sea and canal provinces (rule 2.2)"
        if scale == 2 and prov in self.busy:
            return VOID, "the fleet supported a landing in time scale 1: it waits until TS3"
        if scale == 3:
            if isinstance(order, (Support, Convoy)):
                return ILLEGAL, "no supports or convoys in time scale 3 (rule 2.5)"
            if isinstance(order, Move):
                if prov not in self.ts3_movers:
                    return (
                        ILLEGAL,
                        "in time scale 3 only a fleet that disembarked an army or an army/fleet "
                        "formed by embarking may move (rule 2.5)",
                    )
                if self.map.provinces[province_of(order.dest)].terrain is not Terrain.SEA:
                    return ILLEGAL, "moves in time scale 3 are to sea spaces only (rule 2.5)"
        return None

    def note_supports(
        self, scale: int, given: Mapping[str, list[object]], keys: Mapping[str, list[Key]]
    ) -> None:
        """Where each successful move was supported from (rule 4 (g) 2)."""
        for power, power_orders in given.items():
            power_keys = keys[power]
            for i, order in enumerate(power_orders):
                key = power_keys[i]
                if (
                    isinstance(order, Support)
                    and order.dest
                    and self.results[key].result == SUCCESS
                ):
                    target = (scale, province_of(order.dest))
                    self.attack_support.setdefault(target, set()).add(province_of(order.loc))

    # --- TS3's legality guideline (rule 2.5) --------------------------------------------------
    def double_options(self) -> None:
        """An army (or fleet) that could meet more than one embarkation or disembarkation order
        of its power, by the places it might be at the start of TS3, hedges its bets: all
        those orders are illegal (rule 2.5 (b))."""
        counts: dict[str, int] = {}
        for key, s in self.scales[3]:
            if isinstance(s.order, (Embark, Disembark)):
                counts[key[0]] = counts.get(key[0], 0) + 1
        # A unit meets orders of its own power only: a power with one such order hedges none.
        hedging = {power for power, count in counts.items() if count > 1}
        if not hedging:
            return
        places = self.possible_places(set(counts), hedging)
        by_spot: dict[tuple[str, str, str], list[tuple[str, str, str]]] = {}
        for ident, where in places.items():
            for spot in where:
                by_spot.setdefault((ident[0], ident[1], spot), []).append(ident)
        claims: dict[tuple[str, str, str], set[Key]] = {}
        for key, scaled in self.scales[3]:
            order = scaled.order
            if isinstance(order, Embark):
                spots = [("A", province_of(order.army_loc)), ("F", province_of(order.fleet_loc))]
            elif isinstance(order, Disembark):
                spots = [("A", province_of(order.army_loc))]
            else:
                continue
            for kind, spot in spots:
                for ident in by_spot.get((kind, key[0], spot), ()):
                    claims.setdefault(ident, set()).add(key)
        for ident, keys in claims.items():
            if len(keys) > 1 and len(places[ident]) > 1:
                for key in keys:
                    self.set_result(
                        key,
                        ILLEGAL,
                        "a double option: the same unit could meet more than one of these "
                        "orders (rule 2.5)",
                        3,
                    )

    def possible_places(
        self, powers: set[str], wanted: set[str]
    ) -> dict[tuple[str, str, str], set[str]]:
        """(kind, power, where it began) -> every province it might be in at the start of TS3,
        by the orders of TS1 and TS2 of `powers`, whether they succeed or fail, for the units
        of the `wanted` powers; a unit that none of them moves is left out (it has one
        place)."""
        start = self.moments[0]
        places: dict[tuple[str, str, str], set[str]] = {}
        moves: dict[str, set[str]] = {}
        for key, scaled in self.scales[1] + self.scales[2]:
            if key[0] not in powers:
                continue
            order = scaled.order
            if isinstance(order, Land):
                moves.setdefault(province_of(order.army_loc), set()).add(province_of(order.dest))
            elif isinstance(order, Board):
                moves.setdefault(province_of(order.army_loc), set()).add(
                    province_of(order.fleet_loc)
                )
            elif isinstance(order, Move):
                moves.setdefault(province_of(order.loc), set()).add(province_of(order.dest))
        for unit in start:
            if unit.power not in wanted and (unit.army_power or unit.power) not in wanted:
                continue
            if unit.province not in moves:
                continue  # one place only: it can hedge no bets (double_options asks for two)
            kinds = [ARMY, FLEET] if unit.kind == ARMY_FLEET else [unit.kind]
            for kind in kinds:
                power = army_owner(unit) if kind == ARMY and unit.kind == ARMY_FLEET else unit.power
                if power not in wanted:
                    continue
                where = {unit.province}
                frontier = [unit.province]
                while frontier:  # a landing then a TS2 move, or a move carrying the army
                    here = frontier.pop()
                    for there in moves.get(here, ()):
                        if there not in where:
                            where.add(there)
                            frontier.append(there)
                places[(kind, power, unit.province)] = where
        return places

    # --- the month ----------------------------------------------------------------------------
    def place_spares(self) -> None:
        """Rule 9: each power's spare units, placed in vacant home or special provinces before
        the first month's moves (and only then); a spare not placed by its order is lost."""
        placed = self.placed
        for key, order in self.spares:
            power = key[0]
            info = self.map.powers.get(power)
            prov = province_of(order.loc)
            allowed = 0 if info is None else info.spare_units
            if not self.first_month:
                why = "a spare unit is placed before the first month's moves only"
            elif placed.get(power, 0) >= allowed:
                why = f"{power} has {allowed or 'no'} spare unit{'' if allowed == 1 else 's'}"
            elif info is None or prov not in (
                info.home_centres | info.home_provinces | info.build_only
            ):
                why = f"{prov.upper()} is neither a home nor a special province of {power}"
            elif prov in self.board:
                why = f"{prov.upper()} is occupied"
            elif (
                order.unit_type == ARMY
                and self.map.army_may_be_at(prov)
                or order.unit_type == FLEET
                and self.map.fleet_may_be_at(order.loc)
            ):
                why = ""
            else:
                why = f"{_KIND_WORDS.get(order.unit_type or '', 'a unit')} cannot stand in {order.loc.upper()}"
            if why:
                self.set_result(
                    key, ILLEGAL if "cannot" in why or "neither" in why else VOID, why, 0
                )
                continue
            placed[power] = placed.get(power, 0) + 1
            loc = prov if order.unit_type == ARMY else order.loc
            self.board[prov] = make_unit(power, order.unit_type or ARMY, loc)
            self.set_result(key, SUCCESS, "placed", 0)
        if placed:
            self.moments[0] = tuple(self.board.values())

    def run(self) -> None:
        self.place_spares()
        ex = self.read_exchange(1)
        self.settle_exchange(ex, 1)
        self.snapshot()
        self.standard_moves(2, self.scales[2])
        self.snapshot()
        self.double_options()
        ex = self.read_exchange(3)
        self.settle_exchange(ex, 3)
        supplementary = [
            (key, scaled)
            for key, scaled in self.scales[3]
            if isinstance(scaled.order, (Move, Hold)) and key not in self.results
        ]
        self.standard_moves(3, supplementary)
        self.snapshot()
        self.dislodged = [self.with_retreats(d) for d in self.dislodged]

    # --- rule 4: where a dislodged unit may go ------------------------------------------------
    def with_retreats(self, d: Dislodged) -> Dislodged:
        unit, scale = d.unit, d.time_scale
        prov = unit.province
        attacker_from = d.attacker_from or ""
        barred = {prov, attacker_from}  # (h), (g) 1
        barred |= self.attack_support.get((scale, prov), set())  # (g) 2
        frontier = [(scale, prov)]
        while frontier:  # (g) 3: where the dislodging piece went on in later time scales
            after, here = frontier.pop()
            for later_scale, entered in self.entered_by.get(here, []):
                if later_scale > after and entered not in barred:
                    barred.add(entered)
                    frontier.append((later_scale, entered))
        for _s, power, origin in self.moved_into.get(prov, []):
            if power != unit.power:
                barred.add(origin)  # (g) 4: spaces vacated by foreign units moving in
        stood_off = self.contested[scale]  # (i): other time scales' stand-offs are allowed
        occupied = set(self.board)
        key_rule_ts3 = scale == 3
        options: list[str] = []
        if unit.kind == ARMY:
            candidates = sorted(self.map.army_edges.get(prov, ()))
        else:
            candidates = sorted(self.map.fleet_edges.get(unit.loc, ()))
        for loc in candidates:
            there = province_of(loc)
            if there in barred or there in occupied or there in stood_off:
                continue
            terrain = self.map.provinces[there].terrain
            if terrain is Terrain.POLAR:
                continue  # 6.2: the caps are impassable for fleets and army/fleets
            if unit.kind == ARMY_FLEET and terrain not in (Terrain.SEA, Terrain.CANAL):
                continue  # an army/fleet retreats intact to sea or canal; its army alone lands
            if key_rule_ts3 and terrain is not Terrain.SEA:
                continue  # (f)
            options.append(loc)
        if unit.kind == ARMY_FLEET and not key_rule_ts3:
            for there in sorted(self.topo.fleet_reach.get(prov, ())):
                if there in barred or there in occupied or there in stood_off:
                    continue
                if self.map.army_may_be_at(there) and there not in options:
                    options.append(there)  # (c): the army lands alone, the fleet goes after
        return Dislodged(unit, d.attacker_from, d.attacker_convoyed, tuple(options), scale)


def _misplaced(order: object, scale: int) -> str:
    where = {
        Land: 1,
        Board: 1,
        SupportLanding: 1,
        FastFerry: 2,
        ChainConvoy: 2,
        Convoy: 2,
        Support: 2,
        Embark: 3,
        Disembark: 3,
    }.get(type(order))
    if where is None:
        return f"not an order for time scale {scale}"
    return f"this order belongs in time scale {where}, not time scale {scale}"


def _as_fleet(unit: Unit) -> Unit:
    if unit.kind != ARMY_FLEET:
        return unit
    return make_unit(unit.power, FLEET, unit.loc, _AF_MARK + (unit.army_power or ""))


def _from_fleet(unit: Unit) -> Unit:
    mark = unit.army_power
    if mark is None or not mark.startswith(_AF_MARK):
        return unit
    return make_unit(unit.power, ARMY_FLEET, unit.loc, mark[len(_AF_MARK) :] or None)


def _untyped(order: object, aliases: Mapping[str, str]) -> object:
    """The order as the standard resolver takes it: the types were checked here already; a
    support of a ferried army, named where it began the month, is given to its own space."""
    if isinstance(order, Hold):
        return Hold(None, order.loc)
    if isinstance(order, Move):
        return Move(None, order.loc, order.dest, order.via_convoy)
    if isinstance(order, Support):
        target = (
            aliases.get(province_of(order.target), order.target) if order.dest else order.target
        )
        return Support(None, order.loc, None, target, order.dest)
    assert isinstance(order, Convoy)
    return Convoy(None, order.loc, order.army_loc, order.dest)


def resolve_month(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Scaled]], rules: Rules
) -> MonthOutcome:
    """Adjudicate time scales 1 to 3 of one month."""
    month = _Month(game_map, position, orders, rules)
    month.run()
    return MonthOutcome(
        results=month.results,
        units_after=tuple(month.board.values()),
        dislodged=tuple(month.dislodged),
        contested=frozenset(set().union(*month.contested.values())),
        dumped=month.dumped,
        moments=tuple(month.moments),
        spares=month.placed,
    )
