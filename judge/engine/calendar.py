"""Phase names and which phase follows which, for each kind of calendar.

Standard phases are named season, year and kind: ``S1901M`` (spring movement), ``F1901R``
(fall retreats), ``W1901A`` (winter adjustments). The monthly calendar of Mercator and 1885
names a phase by its month: ``JAN1901M`` (the month's moves, Mercator's time scales 1 to 3),
``JAN1901R`` (its retreats, Mercator's time scale 4), ``MAR1901A`` (adjustments, in the build
months March, June, September and December). A variant names its calendar; a calendar says
how a phase is written, which phase follows, and after which phases centres change hands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MOVEMENT = "M"
RETREATS = "R"
ADJUSTMENTS = "A"

STANDARD = "standard"
MONTHLY = "monthly"
CALENDARS = (STANDARD, MONTHLY)
# For readers of stored phase names (reports, history), which know the name is valid in its
# game's calendar: either form.
ANY = "any"

_STANDARD = re.compile(r"^([SFW])(\d{4})([MRA])$")
_MONTHLY = re.compile(r"^([A-Z]{3})(\d{4})([MRA])$")
_SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter"}
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
_MONTH_NAMES = {
    "JAN": "January",
    "FEB": "February",
    "MAR": "March",
    "APR": "April",
    "MAY": "May",
    "JUN": "June",
    "JUL": "July",
    "AUG": "August",
    "SEP": "September",
    "OCT": "October",
    "NOV": "November",
    "DEC": "December",
}
# The months that end with builds and removals; centres change hands after their moves.
BUILD_MONTHS = ("MAR", "JUN", "SEP", "DEC")
_KIND_NAMES = {MOVEMENT: "Movement", RETREATS: "Retreats", ADJUSTMENTS: "Adjustments"}


class PhaseError(ValueError):
    """A phase name that the map's calendar does not know."""


@dataclass(slots=True, unsafe_hash=True, init=False)
class Phase:
    """Never changed once made (not frozen for speed, as the order values: engine/orders.py,
    which also says why the `__init__` is written out)."""

    season: str  # "S", "F" or "W"; a month ("JAN" ... "DEC") in the monthly calendar
    year: int
    kind: str  # "M", "R" or "A"

    def __init__(self, season: str, year: int, kind: str) -> None:
        self.season = season
        self.year = year
        self.kind = kind

    @property
    def name(self) -> str:
        return f"{self.season}{self.year}{self.kind}"

    @property
    def is_fall(self) -> bool:
        """Centres change hands after this phase's movement and retreats: the fall of the
        standard calendar, a build month of the monthly one."""
        return self.season == "F" or self.season in BUILD_MONTHS

    @property
    def is_monthly(self) -> bool:
        return len(self.season) == 3

    def long_name(self) -> str:
        season = _MONTH_NAMES.get(self.season) or _SEASON_NAMES[self.season]
        return f"{season} {self.year} {_KIND_NAMES[self.kind]}"


# Names read before -> their phase: a case's phase is read twice (the case, the adjudication) and
# a batch reads the same few names again and again. A Phase is never changed once made.
_PARSED: dict[tuple[str, str], Phase] = {}


def parse_phase(name: str, calendar: str = STANDARD) -> Phase:
    key = (name, calendar)
    found = _PARSED.get(key)
    if found is not None:
        return found
    phase = _parse_phase(name, calendar)
    if len(_PARSED) < 4096:
        _PARSED[key] = phase
    return phase


def _parse_phase(name: str, calendar: str) -> Phase:
    if calendar == MONTHLY:
        return _parse_monthly(name)
    if calendar == ANY:
        text = name.strip().upper()
        return _parse_monthly(text) if _MONTHLY.match(text) else _parse_phase(text, STANDARD)
    if calendar != STANDARD:
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


def _parse_monthly(name: str) -> Phase:
    match = _MONTHLY.match(name.strip().upper())
    if not match or match.group(1) not in _MONTH_NAMES:
        raise PhaseError(
            f"phase {name!r} is not a monthly phase such as JAN1901M, JAN1901R or MAR1901A"
        )
    month, year, kind = match.groups()
    if kind == ADJUSTMENTS and month not in BUILD_MONTHS:
        raise PhaseError(
            f"phase {name!r}: {_MONTH_NAMES[month]} has no Adjustments phase "
            "(builds are in March, June, September and December)"
        )
    return Phase(month, int(year), kind)


def following_phase(phase: Phase, *, retreats_due: bool, adjustments_due: bool) -> Phase:
    """The next phase to play, skipping a retreat or adjustment phase with nothing to do."""
    if phase.kind == MOVEMENT and retreats_due:
        return Phase(phase.season, phase.year, RETREATS)
    if phase.is_monthly:
        if phase.season in BUILD_MONTHS and phase.kind != ADJUSTMENTS and adjustments_due:
            return Phase(phase.season, phase.year, ADJUSTMENTS)
        index = MONTHS.index(phase.season)
        if index == len(MONTHS) - 1:
            return Phase(MONTHS[0], phase.year + 1, MOVEMENT)
        return Phase(MONTHS[index + 1], phase.year, MOVEMENT)
    if phase.season == "S":
        return Phase("F", phase.year, MOVEMENT)
    if phase.season == "F" and adjustments_due:
        return Phase("W", phase.year, ADJUSTMENTS)
    return Phase("S", phase.year + 1, MOVEMENT)
