"""The GM's removals for a power that orders too few (Mercator rule 7).

The units furthest from the power's home supply centres go first (counting moves over land and
sea alike, as the standard civil-disorder rule does); "home" includes the colonies a board
names (a power's `colonies`: Cambodia for France), never special provinces. Ties are broken, in
order, by: (1) units in provinces that are not supply centres; (2) fleets without armies
aboard; (3) armies from army/fleets; (4) fleets whose armies have been taken off (by (3), in
the same removals); (5) armies on land; (6) the province's abbreviation in alphabetical order.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.engine.adjustments import distance_to
from judge.engine.geography import Map
from judge.engine.position import Unit

ARMY, FLEET, ARMY_FLEET = "A", "F", "AF"


def gm_removals(
    game_map: Map, units: Sequence[Unit], power: str, count: int
) -> tuple[list[Unit], list[Unit]]:
    """The board after taking `count` of the power's units off by rule 7, and the units (or
    parts of army/fleets) taken off."""
    info = game_map.powers.get(power)
    homes = info.home_centres | info.colonies if info is not None else frozenset()
    centres = game_map.supply_centres()
    board = list(units)
    removed: list[Unit] = []
    for _ in range(count):
        best: tuple[tuple[int, int, int, str], int, str] | None = None
        for index, unit in enumerate(board):
            for tier, part in _pieces(unit, power, removed):
                key = (
                    -distance_to(game_map, unit.province, homes),
                    0 if unit.province not in centres else 1,
                    tier,
                    unit.province,
                )
                if best is None or key < best[0]:
                    best = (key, index, part)
        if best is None:
            break
        _key, index, part = best
        unit = board[index]
        if part == "army" and unit.kind == ARMY_FLEET:
            board[index] = Unit(unit.power, FLEET, unit.loc)
            removed.append(Unit(power, ARMY, unit.loc))
        else:
            del board[index]
            removed.append(
                Unit(unit.power, FLEET if unit.kind == ARMY_FLEET else unit.kind, unit.loc)
            )
            if unit.kind == ARMY_FLEET:  # its army goes with it
                removed.append(Unit(unit.army_power or unit.power, ARMY, unit.loc))
    return board, removed


def _pieces(unit: Unit, power: str, removed: Sequence[Unit]) -> list[tuple[int, str]]:
    """The parts of `unit` that are `power`'s to lose, each with its tie-break tier."""
    if unit.kind == ARMY:
        return [(5, "unit")] if unit.power == power else []
    if unit.kind == FLEET:
        if unit.power != power:
            return []
        emptied = any(r.kind == ARMY and r.loc == unit.loc for r in removed)
        return [(4 if emptied else 2, "unit")]
    out: list[tuple[int, str]] = []
    if (unit.army_power or unit.power) == power:
        out.append((3, "army"))
    if unit.power == power and unit.army_power not in (None, power):
        out.append((4, "unit"))
    return out
