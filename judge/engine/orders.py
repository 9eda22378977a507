"""Order values: what a player's order means, independent of how it was written.

The language layer turns text into these; the engine never sees text. Locations are the
map's codes in lower case, with a coast where one was given (``"spa/nc"``). A unit type of
``None`` means the player did not write one; the engine takes the type of the unit found there.

Order values are never changed once made, and they hash and compare by value. They are not
frozen dataclasses only because a frozen one is about three times as costly to make where
mypyc compiles this module (judge/compiled.py), and an adjudication makes one per order.
"""

from __future__ import annotations

from dataclasses import dataclass

ARMY = "A"
FLEET = "F"
ARMY_FLEET = "AF"


@dataclass(slots=True, unsafe_hash=True)
class Hold:
    unit_type: str | None
    loc: str


@dataclass(slots=True, unsafe_hash=True)
class Move:
    unit_type: str | None
    loc: str
    dest: str
    via_convoy: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Support:
    """Support to hold (``dest`` is None) or to move from ``target`` to ``dest``."""

    unit_type: str | None
    loc: str
    target_type: str | None
    target: str
    dest: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class Convoy:
    unit_type: str | None
    loc: str
    army_loc: str
    dest: str


@dataclass(slots=True, unsafe_hash=True)
class Retreat:
    unit_type: str | None
    loc: str
    dest: str


@dataclass(slots=True, unsafe_hash=True)
class Disband:
    unit_type: str | None
    loc: str


@dataclass(slots=True, unsafe_hash=True)
class Build:
    unit_type: str | None
    loc: str


@dataclass(slots=True, unsafe_hash=True)
class Waive:
    """A build the power declines to make."""


Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Waive
