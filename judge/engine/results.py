"""What an adjudicated phase yields: per-order outcomes and the board after it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.engine.position import Dislodged, Unit

SUCCESS = "success"
FAILURE = "failure"
ILLEGAL = "illegal"
VOID = "void"


@dataclass(slots=True, unsafe_hash=True, init=False)
class OrderResult:
    """Never changed once made (not frozen for speed, as the order values: engine/orders.py,
    which also says why the `__init__` is written out)."""

    result: str  # success, failure, illegal or void
    reason: str = ""
    time_scale: int = 0  # Mercator: the time scale (1-3) the order took effect in; 0 elsewhere

    def __init__(self, result: str, reason: str = "", time_scale: int = 0) -> None:
        self.result = result
        self.reason = reason
        self.time_scale = time_scale


@dataclass(slots=True, unsafe_hash=True)
class Payment:
    """One movement of money in a variant that keeps a ledger (Mercenary): whole pounds of one
    currency from a power (or the bank, `BANK`) to a power (or the bank), and why. Never changed
    once made (not frozen for speed, as the order values: engine/orders.py)."""

    payer: str
    payee: str
    currency: str  # named by the power whose currency it is
    amount: int
    why: str


BANK = "BANK"  # the payer or payee that is no power: income, captures of neutrals, money spent


@dataclass(slots=True, init=False)
class PhaseResult:
    """Never changed once made (not frozen for speed, as the order values: engine/orders.py,
    which also says why the `__init__` is written out)."""

    phase: str
    results: Mapping[str, tuple[OrderResult, ...]]  # per power, aligned with the orders given
    units_after: tuple[Unit, ...]
    centers_after: Mapping[str, frozenset[str]]
    next_phase: str
    dislodged: tuple[Dislodged, ...] = ()
    contested: frozenset[str] = frozenset()
    disbanded: tuple[Unit, ...] = ()
    victory: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    # A variant that keeps them (Mercator): as Position.owners and Position.state; None elsewhere.
    owners_after: Mapping[str, str] | None = None
    state_after: Mapping[str, Any] | None = None
    # Every movement of money in the phase, in the order made (a variant with money); the desk
    # writes them into the game's ledger.
    payments: tuple[Payment, ...] = ()

    def __init__(
        self,
        phase: str,
        results: Mapping[str, tuple[OrderResult, ...]],
        units_after: tuple[Unit, ...],
        centers_after: Mapping[str, frozenset[str]],
        next_phase: str,
        dislodged: tuple[Dislodged, ...] = (),
        contested: frozenset[str] = frozenset(),
        disbanded: tuple[Unit, ...] = (),
        victory: tuple[str, ...] = (),
        notes: tuple[str, ...] = (),
        owners_after: Mapping[str, str] | None = None,
        state_after: Mapping[str, Any] | None = None,
        payments: tuple[Payment, ...] = (),
    ) -> None:
        self.phase = phase
        self.results = results
        self.units_after = units_after
        self.centers_after = centers_after
        self.next_phase = next_phase
        self.dislodged = dislodged
        self.contested = contested
        self.disbanded = disbanded
        self.victory = victory
        self.notes = notes
        self.owners_after = owners_after
        self.state_after = state_after
        self.payments = payments
