"""The state of the board between phases: units, centre ownership, dislodged units."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple


def province_of(loc: str) -> str:
    """``"spa/nc"`` -> ``"spa"``; a location without a coast is its own province."""
    slash = loc.find("/")
    return loc if slash < 0 else loc[:slash]


class Unit(NamedTuple):
    """A unit on the board. A named tuple rather than a dataclass: the engine makes many."""

    power: str
    kind: str  # "A", "F" or "AF"
    loc: str  # province code, with coast for a fleet on a multi-coast province
    army_power: str | None = None  # for an army/fleet carrying another power's army

    @property
    def province(self) -> str:
        loc = self.loc
        slash = loc.find("/")
        return loc if slash < 0 else loc[:slash]


def make_unit(power: str, kind: str, loc: str, army_power: str | None = None) -> Unit:
    """``Unit(power, kind, loc, army_power)`` without the named tuple's Python-level __new__,
    for the places that make a unit per unit on the board (a third of the cost); a unit made
    before is that unit (a unit is a tuple, never changed: phases make the same ones again)."""
    fields = (power, kind, loc, army_power)
    unit = _UNITS_MADE.get(fields)
    if unit is None:
        unit = tuple.__new__(Unit, fields)
        if len(_UNITS_MADE) < _UNITS_MADE_LIMIT:
            _UNITS_MADE[fields] = unit
    return unit


_UNITS_MADE: dict[tuple[str, str, str, str | None], Unit] = {}
_UNITS_MADE_LIMIT = 1 << 15


@dataclass(slots=True, unsafe_hash=True, init=False)
class Dislodged:
    """Never changed once made (not frozen for speed, as the order values: engine/orders.py,
    which also says why the `__init__` is written out)."""

    unit: Unit
    attacker_from: str | None  # province the dislodging unit came from
    attacker_convoyed: bool = False
    retreats: tuple[str, ...] = ()  # locations the unit may retreat to
    time_scale: int = 0  # Mercator: the time scale (1-3) it was dislodged in; 0 elsewhere

    def __init__(
        self,
        unit: Unit,
        attacker_from: str | None,
        attacker_convoyed: bool = False,
        retreats: tuple[str, ...] = (),
        time_scale: int = 0,
    ) -> None:
        self.unit = unit
        self.attacker_from = attacker_from
        self.attacker_convoyed = attacker_convoyed
        self.retreats = retreats
        self.time_scale = time_scale


@dataclass(slots=True, unsafe_hash=True)
class Position:
    """Never changed once made (not frozen for speed, as the order values: engine/orders.py)."""

    phase: str
    units: tuple[Unit, ...]
    centers: Mapping[str, frozenset[str]] = field(default_factory=dict)
    dislodged: tuple[Dislodged, ...] = ()
    contested: frozenset[str] = frozenset()
    # Powers in civil disorder (the desk knows; the postal rules remove their dislodged units).
    civil_disorder: frozenset[str] = frozenset()
    # Owned provinces that are not supply centres, province -> power (Mercator's rule 5.1).
    owners: Mapping[str, str] = field(default_factory=dict)
    # What a variant keeps between phases beyond the board, as JSON values it alone reads.
    state: Mapping[str, Any] = field(default_factory=dict)

    def unit_in(self, province: str) -> Unit | None:
        for unit in self.units:
            if unit.province == province:
                return unit
        return None

    def owner_of(self, centre: str) -> str | None:
        for power, owned in self.centers.items():
            if centre in owned:
                return power
        return None
