"""Algernon's orders as players write them (section I of the rules), by portal, not by place.

`VT to 3` attacks out portal 3 of VT; `VT h` holds (so does no order); `VT s 2` supports the
other end of VT2; `VT s 4 (SQ to 6)` supports out VT4 the attack SQ makes out SQ6; `MK s 1 (1)`
supports out MK1 the attack coming into that space through its portal 1; `VT(3,2,5,1,6,4)` is
the retreat priority of the rat in VT should it be dislodged; `Build MK, VT, CJ` the build
priority of a fall turn; `Remove VT` a unit to remove when centres were lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SPACE = r"([A-Za-z]{2,3})"
_NUMBER = r"(\d{1,3})"


@dataclass(frozen=True)
class Attack:
    space: str
    portal: int


@dataclass(frozen=True)
class Stand:
    """A hold (`VT h`)."""

    space: str


@dataclass(frozen=True)
class SupportOut:
    """Support of the rat at the other end of a portal, holding (`VT s 2`)."""

    space: str
    portal: int


@dataclass(frozen=True)
class SupportAttack:
    """Support out `portal` of the attack the rat in `mover` makes out its portal
    `mover_portal` (`VT s 4 (SQ to 6)`)."""

    space: str
    portal: int
    mover: str
    mover_portal: int


@dataclass(frozen=True)
class SupportInto:
    """Support out `portal` of the attack coming into that space through its portal
    `entry` (`MK s 1 (1)`)."""

    space: str
    portal: int
    entry: int


@dataclass(frozen=True)
class RetreatList:
    space: str
    portals: tuple[int, ...]


@dataclass(frozen=True)
class BuildList:
    spaces: tuple[str, ...]


@dataclass(frozen=True)
class Remove:
    space: str


UnitOrder = Attack | Stand | SupportOut | SupportAttack | SupportInto
MazeOrder = UnitOrder | RetreatList | BuildList | Remove

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^{_SPACE}\s*(?:to|-|->|a|attacks?)\s*{_NUMBER}$", re.I), "attack"),
    (re.compile(rf"^{_SPACE}\s*(?:h|holds?)?$", re.I), "hold"),
    (
        re.compile(
            rf"^{_SPACE}\s*(?:s|supports?)\s*{_NUMBER}\s*\(\s*{_SPACE}\s*(?:to|-|->)\s*"
            rf"{_NUMBER}\s*\)$",
            re.I,
        ),
        "support-attack",
    ),
    (
        re.compile(rf"^{_SPACE}\s*(?:s|supports?)\s*{_NUMBER}\s*\(\s*{_NUMBER}\s*\)$", re.I),
        "support-into",
    ),
    (re.compile(rf"^{_SPACE}\s*(?:s|supports?)\s*{_NUMBER}$", re.I), "support"),
    (re.compile(rf"^{_SPACE}\s*\(\s*(\d{{1,3}}(?:\s*,\s*\d{{1,3}})*)\s*\)$", re.I), "retreat"),
    (re.compile(r"^build\s+(.+)$", re.I), "build"),
    (re.compile(rf"^(?:remove|disband)\s+{_SPACE}$", re.I), "remove"),
]

FORMS = (
    "VT to 3, VT h, VT s 2, VT s 4 (SQ to 6), MK s 1 (1), VT(3,2,5,1,6,4), "
    "Build MK, VT, CJ, Remove VT"
)


class OrderSyntax(ValueError):
    """An order line that is none of section I's forms."""


def read_order(text: str) -> MazeOrder:
    """One order line as its value; OrderSyntax says what the forms are."""
    line = " ".join(text.strip().split())
    for pattern, kind in _PATTERNS:
        m = pattern.match(line)
        if m is None:
            continue
        g = m.groups()
        if kind == "attack":
            return Attack(g[0].lower(), int(g[1]))
        if kind == "hold":
            return Stand(g[0].lower())
        if kind == "support-attack":
            return SupportAttack(g[0].lower(), int(g[1]), g[2].lower(), int(g[3]))
        if kind == "support-into":
            return SupportInto(g[0].lower(), int(g[1]), int(g[2]))
        if kind == "support":
            return SupportOut(g[0].lower(), int(g[1]))
        if kind == "retreat":
            return RetreatList(g[0].lower(), tuple(int(n) for n in g[1].split(",")))
        if kind == "build":
            spaces = [s for s in re.split(r"[\s,]+", g[0]) if s]
            if not spaces or not all(re.fullmatch(r"[A-Za-z]{2,3}", s) for s in spaces):
                break
            return BuildList(tuple(s.lower() for s in spaces))
        return Remove(g[0].lower())
    raise OrderSyntax(f"not an Algernon order; the forms are {FORMS}")


def order_text(order: MazeOrder) -> str:
    """An order written back in the rules' own notation (`VT s 4 (SQ to 6)`)."""
    if isinstance(order, Attack):
        return f"{order.space.upper()} to {order.portal}"
    if isinstance(order, Stand):
        return f"{order.space.upper()} h"
    if isinstance(order, SupportOut):
        return f"{order.space.upper()} s {order.portal}"
    if isinstance(order, SupportAttack):
        return (
            f"{order.space.upper()} s {order.portal} "
            f"({order.mover.upper()} to {order.mover_portal})"
        )
    if isinstance(order, SupportInto):
        return f"{order.space.upper()} s {order.portal} ({order.entry})"
    if isinstance(order, RetreatList):
        return f"{order.space.upper()}({','.join(str(p) for p in order.portals)})"
    if isinstance(order, BuildList):
        return "Build " + ", ".join(s.upper() for s in order.spaces)
    return f"Remove {order.space.upper()}"


def order_key(order: MazeOrder) -> str:
    """The key an order is stored under at the desk: the last order for a key stands. A unit's
    orders are keyed by its space; a retreat list and a removal never count as the unit's
    order (the desk reads a key's last word as the unit's space)."""
    if isinstance(order, RetreatList):
        return f"retreat:{order.space}"
    if isinstance(order, BuildList):
        return "build:"
    if isinstance(order, Remove):
        return f"remove:{order.space}"
    return order.space
