"""Deadlines, reminders, late notices and early processing, computed from values alone.

The scheduler asks two questions: when does a phase that starts now fall due
(`next_deadline`), and what is due at this moment (`due_actions`). Both are pure: the moment,
the game's timing and the seats come in, values go out, so tests move time freely and the
scheduler may crash and ask again.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from judge.engine.calendar import ADJUSTMENTS, MOVEMENT, RETREATS
from judge.games.seats import SeatOrders, SeatStatus

ALL_DAYS = frozenset(range(7))  # Monday is 0, as in datetime.weekday()
WEEKDAYS = frozenset(range(5))
_DAY_LETTERS = ("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")


class TimingError(ValueError):
    """A timing a game cannot run on (no allowed weekday, a negative grace, ...)."""


class AbsenceRefused(ValueError):
    """An absence the game will not grant; the message says why, for the reply to the player."""


@dataclass(frozen=True, slots=True)
class PhaseTiming:
    """How one kind of phase (movement, retreats or adjustments) is timed.

    Deadlines fall at `hour` (wall clock in the game's zone) on an allowed weekday, no sooner
    than `minimum` after the phase starts (njudge's NEXT); with `hour` None (njudge's CLOCK -1)
    the deadline is exactly `minimum` after the start, moved to the same time of day on the
    next allowed weekday if it falls on a day off. `grace` runs from the deadline; late orders
    are taken until it ends. `delay` is how long early processing waits after the last orders
    arrive, so the last sender may still correct a slip (njudge's DELAY). `earliest` is the
    least time after the start before the phase may run at all (njudge's MIN, which keeps a
    game of absent powers from racing through phases).
    """

    hour: time | None = time(23, 30)
    minimum: timedelta = timedelta(days=3)
    grace: timedelta = timedelta(days=7)
    delay: timedelta = timedelta(minutes=30)
    # How long before the deadline seats still missing orders are reminded (largest first).
    reminders: tuple[timedelta, ...] = (timedelta(hours=24),)
    # After the deadline, late seats hear again this often until grace ends (njudge: daily).
    late_every: timedelta = timedelta(hours=24)
    weekdays: frozenset[int] = ALL_DAYS
    earliest: timedelta = timedelta(0)

    def __post_init__(self) -> None:
        if not self.weekdays or not self.weekdays <= ALL_DAYS:
            raise TimingError("deadlines need at least one weekday among 0 (Monday) to 6 (Sunday)")
        for name in ("minimum", "grace", "delay", "earliest"):
            if getattr(self, name) < timedelta(0):
                raise TimingError(f"{name} may not be negative")
        if self.late_every <= timedelta(0):
            raise TimingError("late notices must repeat after a positive time")
        if any(lead <= timedelta(0) for lead in self.reminders):
            raise TimingError("reminders are sent a positive time before the deadline")
        if self.hour is not None and self.hour.tzinfo is not None:
            raise TimingError("the deadline hour is a wall-clock time; the zone is the game's")


@dataclass(frozen=True, slots=True)
class GameTiming:
    """A game's timing: one PhaseTiming per phase kind, its time zone, and its absence rules."""

    zone: str = "UTC"
    movement: PhaseTiming = field(default_factory=PhaseTiming)
    retreats: PhaseTiming = field(
        default_factory=lambda: PhaseTiming(minimum=timedelta(days=1), grace=timedelta(days=2))
    )
    adjustments: PhaseTiming = field(
        default_factory=lambda: PhaseTiming(minimum=timedelta(days=1), grace=timedelta(days=2))
    )
    # The most days one seat may be absent over the whole game (njudge's MAX ABSENCE default).
    max_absence_days: int = 15
    # A seat back from an absence has at least this long before a deadline.
    after_absence: timedelta = timedelta(hours=24)

    def __post_init__(self) -> None:
        try:
            ZoneInfo(self.zone)
        except Exception as error:  # ZoneInfoNotFoundError or a malformed key
            raise TimingError(f"time zone {self.zone!r} is not known") from error
        if self.max_absence_days < 0:
            raise TimingError("max_absence_days may not be negative")

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    def for_kind(self, kind: str) -> PhaseTiming:
        """The timing of a phase kind: "M", "R" or "A" (judge.engine.calendar's constants)."""
        if kind == MOVEMENT:
            return self.movement
        if kind == RETREATS:
            return self.retreats
        if kind == ADJUSTMENTS:
            return self.adjustments
        raise TimingError(f"phase kind {kind!r} is not M, R or A")


@dataclass(frozen=True, slots=True)
class Absence:
    """A seat away from `first` to `last` (both included), as dates in the game's zone."""

    power: str
    first: date
    last: date

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1


def parse_weekdays(text: str) -> frozenset[int]:
    """Read njudge's day mask ("-MTWTF-", Sunday first) or day names ("MON,WED,FRI")."""
    cleaned = text.strip().upper()
    if (
        len(cleaned) == 7
        and set(cleaned) <= set("SMTWF-")
        and ("-" in cleaned or cleaned == "SMTWTFS")
    ):
        # Sunday-first mask: a letter allows the day, "-" forbids it.
        days = {(i - 1) % 7 for i, char in enumerate(cleaned) if char != "-"}
    else:
        days = set()
        for word in cleaned.replace(" ", ",").split(","):
            if not word:
                continue
            matches = [i for i, name in enumerate(_DAY_LETTERS) if name.startswith(word[:3])]
            if len(word) < 2 or len(matches) != 1:
                raise TimingError(f"{word!r} is not a day of the week")
            days.add(matches[0])
    if not days:
        raise TimingError(f"{text!r} allows no day for deadlines")
    return frozenset(days)


def _utc(moment: datetime) -> datetime:
    """Compare instants in UTC: aware datetimes sharing a tzinfo compare by wall clock."""
    if moment.tzinfo is None:
        raise ValueError("times must be timezone-aware")
    return moment.astimezone(UTC)


def _at_hour(day: date, hour: time, tz: ZoneInfo) -> datetime:
    """The instant the wall clock shows `hour` on `day`.

    In a spring-forward gap (02:30 that never happens) this is the instant an hour later on the
    new clock (03:30); in a fall-back overlap it is the first of the two (fold 0).
    """
    return datetime.combine(day, hour, tzinfo=tz).astimezone(UTC)


def _align(earliest: datetime, phase: PhaseTiming, tz: ZoneInfo) -> datetime:
    """The first deadline hour on an allowed weekday at or after `earliest`; without a deadline
    hour, `earliest` itself when its day is allowed, else its time of day on the next one."""
    hour = phase.hour
    if hour is None:
        local = earliest.astimezone(tz)
        if local.weekday() in phase.weekdays:
            return earliest
        hour = local.time().replace(tzinfo=None)
    day = earliest.astimezone(tz).date() - timedelta(days=1)  # a gap can pull the hour back
    while True:
        if day.weekday() in phase.weekdays:
            candidate = _at_hour(day, hour, tz)
            if candidate >= earliest:
                return candidate
        day += timedelta(days=1)


def _midnight(day: date, tz: ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC)


def next_deadline(
    kind: str,
    phase_start: datetime,
    timing: GameTiming,
    absences: Iterable[Absence] = (),
    *,
    playing: Collection[str] | None = None,
) -> datetime:
    """The deadline (UTC) of a phase of `kind` starting at `phase_start`.

    The deadline is the first deadline hour on an allowed weekday at least `minimum` after the
    start, and never inside an absence or less than `after_absence` after one ends: such a
    deadline moves to the first deadline hour after that, until no absence moves it. Only
    absences of `playing` powers count when that is given. Called once when a phase starts: an
    absence granted during a phase moves the next deadline, not this one (njudge).
    """
    tz = timing.tz
    phase = timing.for_kind(kind)
    start = _utc(phase_start)
    relevant = [a for a in absences if playing is None or a.power in playing]
    earliest = start + phase.minimum
    while True:
        deadline = _align(earliest, phase, tz)
        pushed = earliest
        for absence in relevant:
            begins = _midnight(absence.first, tz)
            ends = _midnight(absence.last + timedelta(days=1), tz)
            if begins <= deadline < ends + timing.after_absence:
                pushed = max(pushed, ends + timing.after_absence)
        if pushed == earliest:
            return deadline
        earliest = pushed


def grant_absence(
    granted: Iterable[Absence], wanted: Absence, today: date, timing: GameTiming
) -> tuple[Absence, ...]:
    """The game's absences with `wanted` added, or AbsenceRefused saying why.

    A seat may be away at most `max_absence_days` over the whole game, so no one stalls a game
    for ever by asking again and again; absences may not start in the past or overlap the same
    seat's own.
    """
    existing = tuple(granted)
    if wanted.last < wanted.first:
        raise AbsenceRefused(f"the absence ends ({wanted.last}) before it starts ({wanted.first})")
    if wanted.first < today:
        raise AbsenceRefused(f"an absence cannot start in the past ({wanted.first})")
    own = [a for a in existing if a.power == wanted.power]
    for other in own:
        if other.first <= wanted.last and wanted.first <= other.last:
            raise AbsenceRefused(
                f"{wanted.power} is already away from {other.first} to {other.last}"
            )
    used = sum(a.days for a in own)
    if used + wanted.days > timing.max_absence_days:
        left = max(timing.max_absence_days - used, 0)
        raise AbsenceRefused(
            f"{wanted.power} may be away {timing.max_absence_days} days in this game; "
            f"{used} are taken, {left} left, and this asks for {wanted.days}"
        )
    return (*existing, wanted)


def withdraw_absence(granted: Iterable[Absence], power: str, today: date) -> tuple[Absence, ...]:
    """SET NOABSENCE: the seat's absences that have not begun are dropped; one under way ends
    yesterday (days already spent stay counted against the cap)."""
    kept: list[Absence] = []
    for absence in granted:
        if absence.power != power or absence.last < today:
            kept.append(absence)
        elif absence.first < today:
            kept.append(Absence(power, absence.first, today - timedelta(days=1)))
    return tuple(kept)


def _blocking(seat: SeatOrders, open_seats_block: bool) -> bool:
    """Whether the phase waits for this seat's orders."""
    if not seat.owes_orders:
        return False
    if seat.status is SeatStatus.PLAYING:
        return True
    return open_seats_block and seat.status is SeatStatus.OPEN


def missing(seats: Iterable[SeatOrders], *, open_seats_block: bool = False) -> tuple[str, ...]:
    """Powers the phase is waiting for: they owe orders and have not sent all of them."""
    return tuple(
        seat.power for seat in seats if _blocking(seat, open_seats_block) and not seat.complete
    )


def may_process_early(seats: Iterable[SeatOrders], *, open_seats_block: bool = False) -> bool:
    """True when every seat the phase waits for has complete orders and none set WAIT.

    Seats in civil disorder, eliminated seats and seats owing nothing never block; open seats
    block only under a policy that waits for a taker (`open_seats_block`).
    """
    waited = [seat for seat in seats if _blocking(seat, open_seats_block)]
    return all(seat.complete and not seat.wait for seat in waited)


class ProcessReason(StrEnum):
    EARLY = "early"  # every order in before the deadline, nobody waiting
    AT_DEADLINE = "at deadline"  # the deadline came with every order in
    LATE_ORDERS_IN = "late orders in"  # during grace, the last late orders arrived
    GRACE_ENDED = "grace ended"  # grace is over; `late` seats go to the missed-turn policy


@dataclass(frozen=True, slots=True)
class Reminder:
    """Before the deadline: tell `powers` their orders are missing or incomplete."""

    at: datetime
    deadline: datetime
    powers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LateNotice:
    """After the deadline: tell `powers` they are late (and the others who is late).

    `number` counts the notices of this phase from 1 (the one at the deadline).
    """

    at: datetime
    grace_ends: datetime
    powers: tuple[str, ...]
    number: int


@dataclass(frozen=True, slots=True)
class ProcessPhase:
    """Adjudicate now. Seats in `late` have not completed their orders: the missed-turn
    policy settles them first (and may say the phase must wait for a taker)."""

    reason: ProcessReason
    late: tuple[str, ...] = ()


Action = Reminder | LateNotice | ProcessPhase


@dataclass(frozen=True, slots=True)
class Due:
    """What the scheduler must do now, and the next moment anything may fall due.

    `next_check` is None only when nothing can fall due by time alone (the phase is processed,
    or grace has ended); new orders can still make early processing due at any time.
    """

    actions: tuple[Action, ...]
    next_check: datetime | None


def due_actions(
    since: datetime,
    now: datetime,
    deadline: datetime,
    seats: Iterable[SeatOrders],
    phase: PhaseTiming,
    *,
    open_seats_block: bool = False,
    grace_ends: datetime | None = None,
    not_before: datetime | None = None,
) -> Due:
    """What is due at `now`, given the scheduler last looked at `since` in this phase.

    Reminders and late notices are due when their moment falls in (since, now]; when several
    did (the scheduler was down), only the latest is sent, and a reminder whose deadline has
    passed is dropped. Processing is due whenever its condition holds at `now`: the caller
    stores `now` as the next `since` in the transaction that records what it sent.

    `grace_ends` replaces `deadline + phase.grace` when the GM set this phase's end of grace
    (SET GRACE; never before the deadline). `not_before` is the first moment the phase may run
    at all (the phase's start plus njudge's MIN, or the GM's SET START): nothing is processed
    earlier, and a deadline before it counts as falling at it.
    """
    since, now, deadline = _utc(since), _utc(now), _utc(deadline)
    if not_before is not None:
        not_before = _utc(not_before)
        deadline = max(deadline, not_before)
    seats = tuple(seats)
    late = missing(seats, open_seats_block=open_seats_block)
    grace_ends = deadline + phase.grace if grace_ends is None else max(_utc(grace_ends), deadline)
    checks: list[datetime] = []

    if now >= deadline and not late:
        # WAIT holds a phase until its deadline, not past it.
        on_time = since < deadline
        reason = ProcessReason.AT_DEADLINE if on_time else ProcessReason.LATE_ORDERS_IN
        return Due((ProcessPhase(reason),), None)
    if now >= grace_ends:
        return Due((ProcessPhase(ProcessReason.GRACE_ENDED, late),), None)
    if now >= deadline:
        notices = _late_notices(deadline, grace_ends, phase)
        sent = [(n, at) for n, at in notices if since < at <= now]
        actions: tuple[Action, ...] = ()
        if sent:
            number, at = sent[-1]
            actions = (LateNotice(at, grace_ends, late, number),)
        later = [at for _, at in notices if at > now]
        return Due(actions, min([*later, grace_ends]))

    # Before the deadline.
    if may_process_early(seats, open_seats_block=open_seats_block):
        changes = [_utc(s.changed_at) for s in seats if s.changed_at is not None]
        ready_at = max(changes) + phase.delay if changes else now
        if not_before is not None:
            ready_at = max(ready_at, not_before)
        if now >= ready_at:
            return Due((ProcessPhase(ProcessReason.EARLY),), None)
        checks.append(min(ready_at, deadline))
    actions = ()
    times = sorted(deadline - lead for lead in phase.reminders)
    fired = [at for at in times if since < at <= now]
    if fired and late:
        actions = (Reminder(fired[-1], deadline, late),)
    checks.extend(at for at in times if at > now)
    checks.append(deadline)
    return Due(actions, min(checks))


def _late_notices(
    deadline: datetime, grace_ends: datetime, phase: PhaseTiming
) -> list[tuple[int, datetime]]:
    """The late notices of a phase: at the deadline, then every `late_every` inside grace."""
    notices: list[tuple[int, datetime]] = []
    at, number = deadline, 1
    while at < grace_ends:
        notices.append((number, at))
        at += phase.late_every
        number += 1
    return notices


def _hours(delta: timedelta) -> float:
    return delta.total_seconds() / 3600


def _days_mask(days: frozenset[int]) -> str:
    """njudge's Sunday-first mask, "-MTWTF-" for weekdays."""
    letters = "SMTWTFS"
    return "".join(letters[i] if (i - 1) % 7 in days else "-" for i in range(7))


def _hours_words(delta: timedelta) -> str:
    hours = _hours(delta)
    return f"{hours:g}h"


def describe_phase_timing(phase: PhaseTiming) -> str:
    """A phase kind's timing in njudge's words, as LIST and SET replies show it:
    ``clock 23:30 min 0h next 72h grace 168h delay 0.5h days SMTWTFS``."""
    clock = phase.hour.strftime("%H:%M") if phase.hour is not None else "-1"
    return (
        f"clock {clock} min {_hours_words(phase.earliest)} next {_hours_words(phase.minimum)} "
        f"grace {_hours_words(phase.grace)} delay {_hours_words(phase.delay)} "
        f"days {_days_mask(phase.weekdays)}"
    )


def phase_timing_to_settings(phase: PhaseTiming) -> dict[str, object]:
    """A PhaseTiming as plain JSON values, for a game's stored settings."""
    return {
        "hour": phase.hour.strftime("%H:%M") if phase.hour is not None else None,
        "minimum_hours": _hours(phase.minimum),
        "earliest_hours": _hours(phase.earliest),
        "grace_hours": _hours(phase.grace),
        "delay_minutes": phase.delay.total_seconds() / 60,
        "reminder_hours": [_hours(lead) for lead in phase.reminders],
        "late_every_hours": _hours(phase.late_every),
        "days": _days_mask(phase.weekdays),
    }


def timing_to_settings(timing: GameTiming) -> dict[str, object]:
    """A GameTiming as plain JSON values; timing_from_settings reads it back unchanged."""
    return {
        "zone": timing.zone,
        "max_absence_days": timing.max_absence_days,
        "after_absence_hours": _hours(timing.after_absence),
        "movement": phase_timing_to_settings(timing.movement),
        "retreats": phase_timing_to_settings(timing.retreats),
        "adjustments": phase_timing_to_settings(timing.adjustments),
    }


def _number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TimingError(f"{name} must be a number, not {value!r}")
    return float(value)


def phase_timing_from_settings(
    values: dict[str, object], base: PhaseTiming | None = None
) -> PhaseTiming:
    """Read a phase's timing from stored settings; keys left out keep `base`'s values."""
    base = base or PhaseTiming()
    known = {
        "hour",
        "minimum_hours",
        "earliest_hours",
        "grace_hours",
        "delay_minutes",
        "reminder_hours",
        "late_every_hours",
        "days",
    }
    unknown = sorted(set(values) - known)
    if unknown:
        raise TimingError(f"unknown timing settings: {', '.join(unknown)}")
    changes: dict[str, object] = {}
    if "hour" in values and values["hour"] is None:
        changes["hour"] = None  # njudge's CLOCK -1: exactly `minimum` after the start
    elif "hour" in values:
        try:
            changes["hour"] = time.fromisoformat(str(values["hour"]))
        except ValueError as error:
            raise TimingError(f"hour {values['hour']!r} is not a time such as 23:30") from error
    for key, field_name, unit in (
        ("minimum_hours", "minimum", 3600),
        ("earliest_hours", "earliest", 3600),
        ("grace_hours", "grace", 3600),
        ("delay_minutes", "delay", 60),
        ("late_every_hours", "late_every", 3600),
    ):
        if key in values:
            changes[field_name] = timedelta(seconds=_number(values[key], key) * unit)
    if "reminder_hours" in values:
        leads = values["reminder_hours"]
        if not isinstance(leads, list):
            raise TimingError("reminder_hours must be a list of numbers")
        hours = sorted((_number(v, "reminder_hours") for v in leads), reverse=True)
        changes["reminders"] = tuple(timedelta(hours=h) for h in hours)
    if "days" in values:
        changes["weekdays"] = parse_weekdays(str(values["days"]))
    return replace(base, **changes)  # type: ignore[arg-type]


def timing_from_settings(values: dict[str, object]) -> GameTiming:
    """Read a game's timing from its stored settings; what is left out takes the defaults."""
    default = GameTiming()
    known = {
        "zone",
        "max_absence_days",
        "after_absence_hours",
        "movement",
        "retreats",
        "adjustments",
    }
    unknown = sorted(set(values) - known)
    if unknown:
        raise TimingError(f"unknown timing settings: {', '.join(unknown)}")
    phases: dict[str, PhaseTiming] = {}
    for kind in ("movement", "retreats", "adjustments"):
        given = values.get(kind, {})
        if not isinstance(given, dict):
            raise TimingError(f"{kind} timing must be a table of settings")
        phases[kind] = phase_timing_from_settings(given, getattr(default, kind))
    max_absence = values.get("max_absence_days", default.max_absence_days)
    if isinstance(max_absence, bool) or not isinstance(max_absence, int):
        raise TimingError(f"max_absence_days must be a whole number, not {max_absence!r}")
    after = values.get("after_absence_hours")
    return GameTiming(
        zone=str(values.get("zone", default.zone)),
        max_absence_days=max_absence,
        after_absence=(
            default.after_absence
            if after is None
            else timedelta(hours=_number(after, "after_absence_hours"))
        ),
        **phases,
    )
