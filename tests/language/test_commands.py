"""Every command of the mail language and its spellings, read into its value."""

from __future__ import annotations

import pytest

from judge.language import command_values as cv
from judge.language.command_values import PhaseTiming, When
from judge.language.commands import COMMAND_SPELLINGS, read_mail_commands


def one(text: str) -> cv.CommandLine:
    values = read_mail_commands(text)
    assert len(values) == 1, values
    return values[0]


DEC_1 = When(year=2026, month=12, day=1)
DEC_1_1800 = When(year=2026, month=12, day=1, hour=18, minute=0)

CASES: list[tuple[str, cv.Command]] = [
    # information
    ("HELP", cv.Help()),
    ("help", cv.Help()),
    ("?", cv.Help()),
    ("HELP.", cv.Help()),
    ("HELP press", cv.Help(topic="press")),
    ("Help Deadlines", cv.Help(topic="deadlines")),
    ("LIST", cv.ListGames()),
    ("LIST FULL", cv.ListGames(full=True)),
    ("list mygame", cv.ListGames(game="mygame")),
    ("SUMMARY", cv.Summary()),
    ("SUMMARY mygame", cv.Summary(game="mygame")),
    ("STATUS mygame", cv.Summary(game="mygame")),
    ("HISTORY", cv.History()),
    ("HISTORY mygame", cv.History(game="mygame")),
    (
        "HISTORY mygame FROM S1901M TO F1903M",
        cv.History(game="mygame", start="S1901M", end="F1903M"),
    ),
    ("history from 1 dec 2026", cv.History(start=DEC_1)),
    ("HISTORY mygame TO 2026-12-01 LINES 50", cv.History(game="mygame", end=DEC_1, lines=50)),
    # joining
    (
        "CREATE mygame secret standard",
        cv.Create(game="mygame", password="secret", variant="standard"),
    ),
    (
        "CREATE ?mygame secret standard postal-1972, key-rule",
        cv.Create(
            game="mygame",
            password="secret",
            variant="standard",
            rule_sets=("postal-1972", "key-rule"),
        ),
    ),
    ("SIGNON Fmygame pass", cv.SignOn(power="F", game="mygame", password="pass")),
    ("signon fmygame pass", cv.SignOn(power="F", game="mygame", password="pass")),
    ("SIGN ON Emygame pass", cv.SignOn(power="E", game="mygame", password="pass")),
    ("SIGNON Mmygame pass", cv.SignOn(power="M", game="mygame", password="pass")),
    ("SIGNON FRANCE mygame pass", cv.SignOn(power="FRANCE", game="mygame", password="pass")),
    ("SIGNON france@mygame pass", cv.SignOn(power="FRANCE", game="mygame", password="pass")),
    ("LOGIN Fmygame pass", cv.SignOn(power="F", game="mygame", password="pass")),
    ("SIGNON ?mygame pass", cv.Join(game="mygame", password="pass")),
    ("JOIN mygame pass", cv.Join(game="mygame", password="pass")),
    (
        "JOIN mygame pass France England, Italy",
        cv.Join(game="mygame", password="pass", preferences=("FRANCE", "ENGLAND", "ITALY")),
    ),
    ("JOIN mygame pass EFG", cv.Join(game="mygame", password="pass", preferences=("EFG",))),
    ("OBSERVE mygame", cv.Observe(game="mygame")),
    ("WATCH mygame pass", cv.Observe(game="mygame", password="pass")),
    # players' settings
    ("SET PASSWORD n3w!pass", cv.SetPassword(password="n3w!pass")),
    ("SET ADDRESS", cv.SetAddress()),
    ("SET ADDRESS me@example.org", cv.SetAddress(addresses=("me@example.org",))),
    (
        "SET ADDRESS me@example.org, you@example.org",
        cv.SetAddress(addresses=("me@example.org", "you@example.org")),
    ),
    ("SET WAIT", cv.SetWait(wait=True)),
    ("SET NOWAIT", cv.SetWait(wait=False)),
    ("set no wait", cv.SetWait(wait=False)),
    ("SET ABSENCE 2026-12-01", cv.SetAbsence(start=DEC_1)),
    (
        "SET ABSENCE 1 Dec 2026 TO 5 Dec 2026",
        cv.SetAbsence(start=DEC_1, end=When(year=2026, month=12, day=5)),
    ),
    (
        "SET VACATION Dec 24 TO Jan 2",
        cv.SetAbsence(start=When(month=12, day=24), end=When(month=1, day=2)),
    ),
    ("SET HOLIDAY 2026-12-01", cv.SetAbsence(start=DEC_1)),
    ("SET NO ABSENCE", cv.ClearAbsence()),
    ("SET NOABSENCE 2026-12-01", cv.ClearAbsence(start=DEC_1)),
    ("SET DRAW", cv.SetDraw(draw=True)),
    ("SET DRAW France, England", cv.SetDraw(draw=True, powers=("FRANCE", "ENGLAND"))),
    ("SET NODRAW", cv.SetDraw(draw=False)),
    ("SET NO DRAW", cv.SetDraw(draw=False)),
    ("SET CONCEDE Russia", cv.SetConcede(power="RUSSIA")),
    ("SET NOCONCEDE", cv.SetConcede(power=None)),
    ("SET NO CONCEDE", cv.SetConcede(power=None)),
    ("RESIGN", cv.Resign()),
    ("WITHDRAW", cv.Resign()),
    ("SIGNOFF", cv.SignOff()),
    ("SIGN OFF", cv.SignOff()),
    ("END", cv.SignOff()),
    # GM: timing
    ("SET DEADLINE 2026-12-01 18:00", cv.SetDeadline(when=DEC_1_1800)),
    ("SET GRACE 1 Dec 2026 18:00", cv.SetGrace(when=DEC_1_1800)),
    ("SET START Dec 1 2026 18:00", cv.SetStart(when=DEC_1_1800)),
    ("SET DEADLINE +2d", cv.SetDeadline(when=When(relative_minutes=2 * 24 * 60))),
    (
        "SET MOVE CLOCK 23:30 MIN 12h NEXT 72 GRACE 7d DELAY 0.5 DAYS -MTWTF-",
        cv.SetPhaseTiming(
            phase_kind="MOVE",
            timing=PhaseTiming(
                clock=23 * 60 + 30,
                min_minutes=12 * 60,
                next_minutes=72 * 60,
                grace_minutes=7 * 24 * 60,
                delay_minutes=30,
                days="-MTWTF-",
            ),
        ),
    ),
    (
        "SET RETREAT NEXT 24",
        cv.SetPhaseTiming(phase_kind="RETREAT", timing=PhaseTiming(next_minutes=1440)),
    ),
    (
        "set adjustment clock -1 days smtwtfs",
        cv.SetPhaseTiming(phase_kind="ADJUST", timing=PhaseTiming(clock=-1, days="SMTWTFS")),
    ),
    (
        "SET BUILD CLOCK 1410",
        cv.SetPhaseTiming(phase_kind="ADJUST", timing=PhaseTiming(clock=1410)),
    ),
    # GM: policies
    ("SET NMR", cv.SetNmr(allowed=True)),
    ("SET CD", cv.SetNmr(allowed=True)),
    ("SET NONMR", cv.SetNmr(allowed=False)),
    ("SET NO NMR", cv.SetNmr(allowed=False)),
    ("SET NMR postal", cv.SetNmr(allowed=True, policy="postal")),
    ("set nmr NJUDGE", cv.SetNmr(allowed=True, policy="njudge")),
    ("SET PUBLISH RESULTS", cv.SetPublish(when="RESULTS")),
    ("set publish now", cv.SetPublish(when="NOW")),
    ("SET REPORT postal", cv.SetReport(style="postal")),
    ("SET REPORT JUDGE", cv.SetReport(style="judge")),
    ("SET WEB OFF", cv.SetWeb(shown=False)),
    ("set web on", cv.SetWeb(shown=True)),
    ("WITHHOLD 12", cv.WithholdPress(number=12)),
    ("RELEASE #3", cv.ReleasePress(number=3)),
    ("SET PRESS NONE", cv.SetPress(kind="NONE")),
    ("SET NO PRESS", cv.SetPress(kind="NONE")),
    ("SET NOPRESS", cv.SetPress(kind="NONE")),
    ("SET WHITE", cv.SetPress(kind="WHITE")),
    ("SET GRAY", cv.SetPress(kind="GREY")),
    ("SET PRESS GREY", cv.SetPress(kind="GREY")),
    ("SET WHITE/GREY", cv.SetPress(kind="WHITE/GREY")),
    ("SET PRESS grey / white", cv.SetPress(kind="GREY/WHITE")),
    ("SET PARTIAL", cv.SetPartialPress(allowed=True)),
    ("SET NOPARTIAL", cv.SetPartialPress(allowed=False)),
    ("SET OBSERVER ANY", cv.SetObserverPress(level="ANY")),
    ("SET OBSERVERS none", cv.SetObserverPress(level="NO")),
    # GM: actions
    ("PROCESS", cv.Process()),
    ("PROCESS s1901m", cv.Process(phase="S1901M")),
    ("PROCESS alpha", cv.Process(game="alpha")),
    ("PROCESS Alpha F1901M", cv.Process(game="Alpha", phase="F1901M")),
    ("PROCESS MISSED", cv.Process(missed=True)),
    ("process alpha s1901m missed", cv.Process(game="alpha", phase="S1901M", missed=True)),
    ("PREVIEW", cv.Preview()),
    ("PREDICT", cv.Preview()),
    ("PAUSE", cv.Pause()),
    ("SUSPEND", cv.Pause()),
    ("RESUME", cv.Resume()),
    ("EJECT Italy", cv.Eject(target="ITALY")),
    ("EJECT Someone@Example.org", cv.Eject(target="Someone@Example.org")),
    ("REPLACE Italy new@example.org", cv.Replace(power="ITALY", address="new@example.org")),
    ("BECOME Italy", cv.Become(power="ITALY")),
    ("BECOME MASTER", cv.Become(power="MASTER")),
    ("ROLLBACK", cv.Rollback()),
    ("ROLLBACK F1902M", cv.Rollback(phase="F1902M")),
    ("ROLL BACK F1902M", cv.Rollback(phase="F1902M")),
    ("TERMINATE", cv.Terminate()),
    ("FORCE BEGIN", cv.ForceBegin()),
    ("forcebegin", cv.ForceBegin()),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_command_reads_into_its_value(text: str, expected: cv.Command) -> None:
    from dataclasses import replace

    assert one(text) == replace(expected, line_no=1)


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_echoed_form_reads_back_to_the_same_command(text: str, expected: cv.Command) -> None:
    """redacted() is a command line itself; only the password is lost on the way."""
    value = one(text)
    again = one(value.redacted())
    if hasattr(value, "password") and value.password is not None:
        assert again.password == cv.HIDDEN  # type: ignore[union-attr]
        from dataclasses import replace

        again = replace(again, password=value.password)  # type: ignore[call-arg]
    assert again == value


def test_leading_blanks_and_trailing_full_stops_do_not_matter() -> None:
    assert one("   SIGNOFF   ") == cv.SignOff(line_no=1)
    assert one("\tSET WAIT") == cv.SetWait(line_no=1, wait=True)


def test_every_spelling_listed_is_a_command_the_grammar_knows() -> None:
    """COMMAND_SPELLINGS feeds the suggestions: a spelling there must open a command line."""
    for spelling in COMMAND_SPELLINGS:
        value = read_mail_commands(spelling)[0]
        if isinstance(value, cv.CommandError):
            assert "is no command" not in value.message, spelling
            assert "nothing SET can set" not in value.message, spelling
        else:
            assert not isinstance(value, cv.OrderLine), spelling


def test_gm_commands_say_so() -> None:
    assert one("PROCESS").master_only  # type: ignore[union-attr]
    assert one("SET DEADLINE +1d").master_only  # type: ignore[union-attr]
    assert not one("SET WAIT").master_only  # type: ignore[union-attr]
    assert not one("SIGNON Fgame pw").master_only  # type: ignore[union-attr]
