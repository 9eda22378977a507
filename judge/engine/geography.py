"""The board: provinces, coasts, adjacency, centres, homes and the special spaces of variants.

A `Map` is an immutable value built once per map file (see judge/map_files.py for reading
files, and `build_map` for turning plain data into a checked Map). Locations are province
codes in lower case; a fleet on a multi-coast province is at ``"prov/coast"``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from judge.engine.position import Unit, province_of


class Terrain(StrEnum):
    LAND = "land"  # inland: armies only
    COAST = "coast"  # armies, and fleets along its coast(s)
    SEA = "sea"  # fleets only; fleets here may convoy
    CANAL = "canal"  # a land province through which fleets pass between two seas
    POLAR = "polar"  # passable by the units its adjacency lists allow; never a centre
    IMPASSABLE = "impassable"  # nothing enters (Switzerland)


class MapError(ValueError):
    """A map file that cannot be used, with the province and the fault named.

    `faults` holds one line per fault, so that a map author sees every mistake at once.
    """

    def __init__(self, faults: str | Iterable[str]) -> None:
        self.faults: tuple[str, ...] = (faults,) if isinstance(faults, str) else tuple(faults)
        super().__init__("\n".join(self.faults))

    def prefixed(self, where: str) -> MapError:
        """The same faults with the file named in front of each, for messages to map authors."""
        return MapError(f"{where}: {fault}" for fault in self.faults)


@dataclass(frozen=True, slots=True)
class Province:
    code: str
    name: str
    terrain: Terrain
    coasts: tuple[str, ...] = ()  # named coasts of a multi-coast province ("nc", "sc")
    supply_centre: bool = False
    aliases: tuple[str, ...] = ()
    portals: Mapping[int, str] = field(default_factory=dict)  # Algernon: portal number -> province
    # Other spellings of a coast that players write ("sc" for Youngstown's Jordan west coast).
    coast_aliases: Mapping[str, str] = field(default_factory=dict)
    joins: tuple[str, ...] = ()  # a canal: the seas its fleets pass between
    # Every neighbour (army or fleet move, and for a sea every sea and coast it touches) in
    # clockwise order, starting anywhere: what 1885's right-hand retreat rule turns through.
    # Empty when the map gives none. The board's edge ("-" in the file) is not kept here.
    around: tuple[str, ...] = ()
    at: tuple[float, float] | None = None  # where to draw it on a nominal 1000x800 picture

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
    build_only: frozenset[str] = frozenset()  # build sites that are not supply centres (1885)
    reserved_centres: frozenset[str] = frozenset()  # neutral centres only this power may build in
    spare_units: int = 0  # Mercator rule 9: units placed secretly before the first move
    # The rest of the home country: provinces that are not centres (Mercator 5.3 and 6.3:
    # Sardinia Italian, Hokkaido Japanese).
    home_provinces: frozenset[str] = frozenset()
    # Provinces that count as home for the GM's removals (Mercator rule 7: Cambodia for France).
    colonies: frozenset[str] = frozenset()


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
    # The picture the provinces' `at` points are given on (width, height), and whether its east
    # edge joins its west edge (a world board).
    canvas: tuple[int, int] = (1000, 800)
    wraps: bool = False
    # A part of the canvas (x, y, width, height) the picture draws again at a larger scale,
    # where markers crowd (the world board's Europe); None: no such part.
    inset: tuple[int, int, int, int] | None = None
    # Centres a combine of two or of three powers needs together to win by claim (Mercator's
    # rule 10 leaves them to each Mark); None: the variant's own reading for boards without.
    two_way_centres: int | None = None
    three_way_centres: int | None = None

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
        index = self.__dict__.get("_fleet_targets")
        if index is None:
            # Built once per map and kept on it: the resolver asks this for every fleet order.
            built: dict[tuple[str, str], list[str]] = {}
            for loc, dests in self.fleet_edges.items():
                for dest in dests:
                    built.setdefault((loc, province_of(dest)), []).append(dest)
            index = {key: tuple(sorted(locs)) for key, locs in built.items()}
            object.__setattr__(self, "_fleet_targets", index)
        return index.get((src, province), ())

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

    # --- questions of ownership, builds and the special spaces of variants -------------------
    def home_centres(self) -> frozenset[str]:
        return frozenset(c for p in self.powers.values() for c in p.home_centres)

    def neutral_centres(self) -> frozenset[str]:
        """Centres that start unowned: the ones no power calls home."""
        return self.supply_centres() - self.home_centres()

    def home_of(self, province: str) -> str | None:
        """The power whose home centre `province` is, if any."""
        for name, power in self.powers.items():
            if province in power.home_centres:
                return name
        return None

    def power_by_letter(self, letter: str) -> str | None:
        """The power with njudge's one-letter code `letter` (India is "N" in Youngstown)."""
        for name, power in self.powers.items():
            if power.letter == letter.upper():
                return name
        return None

    def canonical_location(self, loc: str) -> str | None:
        """`loc` as the map names it ("jor/sc" -> "jor/wc"), or None if the map has no such place."""
        prov = province_of(loc)
        p = self.provinces.get(prov)
        if p is None:
            return None
        if prov == loc:
            return loc
        coast = loc[len(prov) + 1 :]
        coast = p.coast_aliases.get(coast, coast)
        return f"{prov}/{coast}" if coast in p.coasts else None

    def names(self) -> dict[str, str]:
        """Every written form (code, full name, alias) -> province code, as stored in the file."""
        out: dict[str, str] = {}
        for code, p in self.provinces.items():
            for written in (code, p.name, *p.aliases):
                out[written] = code
        return out

    def through_portal(self, space: str, number: int) -> str | None:
        """Algernon: the space behind portal `number` of `space`, or None if there is none."""
        p = self.provinces.get(province_of(space))
        return None if p is None else p.portals.get(number)

    def crosses(self, move: tuple[str, str], other: tuple[str, str]) -> bool:
        """Whether two moves (province pairs, either direction) cross at a strait or meeting point."""
        a = frozenset(map(province_of, move))
        b = frozenset(map(province_of, other))
        for first, second in self.crossings:
            x, y = frozenset(first), frozenset(second)
            if (a == x and b == y) or (a == y and b == x):
                return True
        return False

    def special_provinces(self, terrain: Terrain) -> tuple[str, ...]:
        return tuple(sorted(c for c, p in self.provinces.items() if p.terrain is terrain))


# --- building a Map from plain data (a parsed map file) ---------------------------------------

_CODE = re.compile(r"^[a-z][a-z0-9]{1,5}$")
_COAST = re.compile(r"^[a-z]{2}$")
_POWER = re.compile(r"^[A-Z][A-Z_-]*$")
_NOT_SPOKEN = re.compile(r"[^0-9a-z]")
_MAP_KEYS = {
    "name", "title", "calendar", "start_phase", "victory_centres", "canvas", "wraps",
    "two_way_centres", "three_way_centres", "inset",
}  # fmt: skip
_PROVINCE_KEYS = {
    "name", "terrain", "aliases", "centre", "army", "fleet", "coasts", "coast_aliases",
    "joins", "portals", "around", "at",
}  # fmt: skip
# In an `around` list: the edge of the board, between the two neighbours either side of it.
BOARD_EDGE = "-"
PICTURE_SIZE = (1000, 800)  # the nominal picture `at` positions are given on
_POWER_KEYS = {
    "adjective", "letter", "homes", "units", "builds", "reserved", "spare", "home_provinces",
    "colonies",
}  # fmt: skip
_TOP_KEYS = {"map", "powers", "provinces", "crossings"}
_ARMY_TERRAIN = {Terrain.LAND, Terrain.COAST, Terrain.CANAL}
_FLEET_TERRAIN = {Terrain.SEA, Terrain.COAST, Terrain.CANAL}
_CENTRE_TERRAIN = {Terrain.LAND, Terrain.COAST, Terrain.CANAL}


def _spoken(written: str) -> str:
    """How two written names compare: case, spaces and punctuation do not count."""
    return _NOT_SPOKEN.sub("", written.casefold())


class _Checker:
    """Collects the faults of one map's data; `build_map` refuses the map if there are any."""

    def __init__(self) -> None:
        self.faults: list[str] = []

    def fault(self, where: str, message: str) -> None:
        self.faults.append(f"{where}: {message}")

    def strings(self, where: str, key: str, value: Any) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fault(where, f"'{key}' must be a list of strings")
            return []
        return value


def build_map(data: Mapping[str, Any]) -> Map:
    """Turn parsed map data (see maps/README.md) into a checked Map, or raise MapError.

    Every fault is reported, each naming the province or power and what is wrong, because a map
    author fixing a file wants the whole list, not one fault per attempt.
    """
    ck = _Checker()
    for key in sorted(set(data) - _TOP_KEYS):
        ck.fault("map file", f"unknown section '{key}'")
    head = data.get("map") or {}
    if not isinstance(head, Mapping):
        raise MapError("map file: [map] must be a table")
    for key in sorted(set(head) - _MAP_KEYS):
        ck.fault("[map]", f"unknown field '{key}'")
    name, title = head.get("name"), head.get("title")
    if not isinstance(name, str) or not name:
        ck.fault("[map]", "'name' is missing")
    if not isinstance(title, str) or not title:
        ck.fault("[map]", "'title' is missing")
    victory = head.get("victory_centres")
    if not isinstance(victory, int) or isinstance(victory, bool) or victory < 1:
        ck.fault("[map]", "'victory_centres' must be a positive whole number")

    canvas = _read_canvas(ck, head.get("canvas"))
    wraps = head.get("wraps", False)
    if not isinstance(wraps, bool):
        ck.fault("[map]", "'wraps' must be true or false")
        wraps = False
    inset = _read_inset(ck, head.get("inset"), canvas)
    provinces, army, fleet, rings = _read_provinces(ck, data.get("provinces") or {}, canvas)
    _check_edges(ck, provinces, army, fleet)
    _check_aliases(ck, provinces)
    _check_portals(ck, provinces)
    army_edges = {k: frozenset(v) for k, v in army.items()}
    fleet_edges = {k: frozenset(v) for k, v in fleet.items()}
    powers = _read_powers(ck, data.get("powers") or {}, provinces, army_edges, fleet_edges)
    crossings = _read_crossings(ck, data.get("crossings") or [], army_edges, fleet_edges)
    if not ck.faults:  # rings are only worth checking against sound adjacency
        _check_rings(ck, provinces, rings, army_edges, fleet_edges, crossings)

    centres = sum(1 for p in provinces.values() if p.supply_centre)
    if isinstance(victory, int) and centres and victory > centres:
        ck.fault("[map]", f"victory_centres {victory} is more than the {centres} supply centres")
    two_way, three_way = _read_combine_centres(ck, head, victory, centres)
    if ck.faults:
        raise MapError(ck.faults)
    return Map(
        name=str(name),
        title=str(title),
        provinces=provinces,
        powers=powers,
        army_edges=army_edges,
        fleet_edges=fleet_edges,
        victory_centres=int(victory),  # type: ignore[arg-type]
        calendar=str(head.get("calendar", "standard")),
        start_phase=str(head.get("start_phase", "S1901M")),
        crossings=crossings,
        canvas=canvas,
        wraps=wraps,
        inset=inset,
        two_way_centres=two_way,
        three_way_centres=three_way,
    )


def _read_combine_centres(
    ck: _Checker, head: Mapping[str, Any], victory: Any, centres: int
) -> tuple[int | None, int | None]:
    """`two_way_centres` and `three_way_centres`: what a combine of two or three powers needs
    together; each at least the single win's number and the three-way at least the two-way."""
    out: list[int | None] = []
    floor = victory if isinstance(victory, int) and not isinstance(victory, bool) else 1
    for key in ("two_way_centres", "three_way_centres"):
        value = head.get(key)
        if value is None:
            out.append(None)
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            ck.fault("[map]", f"'{key}' must be a positive whole number")
            out.append(None)
            continue
        if value < floor:
            ck.fault("[map]", f"{key} {value} is less than the {floor} a single win needs")
        elif centres and value > centres:
            ck.fault("[map]", f"{key} {value} is more than the {centres} supply centres")
        floor = max(floor, value)
        out.append(value)
    return out[0], out[1]


def _read_canvas(ck: _Checker, raw: Any) -> tuple[int, int]:
    """`canvas = [width, height]`: the picture `at` points are given on; PICTURE_SIZE if absent."""
    if raw is None:
        return PICTURE_SIZE
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in raw)
    ):
        ck.fault("[map]", "'canvas' must be [width, height], two positive whole numbers")
        return PICTURE_SIZE
    return (raw[0], raw[1])


def _read_inset(
    ck: _Checker, raw: Any, canvas: tuple[int, int]
) -> tuple[int, int, int, int] | None:
    """`inset = [x, y, width, height]`: a part of the canvas drawn again larger; None if absent."""
    if raw is None:
        return None
    if (
        not isinstance(raw, list)
        or len(raw) != 4
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in raw)
        or raw[2] < 1
        or raw[3] < 1
        or raw[0] + raw[2] > canvas[0]
        or raw[1] + raw[3] > canvas[1]
    ):
        ck.fault(
            "[map]",
            f"'inset' must be [x, y, width, height], whole numbers, a part of the canvas "
            f"{list(canvas)}",
        )
        return None
    return (raw[0], raw[1], raw[2], raw[3])


def _read_provinces(
    ck: _Checker, raw: Mapping[str, Any], canvas: tuple[int, int] = PICTURE_SIZE
) -> tuple[dict[str, Province], dict[str, set[str]], dict[str, set[str]], dict[str, list[str]]]:
    """Provinces, their adjacency lists and their `around` rings (board edges included) as
    written; the lists and rings are checked later."""
    provinces: dict[str, Province] = {}
    army: dict[str, set[str]] = {}
    fleet: dict[str, set[str]] = {}
    rings: dict[str, list[str]] = {}
    if not isinstance(raw, Mapping):
        ck.fault("map file", "[provinces] must be a table")
        return provinces, army, fleet, rings
    for code, entry in raw.items():
        where = f"province '{code}'"
        if not _CODE.match(code):
            ck.fault(where, "a province code is 2 to 6 lower-case letters or digits")
            continue
        if not isinstance(entry, Mapping):
            ck.fault(where, "must be a table")
            continue
        for key in sorted(set(entry) - _PROVINCE_KEYS):
            ck.fault(where, f"unknown field '{key}'")
        try:
            terrain = Terrain(entry.get("terrain"))
        except ValueError:
            ck.fault(where, f"unknown terrain {entry.get('terrain')!r}")
            continue
        full_name = entry.get("name")
        if not isinstance(full_name, str) or not full_name:
            ck.fault(where, "'name' is missing")
            full_name = code
        centre = bool(entry.get("centre", False))
        if centre and terrain not in _CENTRE_TERRAIN:
            ck.fault(where, f"a {terrain.value} space cannot be a supply centre")
        army_list = ck.strings(where, "army", entry.get("army"))
        fleet_list = ck.strings(where, "fleet", entry.get("fleet"))
        coast_table = entry.get("coasts") or {}
        if not isinstance(coast_table, Mapping):
            ck.fault(where, "'coasts' must be a table of coast -> fleet adjacency")
            coast_table = {}
        coasts = tuple(sorted(coast_table))
        for coast in coasts:
            if not _COAST.match(coast):
                ck.fault(where, f"coast '{coast}' is not two lower-case letters (nc, sc, ec, wc)")

        if terrain is Terrain.IMPASSABLE and (army_list or fleet_list or coasts):
            ck.fault(where, "an impassable space has no adjacency")
        if terrain is Terrain.SEA and ("army" in entry or coasts):
            ck.fault(where, "a sea has fleet adjacency only")
        if terrain is Terrain.LAND and ("fleet" in entry or coasts):
            ck.fault(where, "an inland province has army adjacency only")
        if coasts and terrain is not Terrain.COAST:
            ck.fault(where, "only a coastal province has named coasts")
        if coasts and "fleet" in entry:
            ck.fault(where, "a province with named coasts lists its fleet adjacency per coast")
        if len(coasts) == 1:
            ck.fault(where, "a province with named coasts has at least two")

        if terrain in _ARMY_TERRAIN or (terrain is Terrain.POLAR and "army" in entry):
            army[code] = set(army_list)
        if coasts:
            for coast in coasts:
                fleet[f"{code}/{coast}"] = set(
                    ck.strings(f"{where} coast '{coast}'", "coasts", coast_table[coast])
                )
        elif terrain in _FLEET_TERRAIN or (terrain is Terrain.POLAR and "fleet" in entry):
            fleet[code] = set(fleet_list)

        coast_aliases = entry.get("coast_aliases") or {}
        if not isinstance(coast_aliases, Mapping):
            ck.fault(where, "'coast_aliases' must be a table of written coast -> coast")
            coast_aliases = {}
        for written, coast in coast_aliases.items():
            if coast not in coasts:
                ck.fault(where, f"coast alias '{written}' names unknown coast '{coast}'")
            if written in coasts:
                ck.fault(where, f"coast alias '{written}' is itself a coast")
        joins = tuple(ck.strings(where, "joins", entry.get("joins")))
        if terrain is Terrain.CANAL and len(joins) < 2:
            ck.fault(where, "a canal names the two (or more) seas it joins in 'joins'")
        if joins and terrain is not Terrain.CANAL:
            ck.fault(where, "only a canal joins seas")
        portals: dict[int, str] = {}
        raw_portals = entry.get("portals") or {}
        if not isinstance(raw_portals, Mapping):
            ck.fault(where, "'portals' must be a table of number -> space")
            raw_portals = {}
        for number, target in raw_portals.items():
            if not str(number).isdigit() or int(number) < 1 or not isinstance(target, str):
                ck.fault(where, f"portal {number!r} must be a number from 1 naming a space")
                continue
            portals[int(number)] = target
        if "around" in entry:
            rings[code] = ck.strings(where, "around", entry["around"])
        provinces[code] = Province(
            code=code,
            name=full_name,
            terrain=terrain,
            coasts=coasts,
            supply_centre=centre,
            aliases=tuple(ck.strings(where, "aliases", entry.get("aliases"))),
            portals=portals,
            coast_aliases=dict(coast_aliases),
            joins=joins,
            around=tuple(n for n in rings.get(code, ()) if n != BOARD_EDGE),
            at=_read_position(ck, where, entry.get("at"), canvas),
        )
    return provinces, army, fleet, rings


def _read_position(
    ck: _Checker, where: str, raw: Any, canvas: tuple[int, int]
) -> tuple[float, float] | None:
    """`at = [x, y]`: a point of the map's canvas, x from its west edge, y from its top."""
    if raw is None:
        return None
    width, height = canvas
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
        or not (0 <= raw[0] <= width and 0 <= raw[1] <= height)
    ):
        ck.fault(where, f"'at' must be [x, y] with 0 <= x <= {width} and 0 <= y <= {height}")
        return None
    return (float(raw[0]), float(raw[1]))


def _check_edges(
    ck: _Checker,
    provinces: Mapping[str, Province],
    army: dict[str, set[str]],
    fleet: dict[str, set[str]],
) -> None:
    """Every adjacency names a real place its unit may stand in, and is listed both ways."""
    for src, dests in army.items():
        where = f"province '{src}'"
        for dst in sorted(dests):
            if dst not in provinces:
                ck.fault(where, f"army adjacency to unknown province '{dst}'")
            elif dst not in army:
                ck.fault(where, f"army adjacency to '{dst}', where no army may be")
            elif dst == src:
                ck.fault(where, "army adjacency to itself")
            elif src not in army[dst]:
                ck.fault(where, f"army adjacency to '{dst}' is one-way ({dst} does not list {src})")
    for src, dests in fleet.items():
        prov = province_of(src)
        where = f"province '{prov}'" + (f" coast '{src[len(prov) + 1 :]}'" if prov != src else "")
        for dst in sorted(dests):
            target = province_of(dst)
            if target not in provinces:
                ck.fault(where, f"fleet adjacency to unknown province '{target}'")
            elif dst not in fleet:
                coasts = provinces[target].coasts
                if dst == target and coasts:
                    ck.fault(
                        where,
                        f"fleet adjacency to '{dst}' must name the coast ({', '.join(coasts)})",
                    )
                elif dst != target:
                    ck.fault(where, f"fleet adjacency to unknown coast '{dst}'")
                else:
                    ck.fault(where, f"fleet adjacency to '{dst}', where no fleet may be")
            elif target == prov:
                ck.fault(where, "fleet adjacency to itself")
            elif src not in fleet[dst]:
                ck.fault(
                    where, f"fleet adjacency to '{dst}' is one-way ({dst} does not list {src})"
                )
    for code, p in provinces.items():
        for sea in p.joins:
            if sea not in provinces or provinces[sea].terrain is not Terrain.SEA:
                ck.fault(f"province '{code}'", f"canal joins '{sea}', which is not a sea")
            elif sea not in fleet.get(code, ()):
                ck.fault(
                    f"province '{code}'", f"canal joins '{sea}' but has no fleet adjacency to it"
                )


def _check_aliases(ck: _Checker, provinces: Mapping[str, Province]) -> None:
    """A written name may stand for one province only (the parser must never have to guess)."""
    owner: dict[str, str] = {}
    for code, p in provinces.items():
        for written in dict.fromkeys((code, p.name, *p.aliases)):
            key = _spoken(written)
            if not key:
                ck.fault(f"province '{code}'", f"alias {written!r} has no letters")
                continue
            other = owner.setdefault(key, code)
            if other != code:
                ck.fault(f"province '{code}'", f"alias '{written}' also names province '{other}'")


def _check_portals(ck: _Checker, provinces: Mapping[str, Province]) -> None:
    for code, p in provinces.items():
        for number, target in sorted(p.portals.items()):
            if target not in provinces:
                ck.fault(f"province '{code}'", f"portal {number} leads to unknown space '{target}'")
            elif provinces[target].terrain is Terrain.IMPASSABLE:
                ck.fault(f"province '{code}'", f"portal {number} leads to impassable '{target}'")


def _read_powers(
    ck: _Checker,
    raw: Mapping[str, Any],
    provinces: Mapping[str, Province],
    army_edges: Mapping[str, frozenset[str]],
    fleet_edges: Mapping[str, frozenset[str]],
) -> dict[str, Power]:
    powers: dict[str, Power] = {}
    if not isinstance(raw, Mapping) or not raw:
        ck.fault("map file", "[powers] is missing")
        return powers
    home_owner: dict[str, str] = {}
    reserved_by: dict[str, str] = {}
    country_of: dict[str, str] = {}  # home province -> its power
    colony_of: dict[str, str] = {}
    special_of: dict[str, str] = {}
    letters: dict[str, str] = {}
    occupied: dict[str, str] = {}
    for name, entry in raw.items():
        where = f"power '{name}'"
        if not _POWER.match(name):
            ck.fault(where, "a power's name is written in upper case")
        if not isinstance(entry, Mapping):
            ck.fault(where, "must be a table")
            continue
        for key in sorted(set(entry) - _POWER_KEYS):
            ck.fault(where, f"unknown field '{key}'")
        letter = entry.get("letter")
        if not isinstance(letter, str) or len(letter) != 1 or not letter.isupper():
            ck.fault(where, "'letter' must be one upper-case letter")
            letter = "?"
        elif letters.setdefault(letter, name) != name:
            ck.fault(where, f"letter '{letter}' is also {letters[letter]}'s")
        adjective = entry.get("adjective")
        if not isinstance(adjective, str) or not adjective:
            ck.fault(where, "'adjective' is missing")
            adjective = name.title()

        homes = ck.strings(where, "homes", entry.get("homes"))
        for home in homes:
            if home not in provinces:
                ck.fault(where, f"home centre '{home}' is not a province")
            elif not provinces[home].supply_centre:
                ck.fault(where, f"home centre '{home}' is not a supply centre")
            elif home_owner.setdefault(home, name) != name:
                ck.fault(where, f"home centre '{home}' is also a home centre of {home_owner[home]}")
        builds = ck.strings(where, "builds", entry.get("builds"))
        for site in builds:
            if site not in provinces:
                ck.fault(where, f"build site '{site}' is not a province")
            elif provinces[site].supply_centre:
                ck.fault(
                    where, f"build site '{site}' is a supply centre (list it as home or reserved)"
                )
            elif site not in army_edges and not any(
                province_of(loc) == site for loc in fleet_edges
            ):
                ck.fault(where, f"build site '{site}' can hold no unit")
            else:
                special_of.setdefault(site, name)
        country = ck.strings(where, "home_provinces", entry.get("home_provinces"))
        for prov in country:
            if prov not in provinces:
                ck.fault(where, f"home province '{prov}' is not a province")
            elif provinces[prov].supply_centre:
                ck.fault(where, f"home province '{prov}' is a supply centre (list it in 'homes')")
            elif prov not in army_edges:
                ck.fault(where, f"home province '{prov}' is not land (no army may stand there)")
            elif prov in builds:
                ck.fault(where, f"home province '{prov}' is also a special province (builds)")
            elif country_of.setdefault(prov, name) != name:
                ck.fault(where, f"home province '{prov}' is also {country_of[prov]}'s")
        colonies = ck.strings(where, "colonies", entry.get("colonies"))
        for prov in colonies:
            if prov not in provinces:
                ck.fault(where, f"colony '{prov}' is not a province")
            elif prov not in army_edges:
                ck.fault(where, f"colony '{prov}' is not land (no army may stand there)")
            elif prov in homes or prov in country:
                ck.fault(where, f"colony '{prov}' is already part of the home country")
            elif colony_of.setdefault(prov, name) != name:
                ck.fault(where, f"colony '{prov}' is also {colony_of[prov]}'s")
        reserved = ck.strings(where, "reserved", entry.get("reserved"))
        for centre in reserved:
            if centre not in provinces or not provinces[centre].supply_centre:
                ck.fault(where, f"reserved centre '{centre}' is not a supply centre")
            elif centre in homes:
                ck.fault(where, f"reserved centre '{centre}' is already a home centre")
            elif reserved_by.setdefault(centre, name) != name:
                ck.fault(
                    where, f"reserved centre '{centre}' is also reserved to {reserved_by[centre]}"
                )

        units: list[Unit] = []
        for written in ck.strings(where, "units", entry.get("units")):
            parts = written.split()
            if len(parts) != 2 or parts[0] not in ("A", "F"):
                ck.fault(where, f"starting unit '{written}' is not written 'A loc' or 'F loc'")
                continue
            kind, loc = parts
            prov = province_of(loc)
            if prov not in provinces:
                ck.fault(where, f"starting unit '{written}' is in unknown province '{prov}'")
                continue
            if kind == "A" and (loc != prov or prov not in army_edges):
                ck.fault(
                    f"province '{prov}'",
                    f"an army cannot stand at '{loc}' ({name}'s starting unit)",
                )
                continue
            if kind == "F" and loc not in fleet_edges:
                coasts = provinces[prov].coasts
                why = (
                    f"name the coast ({', '.join(coasts)})"
                    if coasts and loc == prov
                    else "no fleet may be there"
                )
                ck.fault(
                    f"province '{prov}'",
                    f"a fleet cannot stand at '{loc}': {why} ({name}'s starting unit)",
                )
                continue
            if occupied.setdefault(prov, name) != name or any(u.province == prov for u in units):
                ck.fault(f"province '{prov}'", "holds two starting units")
            units.append(Unit(power=name, kind=kind, loc=loc))
        home_set = frozenset(h for h in homes if h in provinces)
        spare = entry.get("spare", 0)
        if not isinstance(spare, int) or isinstance(spare, bool) or spare < 0:
            ck.fault(where, "'spare' must be a whole number of spare units, 0 or more")
            spare = 0
        powers[name] = Power(
            name=name,
            adjective=adjective,
            letter=letter,
            home_centres=home_set,
            build_sites=home_set | frozenset(builds) | frozenset(reserved),
            starting_units=tuple(units),
            build_only=frozenset(builds),
            reserved_centres=frozenset(reserved),
            spare_units=spare,
            home_provinces=frozenset(p for p in country if p in provinces),
            colonies=frozenset(p for p in colonies if p in provinces),
        )
    for prov, power in sorted(country_of.items()):
        if prov in special_of and special_of[prov] != power:
            ck.fault(
                f"power '{power}'",
                f"home province '{prov}' is a special province of {special_of[prov]}",
            )
    for prov, power in sorted(colony_of.items()):
        if prov in home_owner or prov in country_of:
            owner = home_owner.get(prov) or country_of[prov]
            ck.fault(f"power '{power}'", f"colony '{prov}' is in the home country of {owner}")
        if prov in special_of:
            ck.fault(
                f"power '{power}'",
                f"colony '{prov}' is a special province of {special_of[prov]} (rule 7 counts "
                "colonies as home, never special provinces)",
            )
    for centre, power in reserved_by.items():
        if centre in home_owner:
            ck.fault(
                f"power '{power}'",
                f"reserved centre '{centre}' is a home centre of {home_owner[centre]}",
            )
    return powers


def _read_crossings(
    ck: _Checker,
    raw: Any,
    army_edges: Mapping[str, frozenset[str]],
    fleet_edges: Mapping[str, frozenset[str]],
) -> tuple[tuple[tuple[str, str], tuple[str, str]], ...]:
    """Pairs of moves that cross (a strait passage over a sea lane); each move must exist."""
    out: list[tuple[tuple[str, str], tuple[str, str]]] = []
    if not isinstance(raw, list):
        ck.fault("map file", "[[crossings]] must be a list of tables")
        return ()

    def is_move(a: str, b: str) -> bool:
        if b in army_edges.get(a, ()):
            return True
        return any(
            province_of(src) == a and province_of(dst) == b
            for src, dests in fleet_edges.items()
            for dst in dests
        )

    for n, entry in enumerate(raw, 1):
        where = f"crossing {n}"
        moves = entry.get("moves") if isinstance(entry, Mapping) else None
        if (
            not isinstance(moves, list)
            or len(moves) != 2
            or not all(
                isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m)
                for m in moves
            )
        ):
            ck.fault(where, "'moves' must be two pairs of provinces: [[a, b], [c, d]]")
            continue
        (a, b), (c, d) = moves
        for x, y in ((a, b), (c, d)):
            if not is_move(x, y):
                ck.fault(where, f"'{x}' - '{y}' is not a move on this map")
        out.append(((a, b), (c, d)))
    return tuple(out)


def _neighbours(
    provinces: Mapping[str, Province],
    army_edges: Mapping[str, frozenset[str]],
    fleet_edges: Mapping[str, frozenset[str]],
) -> dict[str, frozenset[str]]:
    """Every province's neighbours: where its armies and fleets may move (for a sea, every sea
    and coast it touches)."""
    out: dict[str, set[str]] = {code: set(army_edges.get(code, ())) for code in provinces}
    for loc, dests in fleet_edges.items():
        out[province_of(loc)].update(province_of(d) for d in dests)
    return {code: frozenset(v) for code, v in out.items()}


def _check_rings(
    ck: _Checker,
    provinces: Mapping[str, Province],
    rings: Mapping[str, list[str]],
    army_edges: Mapping[str, frozenset[str]],
    fleet_edges: Mapping[str, frozenset[str]],
    crossings: tuple[tuple[tuple[str, str], tuple[str, str]], ...],
) -> None:
    """Each `around` holds exactly its province's neighbours, in an order a flat map can have.

    The order is checked where a fault shows: two neighbours next to each other in the ring must
    meet (be neighbours themselves, or meet at the point of a declared crossing, or have the
    board's edge between them); and where provinces p, a, b meet at a point, going clockwise
    around p from a to b means going around a from b to p. A ring written counter-clockwise, or
    with two neighbours swapped, breaks one of these.
    """
    if not rings:
        return
    neighbours = _neighbours(provinces, army_edges, fleet_edges)
    points = [frozenset((*first, *second)) for first, second in crossings]
    for code in provinces:
        if code not in rings and neighbours[code]:
            ck.fault(
                f"province '{code}'",
                "has no 'around' while other provinces have one (give every province its "
                "neighbours in clockwise order)",
            )
    sound: dict[str, list[str]] = {}
    for code, ring in rings.items():
        if code not in provinces:
            continue
        where = f"province '{code}'"
        listed = [n for n in ring if n != BOARD_EDGE]
        before = len(ck.faults)
        for n in sorted({n for n in listed if n not in provinces}):
            ck.fault(where, f"'around' names unknown province '{n}'")
        for n in sorted({n for n in listed if listed.count(n) > 1}):
            ck.fault(where, f"'around' lists '{n}' more than once")
        for n in sorted(neighbours[code] - set(listed)):
            ck.fault(where, f"'around' lacks neighbour '{n}'")
        for n in sorted(set(listed) - neighbours[code] - {n for n in listed if n not in provinces}):
            ck.fault(where, f"'around' lists '{n}', which is not a neighbour")
        if ring and all(n == BOARD_EDGE for n in ring):
            ck.fault(where, "'around' holds only the board's edge")
        elif any(a == b == BOARD_EDGE for a, b in _pairs(ring)):
            ck.fault(where, "'around' has the board's edge twice in a row")
        if len(ck.faults) > before:
            continue
        sound[code] = ring
        for a, b in _pairs(ring):
            if BOARD_EDGE in (a, b) or a == b or b in neighbours[a]:
                continue
            if not any({code, a, b} <= point for point in points):
                ck.fault(
                    where,
                    f"'around' puts '{a}' next to '{b}', which do not meet (neither neighbours, "
                    f"nor at a crossing's point, nor with the board's edge '{BOARD_EDGE}' "
                    "between them)",
                )
    before = len(ck.faults)
    _check_turning(ck, sound, neighbours)
    if len(ck.faults) == before:
        _check_clockwise(ck, provinces, sound, neighbours)


def _turning_faults(
    code: str,
    ring: list[str],
    sound: Mapping[str, list[str]],
    neighbours: Mapping[str, frozenset[str]],
) -> list[tuple[str, str, str]]:
    """(a, b, found) for each a -> b of `ring` where a's own ring, after b, has not `code`."""
    out = []
    for a, b in _pairs(ring):
        if BOARD_EDGE in (a, b) or a == b or b not in neighbours[a] or a not in sound:
            continue
        found = _after(sound[a], b)
        if found != code:
            out.append((a, b, found))
    return out


def _check_turning(
    ck: _Checker, sound: Mapping[str, list[str]], neighbours: Mapping[str, frozenset[str]]
) -> None:
    """Rings that meet at a point turn the same way; a ring written counter-clockwise is named
    once rather than through every neighbour it disagrees with."""
    faults = {code: _turning_faults(code, ring, sound, neighbours) for code, ring in sound.items()}
    backwards = {
        code
        for code, found in faults.items()
        if found and not _turning_faults(code, sound[code][::-1], sound, neighbours)
    }
    for code in sorted(backwards):
        ck.fault(f"province '{code}'", "'around' runs counter-clockwise (reversed, it fits)")
    for code, found in faults.items():
        for a, b, after in found:
            if code in backwards or a in backwards:
                continue
            ck.fault(
                f"province '{code}'",
                f"'around' goes from '{a}' to '{b}' clockwise, so around '{a}' '{b}' must be "
                f"followed by '{code}', not '{after}' (one of the two is out of order)",
            )


def _check_clockwise(
    ck: _Checker,
    provinces: Mapping[str, Province],
    sound: Mapping[str, list[str]],
    neighbours: Mapping[str, frozenset[str]],
) -> None:
    """Rings that agree with each other may still all run counter-clockwise (a mirrored map);
    where the provinces have positions, most meeting points must turn the positions' way."""
    positions: dict[str, tuple[float, float]] = {}
    for code in sound:
        at = provinces[code].at
        if at is None:
            return
        positions[code] = at
    agree = against = 0
    for code, ring in sound.items():
        px, py = positions[code]
        for a, b in _pairs(ring):
            if a not in positions or b not in positions or b not in neighbours[a]:
                continue
            (ax, ay), (bx, by) = positions[a], positions[b]
            # With y growing downwards, a clockwise turn p -> a -> b has a positive cross product.
            turn = (ax - px) * (by - py) - (ay - py) * (bx - px)
            if turn > 0:
                agree += 1
            elif turn < 0:
                against += 1
    if against > agree:
        ck.fault(
            "map file",
            f"the 'around' rings run counter-clockwise by the 'at' positions ({against} of "
            f"{agree + against} meeting points turn the other way)",
        )


def _pairs(ring: list[str]) -> list[tuple[str, str]]:
    """Each entry of a ring with the one after it, the last with the first."""
    return [(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))] if ring else []


def _after(ring: list[str], name: str) -> str:
    return ring[(ring.index(name) + 1) % len(ring)]
