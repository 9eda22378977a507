"""Mercenary Diplomacy II's money lines as values (seed 001, rules 5 to 8).

A power's lines for a season are its standard orders (judge.engine.orders) and these. Powers and
currencies are the map's power names in capitals (a currency is named by its power: French
pounds are "FRANCE"); None where a line left the currency out and the power's own is meant.
Amounts are whole pounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.engine.orders import Order


@dataclass(frozen=True, slots=True)
class SecondOrder:
    """``A Par - Bur IF GERMANY PAYS 200 GERMAN`` (rule 5 a): the unit's second order, used
    instead of its first when `payer` pays the power at least `amount` pounds of `currency`
    (the payer's own when None) this season. One a unit."""

    order: Order
    payer: str
    amount: int
    currency: str | None


@dataclass(frozen=True, slots=True)
class Offer:
    """``PAY 200 GERMAN TO FRANCE IF A Par - Bur`` (rule 5 b): money offered to `payee`, paid if
    the payee's unit is given `condition` this season (rule 5 c: whichever of its orders it is);
    with no condition a plain transfer (rule 5 e), always paid."""

    amount: int
    currency: str | None
    payee: str
    condition: Order | None = None


@dataclass(frozen=True, slots=True)
class Bid:
    """``BID 150 ON A Par - Bur`` (rule 6): the bidder's own pounds for an order of anybody's,
    counted where the order meets an equal opposing force and paid only there."""

    amount: int
    currency: str | None  # as written; only the bidder's own currency is allowed
    order: Order


@dataclass(frozen=True, slots=True)
class Conversion:
    """``CONVERT 300 FRENCH TO GERMAN`` (rule 7): `amount` pounds of `source` (the converter's
    own when None) changed into `target` at last season's final rates, for use next season."""

    amount: int
    source: str | None
    target: str


@dataclass(frozen=True, slots=True)
class AllianceWish:
    """``ALLIANCE OF CURRENCY WITH GERMANY, ITALY`` (rule 8 b): the other powers the writer wants
    an Alliance of Currency with; formed when each of them writes the same alliance."""

    partners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LeaveAlliance:
    """``LEAVE ALLIANCE OF CURRENCY`` (rule 8 c): out of the alliance at once."""


MoneyLine = Offer | Bid | Conversion | AllianceWish | LeaveAlliance
