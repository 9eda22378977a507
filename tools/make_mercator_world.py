"""Write maps/mercator-world.toml from the board's data (tools/mercator_world_data.py).

The data writes each move once; this script lists every move from both ends, works out each
province's picture position from its latitude and longitude (Mercator's projection on the
board's canvas), writes the TOML and loads it with judge.engine.geography.build_map, so a slip
in the data cannot reach maps/ unnoticed. Run it from the repository root:

    .venv/bin/python tools/make_mercator_world.py [--check] [--balance]

--check writes nothing and fails if maps/mercator-world.toml differs from what the data makes;
--balance prints, for each power, the supply centres within one, two and three moves of its
home centres (the figures of maps/mercator-world.md).
"""

from __future__ import annotations

import argparse
import math
import sys
import tomllib
from collections import deque
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import mercator_world_data as data  # noqa: E402

from judge.engine.geography import Map, build_map  # noqa: E402
from judge.engine.position import province_of  # noqa: E402

TARGET = ROOT / "maps" / "mercator-world.toml"
# The canvas shows latitudes up to this far from the equator; the polar caps sit on its edges.
LATITUDE_LIMIT = 77.0


class Province:
    def __init__(self, line: str) -> None:
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 6:
            raise SystemExit(f"mercator_world_data: bad province line: {line!r}")
        self.code, self.name, self.terrain, where, flags, aliases = parts
        lat, lon = (float(v) for v in where.split(","))
        self.lat, self.lon = lat, lon
        self.centre = flags == "sc"
        self.aliases = [a.strip() for a in aliases.split(",") if a.strip()]


def read_provinces() -> dict[str, Province]:
    out: dict[str, Province] = {}
    for line in data.PROVINCES.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        p = Province(line)
        if p.code in out:
            raise SystemExit(f"mercator_world_data: province {p.code} twice")
        out[p.code] = p
    return out


def read_moves(text: str) -> list[tuple[str, str]]:
    pairs = []
    for line in text.splitlines():
        if not line.strip():
            continue
        head, rest = line.split(":", 1)
        for other in rest.split():
            pairs.append((head.strip(), other))
    return pairs


def position(lat: float, lon: float, canvas: tuple[int, int]) -> list[float]:
    """The point of the canvas for a latitude and longitude: x from 180 W to 180 E, y by the
    Mercator projection at the canvas's own scale, clipped at LATITUDE_LIMIT."""
    width, height = canvas
    x = (lon + 180.0) / 360.0 * width
    scale = width / (2 * math.pi)
    clipped = max(-LATITUDE_LIMIT, min(LATITUDE_LIMIT, lat))
    y = height / 2 - scale * math.log(math.tan(math.pi / 4 + math.radians(clipped) / 2))
    margin = 8.0
    return [round(min(max(x, 0.0), width), 1), round(min(max(y, margin), height - margin), 1)]


def build_data() -> dict[str, Any]:
    """The board as the TOML's tables (maps/README.md)."""
    provinces = read_provinces()
    army: dict[str, set[str]] = {c: set() for c, p in provinces.items() if p.terrain != "sea"}
    fleet: dict[str, set[str]] = {}
    for a, b in read_moves(data.ARMY):
        for x in (a, b):
            if x not in provinces:
                raise SystemExit(f"mercator_world_data: army move names unknown {x!r}")
        army[a].add(b)
        army[b].add(a)
    for prov, coasts in data.COASTS.items():
        for coast, dests in coasts.items():
            for dest in dests.split():
                fleet.setdefault(f"{prov}/{coast}", set()).add(dest)
                fleet.setdefault(dest, set()).add(f"{prov}/{coast}")
    for a, b in read_moves(data.FLEET):
        fleet.setdefault(a, set()).add(b)
        fleet.setdefault(b, set()).add(a)
    canvas = (int(data.MAP["canvas"][0]), int(data.MAP["canvas"][1]))  # type: ignore[index]
    table: dict[str, Any] = {}
    for code, p in provinces.items():
        entry: dict[str, Any] = {"name": p.name, "terrain": p.terrain}
        if p.aliases:
            entry["aliases"] = p.aliases
        if p.centre:
            entry["centre"] = True
        if p.terrain in ("land", "coast", "canal"):
            entry["army"] = sorted(army[code])
        if code in data.COASTS:
            entry["coasts"] = {c: sorted(fleet[f"{code}/{c}"]) for c in sorted(data.COASTS[code])}
        elif p.terrain != "land":
            entry["fleet"] = sorted(fleet.get(code, ()))
        if p.terrain == "canal":
            entry["joins"] = sorted(d for d in fleet.get(code, ()) if provinces[d].terrain == "sea")
        if p.terrain == "polar":
            # A cap stretches along the whole edge: its point is the edge's middle.
            entry["at"] = [canvas[0] / 2, 8.0 if p.lat > 0 else canvas[1] - 8.0]
        else:
            entry["at"] = position(p.lat, p.lon, canvas)
        table[code] = entry
    powers: dict[str, Any] = {}
    for name, spec in data.POWERS.items():
        entry = {
            "adjective": spec["adjective"],
            "letter": spec["letter"],
            "homes": str(spec["homes"]).split(),
            "units": [u.strip() for u in str(spec["units"]).split(",")],
        }
        for key in ("home_provinces", "builds", "colonies"):
            if key in spec:
                entry[key] = str(spec[key]).split()
        if "spare" in spec:
            entry["spare"] = spec["spare"]
        powers[name] = entry
    return {"map": dict(data.MAP), "powers": powers, "provinces": table}


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


HEADER = """\
# The Mercator world board: the project's own Mark of Doug Wakefield's Mercator (no Mark's map
# is public). Thirteen powers and 108 supply centres on a Mercator-projection world that wraps
# east to west. Generated by tools/make_mercator_world.py from tools/mercator_world_data.py:
# change the data and run the script again rather than editing this file. Every choice and its
# reason: maps/mercator-world.md.
"""


def render(board: dict[str, Any]) -> str:
    out = [HEADER, "[map]"]
    out += [f"{k} = {_value(v)}" for k, v in board["map"].items()]
    for name, entry in board["powers"].items():
        out += ["", f"[powers.{name}]"]
        out += [f"{k} = {_value(v)}" for k, v in entry.items()]
    section = None
    comments = _section_comments()
    for code, entry in board["provinces"].items():
        if comments.get(code) and comments[code] != section:
            section = comments[code]
            out += ["", f"# {section}"]
        out += ["", f"[provinces.{code}]"]
        out += [f"{k} = {_value(v)}" for k, v in entry.items()]
    return "\n".join(out) + "\n"


def _section_comments() -> dict[str, str]:
    """Each province's heading in the data (the `# ---` lines), repeated in the TOML."""
    out: dict[str, str] = {}
    heading = ""
    for line in data.PROVINCES.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            heading = stripped.strip("# -")
        elif stripped:
            out[stripped.split("|")[0].strip()] = heading
    return out


def distances(board: Map, start: set[str]) -> dict[str, int]:
    """Moves of any unit (army, fleet, or a fleet carrying an army) from `start` to each
    province, by the shortest chain of adjacent provinces; a polar cap is never passed."""
    neighbours: dict[str, set[str]] = {p: set() for p in board.provinces}
    for src, dests in board.army_edges.items():
        neighbours[src].update(dests)
    for src, dests in board.fleet_edges.items():
        neighbours[province_of(src)].update(province_of(d) for d in dests)
    polar = {c for c, p in board.provinces.items() if p.terrain.value == "polar"}
    seen = {p: 0 for p in start}
    queue = deque(start)
    while queue:
        here = queue.popleft()
        for there in neighbours[here] - polar:
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def balance(board: Map) -> list[tuple[str, int, int, int, int, int]]:
    """(power, homes, neutral centres within 1, 2, 3 moves of its homes, and other powers' home
    centres within 3) for each power."""
    neutral = board.neutral_centres()
    rows = []
    for name, power in board.powers.items():
        dist = distances(board, set(power.home_centres))
        near = [sum(1 for c in neutral if dist.get(c, 99) <= n) for n in (1, 2, 3)]
        foreign = sum(1 for c in board.home_centres() - power.home_centres if dist.get(c, 99) <= 3)
        rows.append((name, len(power.home_centres), near[0], near[1], near[2], foreign))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail if it differs")
    parser.add_argument("--balance", action="store_true", help="print the balance figures")
    args = parser.parse_args()
    text = render(build_data())
    board = build_map(tomllib.loads(text))
    if args.balance:
        print("power       homes  neutral within 1  2  3   rivals' homes within 3")
        for name, homes, one, two, three, foreign in balance(board):
            print(f"{name:<11} {homes:>5}  {one:>16} {two:>2} {three:>2}   {foreign:>21}")
    if args.check:
        if not TARGET.is_file() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} differs from what the data makes", file=sys.stderr)
            return 1
        return 0
    if not args.balance:
        TARGET.write_text(text, encoding="utf-8")
        print(f"wrote {TARGET.relative_to(ROOT)}: {len(board.provinces)} spaces")
    return 0


if __name__ == "__main__":
    sys.exit(main())
