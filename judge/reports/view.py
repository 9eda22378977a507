"""Who reads a report, and what of the phase they may see.

Every results mail is written from a view of the phase, never from the whole of it (DESIGN.md).
In the standard game all results are public, so the default view is the whole report for every
reader; games with private results (Algernon) pass their own `Visibility`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judge.reports.phase import PhaseReport

POWER = "power"
OBSERVER_ROLE = "observer"
MASTER_ROLE = "master"


@dataclass(frozen=True)
class Viewer:
    """The reader of a report: a power's player, an observer or the game master."""

    role: str
    power: str | None = None

    def __post_init__(self) -> None:
        if self.role not in (POWER, OBSERVER_ROLE, MASTER_ROLE):
            raise ValueError(f"unknown viewer role {self.role!r}")
        if (self.role == POWER) != (self.power is not None):
            raise ValueError("a power viewer names its power; observers and the master do not")

    @classmethod
    def of_power(cls, power: str) -> Viewer:
        return cls(POWER, power.upper())


OBSERVER = Viewer(OBSERVER_ROLE)
MASTER = Viewer(MASTER_ROLE)

Visibility = Callable[[PhaseReport, Viewer], PhaseReport]


def everything_public(report: PhaseReport, viewer: Viewer) -> PhaseReport:
    """The standard game: every order and result is announced to everyone."""
    return report


def view_for(report: PhaseReport, viewer: Viewer, visibility: Visibility) -> PhaseReport:
    """The part of `report` that `viewer` may see; the one place report writers take it from."""
    if viewer.role == MASTER_ROLE:
        return report
    return visibility(report, viewer)
