"""Algernon's orders as players write them (section I of the rules), by portal, not by place.

`VT to 3` attacks out portal 3 of VT; `VT h` holds (so does no order); `VT s 2` supports the
other end of VT2; `VT s 4 (SQ to 6)` supports out VT4 the attack SQ makes out SQ6; `MK s 1 (1)`
supports out MK1 the attack coming into that space through its portal 1; `VT(3,2,5,1,6,4)` is
the retreat priority of the rat in VT should it be dislodged; `Build MK, VT, CJ` the build
priority of a fall turn; `Remove VT` a unit to remove when centres were lost. The lines are
read through grammar/algernon.lark (language.py); these are their values, written back here.
"""

from __future__ import annotations

from dataclasses import dataclass


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
