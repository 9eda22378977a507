"""Phase names and which phase follows which.

Standard phases are named season, year and kind: ``S1901M`` (spring movement), ``F1901R``
(fall retreats), ``W1901A`` (winter adjustments). Variants with other calendars add their own
calendars here, keyed by the map's ``calendar`` field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MOVEMENT = "M"
RETREATS = "R"
ADJUSTMENTS = "A"

_STANDARD = re.compile(r"^([SFW])(\d{4})([MRA])$")
_SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter"}
_KIND_NAMES = {MOVEMENT: "Movement", RETREATS: "Retreats", ADJUSTMENTS: "Adjustments"}


class PhaseError(ValueError):
    """A phase name that the map's calendar does not know."""


@dataclass(slots=True, unsafe_hash=True)
class Phase:
    """Never changed once made (not frozen for speed, as the order values: engine/orders.py)."""

    season: str  # "S", "F" or "W"
    year: int
    kind: str  # "M", "R" or "A"

    @property
    def name(self) -> str:
        return f"{self.season}{self.year}{self.kind}"

    @property
    def is_fall(self) -> bool:
        """Centres change hands after the fall movement (and its retreats)."""
        return self.season == "F"

    def long_name(self) -> str:
        return f"{_SEASON_NAMES[self.season]} {self.year} {_KIND_NAMES[self.kind]}"


def parse_phase(name: str, calendar: str = "standard") -> Phase:
    if calendar != "standard":
        raise PhaseError(f"calendar {calendar!r} is not known")
    match = _STANDARD.match(name.strip().upper())
    if not match:
        raise PhaseError(f"phase {name!r} is not a standard phase such as S1901M, F1901R or W1901A")
    season, year, kind = match.groups()
    valid = {"S": "MR", "F": "MR", "W": "A"}[season]
    if kind not in valid:
        raise PhaseError(
            f"phase {name!r}: {_SEASON_NAMES[season]} has no {_KIND_NAMES[kind]} phase"
        )
    return Phase(season, int(year), kind)


def following_phase(phase: Phase, *, retreats_due: bool, adjustments_due: bool) -> Phase:
    """The next phase to play, skipping a retreat or adjustment phase with nothing to do."""
    if phase.kind == MOVEMENT and retreats_due:
        return Phase(phase.season, phase.year, RETREATS)
    if phase.season == "S":
        return Phase("F", phase.year, MOVEMENT)
    if phase.season == "F" and adjustments_due:
        return Phase("W", phase.year, ADJUSTMENTS)
    return Phase("S", phase.year + 1, MOVEMENT)
