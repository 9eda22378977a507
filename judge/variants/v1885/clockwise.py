"""Just's right-hand rule (1885 rule 10 a): where the GM retreats a dislodged unit that has no
retreat order, read from each province's neighbours in clockwise order (the board's `around`).

The unit faces the side its attacker came from (the attacker's province; for an army landed
from an army/fleet or carried by the Fast Ferry, the sea it came over); turning to its right,
it takes the first province, going clockwise round its own from the one it faces, to which it
may retreat. The province it faces comes last. An army/fleet looks for a sea first (A/F module
IV a, e: "the nearest sea space in accordance with the Right-Hand Rule"), and only if no sea is
open for a coast, where its fleet alone survives. A unit dislodged by no one it can face (none
is recorded) starts from the first neighbour listed.

A board without the clockwise order of a province (the standard board) has its neighbours
taken in the alphabetical order of their codes instead, so the rule is the same everywhere
and every result can be worked out by hand.

Pure: the engine and the standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.engine.geography import Map, Terrain
from judge.engine.position import Dislodged, province_of
from judge.engine.topology import topology

ARMY_FLEET = "AF"


def clockwise(game_map: Map, prov: str) -> tuple[str, ...]:
    """The province's neighbours in clockwise order, as the board gives them (`around`), else
    in the alphabetical order of their codes."""
    province = game_map.provinces.get(prov)
    around: tuple[str, ...] = tuple(getattr(province, "around", ()) or ())
    if around:
        return around
    return tuple(sorted(topology(game_map).neighbours.get(prov, ())))


def right_hand_order(game_map: Map, prov: str, facing: str | None) -> list[str]:
    """The neighbours of `prov` in the order the right-hand rule tries them: clockwise from the
    one after `facing`, `facing` last; from the first listed when it faces none of them."""
    ring = list(dict.fromkeys(clockwise(game_map, prov)))
    if facing is not None and facing in ring:
        at = ring.index(facing)
        ring = ring[at + 1 :] + ring[: at + 1]
    return ring


def right_hand_retreat(
    game_map: Map, d: Dislodged, options: Sequence[str], facing: str | None
) -> str | None:
    """Where the right-hand rule retreats `d` among the places it may go (`options`, locations),
    or None when it may go nowhere."""
    if not options:
        return None
    by_prov: dict[str, str] = {}
    for loc in sorted(options):
        by_prov.setdefault(province_of(loc), loc)
    ring = right_hand_order(game_map, d.unit.province, facing)
    ring += sorted(p for p in by_prov if p not in ring)  # a board's order that misses one
    if d.unit.kind == ARMY_FLEET:
        seas = [p for p in ring if p in by_prov and _is_sea(game_map, p)]
        if seas:
            return by_prov[seas[0]]
    for prov in ring:
        if prov in by_prov:
            return by_prov[prov]
    return None


def _is_sea(game_map: Map, prov: str) -> bool:
    return game_map.provinces[prov].terrain is Terrain.SEA
