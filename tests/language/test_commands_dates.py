"""Dates as players write them in SET DEADLINE, SET ABSENCE and HISTORY, and what they resolve to."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from judge.language import command_values as cv
from judge.language.command_values import When
from judge.language.commands import read_mail_commands

NOW = datetime(2026, 11, 22, 21, 0, tzinfo=UTC)


def when_of(written: str) -> When:
    value = read_mail_commands(f"SET DEADLINE {written}")[0]
    assert isinstance(value, cv.SetDeadline), value
    return value.when


@pytest.mark.parametrize(
    ("written", "moment"),
    [
        ("2026-12-01 18:00", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
        ("2026-12-01T18:00", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
        ("2026-12-1 6:05", datetime(2026, 12, 1, 6, 5, tzinfo=UTC)),
        ("1 Dec 2026 18:00", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
        ("1st December 2026 18:00", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
        ("Dec 1 2026 18:00", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
        ("dec. 1 18:00", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
        ("Tue Dec 01 2026 23:30:00 +0000", datetime(2026, 12, 1, 23, 30, tzinfo=UTC)),
        ("Tuesday, 1 Dec 2026 23:30 UTC", datetime(2026, 12, 1, 23, 30, tzinfo=UTC)),
        ("2026-12-01 18:00 +0100", datetime(2026, 12, 1, 17, 0, tzinfo=UTC)),
        ("2026-12-01 18:00 -0530", datetime(2026, 12, 1, 23, 30, tzinfo=UTC)),
        ("+2d", datetime(2026, 11, 24, 21, 0, tzinfo=UTC)),
        ("+36h", datetime(2026, 11, 24, 9, 0, tzinfo=UTC)),
        ("+1d12h30m", datetime(2026, 11, 24, 9, 30, tzinfo=UTC)),
    ],
)
def test_each_written_form_means_one_moment(written: str, moment: datetime) -> None:
    assert when_of(written).resolve(NOW) == moment


def test_a_day_without_a_year_is_the_next_such_day() -> None:
    assert when_of("Dec 1 18:00").resolve(NOW) == datetime(2026, 12, 1, 18, tzinfo=UTC)
    assert when_of("Nov 1 18:00").resolve(NOW) == datetime(2027, 11, 1, 18, tzinfo=UTC)
    assert when_of("22 Nov 21:00").resolve(NOW) == NOW  # now is not past
    assert when_of("Feb 29").resolve(NOW) == datetime(2028, 2, 29, tzinfo=UTC)


def test_a_day_without_a_time_takes_the_time_the_command_gives() -> None:
    day = when_of("2026-12-05")
    assert day.resolve(NOW) == datetime(2026, 12, 5, 0, 0, tzinfo=UTC)
    assert day.resolve(NOW, default_time=time(23, 59, 59)) == datetime(
        2026, 12, 5, 23, 59, 59, tzinfo=UTC
    )


def test_a_naive_now_is_taken_as_utc() -> None:
    assert when_of("+1h").resolve(datetime(2026, 1, 1)) == datetime(2026, 1, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("written", "text"),
    [
        ("1 Dec 2026", "2026-12-01"),
        ("dec 1", "Dec 1"),
        ("Dec 1 6:05", "Dec 1 06:05"),
        ("2026-12-01 18:00:30 +0100", "2026-12-01 18:00:30 +0100"),
        ("+36h", "+1d12h"),
        ("Tue Dec 01 2026 23:30:00 +0000", "2026-12-01 23:30"),
        ("2026-12-01 23:30 UTC", "2026-12-01 23:30"),
        ("+90m", "+1h30m"),
    ],
)
def test_the_canonical_spelling(written: str, text: str) -> None:
    assert when_of(written).text() == text
    assert when_of(text) == when_of(written)


def test_an_absence_runs_from_one_day_to_another() -> None:
    value = read_mail_commands("SET ABSENCE Dec 24 TO Jan 2")[0]
    assert isinstance(value, cv.SetAbsence) and value.end is not None
    start = value.start.resolve(NOW)
    end = value.end.resolve(start, default_time=time(23, 59))
    assert (start.date().isoformat(), end.isoformat()) == (
        "2026-12-24",
        "2027-01-02T23:59:00+00:00",
    )


def test_history_takes_dates_or_phases() -> None:
    value = read_mail_commands("HISTORY g FROM Dec 1 TO S1903M")[0]
    assert value == cv.History(line_no=1, game="g", start=When(month=12, day=1), end="S1903M")


@pytest.mark.parametrize(
    "written",
    ["tomorrow", "12/01/2026", "2026-12-01 6pm", "+2w", "Dec", "1 2 2026", "+2d 18:00"],
)
def test_forms_outside_the_set_are_refused_with_a_column(written: str) -> None:
    value = read_mail_commands(f"SET DEADLINE {written}")[0]
    assert isinstance(value, cv.CommandError), value
    assert value.column >= 14


@pytest.mark.parametrize("written", ["18:00", "12/01/2026", "1.12.2026"])
def test_a_form_outside_the_set_is_quoted_whole(written: str) -> None:
    value = read_mail_commands(f"SET DEADLINE {written}")[0]
    assert isinstance(value, cv.CommandError)
    assert value.column == 14
    assert value.message.endswith(f"after 'DEADLINE', found {written!r}")
