"""What an Algernon player may have learned, worked out by the tests from the moves alone (not
from the judge's knowledge store), and the check of a mail's text against it.

The model follows the rules, not the judge's code: a player knows his homes (rule 4); every
space one of his rats stood in; every space one of his rats attacked, unless it was a swap
attempt that failed (rule 10: only the other player's identity); a space a dislodged rat
retreated (or tried to retreat) into through a portal of its space. He knows the initials of
players whose pieces were in, attacked or supported into a space his rats stood in or attacked,
and after the first fall turn everyone's (rule 7's public counts).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.engine.geography import Map
from judge.variants.algernon.language import read_order
from judge.variants.algernon.orders import Attack, SupportAttack, SupportInto, SupportOut

TOKEN = re.compile(r"\b([A-Z]{2,3})(\d*)\b")
# Initials name-cased (`You play Hac`): never how the judge writes them (name_cased below), but
# a leak all the same if a sentence did.
TITLED = re.compile(r"\b([A-Z][a-z]{2})\b")
# A word of two or three letters name-cased: a space id (Dn, Kpt) or initials (Hac) so written.
NAME_CASED = re.compile(r"\b([A-Z][a-z]{1,2})\b")
SPACE_COUNT = re.compile(r"\b([A-Z]{2,3})(\d+)(?: [HN]SC)? (\d+)\b")
RETREAT = re.compile(r"retreat out ([A-Z]{2,3})(\d+): ([A-Z]{2,3})\d")


@dataclass
class Allowed:
    power: str
    spaces: set[str] = field(default_factory=set)
    players: set[str] = field(default_factory=set)


def start(board: Map) -> dict[str, Allowed]:
    return {p: Allowed(p, set(board.powers[p].home_centres), {p}) for p in board.powers}


def _target(board: Map, space: str, line: str) -> tuple[str | None, str | None]:
    """(space attacked, space supported into) by an order line."""
    try:
        order = read_order(line)
    except ValueError:
        return None, None
    if isinstance(order, Attack):
        return board.through_portal(space, order.portal), None
    if isinstance(order, SupportOut | SupportAttack | SupportInto):
        return None, board.through_portal(space, order.portal)
    return None, None


def after_turn(
    board: Map,
    allowed: dict[str, Allowed],
    units_before: Sequence[Mapping[str, Any]],
    orders: Mapping[str, Sequence[str]],
    units_after: Sequence[Mapping[str, Any]],
    fall: bool,
) -> None:
    """Grow each player's allowance by what the turn's moves let him learn."""
    owner = {u["loc"]: u["power"] for u in units_before}
    attack: dict[str, str] = {}
    support: dict[str, str] = {}
    for power, lines in orders.items():
        for line in lines:
            space = line.split()[0].lower().split("(")[0]
            if owner.get(space) != power:
                continue
            hit, into = _target(board, space, line)
            if hit:
                attack[space] = hit
            if into:
                support[space] = into
    after = {u["loc"]: u["power"] for u in units_after}
    for space, power in owner.items():
        mine = allowed[power]
        seen = {space}
        hit = attack.get(space)
        if hit is not None:
            swap = attack.get(hit) == space and owner.get(hit) is not None
            moved = after.get(hit) == power
            if not swap or moved:
                mine.spaces.add(hit)
                seen.add(hit)
            else:
                mine.players.add(owner[hit])
        for where in seen:
            for other, p in owner.items():
                if other == where or attack.get(other) == where or support.get(other) == where:
                    mine.players.add(p)
    for space, power in after.items():
        allowed[power].spaces.add(space)
    if fall:
        for mine in allowed.values():
            mine.players.update(board.powers)


def leaks(board: Map, allowed: Allowed, text: str) -> list[str]:
    """Every id, portal, count or initials in `text` the player may not know."""
    found: list[str] = []
    spaces = {s.upper(): s for s in board.provinces}
    for m in RETREAT.finditer(text):
        here, portal, there = m.group(1).lower(), int(m.group(2)), m.group(3).lower()
        if board.through_portal(here, portal) == there and here in allowed.spaces:
            allowed.spaces.add(there)
    for m in TOKEN.finditer(text):
        word, digits = m.group(1), m.group(2)
        if word in spaces:
            space = spaces[word]
            if space not in allowed.spaces:
                found.append(f"space {word} (unknown to {allowed.power})")
            elif digits and not 1 <= int(digits) <= len(board.provinces[space].portals):
                found.append(f"portal {word}{digits} that does not exist")
        elif not digits and word in board.powers and word not in allowed.players:
            found.append(f"player {word} (unknown to {allowed.power})")
    for m in TITLED.finditer(text):
        word = m.group(1).upper()
        if word in board.powers and word not in allowed.players:
            found.append(f"player {m.group(1)} (unknown to {allowed.power})")
    for m in SPACE_COUNT.finditer(text):
        space = spaces.get(m.group(1))
        if space is not None and int(m.group(3)) != len(board.provinces[space].portals):
            found.append(f"a wrong portal count in {m.group(0)!r}")
    return found


def name_cased(board: Map, text: str) -> list[str]:
    """Every space id or initials that `text` writes name-cased (Hac, Dn) instead of as the
    maze writes them (HAC, DN): read so, they are a word of the sentence, not the id a player
    writes in his orders."""
    words = {space.upper() for space in board.provinces} | set(board.powers)
    return [
        f"{m.group(1)} for {m.group(1).upper()}"
        for m in NAME_CASED.finditer(text)
        if m.group(1).upper() in words
    ]


# Ids the pictures give their parts (judge/pictures/svg.py): a space's marker, label and centre;
# a unit or dislodged unit (power and space); an order; the picture's groups.
_SPACE_ID = re.compile(r"^[plc]-([a-z]{2,3})$")
_UNIT_ID = re.compile(r"^[ud]-([A-Z][A-Z_-]*)-([a-z]{2,3})$")
_PLAIN_IDS = re.compile(r"^(board|ground|links|provinces|orders|units|labels|legend|o-\d+)$")


def svg_leaks(board: Map, allowed: Allowed, svg: str) -> list[str]:
    """Every text and id of a picture checked as a mail's text is: no space, portal or player
    the player may not know, in what the picture shows or in how its parts are named."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    texts = [text for element in root.iter() for text in (element.text, element.tail) if text]
    found = leaks(board, allowed, "\n".join(texts))
    for element in root.iter():
        ident = element.attrib.get("id")
        if ident is None:
            continue
        space = _SPACE_ID.match(ident)
        unit = _UNIT_ID.match(ident)
        if space is not None:
            if space.group(1) not in allowed.spaces:
                found.append(
                    f"space {space.group(1).upper()} in id {ident} (unknown to {allowed.power})"
                )
        elif unit is not None:
            if unit.group(1) not in allowed.players:
                found.append(f"player {unit.group(1)} in id {ident} (unknown to {allowed.power})")
            if unit.group(2) not in allowed.spaces:
                found.append(
                    f"space {unit.group(2).upper()} in id {ident} (unknown to {allowed.power})"
                )
        elif not _PLAIN_IDS.match(ident):
            found.append(f"an id the check does not know: {ident}")
    return found
