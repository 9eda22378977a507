"""Deadlines, absences, reminders, late notices and early processing (judge.games.timing)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from judge.engine.calendar import ADJUSTMENTS, MOVEMENT, RETREATS
from judge.games.seats import OrdersState, SeatOrders, SeatStatus, owes_orders
from judge.games.timing import (
    WEEKDAYS,
    Absence,
    AbsenceRefused,
    GameTiming,
    LateNotice,
    PhaseTiming,
    ProcessPhase,
    ProcessReason,
    Reminder,
    TimingError,
    describe_phase_timing,
    due_actions,
    grant_absence,
    may_process_early,
    missing,
    next_deadline,
    parse_weekdays,
    timing_from_settings,
    timing_to_settings,
    withdraw_absence,
)

NEW_YORK = ZoneInfo("America/New_York")
H = timedelta(hours=1)
D = timedelta(days=1)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def game(zone: str = "UTC", **movement: object) -> GameTiming:
    return GameTiming(zone=zone, movement=PhaseTiming(**movement))  # type: ignore[arg-type]


def seat(power: str, orders: OrdersState = OrdersState.NONE, **kw: object) -> SeatOrders:
    return SeatOrders(power, orders=orders, **kw)  # type: ignore[arg-type]


DONE = OrdersState.COMPLETE

# --- next_deadline: days, zones, daylight saving, weekdays -------------------------------------


def test_deadline_is_the_first_deadline_hour_after_the_minimum() -> None:
    timing = game(hour=time(23, 30), minimum=3 * D)
    # Monday 10:00 + 3 days = Thursday 10:00, so Thursday 23:30.
    assert next_deadline(MOVEMENT, utc(2026, 1, 5, 10), timing) == utc(2026, 1, 8, 23, 30)
    # Monday 23:45 + 3 days is past Thursday's 23:30: Friday 23:30.
    assert next_deadline(MOVEMENT, utc(2026, 1, 5, 23, 45), timing) == utc(2026, 1, 9, 23, 30)
    # Exactly on the hour counts.
    assert next_deadline(MOVEMENT, utc(2026, 1, 5, 23, 30), timing) == utc(2026, 1, 8, 23, 30)


def test_each_phase_kind_has_its_own_timing() -> None:
    timing = GameTiming(
        movement=PhaseTiming(hour=time(12), minimum=3 * D),
        retreats=PhaseTiming(hour=time(18), minimum=D),
        adjustments=PhaseTiming(hour=time(6), minimum=2 * D),
    )
    start = utc(2026, 1, 5, 10)
    assert next_deadline(MOVEMENT, start, timing) == utc(2026, 1, 8, 12)
    assert next_deadline(RETREATS, start, timing) == utc(2026, 1, 6, 18)
    assert next_deadline(ADJUSTMENTS, start, timing) == utc(2026, 1, 8, 6)
    with pytest.raises(TimingError):
        next_deadline("X", start, timing)


def test_deadline_hour_is_the_games_wall_clock() -> None:
    # "Due at noon (here)": noon in New York is 17:00 UTC in winter.
    timing = game("America/New_York", hour=time(12), minimum=3 * D)
    deadline = next_deadline(MOVEMENT, utc(2026, 1, 5, 15), timing)
    assert deadline == utc(2026, 1, 8, 17)
    assert deadline.tzinfo is UTC


def test_deadline_keeps_its_wall_clock_hour_across_daylight_saving() -> None:
    timing = game("America/New_York", hour=time(12), minimum=D)
    # Before the switch on Sunday 8 March 2026 noon is 17:00 UTC, after it 16:00 UTC.
    assert next_deadline(MOVEMENT, utc(2026, 3, 5, 17), timing) == utc(2026, 3, 6, 17)
    after = next_deadline(MOVEMENT, utc(2026, 3, 8, 12), timing)
    assert after == utc(2026, 3, 9, 16)
    assert after.astimezone(NEW_YORK).time() == time(12)
    # London leaves summer time on 25 October 2026.
    london = game("Europe/London", hour=time(23, 30), minimum=D)
    assert next_deadline(MOVEMENT, utc(2026, 10, 23, 12), london) == utc(2026, 10, 24, 22, 30)
    assert next_deadline(MOVEMENT, utc(2026, 10, 25, 12), london) == utc(2026, 10, 26, 23, 30)


def test_deadline_hour_in_the_spring_gap_and_the_autumn_overlap() -> None:
    # 02:30 never happens on 8 March 2026 in New York: the deadline is 03:30 on the new clock.
    gap = game("America/New_York", hour=time(2, 30), minimum=12 * H)
    deadline = next_deadline(MOVEMENT, utc(2026, 3, 7, 8), gap)
    assert deadline == utc(2026, 3, 8, 7, 30)
    assert deadline.astimezone(NEW_YORK).time() == time(3, 30)
    # 01:30 happens twice on 1 November 2026: the first, still on summer time (05:30 UTC).
    overlap = game("America/New_York", hour=time(1, 30), minimum=12 * H)
    assert next_deadline(MOVEMENT, utc(2026, 10, 31, 12), overlap) == utc(2026, 11, 1, 5, 30)


def test_deadlines_fall_only_on_allowed_weekdays() -> None:
    timing = game(hour=time(23, 30), minimum=3 * D, weekdays=WEEKDAYS)
    # Thursday + 3 days is Sunday: the deadline moves to Monday.
    deadline = next_deadline(MOVEMENT, utc(2026, 1, 8, 10), timing)
    assert deadline == utc(2026, 1, 12, 23, 30)
    assert deadline.weekday() == 0
    mwf = game(hour=time(20), minimum=D, weekdays=parse_weekdays("MON,WED,FRI"))
    assert next_deadline(MOVEMENT, utc(2026, 1, 6, 21), mwf) == utc(2026, 1, 9, 20)  # Tue -> Fri


def test_weekday_masks_read_as_njudge_wrote_them() -> None:
    assert parse_weekdays("-MTWTF-") == WEEKDAYS
    assert parse_weekdays("SMTWTFS") == frozenset(range(7))
    assert parse_weekdays("S-----S") == frozenset({5, 6})
    assert parse_weekdays("mon, wed,fri") == frozenset({0, 2, 4})
    assert parse_weekdays("Saturday") == frozenset({5})
    for bad in ("-------", "XYZ", "T", ""):
        with pytest.raises(TimingError):
            parse_weekdays(bad)


def test_timings_a_game_cannot_run_on_are_refused() -> None:
    with pytest.raises(TimingError):
        PhaseTiming(weekdays=frozenset())
    with pytest.raises(TimingError):
        PhaseTiming(grace=-H)
    with pytest.raises(TimingError):
        PhaseTiming(reminders=(timedelta(0),))
    with pytest.raises(TimingError):
        GameTiming(zone="Mars/Olympus_Mons")


# --- absences ----------------------------------------------------------------------------------


def test_an_absence_over_the_deadline_moves_it_past_the_absence() -> None:
    timing = game(hour=time(23, 30), minimum=3 * D)
    start = utc(2026, 1, 5, 10)  # Monday; the deadline would be Thursday 23:30
    away = Absence("FRANCE", date(2026, 1, 7), date(2026, 1, 9))  # Wednesday to Friday
    # Back on Saturday 00:00, with a day at least: Sunday 23:30.
    assert next_deadline(MOVEMENT, start, timing, [away]) == utc(2026, 1, 11, 23, 30)


def test_a_seat_back_from_absence_has_a_full_day_before_the_deadline() -> None:
    timing = game(hour=time(23, 30), minimum=3 * D)
    start = utc(2026, 1, 5, 10)
    # Back on Thursday 00:00: Thursday 23:30 leaves less than a day, so Friday 23:30.
    away = Absence("FRANCE", date(2026, 1, 6), date(2026, 1, 7))
    assert next_deadline(MOVEMENT, start, timing, [away]) == utc(2026, 1, 9, 23, 30)
    generous = GameTiming(movement=timing.movement, after_absence=timedelta(0))
    assert next_deadline(MOVEMENT, start, generous, [away]) == utc(2026, 1, 8, 23, 30)


def test_a_short_phase_just_after_a_return_still_gives_the_day() -> None:
    timing = GameTiming(retreats=PhaseTiming(hour=time(20), minimum=12 * H))
    start = utc(2026, 1, 8, 6)  # Thursday; FRANCE came back at midnight
    away = Absence("FRANCE", date(2026, 1, 5), date(2026, 1, 7))
    assert next_deadline(RETREATS, start, timing) == utc(2026, 1, 8, 20)
    assert next_deadline(RETREATS, start, timing, [away]) == utc(2026, 1, 9, 20)


def test_absences_that_do_not_touch_the_phase_change_nothing() -> None:
    timing = game(hour=time(23, 30), minimum=3 * D)
    start = utc(2026, 1, 5, 10)
    plain = utc(2026, 1, 8, 23, 30)
    before = Absence("FRANCE", date(2026, 1, 1), date(2026, 1, 4))
    after = Absence("FRANCE", date(2026, 1, 9), date(2026, 1, 12))
    assert next_deadline(MOVEMENT, start, timing, [before, after]) == plain
    # A short absence early in a long phase leaves the player time: no move.
    early = Absence("FRANCE", date(2026, 1, 5), date(2026, 1, 6))
    assert next_deadline(MOVEMENT, start, timing, [early]) == plain
    # Only playing seats' absences count.
    over = Absence("TURKEY", date(2026, 1, 7), date(2026, 1, 9))
    assert next_deadline(MOVEMENT, start, timing, [over], playing={"FRANCE"}) == plain


def test_absences_chain_and_respect_weekdays_and_zone() -> None:
    timing = game("America/New_York", hour=time(12), minimum=3 * D, weekdays=WEEKDAYS)
    start = utc(2026, 1, 5, 15)  # Monday 10:00 in New York; the deadline would be Thursday noon
    first = Absence("ITALY", date(2026, 1, 8), date(2026, 1, 9))  # back Saturday
    second = Absence("RUSSIA", date(2026, 1, 10), date(2026, 1, 13))  # back Wednesday
    # ITALY pushes to Sunday, inside RUSSIA's absence, which pushes past Wednesday 00:00 + 24 h:
    # Thursday 15 January, noon in New York.
    deadline = next_deadline(MOVEMENT, start, timing, [first, second])
    assert deadline == utc(2026, 1, 15, 17)


def test_absence_cap_per_seat_per_game() -> None:
    timing = GameTiming(max_absence_days=15)
    today = date(2026, 1, 5)
    granted = grant_absence(
        (), Absence("FRANCE", date(2026, 1, 10), date(2026, 1, 19)), today, timing
    )
    granted = grant_absence(
        granted, Absence("FRANCE", date(2026, 2, 1), date(2026, 2, 5)), today, timing
    )
    assert sum(a.days for a in granted) == 15
    with pytest.raises(AbsenceRefused, match="15 days"):
        grant_absence(granted, Absence("FRANCE", date(2026, 3, 1), date(2026, 3, 1)), today, timing)
    # Another seat has its own allowance.
    assert (
        len(
            grant_absence(
                granted, Absence("ITALY", date(2026, 3, 1), date(2026, 3, 3)), today, timing
            )
        )
        == 3
    )
    with pytest.raises(AbsenceRefused, match="past"):
        grant_absence((), Absence("ITALY", date(2026, 1, 4), date(2026, 1, 6)), today, timing)
    with pytest.raises(AbsenceRefused, match="already away"):
        grant_absence(
            granted, Absence("FRANCE", date(2026, 1, 19), date(2026, 1, 20)), today, timing
        )
    with pytest.raises(AbsenceRefused, match="before it starts"):
        grant_absence((), Absence("ITALY", date(2026, 1, 9), date(2026, 1, 8)), today, timing)


def test_withdrawing_an_absence_keeps_the_days_spent() -> None:
    granted = (
        Absence("FRANCE", date(2026, 1, 3), date(2026, 1, 8)),
        Absence("FRANCE", date(2026, 2, 1), date(2026, 2, 3)),
        Absence("ITALY", date(2026, 1, 3), date(2026, 1, 8)),
    )
    kept = withdraw_absence(granted, "FRANCE", date(2026, 1, 5))
    assert kept == (
        Absence("FRANCE", date(2026, 1, 3), date(2026, 1, 4)),
        Absence("ITALY", date(2026, 1, 3), date(2026, 1, 8)),
    )


# --- who must order, early processing ----------------------------------------------------------


def test_what_a_power_owes_by_phase_kind() -> None:
    assert owes_orders(MOVEMENT, units=3)
    assert not owes_orders(MOVEMENT, units=0)
    assert not owes_orders(RETREATS, units=3, dislodged=0)
    assert owes_orders(RETREATS, units=3, dislodged=1)
    assert owes_orders(ADJUSTMENTS, units=3, adjustment=-1)
    assert owes_orders(ADJUSTMENTS, units=3, adjustment=1)
    assert not owes_orders(ADJUSTMENTS, units=3, adjustment=0)


def test_early_processing_needs_every_playing_seat_complete_and_nobody_waiting() -> None:
    seats = [seat("ENGLAND", DONE), seat("FRANCE", DONE)]
    assert may_process_early(seats)
    assert not may_process_early([*seats, seat("ITALY", OrdersState.PARTIAL)])
    assert not may_process_early([*seats, seat("ITALY", DONE, wait=True)])
    # Seats in civil disorder, open or owing nothing do not block.
    others = [
        seat("RUSSIA", status=SeatStatus.CIVIL_DISORDER),
        seat("TURKEY", status=SeatStatus.OPEN),
        seat("AUSTRIA", owes_orders=False),
        seat("GERMANY", status=SeatStatus.ELIMINATED),
    ]
    assert may_process_early([*seats, *others])
    assert missing([*seats, *others]) == ()
    # ... unless the policy waits for a taker for open seats.
    assert not may_process_early([*seats, *others], open_seats_block=True)
    assert missing([*seats, *others], open_seats_block=True) == ("TURKEY",)
    # A retreat phase where only one power has a dislodged unit waits for that power alone.
    retreats = [seat("ENGLAND", owes_orders=False), seat("FRANCE", owes_orders=True)]
    assert not may_process_early(retreats)
    assert may_process_early([retreats[0], seat("FRANCE", DONE)])


# --- due_actions: reminders, early processing, late notices, grace -----------------------------

DEADLINE = utc(2026, 1, 8, 23, 30)  # Thursday
TIMING = PhaseTiming(
    hour=time(23, 30),
    grace=3 * D,
    delay=30 * timedelta(minutes=1),
    reminders=(48 * H, 24 * H),
    late_every=24 * H,
)


def test_reminders_go_to_seats_missing_orders_at_their_lead_times() -> None:
    seats = [seat("ENGLAND", DONE), seat("FRANCE"), seat("ITALY", OrdersState.PARTIAL)]
    quiet = due_actions(utc(2026, 1, 6, 10), utc(2026, 1, 6, 11), DEADLINE, seats, TIMING)
    assert quiet.actions == ()
    assert quiet.next_check == utc(2026, 1, 6, 23, 30)  # 48 hours before
    first = due_actions(utc(2026, 1, 6, 23), utc(2026, 1, 6, 23, 30), DEADLINE, seats, TIMING)
    assert first.actions == (Reminder(utc(2026, 1, 6, 23, 30), DEADLINE, ("FRANCE", "ITALY")),)
    assert first.next_check == utc(2026, 1, 7, 23, 30)
    # Checked again inside the same window: nothing new.
    again = due_actions(utc(2026, 1, 6, 23, 30), utc(2026, 1, 7, 1), DEADLINE, seats, TIMING)
    assert again.actions == ()
    # A scheduler down across both reminder times sends only the latest.
    late_look = due_actions(utc(2026, 1, 6, 12), utc(2026, 1, 8, 1), DEADLINE, seats, TIMING)
    assert late_look.actions == (Reminder(utc(2026, 1, 7, 23, 30), DEADLINE, ("FRANCE", "ITALY")),)
    # Nobody missing: no reminder.
    all_in = [seat("ENGLAND", DONE, wait=True), seat("FRANCE", DONE)]
    assert (
        due_actions(utc(2026, 1, 7, 23), utc(2026, 1, 7, 23, 45), DEADLINE, all_in, TIMING).actions
        == ()
    )


def test_early_processing_waits_the_delay_after_the_last_orders() -> None:
    last = utc(2026, 1, 6, 10)
    seats = [
        seat("ENGLAND", DONE, changed_at=utc(2026, 1, 5, 9)),
        seat("FRANCE", DONE, changed_at=last),
    ]
    waiting = due_actions(last, last + 15 * timedelta(minutes=1), DEADLINE, seats, TIMING)
    assert waiting.actions == ()
    assert waiting.next_check == last + 30 * timedelta(minutes=1)
    ready = due_actions(last, last + 30 * timedelta(minutes=1), DEADLINE, seats, TIMING)
    assert ready.actions == (ProcessPhase(ProcessReason.EARLY),)
    # A seat that set WAIT holds the phase to its deadline, where it runs.
    held = [seats[0], seat("FRANCE", DONE, changed_at=last, wait=True)]
    assert due_actions(last, last + 2 * H, DEADLINE, held, TIMING).actions == ()
    at_deadline = due_actions(DEADLINE - H, DEADLINE, DEADLINE, held, TIMING)
    assert at_deadline.actions == (ProcessPhase(ProcessReason.AT_DEADLINE),)
    # Nobody owing anything (a retreat phase of civil-disorder units alone): run at once.
    nobody = [seat("RUSSIA", status=SeatStatus.CIVIL_DISORDER)]
    assert due_actions(last, last, DEADLINE, nobody, TIMING).actions == (
        ProcessPhase(ProcessReason.EARLY),
    )


def test_late_notices_after_the_deadline_and_the_end_of_grace() -> None:
    seats = [seat("ENGLAND", DONE), seat("FRANCE")]
    grace_ends = DEADLINE + 3 * D
    at = due_actions(DEADLINE - H, DEADLINE, DEADLINE, seats, TIMING)
    assert at.actions == (LateNotice(DEADLINE, grace_ends, ("FRANCE",), 1),)
    assert at.next_check == DEADLINE + D
    second = due_actions(DEADLINE, DEADLINE + D + H, DEADLINE, seats, TIMING)
    assert second.actions == (LateNotice(DEADLINE + D, grace_ends, ("FRANCE",), 2),)
    # A scheduler down across the deadline: the late notice, not the stale reminder.
    missed = due_actions(DEADLINE - 30 * H, DEADLINE + H, DEADLINE, seats, TIMING)
    assert missed.actions == (LateNotice(DEADLINE, grace_ends, ("FRANCE",), 1),)
    # The third notice is at +2 days; after it the next thing is the end of grace.
    third = due_actions(DEADLINE + 2 * D, DEADLINE + 2 * D + H, DEADLINE, seats, TIMING)
    assert third.actions == ()
    assert third.next_check == grace_ends
    # Late orders arriving in grace run the phase at once.
    in_late = [seats[0], seat("FRANCE", DONE, changed_at=DEADLINE + 5 * H)]
    assert due_actions(DEADLINE + H, DEADLINE + 5 * H, DEADLINE, in_late, TIMING).actions == (
        ProcessPhase(ProcessReason.LATE_ORDERS_IN),
    )
    # Grace over: run, handing the late seats to the missed-turn policy.
    end = due_actions(grace_ends - H, grace_ends, DEADLINE, seats, TIMING)
    assert end.actions == (ProcessPhase(ProcessReason.GRACE_ENDED, ("FRANCE",)),)
    assert end.next_check is None


def test_without_grace_the_deadline_is_the_end() -> None:
    no_grace = PhaseTiming(grace=timedelta(0), reminders=())
    seats = [seat("ENGLAND", DONE), seat("FRANCE")]
    due = due_actions(DEADLINE - H, DEADLINE, DEADLINE, seats, no_grace)
    assert due.actions == (ProcessPhase(ProcessReason.GRACE_ENDED, ("FRANCE",)),)


def test_times_must_be_aware() -> None:
    with pytest.raises(ValueError):
        next_deadline(MOVEMENT, datetime(2026, 1, 5, 10), GameTiming())


# --- stored settings ---------------------------------------------------------------------------


def test_timing_settings_round_trip_and_defaults() -> None:
    timing = GameTiming(
        zone="America/New_York",
        movement=PhaseTiming(
            hour=time(12),
            minimum=2 * D,
            grace=D,
            reminders=(24 * H, 6 * H),
            weekdays=WEEKDAYS,
        ),
        max_absence_days=10,
        after_absence=12 * H,
    )
    stored = timing_to_settings(timing)
    assert stored["movement"]["days"] == "-MTWTF-"  # type: ignore[index]
    assert timing_from_settings(stored) == timing
    assert timing_from_settings({}) == GameTiming()
    partial = timing_from_settings({"movement": {"hour": "20:00", "grace_hours": 0}})
    assert partial.movement.hour == time(20) and partial.movement.grace == timedelta(0)
    assert partial.movement.minimum == GameTiming().movement.minimum
    assert partial.retreats == GameTiming().retreats


def test_bad_timing_settings_are_refused_with_their_name() -> None:
    for bad, word in (
        ({"movement": {"hour": "noon"}}, "hour"),
        ({"movement": {"grace_hours": "long"}}, "grace_hours"),
        ({"movement": {"days": "-------"}}, "no day"),
        ({"movement": {"colour": 1}}, "colour"),
        ({"zone": "Nowhere/Land"}, "Nowhere"),
        ({"max_absence_days": 1.5}, "max_absence_days"),
        ({"retreats": 3}, "retreats"),
    ):
        with pytest.raises(TimingError, match=word):
            timing_from_settings(bad)  # type: ignore[arg-type]


# --- njudge's CLOCK -1 and MIN, the GM's grace and start ---------------------------------------


def test_without_a_clock_the_deadline_is_exactly_the_minimum_after_the_start() -> None:
    timing = game(hour=None, minimum=36 * H, weekdays=WEEKDAYS)
    # Monday 10:15 + 36 hours = Tuesday 22:15, a weekday: exactly then.
    assert next_deadline(MOVEMENT, utc(2026, 1, 5, 10, 15), timing) == utc(2026, 1, 6, 22, 15)
    # Friday 10:15 + 36 hours falls on Saturday: the same time on Monday.
    assert next_deadline(MOVEMENT, utc(2026, 1, 9, 10, 15), timing) == utc(2026, 1, 12, 22, 15)


def test_min_holds_back_early_processing_and_a_deadline_before_it() -> None:
    start = utc(2026, 1, 5, 10)
    seats = [seat("ENGLAND", DONE, changed_at=start)]
    held = due_actions(start, start + H, DEADLINE, seats, TIMING, not_before=start + 12 * H)
    assert held.actions == () and held.next_check == start + 12 * H
    ready = due_actions(start, start + 12 * H, DEADLINE, seats, TIMING, not_before=start + 12 * H)
    assert ready.actions == (ProcessPhase(ProcessReason.EARLY),)
    # A deadline before the earliest moment counts as falling at it.
    late = [seat("ENGLAND")]
    early_deadline = start + 2 * H
    due = due_actions(start, start + 3 * H, early_deadline, late, TIMING, not_before=start + 5 * H)
    assert due.actions == () and due.next_check == start + 5 * H


def test_the_gm_s_end_of_grace_replaces_the_phase_s_grace() -> None:
    late = [seat("ENGLAND")]
    grace_ends = DEADLINE + 12 * H
    notice = due_actions(DEADLINE - H, DEADLINE, DEADLINE, late, TIMING, grace_ends=grace_ends)
    assert notice.actions == (LateNotice(DEADLINE, grace_ends, ("ENGLAND",), 1),)
    ended = due_actions(DEADLINE, grace_ends, DEADLINE, late, TIMING, grace_ends=grace_ends)
    assert ended.actions == (ProcessPhase(ProcessReason.GRACE_ENDED, ("ENGLAND",)),)
    # Never before the deadline: a grace end set earlier means no grace at all.
    at_once = due_actions(DEADLINE - H, DEADLINE, DEADLINE, late, TIMING, grace_ends=DEADLINE - D)
    assert at_once.actions == (ProcessPhase(ProcessReason.GRACE_ENDED, ("ENGLAND",)),)


def test_clock_and_min_round_trip_through_settings_and_read_in_njudge_words() -> None:
    timing = GameTiming(movement=PhaseTiming(hour=None, earliest=12 * H, minimum=71 * H))
    stored = timing_to_settings(timing)
    assert stored["movement"]["hour"] is None  # type: ignore[index]
    assert stored["movement"]["earliest_hours"] == 12  # type: ignore[index]
    assert timing_from_settings(stored) == timing
    assert describe_phase_timing(timing.movement) == (
        "clock -1 min 12h next 71h grace 168h delay 0.5h days SMTWTFS"
    )
    with pytest.raises(TimingError, match="earliest may not be negative"):
        PhaseTiming(earliest=-H)
