"""Tables derived once per map that the resolver asks often: neighbours and convoy reach."""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from judge.engine.geography import Map, Terrain
from judge.engine.position import province_of


class Topology:
    """Province-level neighbourhoods of a map; built once and kept on the map value."""

    def __init__(self, game_map: Map) -> None:
        self.map = game_map
        neighbours: dict[str, set[str]] = {p: set() for p in game_map.provinces}
        fleet_reach: dict[str, set[str]] = {p: set() for p in game_map.provinces}
        for src, dests in game_map.army_edges.items():
            neighbours[src].update(dests)
        for src, dests in game_map.fleet_edges.items():
            prov = province_of(src)
            provs = {province_of(d) for d in dests}
            neighbours[prov].update(provs)
            fleet_reach[prov].update(provs)
        self.neighbours = {p: frozenset(n) for p, n in neighbours.items()}
        self.fleet_reach = {p: frozenset(n) for p, n in fleet_reach.items()}
        self.seas = frozenset(
            p for p, prov in game_map.provinces.items() if prov.terrain is Terrain.SEA
        )
        # (unit type, location) pairs a unit may stand on: armies on land, fleets at sea and
        # on coasts, army/fleets wherever a fleet may be.
        self.placements = frozenset(
            [("A", p) for p in game_map.provinces if game_map.army_may_be_at(p)]
            + [(kind, loc) for loc in game_map.fleet_edges for kind in ("F", "AF")]
        )
        self.supply_centres = game_map.supply_centres()
        # (fleet location, province) -> the locations in the province that fleet may move to
        # (Map.fleet_targets), and an army's neighbours: the resolver's per-order questions.
        self.fleet_targets: dict[tuple[str, str], tuple[str, ...]] = {
            (loc, prov): game_map.fleet_targets(loc, prov)
            for loc, dests in game_map.fleet_edges.items()
            for prov in {province_of(d) for d in dests}
        }
        self.army_edges: dict[str, frozenset[str]] = dict(game_map.army_edges)
        # Provinces an army may stand in (Map.army_may_be_at, asked once per province here).
        self.army_places = frozenset(p for p in game_map.provinces if game_map.army_may_be_at(p))
        self.convoy_possible = lru_cache(maxsize=None)(self._convoy_possible)

    def _sea_component(self, start: str) -> frozenset[str]:
        """Seas reachable by a chain of fleets starting next to `start`."""
        seen: set[str] = set()
        queue = deque(s for s in self.fleet_reach[start] if s in self.seas)
        seen.update(queue)
        while queue:
            sea = queue.popleft()
            for nxt in self.fleet_reach[sea]:
                if nxt in self.seas and nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return frozenset(seen)

    def _convoy_possible(self, src: str, dst: str) -> bool:
        """Could some chain of fleets carry an army from `src` to `dst`?"""
        if src == dst or not self.map.army_may_be_at(dst):
            return False
        return any(dst in self.fleet_reach[sea] for sea in self._sea_component(src))


def topology(game_map: Map) -> Topology:
    """The map's derived tables, built on first use and memoised on the map value itself."""
    cached = game_map.__dict__.get("_topology")
    if cached is None:
        cached = Topology(game_map)
        object.__setattr__(game_map, "_topology", cached)
    return cached
