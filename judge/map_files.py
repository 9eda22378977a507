"""Reading map files from maps/ (or the wheel's judge/_data/maps) into checked Map values.

The engine stays pure: it only turns data into a Map (`build_map`). Finding, reading and caching
the files, and the summaries GMs ask for, live here.
"""

from __future__ import annotations

import contextlib
import functools
import json
import marshal
import os
from typing import TYPE_CHECKING, Any

from judge.engine.geography import Map, MapError, Terrain, build_map
from judge.resources import data_dir, data_folder

if TYPE_CHECKING:
    from pathlib import Path

SUFFIX = ".toml"


def maps_dir() -> Path:
    return data_dir("maps")


def available_maps() -> list[str]:
    """The names `load_map` accepts, one per maps/NAME.toml."""
    return sorted(p.stem for p in maps_dir().glob(f"*{SUFFIX}"))


@functools.cache
def load_map(name: str) -> Map:
    """The map called `name`, read and checked once per process (maps never change while running)."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise MapError(f"no map called {name!r}")
    file_name = f"{name}{SUFFIX}"
    path = os.path.join(data_folder("maps"), file_name)
    if not os.path.isfile(path):
        known = ", ".join(available_maps()) or "none"
        raise MapError(f"no map called {name!r} (known maps: {known})")
    where = f"maps/{file_name}"
    the_map = _built(_cached_board_data(path, where), where)
    if the_map.name != name:
        raise MapError(f"{where}: [map] name is {the_map.name!r}, not {name!r}")
    return the_map


LAND_SUFFIX = ".land.json"
Outline = tuple[tuple[float, float], ...]


def land_outlines(board: Map) -> tuple[Outline, ...]:
    """The land a board's picture draws under its markers (maps/NAME.land.json: outlines on the
    board's canvas, traced from published coastline data by a script in tools/), or () for a
    board without one or whose canvas the file does not fit."""
    return _land_file(board.name, tuple(board.canvas))


@functools.cache
def _land_file(name: str, canvas: tuple[int, ...]) -> tuple[Outline, ...]:
    path = maps_dir() / f"{name}{LAND_SUFFIX}"
    if not name or "/" in name or not path.is_file():
        return ()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if tuple(data["canvas"]) != canvas:
            return ()
        return tuple(
            tuple((float(x), float(y)) for x, y in outline) for outline in data["outlines"]
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise MapError(f"maps/{path.name}: cannot be read ({exc})") from exc


def load_map_file(path: str | os.PathLike[str]) -> Map:
    """A map from any file (tests, a GM's map under construction); faults name the file."""
    folder, file_name = os.path.split(os.fspath(path))
    where = f"{os.path.basename(folder)}/{file_name}"
    return _built(_toml_data(_board_text(path, where), where), where)


def _board_text(path: str | os.PathLike[str], where: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(f"{where}: cannot be read ({exc})") from exc


def _toml_data(text: str, where: str) -> dict[str, Any]:
    import tomllib  # only where no cached reading of the file fits (below)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"{where}: not valid TOML ({exc})") from exc


def _built(data: dict[str, Any], where: str) -> Map:
    try:
        return build_map(data)
    except MapError as exc:
        raise exc.prefixed(where) from None


# A board of maps/ read once is kept as marshal data beside it (maps/__pycache__/NAME.toml.marshal,
# with the very text it was read from): the next process reads that, not the TOML, which spares
# `judge adjudicate` 5 ms of its start (tomllib and its parse). The text is compared whole, so an
# edited map is read again; where the folder cannot be written, every process reads the TOML.
_CACHE_FOLDER = "__pycache__"
_CACHE_FORMAT = f"judge-board-data marshal {marshal.version}"


def board_cache_path(path: str) -> str:
    folder, file_name = os.path.split(path)
    return os.path.join(folder, _CACHE_FOLDER, f"{file_name}.marshal")


def _cached_board_data(path: str, where: str) -> dict[str, Any]:
    text = _board_text(path, where)
    cache = board_cache_path(path)
    try:
        with open(cache, "rb") as handle:
            kept = marshal.loads(handle.read())
        if kept[0] == _CACHE_FORMAT and kept[1] == text and isinstance(kept[2], dict):
            data: dict[str, Any] = kept[2]
            return data
    except (OSError, ValueError, EOFError, TypeError, IndexError, KeyError):
        pass  # none yet, or not one this judge wrote: the TOML is read
    data = _toml_data(text, where)
    _keep_board_data(cache, text, data)
    return data


def _keep_board_data(cache: str, text: str, data: dict[str, Any]) -> None:
    temporary = f"{cache}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(temporary, "wb") as handle:
            handle.write(marshal.dumps((_CACHE_FORMAT, text, data)))
        os.replace(temporary, cache)  # whole or not at all, for a process reading it now
    except (OSError, ValueError):  # a folder not ours to write; a value marshal cannot keep
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def start_case(m: Map) -> dict[str, Any]:
    """The opening position as an input case of `judge adjudicate` (specs/adjudicate-json.md)."""
    units = [
        {"power": power.name, "type": unit.kind, "loc": unit.loc}
        for power in m.powers.values()
        for unit in power.starting_units
    ]
    return {
        "variant": m.name,
        "phase": m.start_phase,
        "units": units,
        "centers": {name: sorted(p.home_centres) for name, p in m.powers.items()},
        "orders": {},
    }


def map_summary(m: Map) -> str:
    """What `judge map NAME` prints: enough for a GM to check a map before starting a game."""
    centres = m.supply_centres()
    by_terrain = {t: m.special_provinces(t) for t in Terrain}
    passable = len(m.provinces) - len(by_terrain[Terrain.IMPASSABLE])
    army_moves = sum(len(v) for v in m.army_edges.values())
    fleet_moves = sum(len(v) for v in m.fleet_edges.values())
    together = [
        f"{n} for {words}"
        for n, words in ((m.two_way_centres, "two powers"), (m.three_way_centres, "three"))
        if n is not None
    ]
    lines = [
        f"{m.title} ({m.name})",
        f"Calendar {m.calendar}, first phase {m.start_phase}; "
        f"{m.victory_centres} of {len(centres)} supply centres win"
        + (f" ({', '.join(together)} together)." if together else "."),
        *(
            [f"The board wraps east to west (canvas {m.canvas[0]} x {m.canvas[1]})."]
            if m.wraps
            else []
        ),
        f"{passable} passable spaces ("
        + ", ".join(
            f"{len(by_terrain[t])} {t.value}"
            for t in (Terrain.LAND, Terrain.COAST, Terrain.SEA, Terrain.CANAL, Terrain.POLAR)
            if by_terrain[t]
        )
        + f"); {army_moves} army moves and {fleet_moves} fleet moves (each direction counted).",
        "",
        "Powers:",
    ]
    for name, power in m.powers.items():
        units = ", ".join(f"{u.kind} {u.loc}" for u in power.starting_units)
        lines.append(
            f"  {name} ({power.adjective}, {power.letter}): homes {', '.join(sorted(power.home_centres))}"
            f"; units {units or 'none'}"
        )
        if power.home_provinces:
            lines.append(
                f"    home provinces (not centres): {', '.join(sorted(power.home_provinces))}"
            )
        if power.colonies:
            lines.append(f"    colonies (home for removals): {', '.join(sorted(power.colonies))}")
        if power.build_only:
            lines.append(
                f"    may also build in {', '.join(sorted(power.build_only))} (not centres)"
            )
        if power.spare_units:
            lines.append(f"    spare units: {power.spare_units} (placed before the first move)")
        if power.reserved_centres:
            lines.append(
                f"    alone may build in neutral {', '.join(sorted(power.reserved_centres))}"
            )
    lines.append(
        f"Neutral centres ({len(m.neutral_centres())}): {', '.join(sorted(m.neutral_centres()))}"
    )
    special = _special_lines(m, by_terrain)
    if special:
        lines += ["", "Special spaces:", *special]
    return "\n".join(lines)


def _special_lines(m: Map, by_terrain: dict[Terrain, tuple[str, ...]]) -> list[str]:
    out = []
    multi = sorted(c for c, p in m.provinces.items() if p.coasts)
    if multi:
        out.append(
            "  multi-coast: " + ", ".join(f"{c} ({'/'.join(m.provinces[c].coasts)})" for c in multi)
        )
    if by_terrain[Terrain.IMPASSABLE]:
        out.append(f"  impassable: {', '.join(by_terrain[Terrain.IMPASSABLE])}")
    for code in by_terrain[Terrain.CANAL]:
        out.append(f"  canal {code} joins {', '.join(m.provinces[code].joins)}")
    if by_terrain[Terrain.POLAR]:
        out.append(f"  polar: {', '.join(by_terrain[Terrain.POLAR])}")
    for (a, b), (c, d) in m.crossings:
        out.append(f"  {a}-{b} crosses {c}-{d}")
    ringed = sum(1 for p in m.provinces.values() if p.around)
    if ringed:
        placed = sum(1 for p in m.provinces.values() if p.at is not None)
        out.append(
            f"  clockwise neighbours (around) of {ringed} spaces; picture positions of {placed}"
        )
    portals = sorted(c for c, p in m.provinces.items() if p.portals)
    if portals:
        out.append(f"  spaces with portals: {len(portals)}")
    return out
