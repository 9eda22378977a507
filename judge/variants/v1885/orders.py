"""1885's own order values: what the Army/Fleet module and rules 3 and 10 add to the standard
orders (judge.engine.orders), which 1885 uses for everything else: moves, holds and supports of
armies, fleets and army/fleets (unit type "AF"), the Fast Ferry (a standard convoy by one
fleet across one sea, rule 7), retreats, builds and removals.

An army/fleet is named by the sea it stands in at the start of the move; so is the army aboard
it (``A GoL disembarks Tun``), and an army that boards a fleet this move is aboard the fleet it
names (``A Mar boards F GoL; A/F GoL - WMed; A disembarks Tun``: the landing names GoL).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True, unsafe_hash=True)
class Board:
    """``A Mar boards F GoL`` (II a): at the start of the move the army in a coastal province
    goes aboard its own power's fleet in a sea next to it, which becomes an army/fleet."""

    army_loc: str
    fleet_loc: str


@dataclass(slots=True, unsafe_hash=True)
class Disembark:
    """``A GoL disembarks Tun``: the army aboard the army/fleet that began the move in
    `army_loc` lands in `dest`: before the fleet's own move when the fleet's order is written
    for the fleet alone (``F GoL - WMed``, ``F GoL S A GoL - Mar``: III g), after it when the
    army/fleet moves whole (``A/F GoL - WMed``: II a)."""

    army_loc: str
    dest: str


@dataclass(slots=True, unsafe_hash=True)
class ChooseUnit:
    """``Rome: Fleet`` (rule 3): the kind of Italy's unit in Rome, given privately with the
    first move's orders and revealed with its results."""

    unit_type: str  # "A" or "F"
    loc: str


@dataclass(slots=True, unsafe_hash=True)
class RetreatIf:
    """The condition of a contingent build (rule 10 a): the dislodged unit in `loc` (of
    `power`, where named) retreats to `dest`; `negated` reads "unless"."""

    loc: str
    dest: str
    power: str | None = None
    unit_type: str | None = None
    negated: bool = False


@dataclass(slots=True, unsafe_hash=True)
class ContingentBuild:
    """``Build A Con if Austrian A Ser retreats to Bul`` (rule 10 a): a build that stands only
    if the condition holds once the retreats sent with the builds are made."""

    unit_type: str | None
    loc: str
    condition: RetreatIf


@dataclass(slots=True, unsafe_hash=True)
class RetreatOnFile:
    """``A Vie - Bud, retreat to Boh``, ``A Ser R Alb if dislodged`` (rule 10 a, A/F module
    IV e: "if no Retreat orders are on file"): a retreat order sent with the move, kept on file
    for the unit in `loc` should the move dislodge it. It stands as the unit's retreat order in
    the retreat (or build) phase that follows unless its player sends another there; only a
    unit with no retreat order at all goes by the right-hand rule."""

    unit_type: str | None
    loc: str
    dest: str


V1885Order = Board | Disembark | ChooseUnit | ContingentBuild | RetreatOnFile
