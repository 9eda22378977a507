"""Random boards and random orders: the engine always answers, and its answers hang together.

Each phase keeps the invariants a results mail relies on: one result per order, one unit per
province, every unit accounted for (still on the board, or dislodged with somewhere empty to go).
"""

from __future__ import annotations

import random

import pytest

from judge.engine.adjudicate import adjudicate
from judge.engine.geography import Map
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive
from judge.engine.position import Position, Unit, province_of
from judge.engine.rules import rules_from_names
from judge.map_files import load_map

RULE_SETS = ([], ["postal-1972"], ["key-rule"], ["postal-1972", "key-rule"])


def random_board(game_map: Map, rng: random.Random, count: int) -> tuple[Unit, ...]:
    powers = sorted(game_map.powers)
    spots = [("A", p) for p in game_map.provinces if game_map.army_may_be_at(p)]
    spots += [("F", loc) for loc in game_map.fleet_edges]
    rng.shuffle(spots)
    taken: set[str] = set()
    units = []
    for kind, loc in spots:
        if province_of(loc) in taken:
            continue
        taken.add(province_of(loc))
        units.append(Unit(rng.choice(powers), kind, loc))
        if len(units) == count:
            break
    return tuple(units)


def legal_moves(game_map: Map, unit: Unit) -> list[str]:
    if unit.kind == "A":
        return sorted(game_map.army_edges.get(unit.province, ()))
    return sorted(game_map.fleet_edges.get(unit.loc, ()))


def random_orders(
    game_map: Map, rng: random.Random, units: tuple[Unit, ...]
) -> dict[str, list[Order]]:
    """Mostly sensible orders (moves, supports of what others do, convoys) and some nonsense."""
    chosen: dict[Unit, Order] = {}
    for unit in units:
        moves = legal_moves(game_map, unit)
        if moves and rng.random() < 0.6:
            chosen[unit] = Move(unit.kind, unit.loc, rng.choice(moves), rng.random() < 0.05)
        else:
            chosen[unit] = Hold(unit.kind, unit.loc)
    by_prov = {u.province: u for u in units}
    for unit in units:
        pick = rng.random()
        near = [by_prov[p] for p in sorted(game_map.adjacent_provinces(unit.loc)) if p in by_prov]
        if pick < 0.3 and near:
            other = rng.choice(near)
            order = chosen[other]
            if isinstance(order, Move) and province_of(order.dest) in game_map.adjacent_provinces(
                unit.loc
            ):
                chosen[unit] = Support(
                    None, unit.loc, other.kind, other.loc, province_of(order.dest)
                )
            else:
                chosen[unit] = Support(None, unit.loc, other.kind, other.loc)
        elif pick < 0.4 and unit.kind == "F" and near:
            army = rng.choice(near)
            chosen[unit] = Convoy("F", unit.loc, army.loc, rng.choice(sorted(game_map.provinces)))
        elif pick < 0.5:
            anywhere = sorted(game_map.provinces)
            other = rng.choice(units)
            chosen[unit] = rng.choice(
                [
                    Move(
                        rng.choice([None, "A", "F"]),
                        unit.loc,
                        rng.choice(anywhere),
                        rng.random() < 0.5,
                    ),
                    Support(None, unit.loc, None, other.loc, rng.choice(anywhere)),
                    Convoy(None, unit.loc, other.loc, rng.choice(anywhere)),
                    Build("A", unit.loc),
                    Retreat(None, unit.loc, rng.choice(anywhere)),
                    Disband(None, unit.loc),
                ]
            )
    orders: dict[str, list[Order]] = {}
    for unit in units:
        if rng.random() < 0.95:
            orders.setdefault(unit.power, []).append(chosen[unit])
    return orders


def check_movement(
    game_map: Map, position: Position, orders: dict[str, list[Order]], rules
) -> None:
    result = adjudicate(game_map, position, orders, rules)
    for power, given in orders.items():
        assert len(result.results[power]) == len(given)
        assert all(
            r.result in ("success", "failure", "illegal", "void") for r in result.results[power]
        )
    provinces = [u.province for u in result.units_after]
    assert len(provinces) == len(set(provinces)), "two units in one province"
    assert len(result.units_after) + len(result.dislodged) == len(position.units)
    occupied = set(provinces)
    for d in result.dislodged:
        assert d.unit.province in occupied, "a unit is dislodged only by a unit that arrived"
        for loc in d.retreats:
            assert province_of(loc) not in occupied and province_of(loc) not in result.contested
    if result.dislodged:
        retreat_orders: dict[str, list[Order]] = {}
        for d in result.dislodged:
            options = list(d.retreats) or [d.unit.province]
            retreat_orders.setdefault(d.unit.power, []).append(
                Retreat(None, d.unit.loc, options[0]) if d.retreats else Disband(None, d.unit.loc)
            )
        after = adjudicate(
            game_map,
            Position(
                result.next_phase,
                result.units_after,
                result.centers_after,
                result.dislodged,
                result.contested,
            ),
            retreat_orders,
            rules,
        )
        provinces = [u.province for u in after.units_after]
        assert len(provinces) == len(set(provinces))
        assert len(after.units_after) + len(after.disbanded) == len(position.units)


@pytest.mark.parametrize("seed", range(40))
def test_random_movement_phases_hold_together(seed: int) -> None:
    rng = random.Random(seed)
    game_map = load_map("standard" if seed % 4 else "youngstown")
    rules = rules_from_names(RULE_SETS[seed % len(RULE_SETS)])
    for _ in range(10):
        units = random_board(game_map, rng, rng.randint(8, 45))
        orders = random_orders(game_map, rng, units)
        phase = rng.choice(["S1901M", "F1901M"])
        check_movement(game_map, Position(phase, units), orders, rules)


@pytest.mark.parametrize("seed", range(10))
def test_random_adjustments_hold_together(seed: int) -> None:
    rng = random.Random(1000 + seed)
    game_map = load_map("standard")
    units = random_board(game_map, rng, rng.randint(10, 30))
    centres = sorted(game_map.supply_centres())
    rng.shuffle(centres)
    owners: dict[str, set[str]] = {}
    for centre in centres[: rng.randint(10, 34)]:
        owners.setdefault(rng.choice(sorted(game_map.powers)), set()).add(centre)
    centers = {p: frozenset(c) for p, c in owners.items()}
    orders: dict[str, list[Order]] = {}
    for power in game_map.powers:
        for _ in range(rng.randint(0, 4)):
            home = rng.choice(sorted(game_map.powers[power].home_centres))
            orders.setdefault(power, []).append(
                rng.choice(
                    [
                        Build("A", home),
                        Build("F", home),
                        Waive(),
                        Disband(None, rng.choice(units).loc),
                    ]
                )
            )
    result = adjudicate(game_map, Position("W1901A", units, centers), orders, rules_from_names([]))
    provinces = [u.province for u in result.units_after]
    assert len(provinces) == len(set(provinces))
    for power in game_map.powers:
        have = sum(1 for u in result.units_after if u.power == power)
        before = sum(1 for u in units if u.power == power)
        owned = len(centers.get(power, ()))
        if before > owned:
            assert have == owned, f"{power} must come down to its {owned} centres"
        else:
            assert before <= have <= owned
