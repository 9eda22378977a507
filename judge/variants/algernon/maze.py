"""The maze as a board: spaces joined by numbered portals (rules 3 and 4).

A maze is written in the board file's shape (maps/README.md): each space a province with its
`portals` table, portal number -> the space behind it. The maze's own rules are checked here
(portals numbered 1..n with none missing, a portal never leads back into its own space, two
portals of one space never lead to the same space, and every portal is joined from the other
side), so that "portal i of S" always meets exactly one portal j of the space behind it: the
rules' "came in through portal j". The engine then sees each space as an inland province whose
army adjacency is the spaces behind its portals, and the standard resolver plays on it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from judge.engine.geography import Map, MapError, build_map

# A space's id: two or three lower-case letters in the file, printed in upper case (VT, RTW).
SPACE_ID = re.compile(r"^[a-z]{2,3}$")
HOME_CENTRE = "HSC"
NEUTRAL_CENTRE = "NSC"

_BOARDS: dict[str, Map] = {}  # a maze's data (as text) -> its checked board (a few per process)


def maze_problems(data: Mapping[str, Any]) -> list[str]:
    """What is wrong with a maze as a maze (beyond what any board file must satisfy)."""
    faults: list[str] = []
    spaces = data.get("provinces") or {}
    if not isinstance(spaces, Mapping) or not spaces:
        return ["maze: [provinces] is missing"]
    for code, entry in spaces.items():
        where = f"space '{code}'"
        if not isinstance(code, str) or not SPACE_ID.match(code):
            faults.append(f"{where}: a space id is two or three lower-case letters")
        if not isinstance(entry, Mapping):
            faults.append(f"{where}: must be a table")
            continue
        portals = entry.get("portals") or {}
        if not isinstance(portals, Mapping) or not portals:
            faults.append(f"{where}: has no portals")
            continue
        try:
            numbers = sorted(int(n) for n in portals)
        except (TypeError, ValueError):
            faults.append(f"{where}: portals are numbered 1, 2, 3 ...")
            continue
        if numbers != list(range(1, len(numbers) + 1)):
            faults.append(f"{where}: portals are numbered 1 to {len(numbers)} with none missing")
        targets = [str(t) for t in portals.values()]
        if code in targets:
            faults.append(f"{where}: a portal leads back into the space itself")
        twice = sorted({t for t in targets if targets.count(t) > 1})
        for target in twice:
            faults.append(f"{where}: two portals lead to '{target}'")
        for number, target in portals.items():
            other = spaces.get(target)
            if not isinstance(other, Mapping):
                continue  # the board's own check names the unknown space
            back = [n for n, t in (other.get("portals") or {}).items() if t == code]
            if not back:
                faults.append(
                    f"{where}: portal {number} leads to '{target}', which has no portal back"
                )
        for key in ("army", "fleet", "coasts"):
            if key in entry:
                faults.append(f"{where}: a maze space has portals, not '{key}' adjacency")
    return faults


def filled_board_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """The maze as full board data: every space inland, named by its id in upper case, its army
    adjacency the spaces behind its portals; powers' adjectives and letters filled in."""
    full = _copied(data)
    for code, entry in full.get("provinces", {}).items():
        entry.setdefault("name", code.upper())
        entry.setdefault("terrain", "land")
        portals = {str(n): str(t) for n, t in entry.get("portals", {}).items()}
        entry["portals"] = portals
        entry["army"] = sorted(set(portals.values()))
    used = {str(p.get("letter")) for p in full.get("powers", {}).values() if p.get("letter")}
    spare = [c for c in "ABCDEFGHIJKLNOPQRSTUVWXYZ" if c not in used]  # M stays the GM's
    for name, entry in full.get("powers", {}).items():
        entry.setdefault("adjective", name)
        if "letter" not in entry and spare:
            entry["letter"] = spare.pop(0)
        homes = entry.get("homes", [])
        entry.setdefault("units", [f"A {h}" for h in homes])
    head = full.setdefault("map", {})
    head.setdefault("calendar", "standard")
    head.setdefault("start_phase", "S1901M")
    centres = sum(1 for e in full.get("provinces", {}).values() if e.get("centre"))
    head.setdefault("victory_centres", max(1, centres // 2 + 1))
    return full


def _copied(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copied(v) for v in value]
    return value


def _frozen(value: Any) -> Any:
    """A maze's data as nested sorted tuples: one key per maze, whatever its dict order."""
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def maze_board(data: Mapping[str, Any]) -> Map:
    """The checked board of a maze given in the board file's shape; MapError lists every fault."""
    key = repr(_frozen(data))
    found = _BOARDS.get(key)
    if found is not None:
        return found
    faults = maze_problems(data)
    if faults:
        raise MapError(faults)
    board = build_map(filled_board_data(data))
    if len(_BOARDS) >= 32:
        _BOARDS.clear()
    _BOARDS[key] = board
    return board


def portal_count(board: Map, space: str) -> int:
    return len(board.provinces[space].portals)


def behind(board: Map, space: str, portal: int) -> tuple[str, int] | None:
    """The space behind portal `portal` of `space` and the portal of that space one comes in
    through; None when `space` has no such portal."""
    target = board.through_portal(space, portal)
    if target is None:
        return None
    return target, portal_towards(board, target, space)


def portal_towards(board: Map, space: str, neighbour: str) -> int:
    """The portal of `space` that leads to `neighbour` (one at most: maze_problems)."""
    for number, target in board.provinces[space].portals.items():
        if target == neighbour:
            return number
    raise KeyError(f"{space} has no portal to {neighbour}")


def centre_kind(board: Map, space: str) -> str:
    """HSC, NSC or "" (rule 6's "value as a supply center")."""
    if not board.provinces[space].supply_centre:
        return ""
    return HOME_CENTRE if board.home_of(space) is not None else NEUTRAL_CENTRE


def board_data(board: Map) -> dict[str, Any]:
    """A maze board back in the board file's shape (what a case's "maze" carries)."""
    return {
        "map": {
            "name": board.name,
            "title": board.title,
            "victory_centres": board.victory_centres,
        },
        "powers": {
            name: {"letter": p.letter, "homes": sorted(p.home_centres)}
            for name, p in board.powers.items()
        },
        "provinces": {
            code: {
                **({"centre": True} if p.supply_centre else {}),
                "portals": {str(n): t for n, t in sorted(p.portals.items())},
            }
            for code, p in sorted(board.provinces.items())
        },
    }
