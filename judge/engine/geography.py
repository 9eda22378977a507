"""The board: provinces, coasts, adjacency, centres, homes and the special spaces of variants.

A `Map` is an immutable value built once per map file (see judge/map_files.py for reading
files, and `build_map` for turning plain data into a checked Map). Locations are province
codes in lower case; a fleet on a multi-coast province is at ``"prov/coast"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from judge.engine.position import Unit, province_of


class Terrain(str, Enum):
    LAND = "land"  # inland: armies only
    COAST = "coast"  # armies, and fleets along its coast(s)
    SEA = "sea"  # fleets only; fleets here may convoy
    CANAL = "canal"  # a land province through which fleets pass between two seas
    POLAR = "polar"  # passable by the units its adjacency lists allow; never a centre
    IMPASSABLE = "impassable"  # nothing enters (Switzerland)


class MapError(ValueError):
    """A map file that cannot be used, with the province and the fault named."""


@dataclass(frozen=True, slots=True)
class Province:
    code: str
    name: str
    terrain: Terrain
    coasts: tuple[str, ...] = ()  # named coasts of a multi-coast province ("nc", "sc")
    supply_centre: bool = False
    aliases: tuple[str, ...] = ()
    portals: Mapping[int, str] = field(default_factory=dict)  # Algernon: portal number -> province

    @property
    def is_water(self) -> bool:
        return self.terrain is Terrain.SEA


@dataclass(frozen=True, slots=True)
class Power:
    name: str  # upper case: "ENGLAND"
    adjective: str  # "English"
    letter: str  # njudge's one-letter code: "E"
    home_centres: frozenset[str]
    build_sites: frozenset[str]  # where this power may build (homes, plus any extra build centres)
    starting_units: tuple[Unit, ...]


@dataclass(frozen=True)
class Map:
    name: str
    title: str
    provinces: Mapping[str, Province]
    powers: Mapping[str, Power]
    army_edges: Mapping[str, frozenset[str]]  # province -> provinces an army may move to
    fleet_edges: Mapping[str, frozenset[str]]  # location -> locations a fleet may move to
    victory_centres: int
    calendar: str = "standard"
    start_phase: str = "S1901M"
    # Strait crossings and four-way meets: pairs of (province, province) moves that cross.
    crossings: tuple[tuple[tuple[str, str], tuple[str, str]], ...] = ()

    # --- questions the resolver and the parser ask -------------------------------------------
    def supply_centres(self) -> frozenset[str]:
        return frozenset(c for c, p in self.provinces.items() if p.supply_centre)

    def coasts_of(self, province: str) -> tuple[str, ...]:
        return self.provinces[province].coasts

    def is_location(self, loc: str) -> bool:
        prov = province_of(loc)
        if prov not in self.provinces:
            return False
        if prov == loc:
            return True
        return loc[len(prov) + 1 :] in self.provinces[prov].coasts

    def army_may_be_at(self, province: str) -> bool:
        p = self.provinces.get(province)
        return p is not None and province in self.army_edges and p.terrain is not Terrain.SEA

    def fleet_may_be_at(self, loc: str) -> bool:
        return loc in self.fleet_edges

    def army_adjacent(self, src: str, dst: str) -> bool:
        return dst in self.army_edges.get(province_of(src), ())

    def fleet_adjacent(self, src: str, dst: str) -> bool:
        return dst in self.fleet_edges.get(src, ())

    def fleet_targets(self, src: str, province: str) -> tuple[str, ...]:
        """The locations in `province` a fleet at `src` may move to (several if multi-coast)."""
        return tuple(sorted(loc for loc in self.fleet_edges.get(src, ()) if province_of(loc) == province))

    def adjacent_provinces(self, src: str) -> frozenset[str]:
        """Provinces next to `src` by either kind of move (for supports and convoys)."""
        prov = province_of(src)
        out = set(self.army_edges.get(prov, ()))
        for loc, dests in self.fleet_edges.items():
            if province_of(loc) == prov:
                out.update(province_of(d) for d in dests)
        return frozenset(out)

    def can_convoy_through(self, province: str) -> bool:
        return self.provinces[province].terrain is Terrain.SEA
