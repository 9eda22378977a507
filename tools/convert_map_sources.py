"""Write maps/standard.toml and maps/youngstown.toml from the public map data we collected.

The primary source is DPjudge's map files; every army and fleet move is cross-checked against
njudge's map file, and the script stops if the two disagree anywhere we did not expect. Run it
from the repository root:

    .venv/bin/python tools/convert_map_sources.py [--check] [SOURCES_DIR]

SOURCES_DIR defaults to ../shared/map-sources; --check writes nothing and fails if maps/ differs. The TOML it writes is then checked by loading it
with judge.engine.geography.build_map, so a conversion mistake cannot reach maps/ unnoticed.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.engine.geography import build_map  # noqa: E402
from judge.pictures.layout import LABEL_ROOM, spread  # noqa: E402
from tools import map_places  # noqa: E402

TERRAIN = {"WATER": "sea", "COAST": "coast", "LAND": "land", "SHUT": "impassable"}

# Aliases we drop from the sources, and why: prefixes shared by several provinces ("liv" is
# Livonia and Liverpool; "east"/"west"/"north" begin many names), a joke ("yonkers"), and
# DPjudge's own guesses with punctuation that the parser's normalisation already covers.
DROP_ALIASES = {
    "liv", "east", "west", "eastern", "western", "north", "yonkers", "africa", "bay",
    "out", "inner", "tyr?", "turk", "viet", "nam", "yellow", "black", "irish", "siam",
    "japan", "persian", "perisan", "arabian", "malay", "timor", "celebes", "somali",
    "seaofokutsk", "seaofokhutsk", "eafrica",
}  # fmt: skip

# DPjudge accepts "spa/wc" for Spain's south coast; no player of ours needs that guess.
DROP_COASTS = {("spa", "wc")}

# Names players write that the sources lack (postal abbreviations, spellings of our day).
EXTRA_ALIASES: dict[str, list[str]] = {
    "adr": ["Adr", "Adriatic"],
    "aeg": ["Aeg", "Aegean"],
    "bal": ["Bal", "Baltic"],
    "bar": ["Bar", "Barents"],
    "bla": ["Bla", "Black Sea"],
    "bot": ["GoB", "Bothnia"],
    "eas": ["Eas", "EMed", "E Med", "East Med", "Eastern Med"],
    "eng": ["Eng", "ENC", "English Channel", "Channel"],
    "hel": ["Hel", "Heligoland Bight", "Helgoland", "Heligoland"],
    "ion": ["Ion", "Ionian"],
    "iri": ["Iri", "Irish Sea"],
    "lvp": ["Lpl", "Lvp"],
    "lvn": ["Lvn"],
    "lyo": ["GoL", "Gulf of Lions", "Lyons"],
    "mao": ["MAO", "Mid", "Mid Atlantic", "Mid-Atlantic"],
    "mar": ["Marseille"],
    "nao": ["NAO", "NAt", "North Atlantic"],
    "nth": ["Nth", "NTS"],
    "nwg": ["Nwg", "Nrg", "Norwegian"],
    "nwy": ["Nwy", "Nor"],
    "ska": ["Ska", "Skagerak", "Skaggerak"],
    "stp": ["StP", "St. Petersburg", "Saint Petersburg", "St Pete"],
    "tys": ["Tys", "Tyn", "Tyrrhenian"],
    "wes": ["Wes", "WMed", "W Med", "West Med", "Western Med"],
    "rum": ["Romania"],
    "sev": ["Sevastapol", "Sebastopol"],
    "tyr": ["Tyrol"],
    "ukr": ["Ukraina"],
    "gal": ["Galacia"],
    "bur": ["Burgandy"],
    "con": ["Istanbul"],
    "ank": ["Angora"],
    "naf": ["N Africa", "NAf"],
    "ecs": ["East China"],
    "scs": ["South China"],
    "eio": ["East Indian"],
    "wio": ["West Indian"],
    "npo": ["North Pacific"],
    "spo": ["South Pacific"],
    "sao": ["South Atlantic"],
    "ade": ["Aden"],
    "okh": ["Okhotsk"],
    "vtn": ["Vietnam", "Viet-Nam"],
    "klu": ["Cluj", "Kluj"],
    "mog": ["Mogadishu", "Magudisco"],
}

# njudge's codes where DPjudge uses other ones (Youngstown; standard differs only in "nor").
NJUDGE_CODES = {
    "nor": "nwy", "bob": "ben", "goa": "ade", "gob": "bot", "gol": "lyo", "gos": "sia",
    "got": "ton", "hir": "aki", "hon": "kyu", "inn": "imo", "liv": "lvp", "mag": "mog",
    "nat": "nao", "nrg": "nwg", "sat": "sao", "sch": "scs", "soj": "jap", "soo": "okh",
    "eme": "eas", "wme": "wes", "ein": "eio", "win": "wio", "mat": "mao", "ech": "ecs",
    "npa": "npo", "tyn": "tys",
}  # fmt: skip


@dataclass
class Source:
    """One map read from DPjudge's files, in the shape our TOML takes."""

    names: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    coast_aliases: dict[str, dict[str, str]] = field(default_factory=dict)
    terrain: dict[str, str] = field(default_factory=dict)
    army: dict[str, set[str]] = field(default_factory=dict)
    fleet: dict[str, set[str]] = field(default_factory=dict)  # location -> locations
    powers: list[tuple[str, str, str, list[str]]] = field(default_factory=list)
    neutral: list[str] = field(default_factory=list)
    units: dict[str, list[str]] = field(default_factory=dict)


def _lines(path: Path) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def read_names(src: Source, path: Path) -> None:
    """`Full Name = code alias ...`; coast lines only contribute coast spellings."""
    for line in _lines(path):
        if "=" not in line or " ABUTS" in line.replace("\t", " "):
            continue
        name, _, rest = line.partition("=")
        words = rest.split()
        code = words[0].lower()
        if "/" in code:
            prov, coast = code.split("/")
            for w in words[1:]:
                m = re.fullmatch(rf"{prov}/([a-z]{{2}})", w)
                if m and m.group(1) != coast and (prov, m.group(1)) not in DROP_COASTS:
                    src.coast_aliases.setdefault(prov, {})[m.group(1)] = coast
            continue
        src.names[code] = name.strip()
        src.aliases[code] = words[1:]


def read_geography(src: Source, path: Path) -> None:
    """`TYPE ABBR ABUTS ...`: UPPER both units, lower army only, Title fleet only."""
    lines = [ln.split() for ln in _lines(path) if "ABUTS" in ln.split()]
    kinds: dict[str, str] = {}
    for kind, abbr, _, *_rest in lines:
        if "/" not in abbr and abbr.isupper():
            kinds[abbr.lower()] = TERRAIN[kind]
    for _kind, abbr, _, *_rest in lines:
        if abbr.islower():  # the army line of a multi-coast province
            kinds.setdefault(abbr, "coast")
    src.terrain = kinds
    multi = {abbr.split("/")[0].lower() for _, abbr, *_ in lines if "/" in abbr}

    def land(target: str) -> bool:
        return kinds[target.split("/")[0]] in ("land", "coast")

    for kind, abbr, _, *targets in lines:
        if kind == "SHUT":
            continue  # nothing moves into or out of an impassable space
        low = abbr.lower()
        prov = low.split("/")[0]
        armies = abbr.islower() or (prov not in multi and kind != "WATER")
        fleets = "/" in abbr or (prov not in multi and kind != "LAND")
        for t in targets:
            tl = t.lower()
            tprov = tl.split("/")[0]
            if kinds[tprov] == "impassable":
                continue
            if armies and (t.isupper() or t.islower()) and land(tprov):
                src.army.setdefault(prov, set()).add(tprov)
            if fleets and (t.isupper() or t.istitle()) and kinds[tprov] != "land":
                src.fleet.setdefault(low, set()).add(tl)
        if armies:
            src.army.setdefault(prov, set())
        if fleets:
            src.fleet.setdefault(low, set())


def read_politics(src: Source, path: Path) -> None:
    for line in _lines(path):
        words = line.split()
        if words[0] == "UNOWNED":
            src.neutral += [w.lower() for w in words[1:]]
            continue
        if words[0] == "USE":
            continue
        m = re.fullmatch(r"\(([A-Z]+)(?::([A-Z]))?\)", words[1])
        assert m, line
        adjective = m.group(1).title()
        letter = m.group(2) or words[0][0]
        src.powers.append((words[0], adjective, letter, [w.lower() for w in words[2:]]))


def read_military(src: Source, path: Path) -> None:
    power = ""
    for line in _lines(path):
        words = line.split()
        if len(words) == 1:
            power = words[0]
            src.units[power] = []
        else:
            src.units[power].append(f"{words[0]} {words[1].lower()}")


def read_njudge(path: Path) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """njudge's `abc-mv:` army and `abc-xc:`/`abc-nc:` fleet lines, in DPjudge's codes."""
    text = path.read_text(encoding="utf-8").split("\n-1", 2)[1]
    army: dict[str, set[str]] = {}
    fleet: dict[str, set[str]] = {}

    def code(loc: str) -> str:
        prov, _, coast = loc.partition("/")
        prov = NJUDGE_CODES.get(prov, prov)
        if (prov, coast) == ("jor", "sc"):
            coast = "wc"  # njudge repeats Jordan's west coast as a south coast
        return f"{prov}/{coast}" if coast else prov

    for line in text.splitlines():
        m = re.fullmatch(r"\s*([a-z]+)-(mv|xc|nc|sc|ec|wc):(.*)", line)
        if not m:
            continue
        prov, kind, rest = code(m.group(1)), m.group(2), m.group(3).split()
        targets = {code(t) for t in rest} - {prov}
        if kind == "mv":
            army.setdefault(prov, set()).update(targets)
        else:
            loc = prov if kind == "xc" else code(f"{m.group(1)}/{kind}")
            fleet.setdefault(loc, set()).update(targets)
    return army, fleet


def cross_check(src: Source, njudge_map: Path) -> None:
    """Stop unless njudge lists exactly the moves DPjudge does."""
    army, fleet = read_njudge(njudge_map)
    ours_a = {(a, b) for a, bs in src.army.items() for b in bs}
    theirs_a = {(a, b) for a, bs in army.items() for b in bs}
    ours_f = {(a, b) for a, bs in src.fleet.items() for b in bs}
    theirs_f = {(a, b) for a, bs in fleet.items() for b in bs}
    problems = []
    if ours_a != theirs_a:
        problems.append(
            f"army: DPjudge only {sorted(ours_a - theirs_a)}, njudge only {sorted(theirs_a - ours_a)}"
        )
    if ours_f != theirs_f:
        problems.append(
            f"fleet: DPjudge only {sorted(ours_f - theirs_f)}, njudge only {sorted(theirs_f - ours_f)}"
        )
    if problems:
        raise SystemExit(f"{njudge_map}: sources disagree\n" + "\n".join(problems))
    print(
        f"cross-checked against {njudge_map}: {len(ours_a)} army and {len(ours_f)} fleet moves agree"
    )


def readable_aliases(code: str, name: str, written: list[str]) -> list[str]:
    """The sources' aliases a player would write, in readable form, plus our extras."""
    out: list[str] = list(EXTRA_ALIASES.get(code, []))  # ours first: their spelling is kept
    squashed = re.sub(r"[^a-z]", "", name.lower())
    for w in written:
        if w in DROP_ALIASES or any(ch in w for ch in "/+().?") or w == code:
            continue
        if len(w) > 4 and squashed.startswith(w):
            continue  # a player's prefix of the full name finds it anyway
        out.append(w.capitalize() if len(w) <= 4 else w.title())
    seen: set[str] = {re.sub(r"[^a-z]", "", x.lower()) for x in (code, name)}
    unique = []
    for alias in out:
        key = re.sub(r"[^a-z0-9]", "", alias.lower())
        if key not in seen:
            seen.add(key)
            unique.append(alias)
    return unique


def _list(items: list[str] | set[str]) -> str:
    return "[" + ", ".join(f'"{x}"' for x in sorted(items)) + "]"


def _ordered(items: list[str]) -> str:
    return "[" + ", ".join(f'"{x}"' for x in items) + "]"


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return f"{value!r}".replace("'", '"')


def to_toml(
    src: Source,
    head: dict[str, object],
    header: str,
    at: dict[str, list[float]] | None = None,
) -> str:
    """Our map format (maps/README.md), one table per power and per province."""
    out = [header.rstrip(), "", "[map]"]
    for key, value in head.items():
        out.append(f"{key} = {_value(value)}")
    centres = set(src.neutral)
    for name, adjective, letter, homes in src.powers:
        centres.update(homes)
        out += ["", f"[powers.{name}]", f'adjective = "{adjective}"', f'letter = "{letter}"']
        out.append(f"homes = {_list(homes)}")
        out.append(f"units = {_ordered(src.units[name])}")
    for code in sorted(src.names):
        terrain = src.terrain[code]
        out += ["", f"[provinces.{code}]", f'name = "{src.names[code]}"', f'terrain = "{terrain}"']
        aliases = readable_aliases(code, src.names[code], src.aliases.get(code, []))
        if aliases:
            out.append(f"aliases = {_ordered(aliases)}")
        if code in centres:
            out.append("centre = true")
        if code in src.army and terrain != "sea":
            out.append(f"army = {_list(src.army[code])}")
        coasts = sorted(loc for loc in src.fleet if loc.startswith(code + "/"))
        if coasts:
            table = ", ".join(f"{c.split('/')[1]} = {_list(src.fleet[c])}" for c in coasts)
            out.append(f"coasts = {{ {table} }}")
        elif code in src.fleet:
            out.append(f"fleet = {_list(src.fleet[code])}")
        if code in src.coast_aliases:
            table = ", ".join(f'{k} = "{v}"' for k, v in sorted(src.coast_aliases[code].items()))
            out.append(f"coast_aliases = {{ {table} }}")
        if at is not None:
            x, y = at[code]
            out.append(f"at = [{round(x)}, {round(y)}]")
    return "\n".join(out) + "\n"


def positions(name: str, text: str, wraps: bool) -> dict[str, list[float]]:
    """Each province's `at`: its place on the globe (tools/map_places.py) projected onto the
    map's canvas, then spread so that the picture shows no neighbours the board lacks."""
    the_map = build_map(tomllib.loads(text))
    codes = sorted(the_map.provinces)
    at = map_places.project(name, map_places.places(name, codes))
    neighbours = {code: the_map.adjacent_provinces(code) for code in codes}
    faults = spread(at, neighbours, map_places.PROJECTIONS[name][4], wraps, crowded=LABEL_ROOM)
    if faults:
        raise SystemExit(f"{name}: the picture positions cannot be spread apart: {faults[:5]}")
    return at


HEADER = """\
# {title}: generated by tools/convert_map_sources.py from DPjudge's map files,
# cross-checked against njudge's. Sources, licences and choices: maps/{name}.md.
# Edit the script (or its alias tables) and run it again rather than editing by hand."""


def convert(
    sources: Path, name: str, title: str, files: dict[str, str], head: dict[str, object]
) -> str:
    """The TOML text of one map, cross-checked and accepted by build_map."""
    base = sources / name
    src = Source()
    read_names(src, base / files["names"])
    read_geography(src, base / files["geography"])
    read_politics(src, base / files["politics"])
    read_military(src, base / files["military"])
    for code, coasts in src.coast_aliases.items():  # keep only spellings of a coast that exists
        src.coast_aliases[code] = {
            k: v for k, v in coasts.items() if f"{code}/{k}" not in src.fleet
        }
    src.coast_aliases = {k: v for k, v in src.coast_aliases.items() if v}
    cross_check(src, base / files["njudge"])
    head = {"name": name, "title": title, **head}
    if name in map_places.PROJECTIONS:
        head["canvas"] = map_places.PROJECTIONS[name][4]
    header = HEADER.format(title=title, name=name)
    text = to_toml(src, head, header)
    if name in map_places.PROJECTIONS:
        text = to_toml(src, head, header, positions(name, text, bool(head.get("wraps"))))
    the_map = build_map(tomllib.loads(text))
    print(f"{name}: {len(the_map.provinces)} provinces, {len(the_map.supply_centres())} centres, "
          f"{len(the_map.powers)} powers")  # fmt: skip
    return text


STANDARD = {"calendar": "standard", "start_phase": "S1901M"}
MAPS: dict[str, tuple[str, dict[str, str], dict[str, object]]] = {
    "standard": (
        "Standard Diplomacy",
        {
            "names": "dpjudge/standard.geography",
            "geography": "dpjudge/standard.geography",
            "politics": "dpjudge/standard.politics",
            "military": "dpjudge/standard.military",
            "njudge": "njudge/map",
        },
        {**STANDARD, "victory_centres": 18},
    ),
    "youngstown": (
        "Youngstown",
        {
            "names": "dpjudge/youngstown.locations",
            "geography": "dpjudge/youngstown.geography",
            "politics": "dpjudge/youngstown.politics",
            "military": "dpjudge/youngstown.military",
            "njudge": "njudge/map.youngstown",
        },
        # 37 of 72 centres: njudge's info.youngstown. The off-board seas join the Pacific's
        # east to the Atlantic's west, so the picture's east edge joins its west edge.
        {**STANDARD, "victory_centres": 37, "wraps": True},
    ),
}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "sources", nargs="?", type=Path, default=ROOT.parent / "shared" / "map-sources"
    )
    parser.add_argument("--check", action="store_true", help="only say whether maps/ is up to date")
    args = parser.parse_args(argv[1:])
    stale = []
    for name, (title, files, head) in MAPS.items():
        text = convert(args.sources, name, title, files, head)
        out = ROOT / "maps" / f"{name}.toml"
        if args.check:
            if not out.is_file() or out.read_text(encoding="utf-8") != text:
                stale.append(str(out.relative_to(ROOT)))
        else:
            out.write_text(text, encoding="utf-8")
            print(f"wrote {out.relative_to(ROOT)}")
    if stale:
        print(f"out of date with the sources: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
