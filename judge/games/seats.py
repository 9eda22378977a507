"""What a seat is doing this phase, shared by the timing and missed-turn modules.

Kept apart so both read the same meaning of "playing", "open" and "complete orders".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from judge.engine.calendar import ADJUSTMENTS, MOVEMENT, RETREATS


class SeatStatus(StrEnum):
    """Who answers for a power; only PLAYING seats are waited for, reminded and counted late."""

    PLAYING = "playing"
    # Abandoned under njudge's policy: anyone may take the seat over.
    OPEN = "open"
    # Never taken over again; units hold and are removed instead of retreating.
    CIVIL_DISORDER = "civil disorder"
    ELIMINATED = "eliminated"
    # Given up by its holder under the postal rule, nobody standing by: taken by the first
    # replacement, or in civil disorder when its next phase is processed without one.
    RESIGNED = "resigned"


class OrdersState(StrEnum):
    """How much of what a seat owes this phase has arrived, as the desk judged it."""

    NONE = "none"
    PARTIAL = "partial"
    COMPLETE = "complete"


@dataclass(frozen=True, slots=True)
class SeatOrders:
    """One seat's standing in the current phase, as the desk sees it.

    `owes_orders` is False for a power with nothing to order in this phase (no units in a
    movement phase, nothing dislodged in a retreat phase, no build or disband due); such a seat
    is never waited for, reminded, late, or counted as missing a turn.
    """

    power: str
    status: SeatStatus = SeatStatus.PLAYING
    owes_orders: bool = True
    orders: OrdersState = OrdersState.NONE
    wait: bool = False
    # When the seat last sent orders this phase; early processing waits `delay` after the last.
    changed_at: datetime | None = None

    @property
    def complete(self) -> bool:
        """A seat that owes nothing is complete by definition."""
        return not self.owes_orders or self.orders is OrdersState.COMPLETE


def owes_orders(kind: str, *, units: int, dislodged: int = 0, adjustment: int = 0) -> bool:
    """Whether a power has anything to order in a phase of `kind` ("M", "R" or "A").

    `adjustment` is the number of builds the power may really make (already capped by its free
    home centres) when positive, the number of disbands it owes when negative.
    """
    if kind == MOVEMENT:
        return units > 0
    if kind == RETREATS:
        return dislodged > 0
    if kind == ADJUSTMENTS:
        return adjustment != 0
    raise ValueError(f"phase kind {kind!r} is not M, R or A")
