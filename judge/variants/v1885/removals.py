"""The GM's removals for a power that orders fewer than it owes (1885 rule 10 c, A/F module IV c).

Rule 10 c asks the GM to remove "the unit or units which would have the least effect on the
course of the game", fleets before armies and away units before home units only where that
gifts no centre. Made a rule that always gives one answer, each removal takes, of the power's
pieces (an army, a fleet, or the army aboard an army/fleet: IV c lets the GM take the army and
leave the fleet, where taking the fleet would lose both), the first by:

1. the fewest of the power's supply centres it guards that another power could take next move:
   the centre it stands in, or one it could move to (an army aboard: any land on its sea's
   coast), where a unit of another power stands next to that centre by its own kind of move;
   a piece that guards none gifts nothing when it goes;
2. an army aboard an army/fleet before any other piece (IV c);
3. the furthest from the power's own centres (moves of either kind, as the 2023 rule counts);
4. a fleet before an army (the rulebook's order);
5. the province's name, alphabetically.

Pure: the engine and the standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.engine.adjustments import distance_to
from judge.engine.geography import Map
from judge.engine.position import Unit
from judge.engine.topology import topology

ARMY, FLEET, ARMY_FLEET = "A", "F", "AF"


def reach(game_map: Map, kind: str, loc: str) -> frozenset[str]:
    """The provinces a unit of `kind` at `loc` could move to next move (an army aboard an
    army/fleet: the lands of its sea's coast)."""
    topo = topology(game_map)
    prov = loc.split("/")[0]
    if kind == ARMY:
        return frozenset(game_map.army_edges.get(prov, ()))
    fleet = frozenset(d.split("/")[0] for d in game_map.fleet_edges.get(loc, ()))
    if kind == "army aboard":
        return frozenset(p for p in topo.fleet_reach.get(prov, ()) if game_map.army_may_be_at(p))
    return fleet


def threatened_centres(
    game_map: Map, units: Sequence[Unit], power: str, owned: frozenset[str]
) -> frozenset[str]:
    """The power's centres a unit of another power could move into next move."""
    out: set[str] = set()
    for unit in units:
        if unit.power == power:
            continue
        out |= reach(game_map, FLEET if unit.kind == ARMY_FLEET else unit.kind, unit.loc) & owned
        if unit.kind == ARMY_FLEET:
            out |= reach(game_map, "army aboard", unit.loc) & owned
    return frozenset(out)


def gm_removals(
    game_map: Map,
    units: Sequence[Unit],
    power: str,
    count: int,
    owned: frozenset[str],
) -> tuple[list[Unit], list[Unit]]:
    """The board after taking `count` of the power's units off by the rule above, and the units
    (or armies aboard) taken off."""
    board = list(units)
    removed: list[Unit] = []
    for _ in range(count):
        threatened = threatened_centres(game_map, board, power, owned)
        best: tuple[tuple[int, int, int, int, str], int, bool] | None = None
        for index, unit in enumerate(board):
            if unit.power != power:
                continue
            army_aboard = unit.kind == ARMY_FLEET
            kind = "army aboard" if army_aboard else unit.kind
            guards = (reach(game_map, kind, unit.loc) | {unit.province}) & threatened
            key = (
                len(guards),
                0 if army_aboard else 1,
                -distance_to(game_map, unit.province, owned),
                0 if unit.kind != ARMY else 1,
                game_map.provinces[unit.province].name.lower(),
            )
            if best is None or key < best[0]:
                best = (key, index, army_aboard)
        if best is None:
            break
        _key, index, army_aboard = best
        unit = board[index]
        if army_aboard:
            board[index] = Unit(unit.power, FLEET, unit.loc)
            removed.append(Unit(unit.power, ARMY, unit.loc))
        else:
            del board[index]
            removed.append(unit)
    return board, removed


def unit_counts(units: Sequence[Unit]) -> dict[str, int]:
    """Units on the board per power: an army/fleet is two units (A/F module II a)."""
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit.power] = counts.get(unit.power, 0) + (2 if unit.kind == ARMY_FLEET else 1)
    return counts


def owned_centres(centers: Mapping[str, frozenset[str]], power: str) -> frozenset[str]:
    return centers.get(power, frozenset())
