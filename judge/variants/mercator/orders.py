"""Mercator's order values: what the army/fleet orders of the rules' sections 2 and 3 mean.

The order lines of a month are read into `Scaled` values: an order and the time scale it is
written for (1, 2 or 3; 4 for retreats). Time scale 2 uses the standard order values
(judge.engine.orders: Hold, Move, Support, Convoy) with unit types "A", "F" or "AF"; so do the
supplementary moves of time scale 3 and the retreats. The values below are Mercator's own.

Units are named as players name them, by type and place: ``A(ENC)`` is the army aboard the
army/fleet in the English Channel, ``F(NTH)`` the fleet there, ``A/F(MAO)`` the army/fleet
itself. Unlike the standard game (DATC 4.C.2), a wrong unit type makes a Mercator order
invalid (rule 2.4's example: ``F(ENC)`` for an army/fleet). ``unit_type`` is the type as
written, None where the player wrote none. Powers named in an order (the partner in a mixed
nationality boarding, rule 2.6) are upper-case power names, None where none was written.

Their `__init__` is written out, as the standard order values' (judge/engine/orders.py says
why: a month makes about a hundred of these values).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(slots=True, unsafe_hash=True, init=False)
class Board:
    """TS1 ``A(Lon) B F(NTH)``: the army in a land province boards the fleet next to it.

    Written by the army's owner (``fleet_power`` names a partner's fleet: ``A(Bel) B French
    F(ENC)``) or by the fleet's owner (``army_power`` names the partner's army: ``German
    A(Bel) B F(ENC)``); a mixed boarding needs both (rule 2.6).
    """

    army_loc: str
    fleet_loc: str
    army_power: str | None = None
    fleet_power: str | None = None

    def __init__(
        self,
        army_loc: str,
        fleet_loc: str,
        army_power: str | None = None,
        fleet_power: str | None = None,
    ) -> None:
        self.army_loc = army_loc
        self.fleet_loc = fleet_loc
        self.army_power = army_power
        self.fleet_power = fleet_power


@dataclass(slots=True, unsafe_hash=True, init=False)
class Embark:
    """TS3 ``A(Spa) E F(MAO)``: as Board, in the first part of time scale 3."""

    army_loc: str
    fleet_loc: str
    army_power: str | None = None
    fleet_power: str | None = None

    def __init__(
        self,
        army_loc: str,
        fleet_loc: str,
        army_power: str | None = None,
        fleet_power: str | None = None,
    ) -> None:
        self.army_loc = army_loc
        self.fleet_loc = fleet_loc
        self.army_power = army_power
        self.fleet_power = fleet_power


@dataclass(slots=True, unsafe_hash=True, init=False)
class Land:
    """TS1 ``A(ENC) L Lon``: the army aboard the army/fleet at ``army_loc`` lands next to it."""

    army_loc: str
    dest: str
    army_power: str | None = None

    def __init__(self, army_loc: str, dest: str, army_power: str | None = None) -> None:
        self.army_loc = army_loc
        self.dest = dest
        self.army_power = army_power


@dataclass(slots=True, unsafe_hash=True, init=False)
class SupportLanding:
    """TS1 ``F(ENC) S A(ENC) L Lon``: the carrying fleet supports its own army's landing and
    does nothing more until time scale 3."""

    fleet_loc: str
    army_loc: str
    dest: str
    army_power: str | None = None

    def __init__(
        self, fleet_loc: str, army_loc: str, dest: str, army_power: str | None = None
    ) -> None:
        self.fleet_loc = fleet_loc
        self.army_loc = army_loc
        self.dest = dest
        self.army_power = army_power


@dataclass(slots=True, unsafe_hash=True, init=False)
class Disembark:
    """TS3 ``A(NTH) D Hol``: the army aboard lands next to it, unsupported (rule 2.5)."""

    army_loc: str
    dest: str
    army_power: str | None = None

    def __init__(self, army_loc: str, dest: str, army_power: str | None = None) -> None:
        self.army_loc = army_loc
        self.dest = dest
        self.army_power = army_power


@dataclass(slots=True, unsafe_hash=True, init=False)
class FastFerry:
    """TS2 ``F(ENC) F/F A(Lon) - Bre``: the army that boarded the fleet in time scale 1 (named
    by where it began the month) is carried across the one sea and lands in time scale 2; the
    move can be supported like a convoyed move (rule 3b)."""

    fleet_loc: str
    army_loc: str  # where the army began the month
    dest: str
    army_power: str | None = None

    def __init__(
        self, fleet_loc: str, army_loc: str, dest: str, army_power: str | None = None
    ) -> None:
        self.fleet_loc = fleet_loc
        self.army_loc = army_loc
        self.dest = dest
        self.army_power = army_power


@dataclass(slots=True, unsafe_hash=True)
class ChainConvoy:
    """TS2 ``F(NTH), F(ENC) & F(MAO) C A(Den) - Por``: the extended convoy of rule 3c/3d, the
    army aboard the first fleet of the chain (named by where it began the month)."""

    fleet_locs: tuple[str, ...]
    army_loc: str
    dest: str
    army_power: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class PlaceSpare:
    """``Spare F Kie``: a power's spare unit (rule 9), an army or fleet placed secretly in a
    vacant home or special province before the first month's moves, revealed with their
    results."""

    unit_type: str | None
    loc: str


@dataclass(slots=True, unsafe_hash=True, init=False)
class Scaled:
    """One order line of a month: the order and the time scale it was written in (1 to 4)."""

    time_scale: int
    order: Any  # a value above, or a judge.engine.orders value
    unit_type: str | None = None  # the type the player wrote for the ordered unit, if any

    def __init__(self, time_scale: int, order: Any, unit_type: str | None = None) -> None:
        self.time_scale = time_scale
        self.order = order
        self.unit_type = unit_type


MercatorOrder = (
    Board | Embark | Land | SupportLanding | Disembark | FastFerry | ChainConvoy | PlaceSpare
)
