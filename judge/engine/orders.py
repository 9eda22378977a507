"""Order values: what a player's order means, independent of how it was written.

The language layer turns text into these; the engine never sees text. Locations are the
map's codes in lower case, with a coast where one was given (``"spa/nc"``). A unit type of
``None`` means the player did not write one; the engine takes the type of the unit found there.

Order values are never changed once made, and they hash and compare by value. They are not
frozen dataclasses only because a frozen one is about three times as costly to make where
mypyc compiles this module (judge/compiled.py), and an adjudication makes one per order.

Each writes its `__init__` out (`init=False`): the one `dataclass` writes runs as Python even
where mypyc compiles the class, six times as long as the compiled one (0.13 µs against 0.02 µs
a value). tests/engine/test_value_inits.py checks that each takes the fields in order, with
the dataclass's defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

ARMY = "A"
FLEET = "F"
ARMY_FLEET = "AF"


@dataclass(slots=True, unsafe_hash=True, init=False)
class Hold:
    unit_type: str | None
    loc: str

    def __init__(self, unit_type: str | None, loc: str) -> None:
        self.unit_type = unit_type
        self.loc = loc


@dataclass(slots=True, unsafe_hash=True, init=False)
class Move:
    unit_type: str | None
    loc: str
    dest: str
    via_convoy: bool = False

    def __init__(
        self, unit_type: str | None, loc: str, dest: str, via_convoy: bool = False
    ) -> None:
        self.unit_type = unit_type
        self.loc = loc
        self.dest = dest
        self.via_convoy = via_convoy


@dataclass(slots=True, unsafe_hash=True, init=False)
class Support:
    """Support to hold (``dest`` is None) or to move from ``target`` to ``dest``."""

    unit_type: str | None
    loc: str
    target_type: str | None
    target: str
    dest: str | None = None

    def __init__(
        self,
        unit_type: str | None,
        loc: str,
        target_type: str | None,
        target: str,
        dest: str | None = None,
    ) -> None:
        self.unit_type = unit_type
        self.loc = loc
        self.target_type = target_type
        self.target = target
        self.dest = dest


@dataclass(slots=True, unsafe_hash=True, init=False)
class Convoy:
    unit_type: str | None
    loc: str
    army_loc: str
    dest: str

    def __init__(self, unit_type: str | None, loc: str, army_loc: str, dest: str) -> None:
        self.unit_type = unit_type
        self.loc = loc
        self.army_loc = army_loc
        self.dest = dest


@dataclass(slots=True, unsafe_hash=True, init=False)
class Retreat:
    unit_type: str | None
    loc: str
    dest: str

    def __init__(self, unit_type: str | None, loc: str, dest: str) -> None:
        self.unit_type = unit_type
        self.loc = loc
        self.dest = dest


@dataclass(slots=True, unsafe_hash=True, init=False)
class Disband:
    unit_type: str | None
    loc: str

    def __init__(self, unit_type: str | None, loc: str) -> None:
        self.unit_type = unit_type
        self.loc = loc


@dataclass(slots=True, unsafe_hash=True, init=False)
class Build:
    unit_type: str | None
    loc: str

    def __init__(self, unit_type: str | None, loc: str) -> None:
        self.unit_type = unit_type
        self.loc = loc


@dataclass(slots=True, unsafe_hash=True)
class Waive:
    """A build the power declines to make."""


Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Waive
